#include "packed_text.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "length_prefix.h"
#include "packed_values.h"

namespace fake_org::packed_text {

namespace {

// The names a request body, a CRM record and a PSP redirect repeat:
// PaymentIntent's parameters (spec 2.1-2.9), payment parameters, the
// Contact and Account fields forms send, and the values most bodies carry.
constexpr const char* kNames[] = {"Account",
                                  "AccountId",
                                  "AccountRecordTypeName",
                                  "AccountUpdate",
                                  "AllowDeduplication",
                                  "Amount",
                                  "CampaignId",
                                  "CampaignCode",
                                  "Contact",
                                  "ContactId",
                                  "ContactRecordTypeName",
                                  "ContactUpdate",
                                  "CrmFields",
                                  "CurrencyISOCode",
                                  "CustomFields",
                                  "EndDate",
                                  "FailureURL",
                                  "Frequency",
                                  "Id",
                                  "IdempotencyKey",
                                  "InstallmentId",
                                  "Name",
                                  "OneTime",
                                  "Origin",
                                  "PackageActions",
                                  "ParameterMap",
                                  "Parameters",
                                  "Payer",
                                  "Payment",
                                  "PaymentMethod",
                                  "PaymentProfile",
                                  "PrimaryRelation",
                                  "ProcessingType",
                                  "Processor",
                                  "RecordTypeName",
                                  "Recurring",
                                  "RedirectURL",
                                  "Settings",
                                  "SourceConnector",
                                  "SourceConnectorParameters",
                                  "StartDate",
                                  "SuccessURL",
                                  "Target",
                                  "WebhookURL",
                                  "Interval",
                                  "Day",
                                  "IBAN",
                                  "BIC",
                                  "AccountHolderName",
                                  "AccountNumber",
                                  "SortCode",
                                  "RoutingNumber",
                                  "BankCode",
                                  "Mandate",
                                  "MandateReference",
                                  "MandateDate",
                                  "Declaration",
                                  "Confirmed",
                                  "Installment",
                                  "PaymentIntentId",
                                  "Description",
                                  "Reference",
                                  "Status",
                                  "FirstName",
                                  "LastName",
                                  "Email",
                                  "Phone",
                                  "MobilePhone",
                                  "HomePhone",
                                  "Salutation",
                                  "Title",
                                  "Birthdate",
                                  "MailingStreet",
                                  "MailingCity",
                                  "MailingPostalCode",
                                  "MailingState",
                                  "MailingCountry",
                                  "BillingStreet",
                                  "BillingCity",
                                  "BillingPostalCode",
                                  "BillingState",
                                  "BillingCountry",
                                  "Website",
                                  "Company",
                                  "Type",
                                  "CreditCard",
                                  "DirectDebit",
                                  "PayPal",
                                  "Monthly",
                                  "Quarterly",
                                  "Yearly",
                                  "Weekly",
                                  "Annually",
                                  "Online",
                                  "Offline",
                                  "Default",
                                  "Stripe",
                                  "Adyen",
                                  "EUR",
                                  "USD",
                                  "GBP"};

// Each name as a key (compact and spaced, before a text, an object or any
// value), as a quoted value, and as the end of a key after a one-byte word.
constexpr const char* kForms[] = {"\"%\":\"", "\"%\": \"", "\"%\":{\"", "\"%\": {\"",
                                  "\"%\":",   "\"%\": ",   "%\"",       "\"%\""};

constexpr const char* kPunctuation[] = {"{\"",        "\"}",
                                        "\":\"",      "\": \"",
                                        "\",\"",      "\", \"",
                                        "\":{\"",     "\": {\"",
                                        "\"},\"",     "\"}, \"",
                                        "}}",         "}}}",
                                        "},\"",       "}, \"",
                                        "\":[",       "\": [",
                                        "\"]",        "[\"",
                                        "\":true",    "\": true",
                                        "\":false",   "\": false",
                                        "\":null",    "\": null",
                                        "}]",         "\":",
                                        "\": ",       ",\"",
                                        ", \"",       "https://",
                                        "http://",    "www.",
                                        ".example",   ".com",
                                        ".org",       ".net",
                                        "@example.",  "/psp/checkout/cs_",
                                        "127.0.0.1",  "localhost",
                                        "/services/", "apexrest/cpm/v2/",
                                        "cpm__",      "__c",
                                        "pi_"};

// The words that get one-byte codes: the commonest in request bodies
// (counted over the scenario suite's and the benchmark's).
constexpr const char* kOneByte[] = {"https://",
                                    ".example",
                                    "PaymentMethod\"",
                                    "\", \"",
                                    "FailureURL\"",
                                    "SuccessURL\"",
                                    "CrmFields\"",
                                    "\"CreditCard\"",
                                    "LastName\"",
                                    "{\"",
                                    "OneTime\"",
                                    "Contact\"",
                                    "Amount\"",
                                    "Payer\"",
                                    "@example.",
                                    "Name\"",
                                    "AllowDeduplication\"",
                                    "Email\"",
                                    "AccountHolderName\"",
                                    ", \"",
                                    "}, \"",
                                    "Recurring\"",
                                    "Parameters\"",
                                    "FirstName\"",
                                    "}}",
                                    "\"}",
                                    "Frequency\"",
                                    "StartDate\"",
                                    "CurrencyISOCode\""};

constexpr size_t kOneByteCodes = 29;
static_assert(std::size(kOneByte) == kOneByteCodes, "one word per one-byte code");
constexpr uint8_t kLeads[] = {0xC0, 0xC1, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC};
constexpr uint8_t kNone = 0xFF;
class Dictionary {
 public:
  Dictionary() {
    one_.fill(kNone);
    lead_.fill(kNone);
    uint8_t n = 0;
    for (int c = 0; c < 0x20; ++c)
      if (c != '\t' && c != '\n' && c != '\r') one_[c] = n++;
    for (size_t i = 0; i < std::size(kLeads); ++i) lead_[kLeads[i]] = static_cast<uint8_t>(i);
    for (int c = 0; c < 256; ++c)
      reserved_[c] = one_[c] != kNone || lead_[c] != kNone || c >= kFirstValueByte;
    for (const char* w : kOneByte) add(w);
    for (const char* w : kPunctuation) add(w);
    for (const char* name : kNames)
      for (std::string form : kForms) add(form.replace(form.find('%'), 1, name));
    build_trie();
    // What only the building needed goes, and what stays holds no slack.
    index_.clear();
    child_byte_.shrink_to_fit();
    nodes_.shrink_to_fit();
    child_node_.shrink_to_fit();
    tables_.shrink_to_fit();
    words_.shrink_to_fit();
  }

