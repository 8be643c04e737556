// The Bulk API 2.0 CSV reader with any text: the first byte picks the
// delimiter, the rest is the upload. Beyond no crash: every call moves on
// or ends (no loop), each record lies inside the text and after the last,
// and a good record written back quoted reads back the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "domain/bulk/csv.h"

namespace {

void csv_fuzz_check(bool ok) {
  if (!ok) std::abort();
}

// The record written quoted with `delimiter`, then read again.
void csv_round_trip(const std::vector<std::string>& fields, char delimiter) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) line.push_back(delimiter);
    fake_org::bulk::append_quoted(line, fields[i]);
  }
  line.push_back('\n');
  fake_org::bulk::CsvReader again(line, delimiter);
  std::vector<std::string> read;
  const auto st = again.next(read);
  // A record of one empty field is a blank line once written: "" reads back.
  csv_fuzz_check(st == fake_org::bulk::CsvReader::Status::kRecord);
  csv_fuzz_check(read == fields);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char kDelimiters[] = {',', '\t', '|', ';', '^', '`'};
  const char delimiter = kDelimiters[data[0] % sizeof kDelimiters];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  fake_org::bulk::CsvReader reader(text, delimiter);
  std::vector<std::string> fields;
  size_t last_end = 0;
  for (size_t calls = 0;; ++calls) {
    csv_fuzz_check(calls <= text.size() + 1);
    const size_t before = reader.position();
    const auto st = reader.next(fields);
    if (st == fake_org::bulk::CsvReader::Status::kEnd) break;
    csv_fuzz_check(reader.position() > before);
    csv_fuzz_check(reader.record_begin() >= last_end);
    csv_fuzz_check(reader.record_begin() <= reader.record_end());
    csv_fuzz_check(reader.record_end() <= text.size());
    last_end = reader.record_end();
    if (st == fake_org::bulk::CsvReader::Status::kBad)
      csv_fuzz_check(!reader.error().empty());
    else
      csv_round_trip(fields, delimiter);
  }
  return 0;
}
