#include "yaml/yaml_input.h"

#include <yaml-cpp/eventhandler.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace common {

namespace {

// A file of configuration never needs more; the limit also stops a parser
// that keeps finding documents without reading further.
constexpr int kMaxDocuments = 1000;

// Counts documents and notices a parser that stands still: yaml-cpp 0.7
// starts a new empty document at the same position forever on some stray
// characters (",", "]" after a flow node).
class DocumentCounter : public YAML::EventHandler {
 public:
  // `first`: receives the events of the first document (parse_yaml_events).
  explicit DocumentCounter(YAML::EventHandler* first = nullptr) : first_(first) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    stuck_ = documents_ > 0 && mark.pos == last_start_.pos;
    last_start_ = mark;
    if (documents_ == 1) second_ = mark;
    ++documents_;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override {
    if (node(m)) first_->OnNull(m, a);
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    if (node(m)) first_->OnAlias(m, a);
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a,
                const std::string& value) override {
    if (node(m)) first_->OnScalar(m, tag, a, value);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a,
                       YAML::EmitterStyle::value style) override {
    if (node(m)) first_->OnSequenceStart(m, tag, a, style);
  }
  void OnSequenceEnd() override {
    if (first_ && documents_ == 1) first_->OnSequenceEnd();
  }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a,
                  YAML::EmitterStyle::value style) override {
    if (node(m)) first_->OnMapStart(m, tag, a, style);
  }
  void OnMapEnd() override {
    if (first_ && documents_ == 1) first_->OnMapEnd();
  }

  int documents() const { return documents_; }
  bool stuck() const { return stuck_; }
  const YAML::Mark& last_start() const { return last_start_; }
  // Where the second document's content starts (its '---' when it is empty).
  const YAML::Mark& second() const { return second_content_.is_null() ? second_ : second_content_; }

 private:
  // Whether the node belongs to the first document and is to be forwarded.
  bool node(const YAML::Mark& m) {
    if (documents_ == 2 && second_content_.is_null()) second_content_ = m;
    return first_ && documents_ == 1;
  }

  YAML::EventHandler* first_;
  int documents_ = 0;
  bool stuck_ = false;
  YAML::Mark last_start_;
  YAML::Mark second_;
  YAML::Mark second_content_ = YAML::Mark::null_mark();
};

YamlInputError at_mark(const YAML::Mark& m, std::string message) {
  if (m.is_null()) return {0, 0, std::move(message)};
  return {m.line + 1, m.column + 1, std::move(message)};
}

YamlInputError at_offset(std::string_view text, size_t offset, std::string message) {
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, static_cast<int>(offset - line_start) + 1, std::move(message)};
}

std::string hex_byte(unsigned char c) {
  static const char kDigits[] = "0123456789ABCDEF";
  return std::string("0x") + kDigits[c >> 4] + kDigits[c & 0xF];
}

// The structure pass: how many documents, and whether the parser stalls;
// the first document's events also go to `first` when given.
std::optional<YamlInputError> check_documents(const std::string& text,
                                              YAML::EventHandler* first = nullptr) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentCounter counter(first);
  while (counter.documents() <= kMaxDocuments && parser.HandleNextDocument(counter)) {
    if (counter.stuck()) {
      const size_t pos = static_cast<size_t>(counter.last_start().pos);
      std::string what = pos < text.size() ? "'" + std::string(1, text[pos]) + "'" : "the end";
      return at_mark(counter.last_start(),
                     "YAML syntax error: the parser cannot read on from " + what +
                         " here (a stray character outside any mapping or list?)");
    }
    if (counter.documents() > 1) {
      YamlInputError e = at_mark(counter.second(),
                                 "a second YAML document starts here (after '---'); this file "
                                 "must hold exactly one");
      e.second_document = true;
      return e;
    }
  }
  return std::nullopt;
}

}  // namespace