  bool reserved(uint8_t c) const { return reserved_[c]; }

  // The longest word [p, end) starts with: its number and length; {0, 0}
  // if none.
  std::pair<size_t, size_t> longest(const char* p, const char* end) const {
    std::pair<size_t, size_t> best{0, 0};
    uint32_t node = root_[static_cast<uint8_t>(*p)];
    for (const char* q = p + 1; node; ++q) {
      if (nodes_[node].word) best = {nodes_[node].word - 1, static_cast<size_t>(q - p)};
      if (q == end) break;
      node = child(node, static_cast<uint8_t>(*q));
    }
    return best;
  }

  // Writes word `w`'s code at `out`; returns the end of what it wrote.
  static char* code(size_t w, char* out) {
    if (w < kOneByteCodes) {
      *out++ = static_cast<char>(one_byte_code(w));
      return out;
    }
    w -= kOneByteCodes;
    *out++ = static_cast<char>(kLeads[w / 256]);
    *out++ = static_cast<char>(w % 256);
    return out;
  }
  static size_t code_size(size_t w) { return w < kOneByteCodes ? 1 : 2; }

  // Appends what the code at packed[i] stands for, or the byte itself;
  // returns the next position.
  size_t expand(std::string_view packed, size_t i, std::string& out) const {
    const auto c = static_cast<uint8_t>(packed[i]);
    size_t w = words_.size();
    if (one_[c] != kNone) {
      w = one_[c];
    } else if (c >= kFirstValueByte) {
      return expand_value(packed, i, out);
    } else if (lead_[c] != kNone) {
      if (i + 1 >= packed.size()) return i + 1;
      w = kOneByteCodes + lead_[c] * size_t{256} + static_cast<uint8_t>(packed[i + 1]);
      ++i;
    } else {
      out += static_cast<char>(c);
      return i + 1;
    }
    if (w < words_.size()) out += words_[w];
    return i + 1;
  }

 private:
  struct Node {
    uint32_t first = 0;  // its children in child_byte_/child_node_
    uint32_t count = 0;
    uint32_t word = 0;   // word number + 1; 0: no word ends here
    int32_t table = -1;  // with many children: their row in tables_
  };
  // A node with more children than this finds them by a row of 256.
  static constexpr uint32_t kScanned = 6;

  static uint8_t one_byte_code(size_t w) {
    static const std::array<uint8_t, kOneByteCodes> codes = [] {
      std::array<uint8_t, kOneByteCodes> out{};
      size_t n = 0;
      for (int c = 0; c < 0x20 && n < kOneByteCodes; ++c)
        if (c != '\t' && c != '\n' && c != '\r') out[n++] = static_cast<uint8_t>(c);
      return out;
    }();
    return codes[w];
  }

  void add(std::string word) {
    if (word.size() < 2 || index_.count(word)) return;
    if (words_.size() >= kOneByteCodes + std::size(kLeads) * 256) return;
    index_.emplace(word, words_.size());
    words_.push_back(std::move(word));
  }

  uint32_t child(uint32_t node, uint8_t c) const {
    if (node == 0) return root_[c];
    const Node& n = nodes_[node];
    if (n.table >= 0) return tables_[static_cast<size_t>(n.table)][c];
    for (uint32_t k = n.first; k < n.first + n.count; ++k)
      if (child_byte_[k] == c) return child_node_[k];
    return 0;
  }

