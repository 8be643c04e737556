#!/usr/bin/env bash
# CTest readme.curl_session: the README's "A first session with curl", taken
# from README.md itself (so the README stays true) and run as written against
# a fake-org on a free port, with --check-contracts. The session's address
# (http://127.0.0.1:8080) is replaced by the fake's; nothing else changes.
# Usage: readme_curl_session.sh FAKE_ORG README.md
set -euo pipefail

fake_org=$1 readme=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in curl python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (ci/bootstrap installs it)"
done

heading='### A first session with curl'
# The first ```sh block after the heading.
session=$(awk -v h="$heading" '$0 == h {in_section = 1; next}
  in_section && /^```sh$/ {in_block = 1; next}
  in_block && /^```$/ {exit}
  in_block {print}' "$readme")
[ -n "$session" ] || fail "no \`\`\`sh block after '$heading' in $readme"
grep -q 'http://127.0.0.1:8080/services/oauth2/token' <<<"$session" ||
  fail "the README's session no longer gets a token from http://127.0.0.1:8080"
grep -q 'http://127.0.0.1:8080/services/apexrest/cpm/v2/PaymentMethods' <<<"$session" ||
  fail "the README's session no longer calls GET /PaymentMethods"

work=$(mktemp -d)
org_pid=
cleanup() {
  [ -n "$org_pid" ] && kill "$org_pid" 2>/dev/null && wait "$org_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$fake_org" --port 0 --log-level quiet --check-contracts >"$work/org.out" 2>"$work/org.err" &
org_pid=$!
url=
for _ in $(seq 1 200); do
  url=$(sed -n 's/^listening on \(http:\/\/.*\)$/\1/p' "$work/org.out")
  [ -n "$url" ] && break
  kill -0 "$org_pid" 2>/dev/null || { cat "$work/org.err" >&2; fail "fake-org exited before listening"; }
  sleep 0.05
done
[ -n "$url" ] || fail "fake-org printed no 'listening on' line"

session=${session//http:\/\/127.0.0.1:8080/$url}
echo "== the README's session against $url"
printf '%s\n' "$session"
(cd "$work" && bash -euo pipefail -c "$session") >"$work/session.out" 2>"$work/session.err" ||
  { cat "$work/session.err" >&2; fail "the README's session failed"; }
cat "$work/session.out"
echo

# GET /PaymentMethods answered with the org's methods: the token worked.
grep -q '{"PaymentMethods":\[{"Name":"CreditCard"' "$work/session.out" ||
  fail "GET /PaymentMethods did not answer the default org's methods"
grep -q '"Id":"pi_' "$work/session.out" || fail "POST /PaymentIntent created no payment intent"
grep -q 'INVALID_SESSION_ID\|"Errors"' "$work/session.out" &&
  fail "a call of the README's session was refused"

kill -TERM "$org_pid"
status=0
wait "$org_pid" || status=$?
org_pid=
[ "$status" -eq 0 ] || { cat "$work/org.err" >&2; fail "fake-org exited $status (contract violations?)"; }
echo "ok: the README's curl session works as written"