size_t first_invalid_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t extra = 0;
    unsigned min = 0;
    unsigned cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1, min = 0x80, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2, min = 0x800, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3, min = 0x10000, cp = c & 0x07;
    } else {
      return i;
    }
    if (i + extra >= text.size()) return i;  // cut short
    for (size_t k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += extra + 1;
  }
  return std::string_view::npos;
}

namespace {

std::optional<YamlInputError> utf8_error(std::string_view text) {
  const size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return std::nullopt;
  return at_offset(text, bad,
                   "byte " + hex_byte(static_cast<unsigned char>(text[bad])) +
                       " is not UTF-8: save the file as UTF-8");
}

YamlInputError unreadable(const std::exception& e) {
  return YamlInputError{0, 0, std::string("the YAML text cannot be read: ") + e.what()};
}

}  // namespace

YamlDocument load_yaml_document(std::string_view text) {
  YamlDocument out;
  if ((out.error = utf8_error(text))) return out;
  const std::string owned(text);
  try {
    if (auto problem = check_documents(owned)) {
      out.error = std::move(problem);
      return out;
    }
    out.root = YAML::Load(owned);
  } catch (const YAML::Exception& e) {
    out.error = at_mark(e.mark, "YAML syntax error: " + e.msg);
  } catch (const std::exception& e) {
    out.error = unreadable(e);
  }
  return out;
}

std::optional<YamlInputError> parse_yaml_events(std::string_view text,
                                                YAML::EventHandler& handler) {
  if (auto error = utf8_error(text)) return error;
  try {
    return check_documents(std::string(text), &handler);
  } catch (const YAML::Exception& e) {
    return at_mark(e.mark, "YAML syntax error: " + e.msg);
  } catch (const std::exception& e) {
    return unreadable(e);
  }
}

namespace {

// Scanners for the core schema's number forms, called for every plain scalar
// of every fixture and scenario: std::regex (two or three matches a scalar,
// 0.27 us, and building the patterns) cost about a millisecond of each start.
size_t after_sign(const std::string& s) {
  return !s.empty() && (s[0] == '-' || s[0] == '+');
}
size_t after_digits(const std::string& s, size_t i) {
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  return i;
}

// [-+]?[0-9]+
bool is_int_text(const std::string& s) {
  const size_t start = after_sign(s);
  const size_t end = after_digits(s, start);
  return end > start && end == s.size();
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_float_text(const std::string& s) {
  size_t i = after_sign(s);
  if (i < s.size() && s[i] == '.') {
    const size_t end = after_digits(s, i + 1);
    if (end == i + 1) return false;
    i = end;
  } else {
    const size_t end = after_digits(s, i);
    if (end == i) return false;
    i = end;
    if (i < s.size() && s[i] == '.') i = after_digits(s, i + 1);
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t exp = i + 1;
    if (exp < s.size() && (s[exp] == '-' || s[exp] == '+')) ++exp;
    const size_t end = after_digits(s, exp);
    if (end == exp) return false;
    i = end;
  }
  return i == s.size();
}

// [-+]?0[0-9]: "010", which stays text where asked.
bool has_leading_zero(const std::string& s) {
  const size_t i = after_sign(s);
  return i + 1 < s.size() && s[i] == '0' && s[i + 1] >= '0' && s[i + 1] <= '9';
}

}  // namespace

std::optional<nlohmann::json> plain_yaml_scalar(const std::string& s, bool leading_zero_is_text) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL" || s == "~") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  const bool is_int = is_int_text(s);
  if (!is_int && !is_float_text(s)) return s;
  if (leading_zero_is_text && has_leading_zero(s)) return s;
  if (is_int) {
    errno = 0;
    if (s[0] == '-') {
      long long v = std::strtoll(s.c_str(), nullptr, 10);
      if (errno == 0) return v;
    } else {
      unsigned long long v = std::strtoull(s.c_str() + (s[0] == '+'), nullptr, 10);
      if (errno == 0) return v;
    }
  }
  errno = 0;
  const double d = std::strtod(s.c_str(), nullptr);
  if (errno == ERANGE && std::isinf(d)) return std::nullopt;
  return d;
}

}  // namespace common
