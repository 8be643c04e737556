#pragma once
// A child process for tests (a separately started fake-org): started with
// its stdout on a pipe, so the test reads the line saying where it listens
// instead of sleeping; terminated by its own pid when the test ends.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace runner::testing {

class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
      close(fds[0]);
      throw std::runtime_error("cannot start " + argv[0]);
    }
    out_ = fdopen(fds[0], "r");
  }
  ~ChildProcess() {
    if (!reaped_) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
    if (out_) fclose(out_);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void signal(int sig) { kill(pid_, sig); }
  // Blocks until the child exits; its exit status, or 128 + the signal that
  // ended it.
  int wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  // The rest of the child's stdout, up to EOF.
  std::string read_rest() {
    std::string text;
    for (int c = fgetc(out_); c != EOF; c = fgetc(out_)) text += static_cast<char>(c);
    return text;
  }

  // The next line of the child's stdout (blocks until it is written); "" at EOF.
  std::string read_line() {
    std::string line;
    for (int c = fgetc(out_); c != EOF && c != '\n'; c = fgetc(out_)) line += static_cast<char>(c);
    return line;
  }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  bool reaped_ = false;
};

}  // namespace runner::testing
