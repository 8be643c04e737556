#!/usr/bin/env bash
# The issue's "done when" for the scenario suite, end to end through the real
# binaries (CTest: scenarios.sandbox):
#   1. fake-org runs as a separate process serving HTTPS with a certificate made
#      here, and scenario-runner reaches it only as a sandbox (OAuth client
#      credentials, the secret from the environment, --ca-file trust): the
#      whole suite passes with -j 2 (fake-only scenarios are skipped);
#   2. --shard 1/2 and --shard 2/2 (embedded target) together run every
#      scenario of the suite exactly once, and both pass.
# Usage: sandbox_suite.sh SCENARIO_RUNNER FAKE_ORG SCENARIOS_DIR WORK_DIR
set -euo pipefail

runner=$1 fake_org=$2 scenarios=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }

# A self-signed certificate for 127.0.0.1, the org's own "private CA".
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1,DNS:localhost \
  -keyout key.pem -out cert.pem 2>/dev/null || fail "openssl could not make a certificate"

# Line-buffered stdout on a pipe would still deliver the readiness line; a file
# avoids keeping a pipe open for the child's whole life.
"$fake_org" --port 0 --log-level quiet --check-contracts --tls-cert cert.pem --tls-key key.pem \
  >org.out 2>org.err &
org_pid=$!
trap 'kill "$org_pid" 2>/dev/null || true; wait "$org_pid" 2>/dev/null || true' EXIT
url=
for _ in $(seq 1 200); do
  url=$(sed -n 's/^listening on \(https:\/\/.*\)$/\1/p' org.out)
  [ -n "$url" ] && break
  kill -0 "$org_pid" 2>/dev/null || { cat org.err >&2; fail "fake-org exited before listening"; }
  sleep 0.05
done
[ -n "$url" ] || fail "fake-org printed no 'listening on https://' line"
echo "fake-org (separate process) at $url"

export SANDBOX_SUITE_CLIENT_SECRET=local-secret
cat >sandbox.yaml <<YAML
instance_url: $url
oauth:
  grant: client_credentials
  client_id: local-client
  client_secret: \${env:SANDBOX_SUITE_CLIENT_SECRET}
ca_file: cert.pem
fixture: default.yaml
YAML

# File paths of a JSON report's scenarios, one a line. The report is written by
# nlohmann::json, so each "file" key and its string sit on one line.
files_of() { grep -o '"file": *"[^"]*"' "$1" | sed 's/^"file": *"\(.*\)"$/\1/' | sort; }

echo "== the suite against the sandbox target, -j 2"
"$runner" "$scenarios" --target sandbox.yaml -j 2 --report-json sandbox.json \
  || fail "the suite failed against the sandbox target (report: $work/sandbox.json)"
grep -q '"passed": *[1-9]' sandbox.json || fail "no scenario passed against the sandbox"

echo "== the embedded target in two shards"
"$runner" "$scenarios" -j 2 --shard 1/2 --report-json shard1.json || fail "shard 1/2 failed"
"$runner" "$scenarios" -j 2 --shard 2/2 --report-json shard2.json || fail "shard 2/2 failed"

files_of sandbox.json >all.txt
files_of shard1.json >shard1.txt
files_of shard2.json >shard2.txt
sort shard1.txt shard2.txt >shards.txt
[ -s all.txt ] || fail "the sandbox report names no scenario"
dups=$(uniq -d shards.txt)
[ -z "$dups" ] || fail "scenarios run by both shards: $dups"
diff -u all.txt shards.txt || fail "the shards together do not run exactly the whole suite"
[ -s shard1.txt ] && [ -s shard2.txt ] || fail "a shard was empty"
echo "ok: $(wc -l <all.txt) scenarios; both shards together run each exactly once"

# fake-org --check-contracts exits 3 on SIGTERM when any response or webhook it
# sent broke the strict contract (each logged as CONTRACT VIOLATION).
echo "== the fake's contract self-check"
trap - EXIT
kill -TERM "$org_pid"
org_status=0
wait "$org_pid" || org_status=$?
[ "$org_status" -eq 0 ] || { cat org.err >&2; fail "fake-org exited $org_status: it broke its own contract"; }
echo "ok: fake-org sent nothing outside the contract"
