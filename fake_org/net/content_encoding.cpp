#include "content_encoding.h"

#include <zlib.h>

#include <vector>

#include "util/ascii.h"
#include "util/text.h"

namespace fake_org::net {

namespace {

enum class Inflated { kDone, kTooLarge, kCorrupt };

// One zlib stream kind: 15 + 32 reads a gzip or a zlib header, -15 raw
// deflate (what some clients send as "deflate").
Inflated inflate_into(const std::string& in, int window_bits, std::string& out, size_t max) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return Inflated::kCorrupt;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char chunk[16384];
  Inflated result = Inflated::kDone;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const size_t produced = sizeof chunk - zs.avail_out;
    if (out.size() + produced > max) {
      result = Inflated::kTooLarge;
      break;
    }
    out.append(chunk, produced);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      // Concatenated gzip members (RFC 1952, 2.2) are one body.
      if (inflateReset(&zs) != Z_OK) {
        result = Inflated::kCorrupt;
        break;
      }
      continue;
    }
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {  // the stream ended early
      result = Inflated::kCorrupt;
      break;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      result = Inflated::kCorrupt;
      break;
    }
  }
  inflateEnd(&zs);
  return result;
}

BodyDecoding decode_one(std::string_view coding, std::string& body, size_t max) {
  if (coding == "identity") return BodyDecoding::kDone;
  if (coding != "gzip" && coding != "x-gzip" && coding != "deflate")
    return BodyDecoding::kUnsupported;
  std::string out;
  Inflated r = inflate_into(body, 15 + 32, out, max);
  if (r == Inflated::kCorrupt && coding == "deflate") {
    out.clear();
    r = inflate_into(body, -15, out, max);
  }
  if (r == Inflated::kTooLarge) return BodyDecoding::kTooLarge;
  if (r == Inflated::kCorrupt) return BodyDecoding::kCorrupt;
  body.swap(out);
  return BodyDecoding::kDone;
}

}  // namespace

std::string take_content_encoding(const httplib::Request& req) {
  std::string taken;
  // httplib's headers compare names without case; the request object is the
  // worker's own (httplib hands handlers a const view of it).
  auto& headers = const_cast<httplib::Request&>(req).headers;
  if (!first_header(headers, "Content-Encoding")) return taken;  // most requests
  auto range = headers.equal_range("Content-Encoding");
  for (auto it = range.first; it != range.second; ++it) {
    if (!taken.empty()) taken += ", ";
    taken += it->second;
  }
  headers.erase(range.first, range.second);
  return taken;
}

BodyDecoding decode_body(const std::string& encoding, std::string& body, size_t max_bytes) {
  std::vector<std::string> codings;
  size_t start = 0;
  while (start <= encoding.size()) {
    size_t comma = encoding.find(',', start);
    if (comma == std::string::npos) comma = encoding.size();
    std::string coding =
        ascii_lower(text::trim(std::string_view(encoding).substr(start, comma - start)));
    if (!coding.empty()) codings.push_back(std::move(coding));
    start = comma + 1;
  }
  if (codings.size() > 4) return BodyDecoding::kUnsupported;  // no client stacks more
  for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
    BodyDecoding d = decode_one(*it, body, max_bytes);
    if (d != BodyDecoding::kDone) return d;
  }
  return BodyDecoding::kDone;
}

}  // namespace fake_org::net
