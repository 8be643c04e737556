#!/usr/bin/env bash
# The list of handler groups (cmake/handler_groups.cmake) names every
# FAKE_ORG_HANDLERS group of the HTTP layer's sources, tests aside, and the
# build stops on a name used twice, a malformed name, or no group at all.
set -euo pipefail
cmake_bin=$1 http_dir=$2 script=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tree: every group the sources define is listed, once.
"$cmake_bin" -DDIR="$http_dir" -DOUT="$tmp/groups.cpp" -P "$script"
defined=$(cat "$http_dir"/*.cpp | grep -c '^FAKE_ORG_HANDLERS(' || true)
listed=$(grep -c '^void handler_group_' "$tmp/groups.cpp")
[ "$defined" -gt 0 ] && [ "$defined" = "$listed" ] ||
  { echo "FAIL: $defined groups defined in $http_dir, $listed listed"; exit 1; }
grep -qF '{"admin", "http/admin_routes.cpp", &handler_group_admin},' "$tmp/groups.cpp" ||
  { echo "FAIL: the admin group is not listed with its file"; cat "$tmp/groups.cpp"; exit 1; }

expect_refused() {  # <expected text>; the sources are in $tmp/http
  if out=$("$cmake_bin" -DDIR="$tmp/http" -DOUT="$tmp/out.cpp" -P "$script" 2>&1); then
    echo "FAIL: the list was written from:"; head -n 3 "$tmp"/http/*.cpp; exit 1
  fi
  grep -qF "$1" <<<"$out" || { echo "FAIL: the message does not say '$1':"; echo "$out"; exit 1; }
}
mkdir -p "$tmp/http"
printf 'FAKE_ORG_HANDLERS(mandate) {}\n' >"$tmp/http/mandate_routes.cpp"
printf 'FAKE_ORG_HANDLERS(mandate) {}\n' >"$tmp/http/other_routes.cpp"
expect_refused "http/other_routes.cpp: group 'mandate' is also defined in http/mandate_routes.cpp"
rm "$tmp/http/other_routes.cpp"
printf 'FAKE_ORG_HANDLERS(Mandate) {}\n' >"$tmp/http/upper_routes.cpp"
expect_refused "http/upper_routes.cpp: FAKE_ORG_HANDLERS(Mandate)"
rm "$tmp/http"/*.cpp
printf 'int x;\n' >"$tmp/http/plain.cpp"
printf 'FAKE_ORG_HANDLERS(in_a_test) {}\n' >"$tmp/http/plain_test.cpp"
expect_refused "No FAKE_ORG_HANDLERS(name)"
# A test's groups are not the server's; a new file's group is listed.
printf 'FAKE_ORG_HANDLERS(mandate) {}\n' >"$tmp/http/mandate_routes.cpp"
"$cmake_bin" -DDIR="$tmp/http" -DOUT="$tmp/out.cpp" -P "$script"
grep -qF '{"mandate", "http/mandate_routes.cpp", &handler_group_mandate},' "$tmp/out.cpp"
if grep -q in_a_test "$tmp/out.cpp"; then echo "FAIL: a test's group was listed"; exit 1; fi
echo "handler groups: $listed listed from the tree; a duplicate, a malformed name and none refused"
