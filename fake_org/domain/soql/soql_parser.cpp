#include "soql_parser.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "util/ascii.h"

namespace fake_org::soql {

// ---- errors ----------------------------------------------------------------

namespace {

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

SoqlError positioned_error(std::string_view query, size_t position, std::string code,
                           std::string detail) {
  position = std::min(position, query.size());
  int row = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < position; ++i)
    if (query[i] == '\n') {
      ++row;
      line_start = i + 1;
    }
  size_t line_end = query.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = query.size();
  if (line_end > line_start && query[line_end - 1] == '\r') --line_end;
  // The platform shows a window of the line around the offending part, cut
  // at whole words, so a long query's message stays readable.
  size_t from = line_start;
  if (position - line_start > 45) {
    from = position - 45;
    while (from < position && word_char(query[from - 1])) ++from;
    while (from < position && query[from] == ' ') ++from;
  }
  size_t to = line_end;
  if (line_end > position && line_end - position > 40) {
    to = position + 40;
    while (to > position && word_char(query[to])) --to;
    if (to == position) to = position + 40;
  }
  const int column = static_cast<int>(position - line_start) + 1;
  SoqlError e;
  e.error_code = std::move(code);
  e.position = position;
  e.row = row;
  e.column = column;
  e.message = "\n" + std::string(query.substr(from, to > from ? to - from : 0)) + "\n" +
              std::string(position - from, ' ') + "^\nERROR at Row:" + std::to_string(row) +
              ":Column:" + std::to_string(column) + "\n" + detail;
  e.detail = std::move(detail);
  return e;
}

SoqlError plain_error(std::string code, std::string detail) {
  SoqlError e;
  e.error_code = std::move(code);
  e.message = detail;
  e.detail = std::move(detail);
  return e;
}

std::string FieldRef::text() const {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ".") + p;
  return out;
}

const char* to_string(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
    case CompareOp::kLike:
      return "LIKE";
    case CompareOp::kIn:
      return "IN";
    case CompareOp::kNotIn:
      return "NOT IN";
    case CompareOp::kIncludes:
      return "INCLUDES";
    case CompareOp::kExcludes:
      return "EXCLUDES";
  }
  return "?";
}

