// The fake-org executable as a user starts it: the readiness line, a real
// request, HTTPS with a certificate made here, and a clean SIGTERM.
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct Process {
  pid_t pid = -1;
  FILE* out = nullptr;
  std::string first_line;

  explicit Process(std::vector<std::string> args) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    out = fdopen(fds[0], "r");
    char buf[256] = {0};
    if (std::fgets(buf, sizeof buf, out)) first_line = buf;
  }
  int port() const { return std::atoi(first_line.substr(first_line.rfind(':') + 1).c_str()); }
  int stop(int sig) {
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    pid = -1;
    return status;
  }
  ~Process() {
    if (pid > 0) stop(SIGKILL);
    if (out) std::fclose(out);
  }
};

const std::string kBinary = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";

}  // namespace

TEST_CASE("fake-org prints its address when ready and stops cleanly on SIGTERM", "[process]") {
  Process p({kBinary, "--port", "0", "--log-level", "quiet"});
  REQUIRE(p.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
  httplib::Client c("127.0.0.1", p.port());
  auto health = c.Get("/__admin/health");
  REQUIRE(health);
  CHECK(health->status == 200);
  CHECK(nlohmann::json::parse(health->body)["org"] == "Local Fake Org");
  int status = p.stop(SIGTERM);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("fake-org refuses an invalid fixture with its position", "[process]") {
  char path[] = "/tmp/fake-org-fixture-XXXXXX.yaml";
  int fd = mkstemps(path, 5);
  REQUIRE(fd >= 0);
  std::string yaml = "org:\n  name: Broken\n  colour: blue\n";
  REQUIRE(write(fd, yaml.data(), yaml.size()) == static_cast<ssize_t>(yaml.size()));
  close(fd);
  std::string cmd = kBinary + " --fixture " + path + " --port 0 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) out += buf;
  int status = pclose(f);
  std::remove(path);
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(out.find(std::string(path) + ":3:3:") != std::string::npos);
  CHECK(out.find("colour") != std::string::npos);
}

TEST_CASE("fake-org serves HTTPS with --tls-cert and --tls-key", "[process][tls]") {
  std::string dir = "/tmp/fake-org-tls-" + std::to_string(getpid());
  std::string cmd = "mkdir -p " + dir +
                    " && openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
                    "-addext subjectAltName=IP:127.0.0.1 -keyout " +
                    dir + "/key.pem -out " + dir + "/cert.pem >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  {
    Process p({kBinary, "--port", "0", "--log-level", "quiet", "--tls-cert", dir + "/cert.pem",
               "--tls-key", dir + "/key.pem"});
    REQUIRE(p.first_line.rfind("listening on https://127.0.0.1:", 0) == 0);
    httplib::SSLClient c("127.0.0.1", p.port());
    c.set_ca_cert_path((dir + "/cert.pem").c_str());
    c.enable_server_certificate_verification(true);
    auto token =
        c.Post("/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                         {"client_id", "local-client"},
                                                         {"client_secret", "local-secret"}});
    REQUIRE(token);
    REQUIRE(token->status == 200);
    auto j = nlohmann::json::parse(token->body);
    CHECK(j["instance_url"].get<std::string>().rfind("https://", 0) == 0);
    auto pm = c.Get("/services/apexrest/cpm/v2/PaymentMethods",
                    {{"Authorization", "Bearer " + j["access_token"].get<std::string>()}});
    REQUIRE(pm);
    CHECK(pm->status == 200);
    CHECK(p.stop(SIGINT) == 0);
  }
  if (std::system(("rm -rf " + dir).c_str()) != 0) WARN("could not remove " << dir);
}
