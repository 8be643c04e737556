// The console as people see it: scenario-runner on a pseudo-terminal draws a
// live progress line that the final report replaces; on a pipe, or with
// --no-progress, plain lines; colours only on a terminal and never with
// NO_COLOR.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "report/console_report.h"
#include "testing/child_process.h"

namespace {

const std::string kRunnerBin = std::string(FAKE_ORG_BIN_DIR) + "/scenario-runner";
const std::string kPassDir = std::string(PROJECT_SOURCE_DIR) + "/runner/testdata/pass";

bool progress_ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

struct PtyRun {
  int code = -1;
  std::string out;
};

// The environment without NO_COLOR, plus `extra`.
std::vector<std::string> progress_test_env(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("NO_COLOR=", 0) != 0) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

// Runs scenario-runner with its stdout and stderr on a pseudo-terminal of
// 100 columns, output unprocessed (no \n -> \r\n), and reads all it writes.
PtyRun run_on_pty(const std::vector<std::string>& args, const std::vector<std::string>& extra_env) {
  std::vector<std::string> argv{kRunnerBin};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> env = progress_test_env(extra_env);
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  struct termios tio {};
  cfmakeraw(&tio);
  struct winsize ws {};
  ws.ws_col = 100;
  ws.ws_row = 40;
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, &tio, &ws);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    execve(cargv[0], cargv.data(), cenv.data());
    _exit(127);
  }
  PtyRun r;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0)
      r.out.append(buf, static_cast<size_t>(n));
    else if (n < 0 && errno == EINTR)
      continue;
    else
      break;  // EIO once the child has closed the terminal
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace

TEST_CASE("on a terminal, a live progress line that the final report replaces",
          "[runner][progress]") {
  PtyRun r = run_on_pty({kPassDir, "-j", "1"}, {});
  INFO(r.out);
  REQUIRE(r.code == 0);
  // Drawn before the first scenario ends, then after each, in place.
  CHECK(std::regex_search(r.out,
                          std::regex(R"(\r\x1b\[K\[0/2\] 0 passed, 0 failed, [0-9]+\.[0-9] s)")));
  CHECK(std::regex_search(
      r.out, std::regex(R"(\r\x1b\[K\[0/2\] 0 passed, 0 failed, [0-9]+\.[0-9] s  running: )")));
  CHECK(std::regex_search(r.out,
                          std::regex(R"(\r\x1b\[K\[1/2\] 1 passed, 0 failed, [0-9]+\.[0-9] s)")));
  CHECK(std::regex_search(r.out,
                          std::regex(R"(\r\x1b\[K\[2/2\] 2 passed, 0 failed, [0-9]+\.[0-9] s)")));
  // No per-scenario lines; the report replaces the line (cleared, then the report).
  CHECK(r.out.find("] PASS") == std::string::npos);
  const size_t last_clear = r.out.rfind("\r\x1b[K");
  REQUIRE(last_clear != std::string::npos);
  CHECK(r.out.find("\n", last_clear) == last_clear + 4);
  CHECK(progress_ends_with(r.out, "\n2 passed, 0 failed, 0 skipped\n"));
}

TEST_CASE("on a terminal, colours unless NO_COLOR, and plain lines with --no-progress",
          "[runner][progress]") {
  PtyRun coloured = run_on_pty({kPassDir + "/informational.yaml", "--no-progress"}, {});
  INFO(coloured.out);
  CHECK(coloured.code == 0);
  CHECK(coloured.out.find("\x1b[K") == std::string::npos);
  CHECK(coloured.out.find("[1/1] \x1b[32mPASS\x1b[0m  ") != std::string::npos);

  PtyRun plain = run_on_pty({kPassDir + "/informational.yaml", "--no-progress"}, {"NO_COLOR=1"});
  INFO(plain.out);
  CHECK(plain.code == 0);
  CHECK(plain.out.find('\x1b') == std::string::npos);
  CHECK(plain.out.find("[1/1] PASS  ") != std::string::npos);

  // NO_COLOR turns colours off, not the live line.
  PtyRun live = run_on_pty({kPassDir + "/informational.yaml"}, {"NO_COLOR=1"});
  CHECK(live.out.find("\r\x1b[K[1/1] 1 passed, 0 failed, ") != std::string::npos);
  CHECK(live.out.find("\x1b[3") == std::string::npos);
}

TEST_CASE("on a pipe, a plain line per scenario: no live line, no colour", "[runner][progress]") {
  runner::testing::ChildProcess p({kRunnerBin, kPassDir, "-j", "1"});
  const std::string out = p.read_rest();
  INFO(out);
  CHECK(p.wait() == 0);
  CHECK(out.find('\r') == std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(std::regex_search(out, std::regex(R"(^\[1/2\] PASS  \S+  )")));
  CHECK(std::regex_search(out, std::regex(R"(\n\[2/2\] PASS  \S+  )")));
  CHECK(progress_ends_with(out, "\n2 passed, 0 failed, 0 skipped\n"));
}

TEST_CASE("the live line is cut to the terminal's width and names what runs",
          "[runner][progress]") {
  CHECK(runner::progress_text(3, 10, 2, 1, 4240, {"first", "second"}, 200) ==
        "[3/10] 2 passed, 1 failed, 4.2 s  running: second (+1)");
  CHECK(runner::progress_text(0, 2, 0, 0, 0, {}, 200) == "[0/2] 0 passed, 0 failed, 0.0 s");
  // 20 columns: 19 characters, so the cursor never wraps to a new row.
  CHECK(runner::progress_text(3, 10, 2, 1, 4240, {"x"}, 20) == "[3/10] 2 passed, 1 ");
  // A multibyte character is not split: "é" is bytes 42 and 43.
  CHECK(runner::progress_text(1, 1, 1, 0, 0, {"é"}, 44) ==
        "[1/1] 1 passed, 0 failed, 0.0 s  running: ");
  CHECK(runner::progress_text(1, 1, 1, 0, 0, {"é"}, 45) ==
        "[1/1] 1 passed, 0 failed, 0.0 s  running: é");
}

TEST_CASE("console_style: plain on a file, whatever NO_COLOR says", "[runner][progress]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const runner::ConsoleStyle s = runner::console_style(fds[1], false, nullptr);
  CHECK_FALSE(s.live);
  CHECK_FALSE(s.colour);
  close(fds[0]);
  close(fds[1]);
}
