#!/usr/bin/env bash
# CTest readme.curl_session: "A first session with curl" and "The JWT bearer
# flow and a SOQL query" of docs/running.md, taken from the page itself (so it
# stays true) and run as written against a fake-org on a free port, with
# --check-contracts. The sessions' address (http://127.0.0.1:8080) is replaced
# by the fake's; nothing else changes. The JWT session runs from the project
# root, as the page says, for the test key's path. The block of
# docs/several-orgs.md runs too, without its first line (the fake-org it
# starts is the one here).
# Usage: readme_curl_session.sh FAKE_ORG PROJECT_ROOT
set -euo pipefail
source "$(dirname "$0")/../testing/await_listening.sh"

fake_org=$1
root=$(cd "$2" && pwd)
running=$root/docs/running.md several_orgs=$root/docs/several-orgs.md
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in curl python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (ci/bootstrap installs it)"
done

# The first ```sh block after a heading of a page.
block() {
  awk -v h="$2" '$0 == h {in_section = 1; next}
    in_section && /^```sh$/ {in_block = 1; next}
    in_block && /^```$/ {exit}
    in_block {print}' "$1"
}
heading='## A first session with curl'
session=$(block "$running" "$heading")
[ -n "$session" ] || fail "no \`\`\`sh block after '$heading' in $running"
jwt_heading='## The JWT bearer flow and a SOQL query'
jwt_session=$(block "$running" "$jwt_heading")
[ -n "$jwt_session" ] || fail "no \`\`\`sh block after '$jwt_heading' in $running"
orgs_heading='# Several orgs'
orgs_session=$(block "$several_orgs" "$orgs_heading" | grep -v '^build/bin/fake-org ')
grep -q '/__admin/orgs' <<<"$orgs_session" ||
  fail "no \`\`\`sh block with /__admin/orgs after '$orgs_heading' in $several_orgs"
grep -q 'http://127.0.0.1:8080/services/oauth2/token' <<<"$session" ||
  fail "the first session no longer gets a token from http://127.0.0.1:8080"
grep -q 'http://127.0.0.1:8080/services/apexrest/cpm/v2/PaymentMethods' <<<"$session" ||
  fail "the first session no longer calls GET /PaymentMethods"

work=$(mktemp -d)
org_pid=
cleanup() {
  [ -n "$org_pid" ] && kill "$org_pid" 2>/dev/null && wait "$org_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$fake_org" --port 0 --log-level quiet --check-contracts >"$work/org.out" 2>"$work/org.err" &
org_pid=$!
url=$(await_listening "$org_pid" "$work/org.out" "$work/org.err")

# run NAME DIR TEXT: one block of the docs against the fake, from DIR; its output
# goes to $work/NAME.out.
run() {
  local text=${3//http:\/\/127.0.0.1:8080/$url}
  echo "== the docs' $1 session against $url"
  printf '%s\n' "$text"
  (cd "$2" && bash -euo pipefail -c "$text") >"$work/$1.out" 2>"$work/$1.err" ||
    { cat "$work/$1.err" >&2; fail "the docs' $1 session failed"; }
  cat "$work/$1.out"
  echo
}

run curl "$work" "$session"
# GET /PaymentMethods answered with the org's methods: the token worked.
grep -q '{"PaymentMethods":\[{"Name":"CreditCard"' "$work/curl.out" ||
  fail "GET /PaymentMethods did not answer the default org's methods"
grep -q '"Id":"pi_' "$work/curl.out" || fail "POST /PaymentIntent created no payment intent"
grep -q 'INVALID_SESSION_ID\|"Errors"' "$work/curl.out" &&
  fail "a call of the first session was refused"

run jwt "$root" "$jwt_session"
grep -q '"preferred_username":"ada@local-fake-org.example"' "$work/jwt.out" ||
  fail "userinfo did not name the assertion's user"
grep -q '"totalSize":3,' "$work/jwt.out" || fail "the SOQL query did not find the default org's 3 campaigns"
grep -q '"errorCode"\|"error"' "$work/jwt.out" && fail "a call of the JWT session was refused"

run orgs "$work" "$orgs_session"
grep -q '"name":"shop-a"' "$work/orgs.out" || fail "POST /__admin/orgs created no org shop-a"
grep -q '"instance_url":"'"$url"'/orgs/shop-a"' "$work/orgs.out" ||
  fail "the token of shop-a does not name its instance URL"
grep -q '{"deleted":"shop-a"}' "$work/orgs.out" || fail "DELETE /__admin/orgs/shop-a did not answer"

kill -TERM "$org_pid"
status=0
wait "$org_pid" || status=$?
org_pid=
[ "$status" -eq 0 ] || { cat "$work/org.err" >&2; fail "fake-org exited $status (contract violations?)"; }
echo "ok: the curl, JWT and several-orgs sessions of docs/ work as written"
