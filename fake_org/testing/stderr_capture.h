#pragma once
// Standard error goes to a file while a StderrCapture lives, and text()
// reads what was written so far: for tests of what fake-org logs.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace fake_org::testing {

class StderrCapture {
 public:
  StderrCapture() {
    char name[] = "/tmp/fake-org-stderr-XXXXXX";
    fd_ = ::mkstemp(name);
    REQUIRE(fd_ >= 0);
    path_ = name;
    std::fflush(stderr);
    saved_ = ::dup(2);
    ::dup2(fd_, 2);
  }
  ~StderrCapture() {
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    ::close(fd_);
    std::remove(path_.c_str());
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  std::string text() const {
    std::fflush(stderr);
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  int fd_ = -1, saved_ = -1;
  std::string path_;
};

}  // namespace fake_org::testing
