#pragma once
// A small RAII face over SQLite's C API: one connection, prepared statements,
// errors as values carrying SQLite's own message (a damaged file is reported
// as SQLite words it, never papered over).
//
// Locking rule: none of its own. A Database and its statements belong to one
// thread at a time; the owner (OrgDatabase) serialises their use.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace fake_org::durable {

class Statement;

class Database {
 public:
  // Opens (creating when `create`) the file; the error says why not.
  static std::unique_ptr<Database> open(const std::string& path, bool create, std::string& error);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results; the error or nullopt.
  std::optional<std::string> exec(const std::string& sql);
  // A prepared statement; null with `error` set when SQLite refuses it.
  std::unique_ptr<Statement> prepare(const std::string& sql, std::string& error);
  const std::string& path() const { return path_; }
  std::string last_error() const;

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
};

class Statement {
 public:
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds by 1-based position; the statement keeps no pointer to the text
  // past the next step().
  void bind(int i, std::string_view text);
  void bind(int i, int64_t value);
  void bind_null(int i);
  // A row is ready (true), the statement is done (false), or an error (set).
  bool step(std::string& error);
  // Ready to run again with new bindings.
  void reset();
  std::string_view text(int column) const;
  int64_t integer(int column) const;
  bool is_null(int column) const;

 private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, sqlite3* db) : stmt_(stmt), db_(db) {}
  sqlite3_stmt* stmt_;
  sqlite3* db_;
};

}  // namespace fake_org::durable
