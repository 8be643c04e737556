// route_table_gen ROUTES_YAML OUT_CPP: parses and checks contracts/routes.yaml
// (parse_route_table, every problem with its line) and writes it as the
// constant arrays of checker/route_table_data.h. Run by the build, so a
// broken table fails the build rather than fake-org's start, and start-up
// reads data instead of parsing YAML (decision 112).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "route_table.h"

namespace {

using contracts::RouteArea;
using contracts::RouteRow;
using contracts::RouteTable;

// A C++ string literal. Octal escapes always have three digits, so the
// character after one is never read as part of it.
std::string literal(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F && c != '?') {  // '?': no trigraphs
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    }
  }
  return out + "\"";
}

const char* auth_name(contracts::AuthKind k) {
  switch (k) {
    case contracts::AuthKind::kBearer:
      return "AuthKind::kBearer";
    case contracts::AuthKind::kClient:
      return "AuthKind::kClient";
    case contracts::AuthKind::kLoopback:
      return "AuthKind::kLoopback";
    case contracts::AuthKind::kSignature:
      return "AuthKind::kSignature";
    case contracts::AuthKind::kNone:
      break;
  }
  return "AuthKind::kNone";
}

const char* request_name(contracts::RequestContent c) {
  switch (c) {
    case contracts::RequestContent::kJson:
      return "RequestContent::kJson";
    case contracts::RequestContent::kForm:
      return "RequestContent::kForm";
    case contracts::RequestContent::kCsv:
      return "RequestContent::kCsv";
    case contracts::RequestContent::kNone:
      break;
  }
  return "RequestContent::kNone";
}

const char* flag(bool b) {
  return b ? "true" : "false";
}

// The shared arrays, filled while the areas and rows are written.
class Writer {
 public:
  std::string statuses(const std::map<int, std::string>& m) {
    const int first = status_count_;
    for (const auto& [status, schema] : m) {
      statuses_ << "    {" << status << ", " << literal(schema) << "},\n";
      ++status_count_;
    }
    return span(first, status_count_ - first);
  }

  void area(const RouteArea& a) {
    areas_ << "    {" << literal(a.name) << ", " << literal(a.mount) << ", " << auth_name(a.guard)
           << ", " << literal(a.not_found) << ", " << flag(a.has_contract) << ",\n     "
           << statuses(a.contract.every_route) << ", " << statuses(a.contract.no_route) << ", "
           << statuses(a.contract.wrong_method) << ",\n     "
           << literal(a.contract.lenient_route_error) << ", "
           << literal(a.contract.lenient_other_error) << "},\n";
  }

  void row(const RouteRow& r) {
    rows_ << "    {" << literal(r.operation_id) << ", " << literal(r.method) << ", "
          << literal(r.path) << ", " << literal(r.area) << ", " << auth_name(r.auth) << ", "
          << request_name(r.request) << ", " << literal(r.request_schema) << ",\n     "
          << statuses(r.responses) << ", " << texts(r.text_responses) << ", " << params(r.params)
          << ",\n     " << literal(r.summary) << ", " << flag(r.openapi) << ", " << r.line
          << "},\n";
  }

  std::string text(const RouteTable& t) const {
    std::ostringstream out;
    out << "// Generated from contracts/routes.yaml by contracts/gen/route_table_gen.cpp at "
           "build time.\n#include \"checker/route_table_data.h\"\n\nnamespace "
           "contracts::route_data {\n\n"
        << "const StatusSchema kStatuses[] = {\n"
        << statuses_.str() << "    {0, nullptr}};\n"
        << "const int kTextStatuses[] = {\n"
        << texts_.str() << "    0};\n"
        << "const Param kParams[] = {\n"
        << params_.str() << "    {nullptr, ParamChars::kAny}};\n"
        << "const Area kAreas[] = {\n"
        << areas_.str() << "    {}};\n"
        << "const std::size_t kAreaCount = " << t.areas.size() << ";\n"
        << "const Row kRows[] = {\n"
        << rows_.str() << "    {}};\n"
        << "const std::size_t kRowCount = " << t.rows.size() << ";\n\n"
        << "}  // namespace contracts::route_data\n";
    return out.str();
  }

 private:
  static std::string span(int first, int count) {
    return "{" + std::to_string(first) + ", " + std::to_string(count) + "}";
  }

  std::string texts(const std::set<int>& s) {
    const int first = text_count_;
    for (int status : s) {
      texts_ << "    " << status << ",\n";
      ++text_count_;
    }
    return span(first, text_count_ - first);
  }

  std::string params(const std::map<std::string, contracts::ParamChars>& m) {
    const int first = param_count_;
    for (const auto& [name, chars] : m) {
      params_ << "    {" << literal(name) << ", "
              << (chars == contracts::ParamChars::kWord ? "ParamChars::kWord" : "ParamChars::kAny")
              << "},\n";
      ++param_count_;
    }
    return span(first, param_count_ - first);
  }

  std::ostringstream statuses_, texts_, params_, areas_, rows_;
  int status_count_ = 0;
  int text_count_ = 0;
  int param_count_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: route_table_gen ROUTES_YAML OUT_CPP\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream yaml;
  yaml << in.rdbuf();
  if (!in) {
    std::cerr << "route_table_gen: cannot read " << argv[1] << "\n";
    return 1;
  }
  RouteTable table;
  try {
    table = contracts::parse_route_table(yaml.str(), argv[1]);
  } catch (const contracts::RouteTableError& e) {
    std::cerr << e.what();
    return 1;
  }
  Writer w;
  for (const RouteArea& a : table.areas) w.area(a);
  for (const RouteRow& r : table.rows) w.row(r);
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << w.text(table);
  out.close();
  if (!out) {
    std::cerr << "route_table_gen: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
