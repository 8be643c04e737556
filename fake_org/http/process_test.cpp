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
#include <regex>
#include <string>

#include "project_version.h"

namespace {

struct Process {
  pid_t pid = -1;
  FILE* out = nullptr;
  std::string first_line;

  // `stderr_file`: where the child's standard error goes (inherited if empty).
  explicit Process(std::vector<std::string> args, const std::string& stderr_file = "") {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      if (!stderr_file.empty() && !std::freopen(stderr_file.c_str(), "w", stderr)) _exit(126);
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

// A command run to its end through the shell: its exit status and output.
struct Ran {
  int status = -1;  // as waitpid gives it
  std::string out;
};
Ran run_to_end(const std::string& command) {
  Ran r;
  FILE* f = popen(command.c_str(), "r");
  REQUIRE(f);
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) r.out += buf;
  r.status = pclose(f);
  return r;
}

std::string read_file(const std::string& path) {
  std::string out;
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

std::string client_token(httplib::Client& c) {
  auto r = c.Post("/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                            {"client_id", "local-client"},
                                                            {"client_secret", "local-secret"}});
  REQUIRE(r);
  REQUIRE(r->status == 200);
  return nlohmann::json::parse(r->body)["access_token"].get<std::string>();
}

// A payment method the org does not have: error code 200 (wrong data).
const char* kUnknownMethodBody = R"({"SuccessURL":"https://shop.example/thanks",
  "FailureURL":"https://shop.example/sorry","OneTime":{"Amount":25},
  "Payer":{"Contact":{"CrmFields":{"FirstName":"Ada","LastName":"Lovelace","Email":"ada@example.org"}}},
  "PaymentMethod":{"Name":"NoSuchMethod"}})";

}  // namespace

TEST_CASE("fake-org --version prints the project version and exits 0", "[process]") {
  Ran r = run_to_end(kBinary + " --version 2>&1");
  CHECK(WEXITSTATUS(r.status) == 0);
  // One place for both: CMake's project version and the commit built.
  CHECK(r.out == "fake-org " FAKE_CRM_ORG_VERSION " (git " FAKE_CRM_ORG_GIT_COMMIT ")\n");
  CHECK(std::regex_match(std::string(FAKE_CRM_ORG_GIT_COMMIT),
                         std::regex("[0-9a-f]{12}(-dirty)?|unknown")));
}

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

TEST_CASE("a second fake-org on a port in use refuses to start instead of sharing it",
          "[process]") {
  Process first({kBinary, "--port", "0", "--log-level", "quiet"});
  REQUIRE(first.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
  // `timeout`: a second org that did bind (SO_REUSEPORT) would serve forever.
  std::string cmd = "timeout 10 " + kBinary + " --log-level quiet --port " +
                    std::to_string(first.port()) + " 2>&1 </dev/null";
  auto [status, out] = run_to_end(cmd);
  INFO(out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) != 0);
  CHECK(out.find("listening on") == std::string::npos);
  CHECK(out.find("in use? try --port 0") != std::string::npos);
}

TEST_CASE("fake-org refuses an invalid fixture with its position", "[process]") {
  char path[] = "/tmp/fake-org-fixture-XXXXXX.yaml";
  int fd = mkstemps(path, 5);
  REQUIRE(fd >= 0);
  std::string yaml = "org:\n  name: Broken\n  colour: blue\n";
  REQUIRE(write(fd, yaml.data(), yaml.size()) == static_cast<ssize_t>(yaml.size()));
  close(fd);
  std::string cmd = kBinary + " --fixture " + path + " --port 0 2>&1";
  auto [status, out] = run_to_end(cmd);
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
    // Only AEAD suites in TLS 1.2; no TLS 1.1.
    const std::string s_client = "openssl s_client -connect 127.0.0.1:" + std::to_string(p.port()) +
                                 " </dev/null >/dev/null 2>&1 ";
    CHECK(std::system((s_client + "-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256").c_str()) == 0);
    CHECK(std::system((s_client + "-tls1_2 -cipher AES128-SHA").c_str()) != 0);
    CHECK(std::system((s_client + "-tls1_2 -cipher ECDHE-RSA-AES128-SHA").c_str()) != 0);
    CHECK(std::system((s_client + "-tls1_1").c_str()) != 0);
    CHECK(p.stop(SIGINT) == 0);
  }
  if (std::system(("rm -rf " + dir).c_str()) != 0) WARN("could not remove " << dir);
}

