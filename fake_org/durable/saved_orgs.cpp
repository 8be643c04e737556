#include "saved_orgs.h"

#include <filesystem>

namespace fake_org::durable {

namespace fs = std::filesystem;

namespace {

void remove_database_files(const std::string& file, std::error_code& ec) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::remove(file + suffix, ec);
    if (ec) return;
  }
}

}  // namespace

std::string SavedOrgs::org_file(const std::string& data_dir, const std::string& name) {
  return (fs::path(data_dir) / "orgs" / (name + ".db")).string();
}

std::optional<std::string> SavedOrgs::prepare(const std::string& data_dir) {
  std::error_code ec;
  fs::create_directories(fs::path(data_dir) / "orgs", ec);
  if (ec) return "--data-dir " + data_dir + ": " + ec.message();
  return std::nullopt;
}

std::optional<std::string> SavedOrgs::reset(const std::string& data_dir) {
  std::error_code ec;
  remove_database_files((fs::path(data_dir) / "registry.db").string(), ec);
  const fs::path orgs = fs::path(data_dir) / "orgs";
  if (!ec && fs::is_directory(orgs, ec))
    for (const auto& entry : fs::directory_iterator(orgs, ec)) {
      if (entry.path().extension() != ".db") continue;
      remove_database_files(entry.path().string(), ec);
      if (ec) break;
    }
  if (ec) return "--reset-data " + data_dir + ": " + ec.message();
  return std::nullopt;
}

std::unique_ptr<SavedOrgs> SavedOrgs::open(const std::string& data_dir, std::string& error) {
  const std::string path = (fs::path(data_dir) / "registry.db").string();
  auto db = Database::open(path, true, error);
  if (db) {
    auto failed = db->exec("PRAGMA journal_mode=WAL");
    if (!failed)
      failed = db->exec(
          "CREATE TABLE IF NOT EXISTS orgs(name TEXT PRIMARY KEY, fixture TEXT NOT NULL, "
          "login_paths INTEGER NOT NULL)");
    if (failed) {
      error = *failed +
              " (SQLite). Nothing was changed: move the file away, or start with "
              "--reset-data to discard the data directory";
      db.reset();
    }
  }
  if (!db) {
    error = path + ": " + error;
    return nullptr;
  }
  return std::unique_ptr<SavedOrgs>(new SavedOrgs(std::move(db), data_dir));
}

std::vector<SavedOrgEntry> SavedOrgs::list(std::string& error) {
  std::lock_guard lock(mu_);
  std::vector<SavedOrgEntry> out;
  auto rows = db_->prepare("SELECT name, fixture, login_paths FROM orgs ORDER BY rowid", error);
  if (!rows) return out;
  while (rows->step(error)) {
    const std::string_view fixture = rows->text(1);
    out.push_back({std::string(rows->text(0)),
                   nlohmann::json::parse(fixture.begin(), fixture.end(), nullptr, false),
                   rows->integer(2) != 0});
  }
  return out;
}

std::optional<std::string> SavedOrgs::add(const SavedOrgEntry& entry) {
  std::lock_guard lock(mu_);
  std::string error;
  auto put = db_->prepare("INSERT OR REPLACE INTO orgs VALUES(?1, ?2, ?3)", error);
  if (put) {
    put->bind(1, entry.name);
    put->bind(2, entry.fixture.dump());
    put->bind(3, int64_t{entry.login_paths});
    put->step(error);
  }
  if (!error.empty()) return db_->path() + ": " + error;
  return std::nullopt;
}

std::optional<std::string> SavedOrgs::remove(const std::string& name) {
  std::lock_guard lock(mu_);
  std::string error;
  auto drop = db_->prepare("DELETE FROM orgs WHERE name=?1", error);
  if (drop) {
    drop->bind(1, name);
    drop->step(error);
  }
  if (!error.empty()) return db_->path() + ": " + error;
  std::error_code ec;
  remove_database_files(org_file(data_dir_, name), ec);
  if (ec) return org_file(data_dir_, name) + ": " + ec.message();
  return std::nullopt;
}

}  // namespace fake_org::durable
