#include "sqlite.h"

#include <sqlite3.h>

namespace fake_org::durable {

std::unique_ptr<Database> Database::open(const std::string& path, bool create, std::string& error) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    error = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_extended_result_codes(db, 1);
  // Another process (the sqlite3 shell) may hold a lock for a moment.
  sqlite3_busy_timeout(db, 5000);
  return std::unique_ptr<Database>(new Database(db, path));
}

Database::~Database() {
  sqlite3_close_v2(db_);
}

std::optional<std::string> Database::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return std::nullopt;
  std::string out = message ? message : sqlite3_errmsg(db_);
  sqlite3_free(message);
  return out;
}

std::unique_ptr<Statement> Database::prepare(const std::string& sql, std::string& error) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &stmt, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
    return nullptr;
  }
  return std::unique_ptr<Statement>(new Statement(stmt, db_));
}

std::string Database::last_error() const {
  return sqlite3_errmsg(db_);
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::bind(int i, std::string_view text) {
  sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void Statement::bind(int i, int64_t value) {
  sqlite3_bind_int64(stmt_, i, value);
}

void Statement::bind_null(int i) {
  sqlite3_bind_null(stmt_, i);
}

bool Statement::step(std::string& error) {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) error = sqlite3_errmsg(db_);
  return false;
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string_view Statement::text(int column) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (!p) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

}  // namespace fake_org::durable
