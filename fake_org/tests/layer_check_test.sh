#!/usr/bin/env bash
# The layer check (cmake/check_layers.cmake) passes on the tree and fails, naming
# the file and the include, on a copy where the domain includes the HTTP layer,
# where the util layer includes the domain, and where the domain includes httplib.
set -euo pipefail
cmake_bin=$1 root=$2 script=$3
"$cmake_bin" -DROOT="$root" -P "$script"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_refused() {  # <layer> <file> <include line> <expected text>
  rm -rf "$tmp/fake_org" && mkdir -p "$tmp/fake_org/$1"
  printf '%s\nint x;\n' "$3" >"$tmp/fake_org/$1/$2"
  if out=$("$cmake_bin" -DROOT="$tmp/fake_org" -P "$script" 2>&1); then
    echo "FAIL: the check accepted $1/$2 with: $3"
    exit 1
  fi
  grep -qF "$4" <<<"$out" || { echo "FAIL: the message does not name '$4':"; echo "$out"; exit 1; }
}
expect_refused domain org.cpp '#include "http/server.h"' 'fake_org/domain/org.cpp: #include "http/server.h"'
expect_refused util text.cpp '#include "domain/org.h"' "layer 'util' may use: util"
expect_refused domain views.cpp '#include <httplib.h>' 'fake_org/domain/views.cpp: #include <httplib.h>'
expect_refused events sink.cpp '#include "fixture/fixture_loader.h"' 'fake_org/events/sink.cpp'
# Tests link the whole org: a test beside the domain may include anything.
rm -rf "$tmp/fake_org" && mkdir -p "$tmp/fake_org/domain"
printf '#include "http/server.h"\n' >"$tmp/fake_org/domain/org_test.cpp"
"$cmake_bin" -DROOT="$tmp/fake_org" -P "$script"
echo "layer check: passes on the tree, refuses 4 wrong-direction includes"
