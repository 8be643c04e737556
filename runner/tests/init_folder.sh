#!/usr/bin/env bash
# CTest runner.init_folder: what `scenario-runner init DIR` writes runs as it
# is, the folder given whole (its sandbox.yaml is a target, not a scenario):
# on the embedded fake, then against a fake-org process on a free port with
# -j 4 (a throwaway org per scenario); `next:` names the binary as invoked.
# Usage: init_folder.sh SCENARIO_RUNNER FAKE_ORG WORK_DIR
set -euo pipefail
source "$(dirname "$0")/../../fake_org/testing/await_listening.sh"
runner=$1 fake_org=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$runner" init "$work/my-tests" >"$work/init.out"
cat "$work/init.out"
grep -qxF "next: $runner $work/my-tests --verbose" "$work/init.out" ||
  fail "init's next: line does not name $runner and the folder"
docs=$(sed -n 's/^  the format: //p' "$work/init.out")
[ -f "$docs" ] || fail "init names documentation that is not a file: '$docs'"

"$runner" "$work/my-tests" --no-progress >"$work/embedded.out" 2>&1 ||
  { cat "$work/embedded.out"; fail "the folder init made does not run on the embedded fake"; }
grep -q '^1 passed, 0 failed, 0 skipped$' "$work/embedded.out" ||
  { cat "$work/embedded.out"; fail "expected the one first scenario to pass (embedded)"; }

pid=
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; } || true' EXIT
"$fake_org" --port 0 --log-level quiet >"$work/org.out" 2>"$work/org.err" &
pid=$!
url=$(await_listening "$pid" "$work/org.out" "$work/org.err")
"$runner" "$work/my-tests" --target "$url" -j 4 --no-progress >"$work/url.out" 2>&1 ||
  { cat "$work/url.out"; fail "the folder init made does not run against $url with -j 4"; }
grep -q '^1 passed, 0 failed, 0 skipped$' "$work/url.out" ||
  { cat "$work/url.out"; fail "expected the one first scenario to pass (fake-org at $url)"; }
echo "init's folder passed embedded and against fake-org at $url (-j 4)"