  // Words in sorted order make each node's children contiguous: a node's
  // subtree is one run of the sorted list, split by the next byte.
  void build_trie() {
    std::vector<size_t> order(words_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return words_[a] < words_[b]; });
    nodes_.assign(1, Node{});
    root_.fill(0);
    build(order, 0, order.size(), 0, 0);
  }

  // The node for the words order[lo, hi), which share their first `depth`
  // bytes; fills in its children.
  void build(const std::vector<size_t>& order, size_t lo, size_t hi, size_t depth, uint32_t at) {
    if (lo < hi && words_[order[lo]].size() == depth) nodes_[at].word = order[lo++] + 1;
    std::vector<std::pair<uint8_t, std::pair<size_t, size_t>>> runs;
    for (size_t i = lo; i < hi;) {
      const auto c = static_cast<uint8_t>(words_[order[i]][depth]);
      size_t j = i;
      while (j < hi && static_cast<uint8_t>(words_[order[j]][depth]) == c) ++j;
      runs.push_back({c, {i, j}});
      i = j;
    }
    nodes_[at].first = static_cast<uint32_t>(child_byte_.size());
    nodes_[at].count = static_cast<uint32_t>(runs.size());
    std::vector<uint32_t> made;
    for (const auto& run : runs) {
      const auto n = static_cast<uint32_t>(nodes_.size());
      nodes_.push_back(Node{});
      made.push_back(n);
      child_byte_.push_back(run.first);
      child_node_.push_back(n);
      if (at == 0) root_[run.first] = n;
    }
    if (at != 0 && runs.size() > kScanned) {
      nodes_[at].table = static_cast<int32_t>(tables_.size());
      tables_.emplace_back();
      tables_.back().fill(0);
      for (size_t k = 0; k < runs.size(); ++k) tables_.back()[runs[k].first] = made[k];
    }
    for (size_t k = 0; k < runs.size(); ++k)
      build(order, runs[k].second.first, runs[k].second.second, depth + 1, made[k]);
  }

  std::vector<std::string> words_;
  std::map<std::string, size_t> index_;  // while adding: no word twice
  std::array<uint8_t, 256> one_{};       // byte -> one-byte word number, or kNone
  std::array<uint8_t, 256> lead_{};      // byte -> lead number, or kNone
  std::array<bool, 256> reserved_{};     // a code's byte (one or lead)
  std::vector<Node> nodes_;              // [0] is the root
  std::array<uint32_t, 256> root_{};     // the root's children by byte
  std::vector<uint8_t> child_byte_;
  std::vector<uint32_t> child_node_;
  std::vector<std::array<uint32_t, 256>> tables_;
};

// Whether `text` holds a byte that starts a word or value, in one pass
// (find_first_of's memchr per byte was a tenth of a restart's time).
bool worth_packing(std::string_view text) {
  static constexpr std::array<bool, 256> kMarks = [] {
    std::array<bool, 256> t{};
    for (char c : std::string_view("\"/:@_")) t[static_cast<uint8_t>(c)] = true;
    return t;
  }();
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (kMarks[static_cast<uint8_t>(c)]) return true;
    if (c == '5' && i + 2 < n && text[i + 1] == 'J' && text[i + 2] == '0') return true;
  }
  return false;
}

const Dictionary& dictionary() {
  static const Dictionary* d = new Dictionary;  // never destroyed: records outlive statics
  return *d;
}

}  // namespace

void prepare() {
  (void)dictionary();
}

bool pack(std::string_view text, std::string& out) {
  // The words are JSON's (quoted), URLs' (with slashes) and emails' (@),
  // the values instants (with colons), random ids (after an underscore) and
  // record ids (with "5J0"): a text with none of them (a name) is not worth
  // the walk.
  if (!worth_packing(text)) return false;
  const Dictionary& d = dictionary();
  // A code is only written for a longer word, so the packed text fits.
  out.resize(text.size());
  char* o = out.data();
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const auto c = static_cast<uint8_t>(*p);
    if (d.reserved(c)) return false;
    if (pack_value(text.data(), p, end, o)) continue;
    const auto [word, length] = d.longest(p, end);
    if (length > Dictionary::code_size(word)) {
      o = Dictionary::code(word, o);
      p += length;
    } else {
      *o++ = static_cast<char>(c);
      ++p;
    }
  }
  out.resize(static_cast<size_t>(o - out.data()));
  return out.size() < text.size();
}

std::string unpack(std::string_view packed) {
  std::string out;
  unpack_into(packed, out);
  return out;
}

void unpack_into(std::string_view packed, std::string& out) {
  const Dictionary& d = dictionary();
  out.reserve(out.size() + packed.size() * 2);
  for (size_t i = 0; i < packed.size();) i = d.expand(packed, i, out);
}

}  // namespace fake_org::packed_text
