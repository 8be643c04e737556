// Reading a `bulk` step (model.h, BulkStep): the job, its CSV (text, a file
// beside the scenario, or lines written many times), and what to check.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eval/csv.h"
#include "scenario/step_loader.h"

namespace runner {
namespace {

const std::set<std::string> kOperations = {"insert", "update", "upsert", "delete", "hardDelete"};
// Past this many generated lines a scenario is a benchmark, not a test.
constexpr long kMaxRepeat = 1'000'000;

// `data: TEXT` or a list of parts: TEXT, {file: NAME}, {repeat: N, line: TEXT, from: K}.
void load_csv_part(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined,
                   std::vector<CsvPart>& out) {
  CsvPart part;
  if (n.IsScalar()) {
    part.text = n.Scalar();
    ctx.check_refs_text(part.text, n, defined);
    out.push_back(std::move(part));
    return;
  }
  if (!ctx.expect_map(n, "a part of bulk.data")) return;
  ctx.check_keys(n, {"file", "repeat", "line", "from"}, "a part of bulk.data");
  if (n["file"]) {
    const std::string name = ctx.string(n["file"], "bulk.data file").value_or("");
    const std::filesystem::path path = std::filesystem::path(ctx.base_dir()) / name;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      ctx.error(n["file"], "cannot read " + path.string() + " (a file beside the scenario)");
      return;
    }
    std::ostringstream text;
    text << in.rdbuf();
    part.text = text.str();
    part.literal = true;
  } else if (n["repeat"] && n["line"]) {
    part.repeat = ctx.integer(n["repeat"], "bulk.data repeat").value_or(0);
    if (part.repeat < 1 || part.repeat > kMaxRepeat)
      ctx.error(n["repeat"], "repeat is a number of lines from 1 to 1000000");
    if (n["from"]) part.from = ctx.integer(n["from"], "bulk.data from").value_or(1);
    part.text = ctx.string(n["line"], "bulk.data line").value_or("");
    std::set<std::string> with_i = defined;
    with_i.insert("i");  // the line's number
    ctx.check_refs_text(part.text, n["line"], with_i);
  } else {
    ctx.error(n, "a part of bulk.data is text, {file: NAME} or {repeat: N, line: TEXT}");
    return;
  }
  out.push_back(std::move(part));
}

void load_job(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined,
              BulkStep& b) {
  if (!n["object"]) ctx.error(n, "bulk needs an object (Contact, Account, ...)");
  if (n["object"]) b.object = ctx.string(n["object"], "bulk.object").value_or("");
  ctx.check_refs_text(b.object, n["object"] ? n["object"] : n, defined);
  if (n["operation"]) {
    b.operation = ctx.string(n["operation"], "bulk.operation").value_or("");
    if (!kOperations.count(b.operation))
      ctx.error(n["operation"], "bulk.operation is insert, update, upsert, delete or hardDelete");
  }
  if (n["external_id"])
    b.external_id = ctx.string(n["external_id"], "bulk.external_id").value_or("");
  if ((b.operation == "upsert") != !b.external_id.empty())
    ctx.error(n,
              "bulk.external_id (the field to match on) goes with operation upsert, and only it");
  if (n["delimiter"]) {
    b.delimiter = ctx.string(n["delimiter"], "bulk.delimiter").value_or("");
    if (b.delimiter.size() < 3 || !csv_delimiter(b.delimiter))
      ctx.error(n["delimiter"],
                "bulk.delimiter is COMMA, TAB, PIPE, SEMICOLON, CARET or BACKQUOTE");
  }
  if (n["line_ending"]) {
    b.line_ending = ctx.string(n["line_ending"], "bulk.line_ending").value_or("");
    if (b.line_ending != "LF" && b.line_ending != "CRLF")
      ctx.error(n["line_ending"], "bulk.line_ending is LF or CRLF");
  }
  if (n["version"]) b.version = ctx.string(n["version"], "bulk.version").value_or("");
  if (n["abort"])
    if (auto a = ctx.boolean(n["abort"], "bulk.abort")) b.abort = *a;
  if (n["timeout"])
    if (auto t = ctx.duration(n["timeout"], "bulk.timeout")) b.timeout = *t;
}

}  // namespace

BulkStep load_bulk(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined) {
  BulkStep b;
  b.pos = ctx.pos(n);
  if (!ctx.expect_map(n, "bulk")) return b;
  ctx.check_keys(n,
                 {"object", "operation", "external_id", "delimiter", "line_ending", "data", "abort",
                  "version", "timeout", "successful", "failed", "unprocessed"},
                 "bulk");
  load_job(ctx, n, defined, b);
  if (!n["data"]) {
    ctx.error(n, "bulk needs data: the CSV to upload (text, {file: NAME}, {repeat: N, line: ...})");
  } else if (n["data"].IsSequence()) {
    for (const auto& part : n["data"]) load_csv_part(ctx, part, defined, b.data);
  } else {
    load_csv_part(ctx, n["data"], defined, b.data);
  }
  // Each result CSV is an expect block of its own (csv, body, status).
  if (n["successful"]) b.successful = load_expect(ctx, n["successful"], defined, "bulk.successful");
  if (n["failed"]) b.failed = load_expect(ctx, n["failed"], defined, "bulk.failed");
  if (n["unprocessed"])
    b.unprocessed = load_expect(ctx, n["unprocessed"], defined, "bulk.unprocessed");
  return b;
}

}  // namespace runner
