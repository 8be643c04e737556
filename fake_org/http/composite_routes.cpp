// The REST data API's composite family: POST composite (subrequests with
// references, allOrNone), composite/graph (each graph all or none),
// composite/batch (independent subrequests) and composite/tree/{Type}
// (nested records, one transaction). Subrequests run through the site's
// router (subrequests.h); all-or-none ones in one transaction
// (data::all_or_none).
#include "data_api.h"
#include "domain/data/all_or_none.h"
#include "domain/data/composite_references.h"
#include "domain/data/composite_request.h"
#include "domain/data/composite_tree.h"
#include "subrequests.h"

namespace fake_org::http {

namespace {

using data::Subrequest;

// What the subrequests that did not fail answer once an all-or-none request
// has rolled back.
SubrequestAnswer rolled_back() {
  return error_answer(
      400, {data::data_error(data::code::kProcessingHalted,
                             "The transaction was rolled back since another operation in the "
                             "same transaction failed.")});
}

struct Chain {
  std::vector<SubrequestAnswer> answers;
  bool failed = false;
};

// The subrequests in order, each after its references resolve against the
// earlier successes. With all_or_none, the first failure halts the rest and
// every other answer becomes the roll-back's.
Chain run_chain(const SiteRouter& site, const Call& outer, const std::vector<Subrequest>& subs,
                bool all_or_none) {
  Chain chain;
  data::ReferenceResults done;
  for (const Subrequest& s : subs) {
    if (all_or_none && chain.failed) {
      chain.answers.push_back(rolled_back());
      continue;
    }
    auto url = data::resolve_text(s.url, done);
    if (!url.ok()) {
      chain.answers.push_back(error_answer(400, url.errors()));
      chain.failed = true;
      continue;
    }
    auto body = data::resolve_body(s.body, done);
    if (!body.ok()) {
      chain.answers.push_back(error_answer(400, body.errors()));
      chain.failed = true;
      continue;
    }
    SubrequestAnswer a = run_subrequest(site, outer, s, *url, *body);
    if (a.failed())
      chain.failed = true;
    else
      done[s.reference_id] = a.body;
    chain.answers.push_back(std::move(a));
  }
  if (all_or_none && chain.failed)  // the failure itself keeps its own answer
    for (auto& a : chain.answers)
      if (!a.failed()) a = rolled_back();
  return chain;
}

nlohmann::ordered_json composite_response(const std::vector<Subrequest>& subs, const Chain& chain) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (size_t i = 0; i < subs.size(); ++i) {
    const SubrequestAnswer& a = chain.answers[i];
    out.push_back({{"body", a.body},
                   {"httpHeaders", a.headers},
                   {"httpStatusCode", a.status},
                   {"referenceId", subs[i].reference_id}});
  }
  return out;
}

// One chain, all or none when asked: nothing it wrote stays when it fails.
Chain run_composite(const DataContext& ctx, const SiteRouter& site, const Call& outer,
                    const std::vector<Subrequest>& subs, bool all_or_none) {
  const UncountedRequests one_call;  // the composite request itself was counted
  if (!all_or_none) return run_chain(site, outer, subs, false);
  Chain chain;
  data::all_or_none(*ctx.org, [&] {
    chain = run_chain(site, outer, subs, true);
    return !chain.failed;
  });
  return chain;
}

void on_composite(Handlers& handlers, const DataContext& ctx, std::shared_ptr<SiteRouter> site) {
  handlers.on("postComposite", [ctx, site](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto request = data::parse_composite(*body, version);
      if (!request.ok()) return send_data_errors(c.res, request.errors());
      Chain chain = run_composite(ctx, *site, c, request->subrequests, request->all_or_none);
      send_data_json(c.res, 200,
                     {{"compositeResponse", composite_response(request->subrequests, chain)}});
    });
  });
  handlers.on("postCompositeGraph", [ctx, site](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto graphs = data::parse_graphs(*body, version);
      if (!graphs.ok()) return send_data_errors(c.res, graphs.errors());
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (const data::Graph& g : *graphs) {
        Chain chain = run_composite(ctx, *site, c, g.nodes, true);
        out.push_back(
            {{"graphId", g.id},
             {"graphResponse", {{"compositeResponse", composite_response(g.nodes, chain)}}},
             {"isSuccessful", !chain.failed}});
      }
      send_data_json(c.res, 200, {{"graphs", std::move(out)}});
    });
  });
}

void on_batch(Handlers& handlers, const DataContext& ctx, std::shared_ptr<SiteRouter> site) {
  handlers.on("postCompositeBatch", [ctx, site](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto batch = data::parse_batch(*body, version);
      if (!batch.ok()) return send_data_errors(c.res, batch.errors());
      nlohmann::ordered_json results = nlohmann::ordered_json::array();
      bool has_errors = false;
      for (const Subrequest& s : batch->subrequests) {
        SubrequestAnswer a =
            has_errors && batch->halt_on_error
                ? error_answer(412, {data::data_error(data::code::kBatchProcessingHalted,
                                                      "Batch processing halted per request")})
                : run_subrequest(*site, c, s, s.url, s.body);
        has_errors = has_errors || a.failed();
        results.push_back({{"statusCode", a.status}, {"result", a.body}});
      }
      send_data_json(c.res, 200, {{"hasErrors", has_errors}, {"results", std::move(results)}});
    });
  });
}

}  // namespace

// POST composite, composite/graph, composite/batch and composite/tree/{sobject}.
FAKE_ORG_HANDLERS(data_composite_family) {
  const DataContext ctx = data_context(context);
  on_composite(handlers, ctx, context.site_router);
  on_batch(handlers, ctx, context.site_router);
  handlers.on("postCompositeTree", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto outcome = data::save_tree(*ctx.org, c.params["sobject"], *body);
      if (!outcome.ok()) return send_data_errors(c.res, outcome.errors());
      send_data_json(c.res, outcome->has_errors ? 400 : 201, data::tree_outcome_json(*outcome));
    });
  });
}

}  // namespace fake_org::http
