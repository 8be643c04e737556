#!/usr/bin/env bash
# scenarios/COVERAGE.md stays true (CTest: scenarios.coverage): every scenario
# path it names exists, and every scenario file of the suite is named in it.
# Usage: coverage_check.sh SCENARIOS_DIR
set -euo pipefail
dir=$1
table="$dir/COVERAGE.md"
[ -f "$table" ] || { echo "FAIL: $table is missing" >&2; exit 1; }

named=$(grep -o '`[A-Za-z0-9_./-]*\.ya\?ml`' "$table" | tr -d '`' | sort -u)
# The runner's own rule: *.yaml/*.yml under the folder, schema/ and fixtures/ skipped.
files=$(cd "$dir" && find . \( -name schema -o -name fixtures \) -prune -o \
          -type f \( -name '*.yaml' -o -name '*.yml' \) -print | sed 's|^\./||' | sort)

status=0
for p in $named; do
  [ -f "$dir/$p" ] || { echo "FAIL: COVERAGE.md names $p, which does not exist" >&2; status=1; }
done
for f in $files; do
  grep -qx -- "$f" <<<"$named" || { echo "FAIL: $f is not named in COVERAGE.md" >&2; status=1; }
done
# A row whose last cell is empty covers nothing.
if grep -nE '^\|.*\|[[:space:]]*\|[[:space:]]*$' "$table" >&2; then
  echo "FAIL: COVERAGE.md has rows without scenarios (above)" >&2
  status=1
fi
[ $status -eq 0 ] && echo "ok: $(wc -w <<<"$files") scenario files, each named in COVERAGE.md"
exit $status
