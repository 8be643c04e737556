#include "commands/explore/scenario_writer.h"

#include "commands/record/yaml_emit.h"
#include "scenario/loader.h"

namespace runner::explore {

namespace {

using OJson = nlohmann::ordered_json;

OJson explore_ordered(const nlohmann::json& j) {
  return OJson::parse(j.dump());
}

OJson explore_pairs(const StringPairs& pairs) {
  OJson o = OJson::object();
  for (const auto& [k, v] : pairs) o[k] = v;
  return o;
}

OJson explore_request(const RequestSpec& r) {
  OJson o;
  o["method"] = r.method;
  o["path"] = r.path;
  if (!r.query.empty()) o["query"] = explore_pairs(r.query);
  if (!r.headers.empty()) o["headers"] = explore_pairs(r.headers);
  if (r.body == RequestSpec::Body::kJson) o["json"] = explore_ordered(r.json);
  if (r.body == RequestSpec::Body::kRaw) o["body"] = r.raw;
  return o;
}

OJson explore_status_for(const Case& c, size_t i, const CheckFailure& f, const WriteContext& w) {
  const auto& rs = std::get<RequestStep>(c.scenario.steps[i].body);
  if (i == f.step && f.check == "no_5xx") return OJson{{"$range", {0, 499}}};
  if (i == f.step && f.check == "valid_accepted") return OJson{{"$range", {200, 299}}};
  if (i == f.step && f.check == "declared_status") {
    OJson list = OJson::array();
    for (int s : declared_statuses(rs.request.method, rs.request.path)) list.push_back(s);
    if (list.empty()) return OJson{{"$type", "integer"}};
    return list;
  }
  if (c.meta[i].focus && f.check == "refused_write_unchanged" && w.focus_status)
    return w.focus_status;
  return OJson{{"$type", "integer"}};
}

OJson explore_captures(const Step& s) {
  OJson o = OJson::object();
  for (const auto& cap : s.captures) o[cap.var] = cap.path;
  return o;
}

OJson explore_step(const Case& c, size_t i, const CheckFailure& f, const WriteContext& w) {
  const Step& s = c.scenario.steps[i];
  OJson o;
  o["name"] = s.name;
  if (const auto* q = std::get_if<QueryStep>(&s.body)) {
    o["query"] = q->soql;
    if (q->expect.json) o["expect"] = OJson{{"json", explore_ordered(*q->expect.json)}};
  } else if (const auto* p = std::get_if<PollStep>(&s.body)) {
    o["poll"] =
        OJson{{"request", explore_request(p->request)},
              {"expect", OJson{{"json", explore_ordered(p->expect.json.value_or(nullptr))}}},
              {"timeout", std::to_string(p->timeout.count()) + "ms"},
              {"interval", std::to_string(p->interval.count()) + "ms"}};
  } else {
    const auto& rs = std::get<RequestStep>(s.body);
    o["request"] = explore_request(rs.request);
    OJson expect;
    expect["status"] = explore_status_for(c, i, f, w);
    if (rs.expect.json) expect["json"] = explore_ordered(*rs.expect.json);
    expect["contract"] = i == f.step && f.check == "contract";
    o["expect"] = expect;
  }
  if (!s.captures.empty()) o["capture"] = explore_captures(s);
  return o;
}

}  // namespace

std::string scenario_yaml(const Case& c, const CheckFailure& f, const WriteContext& w,
                          std::string& error) {
  if (c.unwritable) {
    error = "the request holds bytes that are not UTF-8, which a YAML file cannot carry";
    return "";
  }
  OJson doc;
  doc["name"] = "explore: " + f.check + " fails on " + c.operation() +
                (c.mutation.empty() ? "" : " (" + c.mutation + ")");
  doc["description"] = "Found by `" + w.command + "`, case " + std::to_string(c.index) +
                       ", shrunk. The check that failed: " + f.check +
                       ". Then: " + f.message.substr(0, 300);
  doc["tags"] = OJson::array({"explore", f.check});
  OJson steps = OJson::array();
  for (size_t i = 0; i < c.scenario.steps.size(); ++i) steps.push_back(explore_step(c, i, f, w));
  doc["steps"] = steps;
  std::string text = record::to_yaml(doc);
  LoadResult back = load_scenario_text(text, "explore-written.yaml");
  if (!back.ok()) {
    error = "the written scenario does not load: " +
            (back.errors.empty() ? std::string("no scenario") : back.errors.front().str());
    return "";
  }
  return text;
}

}  // namespace runner::explore