TEST_CASE("fake-org --check-contracts catches a deliberately broken response, even when quiet",
          "[process][contracts]") {
  // An org that answers wrong data with 418, a status no contract lists.
  const std::string dir = "/tmp/fake-org-contracts-" + std::to_string(getpid());
  REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
  {
    FILE* f = std::fopen((dir + "/broken.yaml").c_str(), "w");
    REQUIRE(f);
    std::fputs("extends: default.yaml\norg:\n  error_status: {\"200\": 418}\n", f);
    std::fclose(f);
  }
  Process p({kBinary, "--port", "0", "--log-level", "quiet", "--check-contracts", "--fixture",
             dir + "/broken.yaml"},
            dir + "/stderr.txt");
  REQUIRE(p.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
  httplib::Client c("127.0.0.1", p.port());
  const std::string token = client_token(c);
  auto r = c.Post("/services/apexrest/cpm/v2/PaymentIntent", {{"Authorization", "Bearer " + token}},
                  kUnknownMethodBody, "application/json");
  REQUIRE(r);
  CHECK(r->status == 418);
  auto health = c.Get("/__admin/health");
  REQUIRE(health);
  CHECK(nlohmann::json::parse(health->body)["contract_violations"] == 1);
  int status = p.stop(SIGTERM);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  const std::string err = read_file(dir + "/stderr.txt");
  INFO(err);
  CHECK(err.find("CONTRACT VIOLATION: POST /services/apexrest/cpm/v2/PaymentIntent -> 418") !=
        std::string::npos);
  CHECK(err.find("HTTP 418 is not in the strict contract") != std::string::npos);
  CHECK(err.find("1 contract violation(s)") != std::string::npos);
  CHECK(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("fake-org --check-contracts exits 0 when every response kept the contract",
          "[process][contracts]") {
  Process p({kBinary, "--port", "0", "--log-level", "quiet", "--check-contracts"});
  REQUIRE(p.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
  httplib::Client c("127.0.0.1", p.port());
  const std::string token = client_token(c);
  auto r = c.Post("/services/apexrest/cpm/v2/PaymentIntent", {{"Authorization", "Bearer " + token}},
                  kUnknownMethodBody, "application/json");
  REQUIRE(r);
  CHECK(r->status == 422);
  auto pm =
      c.Get("/services/apexrest/cpm/v2/PaymentMethods", {{"Authorization", "Bearer " + token}});
  REQUIRE(pm);
  CHECK(pm->status == 200);
  int status = p.stop(SIGTERM);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("fake-org --log-level debug logs bodies with secrets redacted, info logs none",
          "[process][log]") {
  const std::string dir = "/tmp/fake-org-debug-" + std::to_string(getpid());
  REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
  for (const std::string level : {"debug", "info"}) {
    const std::string log = dir + "/" + level + ".txt";
    std::string token;
    {
      Process p({kBinary, "--port", "0", "--log-level", level}, log);
      REQUIRE(p.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
      httplib::Client c("127.0.0.1", p.port());
      token = client_token(c);
      auto r =
          c.Post("/services/apexrest/cpm/v2/PaymentIntent", {{"Authorization", "Bearer " + token}},
                 kUnknownMethodBody, "application/json");
      REQUIRE(r);
      CHECK(p.stop(SIGTERM) == 0);
    }
    const std::string err = read_file(log);
    INFO(level << ":\n" << err);
    CHECK(err.find(token) == std::string::npos);
    CHECK(err.find("local-secret") == std::string::npos);
    CHECK(err.find("POST /services/oauth2/token 200") != std::string::npos);
    const bool debug = level == "debug";
    CHECK((err.find("  request: client_id=local-client&client_secret=[redacted]"
                    "&grant_type=client_credentials") != std::string::npos) == debug);
    CHECK((err.find(R"("access_token":"[redacted]")") != std::string::npos) == debug);
    CHECK((err.find("NoSuchMethod") != std::string::npos) == debug);  // request and answer
  }
  CHECK(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("fake-org refuses --threads 1: a PSP page's callback needs a second worker",
          "[process][threads]") {
  for (const char* n : {"1", "-3"}) {
    std::string cmd = kBinary + " --threads " + n + " --port 0 2>&1";
    auto [status, out] = run_to_end(cmd);
    INFO(out);
    CHECK(WEXITSTATUS(status) != 0);
    CHECK(out.find("at least 2") != std::string::npos);
  }
}

TEST_CASE("fake-org refuses a port outside 0 to 65535 instead of printing a wrong address",
          "[process]") {
  // 70000 would bind 70000 - 65536 = 4464 while the first line said 70000.
  for (const char* port : {"70000", "65536", "-1"}) {
    auto [status, out] = run_to_end(kBinary + " --port " + port + " 2>&1");
    INFO(out);
    CHECK(WEXITSTATUS(status) != 0);
    CHECK(out.find("listening on") == std::string::npos);
    CHECK(out.find("--port") != std::string::npos);
  }
}

TEST_CASE("fake-org --data-dir refuses a damaged database and --reset-data starts afresh",
          "[process][durable]") {
  const std::string dir = "/tmp/fake-org-data-" + std::to_string(getpid());
  REQUIRE(std::system(("rm -rf " + dir + " && mkdir -p " + dir + "/orgs").c_str()) == 0);
  REQUIRE(std::system(("head -c 8192 /dev/urandom > " + dir + "/orgs/default.db").c_str()) == 0);
  auto [status, out] = run_to_end(kBinary + " --data-dir " + dir + " --port 0 2>&1 </dev/null");
  INFO(out);
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(out.find(dir + "/orgs/default.db: file is not a database") != std::string::npos);
  CHECK(out.find("--reset-data") != std::string::npos);
  auto [alone, why] = run_to_end(kBinary + " --reset-data --port 0 2>&1 </dev/null");
  CHECK(WEXITSTATUS(alone) == 2);
  CHECK(why.find("--reset-data needs --data-dir") != std::string::npos);
  {
    Process p({kBinary, "--data-dir", dir, "--reset-data", "--port", "0", "--log-level", "quiet"});
    REQUIRE(p.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
    httplib::Client c("127.0.0.1", p.port());
    auto created =
        c.Post("/__admin/orgs", R"({"name":"kept","login_paths":false})", "application/json");
    REQUIRE(created);
    CHECK(created->status == 201);
    p.stop(SIGKILL);  // no clean shutdown: what was answered is on disk already
  }
  Process again({kBinary, "--data-dir", dir, "--port", "0", "--log-level", "quiet"});
  REQUIRE(again.first_line.rfind("listening on http://127.0.0.1:", 0) == 0);
  httplib::Client c("127.0.0.1", again.port());
  auto health = c.Get("/orgs/kept/__admin/health");
  REQUIRE(health);
  CHECK(health->status == 200);
  CHECK(nlohmann::json::parse(health->body)["data_file"] == dir + "/orgs/kept.db");
  const int at_term = again.stop(SIGTERM);
  CHECK(WIFEXITED(at_term));
  CHECK(WEXITSTATUS(at_term) == 0);
  // It exits without destroying its orgs (decisions 79), but only once their
  // databases and the registry are closed: SQLite checkpointed and removed
  // each write-ahead log.
  for (const std::string file : {"/registry.db", "/orgs/default.db", "/orgs/kept.db"}) {
    INFO(file);
    CHECK(access((dir + file).c_str(), F_OK) == 0);
    CHECK(access((dir + file + "-wal").c_str(), F_OK) != 0);
  }
  REQUIRE(std::system(("rm -rf " + dir).c_str()) == 0);
}
