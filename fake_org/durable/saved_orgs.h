#pragma once
// The orgs POST /__admin/orgs created, kept in DATA_DIR/registry.db so a
// restarted server serves them again (each with its own database under
// DATA_DIR/orgs/). The command line's orgs are not listed: the command line
// names them again.
//
// Locking rule: mu_ guards the connection and its statements for each call.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "durable/sqlite.h"

namespace fake_org::durable {

struct SavedOrgEntry {
  std::string name;
  nlohmann::json fixture;  // as the creating request gave it
  bool login_paths = true;
};

class SavedOrgs {
 public:
  // Opens or creates DATA_DIR/registry.db; null with `error` when it cannot.
  static std::unique_ptr<SavedOrgs> open(const std::string& data_dir, std::string& error);
  // Creation order.
  std::vector<SavedOrgEntry> list(std::string& error);
  std::optional<std::string> add(const SavedOrgEntry& entry);
  // Forgets the org and deletes its database files.
  std::optional<std::string> remove(const std::string& name);

  // Where an org's database lives in a data directory.
  static std::string org_file(const std::string& data_dir, const std::string& name);
  // Deletes what fake-org keeps in a data directory (--reset-data): the
  // registry and every org's database; other files stay. The error, or nullopt.
  static std::optional<std::string> reset(const std::string& data_dir);
  // Creates the directory and its orgs/ folder; the error, or nullopt.
  static std::optional<std::string> prepare(const std::string& data_dir);

 private:
  SavedOrgs(std::unique_ptr<Database> db, std::string data_dir)
      : db_(std::move(db)), data_dir_(std::move(data_dir)) {}
  std::mutex mu_;
  std::unique_ptr<Database> db_;
  std::string data_dir_;
};

}  // namespace fake_org::durable
