#!/usr/bin/env bash
# What the scenario suite must do, end to end through the real
# binaries (CTest: scenarios.sandbox):
#   1. one fake-org per fixture the suite needs runs as a separate process
#      serving HTTPS with a certificate made here, and scenario-runner reaches
#      them only as sandboxes (OAuth client credentials, the secret from the
#      environment, --ca-file trust), each scenario routed to the sandbox
#      configuration of its fixture (--target repeated): the whole suite
#      passes with -j 2, and exactly the scenarios with fake-only steps (psp,
#      clock, /__admin reads) are skipped, for that reason and no other;
#   2. --shard 1/2 and --shard 2/2 together select every scenario of the
#      suite exactly once;
#   3. no fake-org broke its own contract (--check-contracts exits 3).
# Usage: sandbox_suite.sh SCENARIO_RUNNER FAKE_ORG SCENARIOS_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/../../fake_org/testing/await_listening.sh"

runner=$1 fake_org=$2 scenarios=$3 work=$4
scenarios=$(cd "$scenarios" && pwd)
rm -rf "$work" && mkdir -p "$work"
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }

# A self-signed certificate for 127.0.0.1, the orgs' own "private CA".
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1,DNS:localhost \
  -keyout key.pem -out cert.pem 2>/dev/null || fail "openssl could not make a certificate"

# The fixtures the suite names (scenarios/**/fixtures/ hold fixtures, not
# scenarios): an embedded name as embedded:NAME, a file as its path.
scenario_files() { find "$scenarios" -name '*.yaml' -not -path '*/fixtures/*' -not -path '*/schema/*' | sort; }
fixtures=()
while IFS= read -r f; do
  fx=$(sed -n 's/^fixture: *\([^ #]*\).*$/\1/p' "$f" | head -n1)
  fx=${fx:-default.yaml}
  case $fx in
    */*) spec=$(cd "$(dirname "$f")" && realpath "$fx") ;;
    *) spec=embedded:$fx ;;
  esac
  printf '%s\n' "$spec"
done < <(scenario_files) | sort -u >fixtures.txt
mapfile -t fixtures <fixtures.txt
[ "${#fixtures[@]}" -ge 2 ] || fail "expected the suite to need several fixtures, found: ${fixtures[*]}"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Line-buffered stdout on a pipe would still deliver the readiness line; a file
# avoids keeping a pipe open for the child's whole life.
export SANDBOX_SUITE_CLIENT_SECRET=local-secret
targets=()
for i in "${!fixtures[@]}"; do
  spec=${fixtures[$i]}
  "$fake_org" --fixture "$spec" --port 0 --log-level quiet --check-contracts \
    --tls-cert cert.pem --tls-key key.pem >"org$i.out" 2>"org$i.err" &
  pids+=($!)
done
for i in "${!fixtures[@]}"; do
  url=$(await_listening "${pids[$i]}" "org$i.out" "org$i.err" https)
  name=$(basename "${fixtures[$i]#embedded:}")
  echo "fake-org (separate process, fixture ${fixtures[$i]}) at $url"
  # `fixture:` says which configuration this org resembles: the runner sends
  # it the scenarios written for that fixture.
  cat >"sandbox-$name" <<YAML
instance_url: $url
oauth:
  grant: client_credentials
  client_id: local-client
  client_secret: \${env:SANDBOX_SUITE_CLIENT_SECRET}
ca_file: cert.pem
fixture: $name
YAML
  targets+=(--target "sandbox-$name")
done

# File paths of a JSON report's scenarios, one a line.
files_of() { node -e 'for (const s of JSON.parse(require("fs").readFileSync(process.argv[1])).scenarios) console.log(s.file)' "$1" | sort; }

echo "== the suite against ${#fixtures[@]} sandboxes (one per fixture), -j 2"
"$runner" "$scenarios" "${targets[@]}" -j 2 --report-json sandbox.json \
  || fail "the suite failed against the sandbox targets (report: $work/sandbox.json)"

# Fake-only steps, found in the files themselves rather than by the runner:
# psp and clock steps, and requests or polls reading /__admin.
scenario_files | xargs grep -lE '^\s*(- )?(psp|clock):|/__admin' | sort >expected_skips.txt
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
  for (const s of r.scenarios) if (s.outcome === "skipped") console.log(s.file + "\t" + s.skip_reason.split("\n")[0]);
' sandbox.json | sort >skips.txt
cut -f1 skips.txt >skipped_files.txt
diff -u expected_skips.txt skipped_files.txt \
  || fail "skipped scenarios differ from those with fake-only (psp, clock, /__admin) steps"
if grep -v "needs the fake's admin API, which a real org does not have" skips.txt; then
  fail "scenarios skipped for another reason than a fake-only step (above)"
fi
total=$(scenario_files | wc -l)
nskips=$(wc -l <expected_skips.txt)
node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1])).summary;
  const [total, skipped] = [+process.argv[2], +process.argv[3]];
  if (s.failed !== 0 || s.skipped !== skipped || s.passed !== total - skipped) {
    console.error("summary", JSON.stringify(s), "expected", total - skipped, "passed,", skipped, "skipped");
    process.exit(1);
  }' sandbox.json "$total" "$nskips" || fail "unexpected pass/skip counts against the sandboxes"
echo "ok: $((total - nskips)) passed, $nskips skipped (fake-only steps), of $total"

# The shards as --list selects them (scenarios.embedded runs the suite, and
# docs.ci_* run it sharded: running it twice more here would prove no more).
echo "== the suite in two shards"
"$runner" "$scenarios" --shard 1/2 --list >shard1.list || fail "shard 1/2 --list failed"
"$runner" "$scenarios" --shard 2/2 --list >shard2.list || fail "shard 2/2 --list failed"

files_of sandbox.json >all.txt
# --list prints "FILE  NAME" a line, then a count.
grep -v " scenario(s)$" shard1.list | cut -d' ' -f1 | xargs -r realpath >shard1.txt
grep -v " scenario(s)$" shard2.list | cut -d' ' -f1 | xargs -r realpath >shard2.txt
sort shard1.txt shard2.txt >shards.txt
[ -s all.txt ] || fail "the sandbox report names no scenario"
dups=$(uniq -d shards.txt)
[ -z "$dups" ] || fail "scenarios run by both shards: $dups"
diff -u all.txt shards.txt || fail "the shards together do not run exactly the whole suite"
[ -s shard1.txt ] && [ -s shard2.txt ] || fail "a shard was empty"
echo "ok: $(wc -l <all.txt) scenarios; both shards together run each exactly once"

# fake-org --check-contracts exits 3 on SIGTERM when any response or webhook it
# sent broke the strict contract (each logged as CONTRACT VIOLATION).
echo "== the fakes' contract self-check"
trap - EXIT
for i in "${!fixtures[@]}"; do
  kill -TERM "${pids[$i]}"
  org_status=0
  wait "${pids[$i]}" || org_status=$?
  [ "$org_status" -eq 0 ] || { cat "org$i.err" >&2; fail "fake-org (${fixtures[$i]}) exited $org_status: it broke its own contract"; }
done
echo "ok: no fake-org sent anything outside the contract"
