#pragma once
// The handlers of every endpoint group, registered by operationId (the rows
// of contracts/routes.yaml). Handlers are thin: parse, one domain call, to_json.
#include "domain/org/org.h"
#include "org_services.h"
#include "router.h"

namespace fake_org::http {

class RequestJournal;
class FaultInjector;
class OrgDirectory;

// Every handler the org's server mounts: the API, OAuth, the PSP's pages and
// the admin API. `tls`: the server's scheme, for the URLs it hands out.
// `orgs`: what /__admin/orgs creates, lists and deletes orgs with (none: one org).
Handlers all_handlers(const OrgServices& services, RequestJournal& journal, FaultInjector& faults,
                      bool tls, std::shared_ptr<OrgDirectory> orgs = nullptr);

// GET /PaymentMethods, /SourceConnector, /PackageActions (spec 4.5, 4.6).
void add_info_handlers(Handlers& handlers, Org& org);

// POST /PaymentIntent, GET /PaymentIntent/{ID}, GET /Installment/{ID} (spec 4.1-4.3).
void add_payment_intent_handlers(Handlers& handlers, Org& org, bool tls);

// POST /Payment, GET /Payment/{ID}: the older interface (spec 4.7).
void add_legacy_payment_handlers(Handlers& handlers, Org& org, bool tls);

// GET /Recurring/{ID} (spec 2.11, 4.4).
void add_recurring_handlers(Handlers& handlers, Org& org);

// /__admin: health, reset, clock, records, webhooks, the PSP driver, the
// request journal, faults (the fake's own API, not the spec's). The reset
// clears the journal and faults too.
void add_admin_handlers(Handlers& handlers, const OrgServices& services, RequestJournal& journal,
                        FaultInjector& faults);

// GET and DELETE /__admin/requests (admin_journal_routes.cpp).
void add_journal_admin_handlers(Handlers& handlers, RequestJournal& journal);

// GET, POST and DELETE /__admin/faults (admin_fault_routes.cpp).
void add_fault_admin_handlers(Handlers& handlers, FaultInjector& faults, std::string api_base);

}  // namespace fake_org::http
