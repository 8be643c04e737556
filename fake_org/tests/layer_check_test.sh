#!/usr/bin/env bash
# The layer check (cmake/check_layers.cmake) passes on the tree and fails, naming
# the file and the include, on a copy where the domain includes the HTTP layer,
# where the util layer includes the domain, where the admin layer includes the
# HTTP layer, where the domain or the transport
# includes a layer it may not, where a domain room includes a room above it,
# where a file outside a room includes the room's internal/ headers, and where
# a domain folder is no room.
set -euo pipefail
cmake_bin=$1 root=$2 script=$3
"$cmake_bin" -DROOT="$root" -P "$script"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_refused() {  # <layer or layer/room> <file> <include line> <expected text>
  rm -rf "$tmp/fake_org" && mkdir -p "$tmp/fake_org/$1"
  printf '%s\nint x;\n' "$3" >"$tmp/fake_org/$1/$2"
  if out=$("$cmake_bin" -DROOT="$tmp/fake_org" -P "$script" 2>&1); then
    echo "FAIL: the check accepted $1/$2 with: $3"
    exit 1
  fi
  grep -qF "$4" <<<"$out" || { echo "FAIL: the message does not name '$4':"; echo "$out"; exit 1; }
}
expect_refused domain/org org.cpp '#include "http/server.h"' 'fake_org/domain/org/org.cpp: #include "http/server.h"'
expect_refused util text.cpp '#include "domain/org/org.h"' "layer 'util' may use: util"
expect_refused domain/payments views.cpp '#include <httplib.h>' 'fake_org/domain/payments/views.cpp: #include <httplib.h>'
expect_refused events sink.cpp '#include "fixture/fixture_loader.h"' 'fake_org/events/sink.cpp'
expect_refused net connection_stream.cpp '#include "http/request_log.h"' "layer 'net' may use: util, net, httplib"
expect_refused domain net.cpp '#include "net/connection_server.h"' "layer 'domain' may use: util, domain"
expect_refused admin admin.cpp '#include "http/responses.h"' "layer 'admin' may use: util, domain, fixture, admin"
# The domain's rooms: core <- store <- config <- org <- payers, banking <- payments; org <- soql <- data.
expect_refused domain/store record_store.cpp '#include "domain/config/org_config.h"' "room 'store' may use: core, store"
expect_refused domain/org org.cpp '#include "domain/payments/collection_run.h"' "fake_org/domain/org/org.cpp: #include \"domain/payments/collection_run.h\" (room 'org' may use: core, store, config, org)"
expect_refused domain/banking bank_parameters.h '#include "domain/payments/payment_method_resolution.h"' "room 'banking' may use"
expect_refused domain/soql soql.cpp '#include "domain/data/sobject_read.h"' "room 'soql' may use: core, store, config, org, soql"
expect_refused domain/payments views.cpp '#include "domain/soql/soql.h"' "room 'payments' may use"
expect_refused domain/data sobject_read.cpp '#include "domain/payments/internal/payment_intent_ops.h"' "(internal to the room 'payments')"
expect_refused http routes.cpp '#include "domain/payments/internal/recurring_ops.h"' "(internal to the room 'payments')"
expect_refused domain/misc x.cpp '#include "domain/core/ids.h"' "'misc' is not a room of the domain"
# A room may include its own internal/ headers, a lower room's public ones and
# a bare name from its own folder; the top of domain/ may include every room.
rm -rf "$tmp/fake_org" && mkdir -p "$tmp/fake_org/domain/payments/internal"
printf '#include "domain/payments/internal/recurring_ops.h"\n#include "domain/org/org.h"\n#include "views.h"\n' \
  >"$tmp/fake_org/domain/payments/recurring_update.cpp"
printf '#include "domain/payments/views.h"\n#include "domain/data/sobject_read.h"\n' >"$tmp/fake_org/domain/org_modules.cpp"
"$cmake_bin" -DROOT="$tmp/fake_org" -P "$script"
# Tests link the whole org: a test beside the domain may include anything.
rm -rf "$tmp/fake_org" && mkdir -p "$tmp/fake_org/domain"
printf '#include "http/server.h"\n' >"$tmp/fake_org/domain/org_test.cpp"
"$cmake_bin" -DROOT="$tmp/fake_org" -P "$script"
echo "layer check: passes on the tree, refuses 15 wrong-direction includes"
