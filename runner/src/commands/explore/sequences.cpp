#include "commands/explore/sequences.h"

#include <map>
#include <set>

#include "commands/explore/operations.h"
#include "commands/explore/rng.h"

namespace runner::explore {

namespace {

using nlohmann::json;

std::string explore_case_tag(uint64_t seed, size_t index) {
  return std::to_string(seed) + "-" + std::to_string(index);
}

Step explore_request_step(const std::string& name, RequestSpec r) {
  Step s;
  s.name = name;
  s.kind = StepKind::kRequest;
  RequestStep rs;
  rs.request = std::move(r);
  rs.expect.status = json{{"$type", "integer"}};
  rs.expect.contract = false;
  s.body = std::move(rs);
  return s;
}

void explore_add_capture(Step& s, const std::string& var, const std::string& path) {
  for (const auto& c : s.captures)
    if (c.var == var) return;
  Capture c;
  c.var = var;
  c.path = path;
  s.captures.push_back(c);
}

// What the case wrote last, to state what a read must show.
struct ExploreWritten {
  json intent_amount;       // OneTime.Amount or Recurring.Amount of the create
  json recurring_currency;  // Recurring.CurrencyISOCode, when the create sent one
  json account;             // the account's fields as last written
  json contact;
  bool known_payer = false;  // a payment intent's payer was sent by Id
};

void explore_expect(Step& s, StepMeta& m, const std::string& rule, json expected) {
  auto& rs = std::get<RequestStep>(s.body);
  rs.expect.json = std::move(expected);
  m.rule = rule;
}

void explore_note_write(const std::string& op, const json& body, ExploreWritten& w) {
  if (op == "createOneTime") w.intent_amount = body["OneTime"]["Amount"];
  if (op == "createRecurring") {
    w.intent_amount = body["Recurring"]["Amount"];
    w.recurring_currency = body["Recurring"].value("CurrencyISOCode", json());
  }
  if (op == "createOneTimeKnownPayer") w.known_payer = true;
  if (op == "createAccount" || op == "updateAccount") w.account = body;
  if (op == "createContact") w.contact = body;
  // Renames through a collection or a batch's PATCH subrequest.
  if (op == "updateAccounts" && !w.account.is_null())
    w.account["Name"] = body["records"][0]["Name"];
  if (op == "compositeBatch" && !w.account.is_null())
    w.account["Name"] = body["batchRequests"][1]["richInput"]["Name"];
}

void explore_add_read_rule(const std::string& op, Step& s, StepMeta& m, const ExploreWritten& w) {
  if ((op == "readInstallment" || op == "readRecurring") && !w.intent_amount.is_null()) {
    json expected = {{"Amount", w.intent_amount}};
    // Spec 2.11: the recurring record shows its currency.
    if (op == "readRecurring" && !w.recurring_currency.is_null())
      expected["CurrencyISOCode"] = w.recurring_currency;
    explore_expect(s, m, "amount_survives_read", expected);
  }
  if (op == "readIntent" && w.known_payer)
    explore_expect(
        s, m, "payer_by_id",
        {{"Payer", {{"Contact", {{"Id", "${contact}"}}}, {"Account", {{"Id", "${account}"}}}}}});
  if (op == "readAccount" && !w.account.is_null())
    explore_expect(s, m, "write_survives_read", w.account);
  if (op == "readContact" && !w.contact.is_null())
    explore_expect(s, m, "write_survives_read", w.contact);
}

// The same create again with its IdempotencyKey: the same intent.
void explore_add_replay(Case& c) {
  Step again = c.scenario.steps.front();
  again.name = "createOneTime again, same IdempotencyKey";
  again.captures.clear();
  explore_add_capture(c.scenario.steps.front(), "pi", "$.Id");
  StepMeta m{"createOneTime", "", false};
  explore_expect(again, m, "idempotent_replay", {{"Id", "${pi}"}});
  c.scenario.steps.push_back(std::move(again));
  c.meta.push_back(m);
}

// The same payer again with AllowDeduplication: the same contact (spec 2.2).
void explore_add_dedup(Case& c) {
  explore_add_capture(c.scenario.steps.front(), "pi", "$.Id");
  RequestSpec read;
  read.path = "/PaymentIntent/${pi}";
  c.scenario.steps.push_back(explore_request_step("readIntent, the first payer", read));
  explore_add_capture(c.scenario.steps.back(), "contact", "$.Payer.Contact.Id");
  c.meta.push_back({"readIntent", "", false});
  Step again = c.scenario.steps.front();
  again.name = "createOneTime, the same payer, AllowDeduplication";
  again.captures.clear();
  auto& body = std::get<RequestStep>(again.body).request.json;
  body["Payer"]["AllowDeduplication"] = true;
  if (body.contains("IdempotencyKey"))
    body["IdempotencyKey"] = body["IdempotencyKey"].get<std::string>() + "-payer";
  explore_add_capture(again, "pi_payer", "$.Id");
  c.scenario.steps.push_back(std::move(again));
  c.meta.push_back({"createOneTime", "", false});
  read.path = "/PaymentIntent/${pi_payer}";
  c.scenario.steps.push_back(explore_request_step("readIntent, the deduplicated payer", read));
  StepMeta m{"readIntent", "", false};
  explore_expect(c.scenario.steps.back(), m, "payer_deduplicated",
                 {{"Payer", {{"Contact", {{"Id", "${contact}"}}}}}});
  c.meta.push_back(m);
}

// Whether a link from step `from` may still be followed: no later step moved
// the record its variable names on.
bool explore_link_open(const Case& c, size_t from, const Link& l) {
  for (size_t j = from + 1; j < c.meta.size(); ++j) {
    const Operation* later = find_operation(c.meta[j].op);
    if (later && later->advances && later->needs == l.var) return false;
  }
  return true;
}

std::vector<const Link*> explore_next_links(const Case& c) {
  std::vector<const Link*> out;
  for (const auto& l : links()) {
    if (!l.root.empty() && l.root != c.root()) continue;
    for (size_t i = c.meta.size(); i-- > 0;)
      if (c.meta[i].op == l.from) {
        if (explore_link_open(c, i, l)) out.push_back(&l);
        break;
      }
  }
  return out;
}

// A Bulk job's wait: the request again until its answer holds `await`.
Step explore_await_step(const std::string& name, RequestSpec r, const nlohmann::json& until) {
  Step s;
  s.name = name;
  s.kind = StepKind::kPoll;
  PollStep p;
  p.request = std::move(r);
  p.expect.json = until;
  p.expect.contract = false;
  Expectation halt;
  halt.json = json{{"state", "Failed"}};
  halt.contract = false;
  p.halt = halt;
  p.interval = Millis(50);
  s.body = std::move(p);
  return s;
}

void explore_capture_for(Case& c, const Link& l) {
  for (size_t i = c.meta.size(); i-- > 0;)
    if (c.meta[i].op == l.from) {
      if (!l.path.empty()) explore_add_capture(c.scenario.steps[i], l.var, l.path);
      for (const auto& [var, path] : l.also) explore_add_capture(c.scenario.steps[i], var, path);
      return;
    }
}

void explore_append(Case& c, const Operation& op, BuildContext& ctx, ExploreWritten& w) {
  RequestSpec r = build_request(op, ctx);
  explore_note_write(op.name, r.json, w);
  if (!op.await.is_null()) {
    c.scenario.steps.push_back(explore_await_step(op.name, std::move(r), op.await));
    c.meta.push_back({op.name, "", false});
    return;
  }
  c.scenario.steps.push_back(explore_request_step(op.name, std::move(r)));
  c.meta.push_back({op.name, "", false});
  c.meta.back().optional = ctx.added;
  explore_add_read_rule(op.name, c.scenario.steps.back(), c.meta.back(), w);
}

bool explore_usable(const Operation& op, const TargetFacts& facts) {
  return op.path.find("{external_id}") == std::string::npos || !facts.account_external_id.empty();
}

// The rules a one-time create's case may add, names made unique, the case named.
void explore_finish_valid(Case& c, Rng& rng, uint64_t seed, size_t index) {
  if (c.root() == "createOneTime" && rng.chance(30)) explore_add_replay(c);
  if (c.root() == "createOneTime" && rng.chance(25)) explore_add_dedup(c);
  // Names identify steps while the shrinker moves them: no two alike.
  std::set<std::string> seen;
  for (auto& s : c.scenario.steps)
    for (int n = 2; !seen.insert(s.name).second; ++n)
      s.name = c.meta[static_cast<size_t>(&s - &c.scenario.steps[0])].op + " (" +
               std::to_string(n) + ")";
  c.scenario.name = "explore " + std::to_string(seed) + "/" + std::to_string(index);
  c.scenario.file = "explore/" + std::to_string(seed) + "/" + std::to_string(index);
}

// The links from `root` to `op`, fewest first (breadth first over the
// table, a link kept to its root's cases where it says so).
std::vector<const Link*> explore_chain_from(const std::string& root, const std::string& op,
                                            bool& found) {
  std::map<std::string, std::pair<std::string, const Link*>> came = {{root, {"", nullptr}}};
  std::vector<std::string> frontier = {root};
  for (size_t at = 0; at < frontier.size() && !came.count(op); ++at)
    for (const auto& l : links())
      if (l.from == frontier[at] && !came.count(l.to) && (l.root.empty() || l.root == root)) {
        came[l.to] = {l.from, &l};
        frontier.push_back(l.to);
      }
  std::vector<const Link*> chain;
  found = came.count(op) > 0;
  if (!found) return chain;
  for (std::string at = op; came[at].second; at = came[at].first)
    chain.insert(chain.begin(), came[at].second);
  return chain;
}

std::vector<const Link*> explore_chain_to(const std::string& op, const TargetFacts& facts,
                                          std::string& root) {
  std::vector<const Link*> best;
  for (const auto& o : operations()) {
    if (!o.root || !explore_usable(o, facts)) continue;
    bool found = false;
    auto chain = explore_chain_from(o.name, op, found);
    if (found && (root.empty() || chain.size() < best.size())) {
      root = o.name;
      best = std::move(chain);
    }
  }
  return best;
}

}  // namespace

const std::vector<Link>& links() {
  static const std::vector<Link> table = {
      {"createOneTime", "readIntent", "pi", "$.Id", ""},
      {"createRecurring", "readIntent", "pi", "$.Id", ""},
      {"readIntent", "readInstallment", "installment", "$.OneTime.Id", "createOneTime"},
      {"readIntent", "readRecurring", "recurring", "$.Recurring.Id", "createRecurring"},
      {"readIntent", "updateRecurring", "recurring", "$.Recurring.Id", "createRecurring"},
      {"updateRecurring", "readRecurring", "recurring", "", "createRecurring"},
      {"createAccount", "readAccount", "account", "$.id", ""},
      {"createAccount", "updateAccount", "account", "$.id", ""},
      {"createAccount", "queryAccount", "account", "$.id", ""},
      {"createAccount", "deleteAccount", "account", "$.id", ""},
      {"createContact", "readContact", "contact", "$.id", ""},
      {"createIngestJob", "readIngestJob", "ingest_job", "$.id", ""},
      {"createIngestJob", "abortIngestJob", "ingest_job", "$.id", ""},
      {"createQueryJob", "readQueryJob", "query_job", "$.id", ""},
      {"createQueryJob", "awaitQueryJob", "query_job", "$.id", ""},
      {"awaitQueryJob", "queryJobResults", "query_job", "", ""},
      {"awaitQueryJob", "deleteQueryJob", "query_job", "", ""},
      {"createIngestJob", "uploadIngestJob", "ingest_job", "$.id", ""},
      {"uploadIngestJob", "closeIngestJob", "ingest_job", "", ""},
      {"uploadIngestJob", "abortIngestJob", "ingest_job", "", ""},
      {"closeIngestJob", "awaitIngestJob", "ingest_job", "", ""},
      {"awaitIngestJob", "ingestSuccessfulResults", "ingest_job", "", ""},
      {"awaitIngestJob", "ingestFailedResults", "ingest_job", "", ""},
      {"awaitIngestJob", "ingestUnprocessedRecords", "ingest_job", "", ""},
      {"awaitIngestJob", "deleteIngestJob", "ingest_job", "", ""},
      {"createLegacyPayment", "readLegacyPayment", "legacy", "$.Payment.InstallmentId", ""},
      {"readIntent", "payInstallment", "installment", "$.OneTime.Id", "createOneTime"},
      {"createAccount", "queryAllAccount", "account", "$.id", ""},
      {"createAccount", "updateAccounts", "account", "$.id", ""},
      {"createAccount", "compositeBatch", "account", "$.id", ""},
      {"createAccounts", "retrieveAccounts", "account", "$[0].id", ""},
      {"createAccounts", "retrieveAccountsByPost", "account", "$[0].id", ""},
      {"createAccounts", "updateAccounts", "account", "$[0].id", ""},
      {"createAccounts", "deleteAccounts", "account", "$[0].id", ""},
      {"createAccounts", "compositeBatch", "account", "$[0].id", ""},
      {"compositeTree",
       "createOneTimeKnownPayer",
       "account",
       "$.results[0].id",
       "",
       {{"contact", "$.results[1].id"}}},
      {"createOneTimeKnownPayer", "readIntent", "pi", "$.Id", ""},
      {"compositeTree",
       "createLegacyKnownPayer",
       "account",
       "$.results[0].id",
       "",
       {{"contact", "$.results[1].id"}}},
      {"createLegacyPayment", "payLegacyInstallment", "legacy", "$.Payment.InstallmentId", ""},
      {"userInfo", "identity", "user_id", "$.user_id", "", {{"org_id", "$.organization_id"}}},
      {"userInfo", "identityByPost", "user_id", "$.user_id", "", {{"org_id", "$.organization_id"}}},
  };
  return table;
}

Step count_step(const std::string& object, bool expect_same) {
  Step s;
  s.kind = StepKind::kQuery;
  QueryStep q;
  q.soql = "SELECT COUNT() FROM " + object;
  q.expect.contract = false;
  if (expect_same) {
    s.name = object + " count unchanged";
    q.expect.json = json{{"totalSize", "${count_" + object + "}"}};
  } else {
    s.name = object + " count before";
    Capture c;
    c.var = "count_" + object;
    c.path = "$.totalSize";
    s.captures.push_back(c);
  }
  s.body = std::move(q);
  return s;
}

Case valid_case(const TargetFacts& facts, uint64_t seed, size_t index) {
  Rng rng = Rng::for_case(seed, index);
  Case c;
  c.index = index;
  std::vector<const Operation*> roots;
  for (const auto& op : operations())
    if (op.root && explore_usable(op, facts)) roots.push_back(&op);
  BuildContext ctx{facts, rng, explore_case_tag(seed, index)};
  ExploreWritten w;
  const Operation* op = rng.pick(roots);
  const size_t length = 1 + rng.below(4);
  for (;;) {
    explore_append(c, *op, ctx, w);
    if (c.meta.size() >= length || op->name == "deleteAccount" || op->name == "abortIngestJob" ||
        op->ends)
      break;
    const auto next = explore_next_links(c);
    if (next.empty()) break;
    const Link& l = *rng.pick(next);
    explore_capture_for(c, l);
    op = find_operation(l.to);
  }
  explore_finish_valid(c, rng, seed, index);
  return c;
}

std::optional<Case> valid_case_to(const TargetFacts& facts, uint64_t seed, size_t index,
                                  const std::string& target, Fill fill) {
  std::string root;
  const auto chain = explore_chain_to(target, facts, root);
  if (root.empty()) return std::nullopt;
  Rng rng = Rng::for_case(seed, index);
  Case c;
  c.index = index;
  BuildContext ctx{facts, rng, explore_case_tag(seed, index)};
  ctx.fill = fill;
  ExploreWritten w;
  explore_append(c, *find_operation(root), ctx, w);
  for (const Link* l : chain) {
    explore_capture_for(c, *l);
    explore_append(c, *find_operation(l->to), ctx, w);
  }
  explore_finish_valid(c, rng, seed, index);
  return c;
}

}  // namespace runner::explore