namespace {

// ---- lexer -----------------------------------------------------------------

struct Token {
  enum class Kind {
    kIdent,
    kString,
    kNumber,
    kDate,
    kDateTime,
    kComma,
    kDot,
    kLParen,
    kRParen,
    kColon,
    kOp,  // = != <> < <= > >=
    kPlus,
    kMinus,
    kBad,  // a character or literal the subset has no place for; `error` says why
    kEnd,
  };
  Kind kind = Kind::kEnd;
  std::string_view raw;
  size_t pos = 0;
  std::string value;  // a string's value, escapes resolved
  std::vector<bool> escaped;
  std::string error;
  Date date;
  TimePoint datetime{};
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool digits_at(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = 0; i < n; ++i)
    if (!is_digit(s[at + i])) return false;
  return true;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' ||
                                s_[i_] == '\r' || s_[i_] == '\f'))
        ++i_;
      if (i_ >= s_.size()) break;
      out.push_back(next());
    }
    Token end;
    end.kind = Token::Kind::kEnd;
    end.pos = s_.size();
    out.push_back(end);
    return out;
  }

 private:
  Token make(Token::Kind kind, size_t start) {
    Token t;
    t.kind = kind;
    t.pos = start;
    t.raw = s_.substr(start, i_ - start);
    return t;
  }

  Token next() {
    const size_t start = i_;
    const char c = s_[i_];
    if (ident_start(c)) {
      while (i_ < s_.size() && word_char(s_[i_])) ++i_;
      return make(Token::Kind::kIdent, start);
    }
    if (is_digit(c)) return number_or_date();
    if (c == '\'') return string_literal();
    ++i_;
    switch (c) {
      case ',':
        return make(Token::Kind::kComma, start);
      case '.':
        return make(Token::Kind::kDot, start);
      case '(':
        return make(Token::Kind::kLParen, start);
      case ')':
        return make(Token::Kind::kRParen, start);
      case ':':
        return make(Token::Kind::kColon, start);
      case '+':
        return make(Token::Kind::kPlus, start);
      case '-':
        return make(Token::Kind::kMinus, start);
      case '=':
        return make(Token::Kind::kOp, start);
      case '!':
        if (i_ < s_.size() && s_[i_] == '=') {
          ++i_;
          return make(Token::Kind::kOp, start);
        }
        break;
      case '<':
        if (i_ < s_.size() && (s_[i_] == '=' || s_[i_] == '>')) ++i_;
        return make(Token::Kind::kOp, start);
      case '>':
        if (i_ < s_.size() && s_[i_] == '=') ++i_;
        return make(Token::Kind::kOp, start);
      default:
        break;
    }
    // One whole UTF-8 character, so the message never shows half of one.
    while (i_ < s_.size() && (static_cast<unsigned char>(s_[i_]) & 0xC0) == 0x80) ++i_;
    return make(Token::Kind::kBad, start);
  }

  Token bad(size_t start, std::string why) {
    while (i_ < s_.size() &&
           (word_char(s_[i_]) || s_[i_] == ':' || s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.'))
      ++i_;
    Token t = make(Token::Kind::kBad, start);
    t.error = std::move(why);
    return t;
  }

  // 2026-11-25, 2026-11-25T10:00:00Z, 2026-11-25T10:00:00.000+01:00, 42, 4.5
  Token number_or_date() {
    const size_t start = i_;
    if (digits_at(s_, i_, 4) && i_ + 4 < s_.size() && s_[i_ + 4] == '-') {
      if (!(digits_at(s_, i_ + 5, 2) && i_ + 7 < s_.size() && s_[i_ + 7] == '-' &&
            digits_at(s_, i_ + 8, 2)))
        return bad(start, "");
      i_ += 10;
      if (i_ < s_.size() && s_[i_] == 'T') return datetime(start);
      if (i_ < s_.size() && word_char(s_[i_])) return bad(start, "");
      Token t = make(Token::Kind::kDate, start);
      auto d = parse_date(t.raw);
      if (!d) return bad(start, "invalid date: " + std::string(t.raw));
      t.date = *d;
      return t;
    }
    while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    if (i_ + 1 < s_.size() && s_[i_] == '.' && is_digit(s_[i_ + 1])) {
      ++i_;
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && word_char(s_[i_])) return bad(start, "");
    return make(Token::Kind::kNumber, start);
  }

  Token datetime(size_t start) {
    // hh:mm:ss[.fff](Z|+hh:mm|-hh:mm), the forms the platform documents.
    size_t j = i_ + 1;
    bool ok = digits_at(s_, j, 2) && j + 2 < s_.size() && s_[j + 2] == ':' &&
              digits_at(s_, j + 3, 2) && j + 5 < s_.size() && s_[j + 5] == ':' &&
              digits_at(s_, j + 6, 2);
    if (ok) {
      j += 8;
      if (j < s_.size() && s_[j] == '.') {
        ++j;
        size_t k = j;
        while (j < s_.size() && is_digit(s_[j])) ++j;
        ok = j > k;
      }
    }
    if (ok && j < s_.size() && s_[j] == 'Z') {
      ++j;
    } else if (ok && j < s_.size() && (s_[j] == '+' || s_[j] == '-')) {
      ok = digits_at(s_, j + 1, 2) && j + 3 < s_.size() && s_[j + 3] == ':' &&
           digits_at(s_, j + 4, 2);
      j += 6;
    } else {
      ok = false;
    }
    if (!ok || (j < s_.size() && word_char(s_[j]))) {
      i_ = std::min(j, s_.size());
      return bad(start, "");
    }
    i_ = j;
    Token t = make(Token::Kind::kDateTime, start);
    auto tp = parse_iso8601(t.raw);
    if (!tp) return bad(start, "invalid datetime: " + std::string(t.raw));
    t.datetime = *tp;
    return t;
  }

  Token string_literal() {
    const size_t start = i_++;
    std::string value;
    std::vector<bool> escaped;
    bool any_escaped = false;
    while (i_ < s_.size() && s_[i_] != '\'') {
      char c = s_[i_++];
      if (c != '\\') {
        value += c;
        escaped.push_back(false);
        continue;
      }
      if (i_ >= s_.size()) break;
      const char e = s_[i_++];
      char out = 0;
      switch (e) {
        case 'n':
        case 'N':
          out = '\n';
          break;
        case 'r':
        case 'R':
          out = '\r';
          break;
        case 't':
        case 'T':
          out = '\t';
          break;
        case 'b':
        case 'B':
          out = '\b';
          break;
        case 'f':
        case 'F':
          out = '\f';
          break;
        case '"':
        case '\'':
        case '\\':
          out = e;
          break;
        case '%':
        case '_':
          value += e;
          escaped.push_back(true);
          any_escaped = true;
          continue;
        default: {
          Token t = make(Token::Kind::kBad, start);
          // The platform names the whole literal and the sequence it refuses.
          size_t close = s_.find('\'', i_);
          std::string_view lit = s_.substr(
              start, close == std::string_view::npos ? s_.size() - start : close + 1 - start);
          t.error = "Invalid string literal " + std::string(lit) +
                    ". Illegal character sequence '\\" + std::string(1, e) + "' in string literal.";
          i_ = close == std::string_view::npos ? s_.size() : close + 1;
          t.raw = lit;
          return t;
        }
      }
      value += out;
      escaped.push_back(false);
    }
    if (i_ >= s_.size()) {
      Token t = make(Token::Kind::kBad, start);
      t.error = "unterminated string literal: " + std::string(t.raw);
      return t;
    }
    ++i_;  // the closing quote
    Token t = make(Token::Kind::kString, start);
    t.value = std::move(value);
    if (any_escaped) t.escaped = std::move(escaped);
    return t;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// ---- parser ----------------------------------------------------------------

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// Words that cannot name a field, object or alias (the platform's reserved
// words plus the clause keywords this parser looks for).
bool reserved(std::string_view w) {
  static constexpr std::array<const char*, 27> kWords = {
      "AND",      "ASC",  "DESC",  "EXCLUDES", "FIRST", "FROM",  "GROUP",  "HAVING", "IN",
      "INCLUDES", "LAST", "LIKE",  "LIMIT",    "NOT",   "NULL",  "NULLS",  "OR",     "SELECT",
      "WHERE",    "WITH", "ORDER", "OFFSET",   "TRUE",  "FALSE", "TYPEOF", "USING",  "FOR"};
  for (const char* k : kWords)
    if (iequals(w, k)) return true;
  return false;
}

// Date literals with no number, and those that take one (NAME:n).
const std::array<const char*, 17> kDateLiterals = {
    "YESTERDAY",    "TODAY",        "TOMORROW",   "LAST_WEEK",    "THIS_WEEK",    "NEXT_WEEK",
    "LAST_MONTH",   "THIS_MONTH",   "NEXT_MONTH", "LAST_90_DAYS", "NEXT_90_DAYS", "THIS_QUARTER",
    "LAST_QUARTER", "NEXT_QUARTER", "THIS_YEAR",  "LAST_YEAR",    "NEXT_YEAR"};
const std::array<const char*, 15> kDateLiteralsN = {
    "LAST_N_DAYS",     "NEXT_N_DAYS",    "N_DAYS_AGO",    "LAST_N_WEEKS", "NEXT_N_WEEKS",
    "N_WEEKS_AGO",     "LAST_N_MONTHS",  "NEXT_N_MONTHS", "N_MONTHS_AGO", "LAST_N_QUARTERS",
    "NEXT_N_QUARTERS", "N_QUARTERS_AGO", "LAST_N_YEARS",  "NEXT_N_YEARS", "N_YEARS_AGO"};
inline constexpr int64_t kMaxDateLiteralN = 100000;

template <size_t N>
bool one_of(std::string_view w, const std::array<const char*, N>& list) {
  for (const char* k : list)
    if (iequals(w, k)) return true;
  return false;
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens)
      : text_(text), toks_(std::move(tokens)) {}

  SoqlResult<Query> run() {
    Query q;
    if (!parse_query(q)) return *err_;
    return q;
  }

 private:
  using K = Token::Kind;

  const Token& peek(size_t k = 0) const { return toks_[std::min(at_ + k, toks_.size() - 1)]; }
  const Token& take() {
    const Token& t = toks_[at_];
    if (at_ + 1 < toks_.size()) ++at_;
    return t;
  }
  bool kw(const char* word, size_t k = 0) const {
    return peek(k).kind == K::kIdent && iequals(peek(k).raw, word);
  }

  bool fail(size_t pos, std::string code, std::string detail) {
    if (!err_) err_ = positioned_error(text_, pos, std::move(code), std::move(detail));
    return false;
  }
  bool unexpected(const Token& t) {
    if (t.kind == K::kEnd)
      return fail(t.pos, soql_code::kMalformedQuery, "unexpected token: <EOF>");
    if (t.kind == K::kBad && !t.error.empty())
      return fail(t.pos, soql_code::kMalformedQuery, t.error);
    return fail(t.pos, soql_code::kMalformedQuery,
                "unexpected token: '" + std::string(t.raw) + "'");
  }
  // A part of SOQL the platform has but this org's subset leaves out.
  bool unsupported(const Token& t, const std::string& what) {
    return fail(t.pos, soql_code::kMalformedQuery,
                "unexpected token: '" + std::string(t.raw) + "' (" + what +
                    " is outside this org's SOQL subset; see docs/soql.md)");
  }

  bool parse_query(Query& q) {
    if (!kw("SELECT")) return unexpected(peek());
    take();
    if (!parse_select_list(q)) return false;
    if (!kw("FROM")) return unexpected(peek());
    take();
    if (peek().kind != K::kIdent || reserved(peek().raw)) return unexpected(peek());
    q.object = std::string(peek().raw);
    q.object_position = take().pos;
    if (peek().kind == K::kIdent && !reserved(peek().raw) && !clause_word(peek().raw)) {
      q.alias = std::string(take().raw);
    }
    if (kw("USING")) return unsupported(peek(), "USING SCOPE");
    if (kw("WHERE")) {
      take();
      Condition c;
      if (!parse_condition(c, 0)) return false;
      q.where = std::move(c);
    }
    if (kw("WITH")) return unsupported(peek(), "WITH");
    if (kw("GROUP")) {
      if (!parse_group_by(q)) return false;
    }
    if (kw("HAVING")) {
      if (q.group_by.empty()) return unexpected(peek());
      q.having_position = take().pos;
      Condition c;
      in_having_ = true;
      const bool ok = parse_condition(c, 0);
      in_having_ = false;
      if (!ok) return false;
      q.having = std::move(c);
    }
    if (!parse_order_by_and_limit(q)) return false;
    if (kw("OFFSET")) {
      take();
      q.offset_position = peek().pos;
      int64_t n = 0;
      if (!parse_count(n)) return false;
      if (n > kMaxOffset)
        return fail(q.offset_position, soql_code::kOutOfRange,
                    "Maximum SOQL offset allowed is " + std::to_string(kMaxOffset));
      q.offset = n;
    }
    if (kw("FOR")) return unsupported(peek(), "FOR VIEW, FOR REFERENCE and FOR UPDATE");
    if (kw("UPDATE")) return unsupported(peek(), "UPDATE TRACKING and UPDATE VIEWSTAT");
    if (kw("ALL") && kw("ROWS", 1)) return unsupported(peek(), "ALL ROWS (Apex only)");
    if (peek().kind != K::kEnd) return unexpected(peek());
    return true;
  }

  bool parse_group_by(Query& q) {
    q.group_by_position = take().pos;
    if (!kw("BY")) return unexpected(peek());
    take();
    if (q.count) return unsupported(toks_[at_ - 2], "GROUP BY with COUNT()");
    if ((kw("ROLLUP") || kw("CUBE")) && peek(1).kind == K::kLParen)
      return unsupported(peek(), "GROUP BY " + upper(peek().raw));
    while (true) {
      FieldRef f;
      if (!parse_operand_field(f, "GROUP BY")) return false;
      q.group_by.push_back(std::move(f));
      if (peek().kind != K::kComma) return true;
      take();
    }
  }

  static bool aggregate_function(std::string_view w) {
    for (const char* k : {"COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX"})
      if (iequals(w, k)) return true;
    return false;
  }

  // NAME(field) for an aggregate NAME; the caller saw NAME and "(".
  bool parse_aggregate(Aggregate& a) {
    const Token& name = take();
    a.function = upper(name.raw);
    a.position = name.pos;
    take();  // (
    if (peek().kind == K::kRParen)
      return fail(peek().pos, soql_code::kMalformedQuery,
                  a.function + "() takes a field: " + a.function + "(field)");
    if (!parse_field(a.field)) return false;
    if (peek().kind != K::kRParen) return unexpected(peek());
    take();
    return true;
  }

  // FIELDS(ALL), FIELDS(STANDARD), FIELDS(CUSTOM); the caller saw FIELDS and "(".
  bool parse_fields_function(SelectItem& item) {
    item.fields_position = take().pos;
    take();  // (
    if (!kw("ALL") && !kw("STANDARD") && !kw("CUSTOM")) return unexpected(peek());
    item.fields_function = upper(take().raw);
    if (peek().kind != K::kRParen) return unexpected(peek());
    take();
    return true;
  }

  // An alias after a SELECT item: a word that is not reserved, followed by
  // "," or FROM (so a misspelt FROM stays the token refused).
  void parse_alias(SelectItem& item) {
    if (peek().kind == K::kIdent && !reserved(peek().raw) &&
        (peek(1).kind == K::kComma || kw("FROM", 1))) {
      item.alias_position = peek().pos;
      item.alias = std::string(take().raw);
    }
  }

  static bool clause_word(std::string_view w) {
    for (const char* k : {"WHERE", "ORDER", "LIMIT", "OFFSET", "WITH", "GROUP", "HAVING", "FOR",
                          "UPDATE", "USING", "ALL"})
      if (iequals(w, k)) return true;
    return false;
  }

  bool parse_select_list(Query& q) {
    while (true) {
      const Token& t = peek();
      if (t.kind == K::kLParen) {
        if (!kw("SELECT", 1)) return unexpected(peek(1));
        if (q.count) return unsupported(t, "a child relationship subquery beside COUNT()");
        if (!parse_child_query(q.items.emplace_back())) return false;
        if (peek().kind != K::kComma) return true;
        take();
        continue;
      }
      if (t.kind != K::kIdent || reserved(t.raw)) {
        if (kw("TYPEOF")) return unsupported(t, "TYPEOF");
        return unexpected(t);
      }
      if (peek(1).kind == K::kLParen) {
        if (iequals(t.raw, "COUNT") && peek(2).kind == K::kRParen) {
          if (q.count || !q.items.empty())
            return unsupported(t, "COUNT() beside other items of the SELECT list");
          q.count = true;
          q.count_position = t.pos;
          take();
          take();
          take();
        } else if (iequals(t.raw, "FIELDS")) {
          if (q.count) return unsupported(t, "FIELDS() beside COUNT()");
          if (!parse_fields_function(q.items.emplace_back())) return false;
        } else if (iequals(t.raw, "toLabel") && !q.count) {
          SelectItem item;
          item.to_label = true;
          item.to_label_position = take().pos;
          take();  // (
          if (!parse_field(item.field)) return false;
          if (peek().kind != K::kRParen) return unexpected(peek());
          take();
          parse_alias(item);
          q.fields.push_back(item.field);
          q.items.push_back(std::move(item));
        } else if (aggregate_function(t.raw) && !q.count) {
          SelectItem item;
          if (!parse_aggregate(item.aggregate.emplace())) return false;
          parse_alias(item);
          q.items.push_back(std::move(item));
        } else {
          return unsupported(t, upper(t.raw) + "() in the SELECT list");
        }
      } else {
        if (q.count) return unsupported(t, "a field beside COUNT()");
        SelectItem item;
        if (!parse_field(item.field)) return false;
        parse_alias(item);
        q.fields.push_back(item.field);
        q.items.push_back(std::move(item));
      }
      if (peek().kind != K::kComma) return true;
      take();
    }
  }

  // (SELECT ... FROM Relationship [alias] [WHERE] [ORDER BY] [LIMIT]): a
  // parent-to-child subquery; the caller saw "(" and SELECT.
  bool parse_child_query(SelectItem& item) {
    item.subquery_position = take().pos;  // (
    const Token& select = take();
    if (child_depth_ >= kMaxChildLevels)
      return fail(item.subquery_position, soql_code::kMalformedQuery,
                  "SOQL statements cannot query aggregate relationships more than " +
                      std::to_string(kMaxChildLevels) +
                      " levels away from the root entity object.");
    if (in_subquery_) return unexpected(select);
    auto sub = std::make_shared<Query>();
    ++child_depth_;
    const bool ok = parse_child_body(*sub);
    --child_depth_;
    if (!ok) return false;
    item.subquery = std::move(sub);
    return true;
  }

  bool parse_child_body(Query& q) {
    if (!parse_select_list(q)) return false;
    if (!kw("FROM")) return unexpected(peek());
    take();
    if (peek().kind != K::kIdent || reserved(peek().raw)) return unexpected(peek());
    q.object = std::string(peek().raw);
    q.object_position = take().pos;
    if (peek().kind == K::kDot) {  // Account.Contacts: the parent names the relationship
      take();
      if (peek().kind != K::kIdent || reserved(peek().raw)) return unexpected(peek());
      q.object_prefix = std::move(q.object);
      q.object = std::string(peek().raw);
      q.object_position = take().pos;
    }
    if (peek().kind == K::kIdent && !reserved(peek().raw) && !clause_word(peek().raw))
      q.alias = std::string(take().raw);
    if (kw("WHERE")) {
      take();
      Condition c;
      if (!parse_condition(c, 0)) return false;
      q.where = std::move(c);
    }
    if (kw("GROUP") || kw("HAVING"))
      return unsupported(peek(), "GROUP BY in a child relationship subquery");
    if (!parse_order_by_and_limit(q)) return false;
    if (kw("OFFSET")) return unsupported(peek(), "OFFSET in a child relationship subquery");
    if (peek().kind != K::kRParen) return unexpected(peek());
    take();
    return true;
  }

  bool parse_field(FieldRef& f) {
    while (true) {
      const Token& t = peek();
      if (t.kind != K::kIdent || reserved(t.raw)) return unexpected(t);
      if (f.parts.size() > kMaxRelationshipHops)
        return fail(t.pos, soql_code::kMalformedQuery,
                    "SOQL statements cannot query relationships more than " +
                        std::to_string(kMaxRelationshipHops) +
                        " levels away from the root entity object.");
      f.parts.emplace_back(t.raw);
      f.positions.push_back(t.pos);
      take();
      if (peek().kind != K::kDot) return true;
      take();
    }
  }

  // A field where a condition or ORDER BY wants one; functions are refused.
  bool parse_operand_field(FieldRef& f, const char* where) {
    const Token& t = peek();
    if (t.kind == K::kIdent && !reserved(t.raw) && peek(1).kind == K::kLParen)
      return unsupported(t, upper(t.raw) + "() in " + where);
    return parse_field(f);
  }

  bool parse_condition(Condition& out, int depth) {
    Condition first;
    if (!parse_term(first, depth)) return false;
    if (!kw("AND") && !kw("OR")) {
      out = std::move(first);
      return true;
    }
    const bool is_and = kw("AND");
    out = Condition{};
    out.kind = is_and ? Condition::Kind::kAnd : Condition::Kind::kOr;
    out.position = first.position;
    out.children.push_back(std::move(first));
    while (kw(is_and ? "AND" : "OR")) {
      take();
      Condition next;
      if (!parse_term(next, depth)) return false;
      out.children.push_back(std::move(next));
    }
    // The platform refuses AND and OR side by side: parentheses must say which binds.
    if (kw(is_and ? "OR" : "AND")) return unexpected(peek());
    return true;
  }

  bool parse_term(Condition& out, int depth) {
    const Token& t = peek();
    if (depth >= kMaxConditionDepth)
      return fail(
          t.pos, soql_code::kMalformedQuery,
          "conditions nested more than " + std::to_string(kMaxConditionDepth) + " levels deep");
    if (kw("NOT")) {
      out.kind = Condition::Kind::kNot;
      out.position = take().pos;
      Condition inner;
      if (!parse_term(inner, depth + 1)) return false;
      out.children.push_back(std::move(inner));
      return true;
    }
    if (t.kind == K::kLParen) {
      take();
      if (!parse_condition(out, depth + 1)) return false;
      if (peek().kind != K::kRParen) return unexpected(peek());
      take();
      return true;
    }
    out.kind = Condition::Kind::kComparison;
    out.position = t.pos;
    return parse_comparison(out.comparison);
  }

  bool parse_comparison(Comparison& c) {
    if (in_having_ && peek().kind == K::kIdent && peek(1).kind == K::kLParen &&
        aggregate_function(peek().raw)) {
      if (!parse_aggregate(c.aggregate.emplace())) return false;
      c.field = c.aggregate->field;
    } else if (!parse_operand_field(c.field, in_having_ ? "HAVING" : "WHERE")) {
      return false;
    }
    const Token& t = peek();
    c.op_position = t.pos;
    if (t.kind == K::kOp) {
      const std::string_view op = t.raw;
      c.op = op == "="                    ? CompareOp::kEq
             : (op == "!=" || op == "<>") ? CompareOp::kNe
             : op == "<"                  ? CompareOp::kLt
             : op == "<="                 ? CompareOp::kLe
             : op == ">"                  ? CompareOp::kGt
                                          : CompareOp::kGe;
      take();
      Literal v;
      if (!parse_value(v)) return false;
      c.values.push_back(std::move(v));
      return true;
    }
    if (kw("LIKE")) {
      take();
      c.op = CompareOp::kLike;
      Literal v;
      if (!parse_value(v)) return false;
      c.values.push_back(std::move(v));
      return true;
    }
    if (kw("IN") || (kw("NOT") && kw("IN", 1)) || kw("INCLUDES") || kw("EXCLUDES")) {
      c.op = kw("IN")         ? CompareOp::kIn
             : kw("NOT")      ? CompareOp::kNotIn
             : kw("INCLUDES") ? CompareOp::kIncludes
                              : CompareOp::kExcludes;
      if (c.op == CompareOp::kNotIn) take();
      take();
      const bool join = c.op == CompareOp::kIn || c.op == CompareOp::kNotIn;
      if (join && peek().kind == K::kLParen && kw("SELECT", 1)) return parse_semi_join(c);
      return parse_value_list(c.values);
    }
    return unexpected(t);
  }

  // (SELECT idField FROM object [alias] [WHERE ...]): the platform allows
  // no join inside a join, and no other clause.
  bool parse_semi_join(Comparison& c) {
    take();  // (
    const Token& select = take();
    if (in_subquery_)
      return fail(select.pos, soql_code::kMalformedQuery,
                  "Nesting of semi join sub-selects is not supported");
    auto sub = std::make_shared<Query>();
    FieldRef f;
    if (!parse_operand_field(f, "a semi join sub-select")) return false;
    sub->fields.push_back(f);
    sub->items.emplace_back().field = std::move(f);
    if (!kw("FROM")) return unexpected(peek());
    take();
    if (peek().kind != K::kIdent || reserved(peek().raw)) return unexpected(peek());
    sub->object = std::string(peek().raw);
    sub->object_position = take().pos;
    if (peek().kind == K::kIdent && !reserved(peek().raw) && !clause_word(peek().raw))
      sub->alias = std::string(take().raw);
    if (kw("WHERE")) {
      take();
      Condition where;
      in_subquery_ = true;
      const bool ok = parse_condition(where, 1);
      in_subquery_ = false;
      if (!ok) return false;
      sub->where = std::move(where);
    }
    if (peek().kind != K::kRParen) return unexpected(peek());
    take();
    c.subquery = std::move(sub);
    return true;
  }

  bool parse_value_list(std::vector<Literal>& out) {
    if (peek().kind != K::kLParen) {
      if (peek().kind == K::kColon) return parse_value(out.emplace_back());
      return unexpected(peek());
    }
    take();
    while (true) {
      Literal v;
      if (!parse_value(v)) return false;
      out.push_back(std::move(v));
      if (peek().kind == K::kRParen) {
        take();
        return true;
      }
      if (peek().kind != K::kComma) return unexpected(peek());
      take();
    }
  }

  bool parse_value(Literal& v) {
    const Token& t = peek();
    v.position = t.pos;
    switch (t.kind) {
      case K::kString:
        v.kind = Literal::Kind::kString;
        v.text = t.value;
        v.escaped = t.escaped;
        take();
        return true;
      case K::kNumber:
        return parse_number(v, false);
      case K::kPlus:
      case K::kMinus:
        if (peek(1).kind == K::kNumber && peek(1).pos == t.pos + 1) {
          const bool negative = t.kind == K::kMinus;
          take();
          return parse_number(v, negative);
        }
        return unexpected(t);
      case K::kDate:
        v.kind = Literal::Kind::kDate;
        v.date = t.date;
        v.text = std::string(t.raw);
        take();
        return true;
      case K::kDateTime:
        v.kind = Literal::Kind::kDateTime;
        v.datetime = t.datetime;
        v.text = std::string(t.raw);
        take();
        return true;
      case K::kColon:
        return fail(t.pos, soql_code::kMalformedQuery, "Bind variables only allowed in Apex code");
      case K::kIdent:
        return parse_word_value(v);
      default:
        return unexpected(t);
    }
  }

  bool parse_number(Literal& v, bool negative) {
    const Token& t = take();
    v.kind = Literal::Kind::kNumber;
    v.text = (negative ? "-" : "") + std::string(t.raw);
    v.number = std::strtod(v.text.c_str(), nullptr);
    return true;
  }

  bool parse_word_value(Literal& v) {
    const Token& t = peek();
    const std::string word = upper(t.raw);
    if (word == "NULL") {
      v.kind = Literal::Kind::kNull;
    } else if (word == "TRUE" || word == "FALSE") {
      v.kind = Literal::Kind::kBoolean;
      v.boolean = word == "TRUE";
    } else if (one_of(word, kDateLiterals)) {
      v.kind = Literal::Kind::kDateLiteral;
      v.range.name = word;
    } else if (one_of(word, kDateLiteralsN)) {
      take();
      v.kind = Literal::Kind::kDateLiteral;
      v.range.name = word;
      if (peek().kind != K::kColon || peek(1).kind != K::kNumber)
        return fail(t.pos, soql_code::kMalformedQuery,
                    "date literal " + word + " takes a number: " + word + ":n");
      take();
      const Token& n = peek();
      if (n.raw.find('.') != std::string_view::npos || n.raw.size() > 9 ||
          std::strtoll(std::string(n.raw).c_str(), nullptr, 10) > kMaxDateLiteralN)
        return fail(n.pos, soql_code::kMalformedQuery,
                    "date literal " + word + " takes a whole number from 0 to " +
                        std::to_string(kMaxDateLiteralN) + ": " + std::string(n.raw));
      v.range.n = std::strtoll(std::string(n.raw).c_str(), nullptr, 10);
      take();
      v.text = word + ":" + std::to_string(*v.range.n);
      return true;
    } else if (word.find("FISCAL") != std::string::npos) {
      return unsupported(t, "a fiscal date literal (the org has no fiscal year settings)");
    } else {
      return unexpected(t);
    }
    v.text = word;
    take();
    return true;
  }

  // "ORDER BY ... LIMIT n", each optional, as root queries and child
  // subqueries end alike.
  bool parse_order_by_and_limit(Query& q) {
    if (kw("ORDER")) {
      q.order_by_position = take().pos;
      if (!kw("BY")) return unexpected(peek());
      take();
      if (!parse_order_by(q)) return false;
    }
    if (kw("LIMIT")) {
      take();
      int64_t n = 0;
      if (!parse_count(n)) return false;
      q.limit = n;
    }
    return true;
  }

  bool parse_order_by(Query& q) {
    while (true) {
      OrderItem item;
      if (peek().kind == K::kIdent && peek(1).kind == K::kLParen &&
          aggregate_function(peek().raw)) {
        if (!parse_aggregate(item.aggregate.emplace())) return false;
        item.field = item.aggregate->field;
      } else if (!parse_operand_field(item.field, "ORDER BY")) {
        return false;
      }
      if (kw("ASC") || kw("DESC")) item.descending = iequals(take().raw, "DESC");
      if (kw("NULLS")) {
        take();
        if (!kw("FIRST") && !kw("LAST")) return unexpected(peek());
        item.nulls_last = iequals(take().raw, "LAST");
      }
      q.order_by.push_back(std::move(item));
      if (peek().kind != K::kComma) return true;
      take();
    }
  }

  // LIMIT and OFFSET: a whole number.
  bool parse_count(int64_t& n) {
    const Token& t = peek();
    if (t.kind != K::kNumber || t.raw.find('.') != std::string_view::npos) return unexpected(t);
    if (t.raw.size() > 9)
      return fail(t.pos, soql_code::kOutOfRange,
                  "number too large: " + std::string(t.raw) + " (at most 999,999,999)");
    n = std::strtoll(std::string(t.raw).c_str(), nullptr, 10);
    take();
    return true;
  }

  std::string_view text_;
  std::vector<Token> toks_;
  size_t at_ = 0;
  bool in_subquery_ = false;
  bool in_having_ = false;
  int child_depth_ = 0;  // parent-to-child subqueries open around the parser
  std::optional<SoqlError> err_;
};

}  // namespace

SoqlResult<Query> parse_soql(std::string_view text) {
  if (text.size() > kMaxQueryLength)
    return plain_error(soql_code::kMalformedQuery,
                       "SOQL statements cannot be longer than 100,000 characters.");
  return Parser(text, Lexer(text).run()).run();
}

}  // namespace fake_org::soql
