#include "commands/explore/operation_rows.h"

namespace runner::explore {

namespace {

using nlohmann::json;

json composite_account(BuildContext& c, const std::string& name) {
  return {{"attributes", {{"type", "Account"}}}, {"Name", name + " " + c.tag}};
}

json composite_body_create(BuildContext& c) {
  return {{"allOrNone", c.rng.chance(50)},
          {"records",
           {composite_account(c, "Explore Collection A"),
            composite_account(c, "Explore Collection B")}}};
}

json composite_body_update(BuildContext& c) {
  json a = composite_account(c, "Explore Collection Renamed");
  a["id"] = "${account}";
  return {{"allOrNone", false}, {"records", {a}}};
}

json composite_body_retrieve(BuildContext&) {
  return {{"ids", {"${account}"}}, {"fields", {"Id", "Name"}}};
}

json composite_body_upsert(BuildContext& c) {
  json a = composite_account(c, "Explore Collection Upserted");
  a[c.facts.account_external_id] = "explore-coll-" + c.tag;
  return {{"allOrNone", false}, {"records", {a}}};
}

std::string composite_url(BuildContext& c, const std::string& rest) {
  return "/services/data/v" + c.facts.api_version + rest;
}

// An account, then a read of it by reference (@{...}), in one request.
json composite_body_composite(BuildContext& c) {
  return {{"allOrNone", true},
          {"compositeRequest",
           {{{"method", "POST"},
             {"url", composite_url(c, "/sobjects/Account")},
             {"referenceId", "NewAccount"},
             {"body", {{"Name", "Explore Composite " + c.tag}}}},
            {{"method", "GET"},
             {"url", composite_url(c, "/sobjects/Account/@{NewAccount.id}")},
             {"referenceId", "ReadAccount"}}}}};
}

// Batch subrequests name their URL from the version on (v59.0/...).
json composite_body_batch(BuildContext& c) {
  const std::string v = "v" + c.facts.api_version;
  return {{"haltOnError", false},
          {"batchRequests",
           {{{"method", "GET"}, {"url", v + "/sobjects/Account/${account}"}},
            {{"method", "PATCH"},
             {"url", v + "/sobjects/Account/${account}"},
             {"richInput", {{"Name", "Explore Batch " + c.tag}}}}}}};
}

json composite_body_tree(BuildContext& c) {
  return {{"records",
           {{{"attributes", {{"type", "Account"}, {"referenceId", "ref1"}}},
             {"Name", "Explore Tree " + c.tag},
             {"Contacts",
              {{"records",
                {{{"attributes", {{"type", "Contact"}, {"referenceId", "ref2"}}},
                  {"LastName", "Explore Leaf " + c.tag}}}}}}}}}};
}

json composite_body_graph(BuildContext& c) {
  return {{"graphs",
           {{{"graphId", "g1"},
             {"compositeRequest",
              {{{"method", "POST"},
                {"url", composite_url(c, "/sobjects/Account")},
                {"referenceId", "GraphAccount"},
                {"body", {{"Name", "Explore Graph " + c.tag}}}}}}}}}};
}

}  // namespace

void explore_composite_operations(std::vector<Operation>& ops) {
  const std::string d = "/services/data/v{api}/composite";
  Operation create =
      operation_row("createAccounts", "postCompositeSObjects", "POST", d + "/sobjects", "");
  create.body = composite_body_create;
  create.counts = {"Account"};
  ops.push_back(std::move(create));
  Operation update = operation_row("updateAccounts", "patchCompositeSObjects", "PATCH",
                                   d + "/sobjects", "account");
  update.body = composite_body_update;
  update.counts = {"Account"};
  ops.push_back(std::move(update));
  Operation get = operation_row("retrieveAccounts", "getCompositeSObjectsRetrieve", "GET",
                                d + "/sobjects/Account", "account");
  get.query = {{"ids", "${account}"}, {"fields", "Id,Name"}};
  ops.push_back(std::move(get));
  Operation post = operation_row("retrieveAccountsByPost", "postCompositeSObjectsRetrieve", "POST",
                                 d + "/sobjects/Account", "account");
  post.body = composite_body_retrieve;
  ops.push_back(std::move(post));
  Operation del = operation_row("deleteAccounts", "deleteCompositeSObjects", "DELETE",
                                d + "/sobjects", "account");
  del.query = {{"ids", "${account}"}, {"allOrNone", "false"}};
  del.ends = true;
  ops.push_back(std::move(del));
  Operation upsert = operation_row("upsertAccounts", "upsertCompositeSObjects", "PATCH",
                                   d + "/sobjects/Account/{external_id}", "");
  upsert.body = composite_body_upsert;
  upsert.counts = {"Account"};
  ops.push_back(std::move(upsert));
  Operation composite = operation_row("composite", "postComposite", "POST", d, "");
  composite.body = composite_body_composite;
  composite.counts = {"Account"};
  ops.push_back(std::move(composite));
  Operation batch =
      operation_row("compositeBatch", "postCompositeBatch", "POST", d + "/batch", "account");
  batch.body = composite_body_batch;
  ops.push_back(std::move(batch));
  Operation tree =
      operation_row("compositeTree", "postCompositeTree", "POST", d + "/tree/Account", "");
  tree.body = composite_body_tree;
  tree.counts = {"Account", "Contact"};
  ops.push_back(std::move(tree));
  Operation graph = operation_row("compositeGraph", "postCompositeGraph", "POST", d + "/graph", "");
  graph.body = composite_body_graph;
  graph.counts = {"Account"};
  ops.push_back(std::move(graph));
}

}  // namespace runner::explore
