#!/usr/bin/env bash
# One batch of Catch2 cases (cmake/catch_tests.cmake): runs them in one
# process, printing each case's time, and fails unless exactly the batch's
# cases ran, so a name Catch could not match is an error, not a silent skip.
set -uo pipefail
exe=$1 list=$2 expected=$3
out=$("$exe" -w NoTests -d yes -f "$list" 2>&1)
rc=$?
printf '%s\n' "$out"
ran=$(printf '%s\n' "$out" | sed -nE 's/.* in ([0-9]+) test cases?\)?$/\1/p; s/^test cases: +([0-9]+) .*/\1/p' | tail -1)
if [ "$rc" -eq 0 ] && [ "${ran:-0}" != "$expected" ]; then
  echo "catch_batch_run: $list names $expected test cases, but ${ran:-none} ran" >&2
  exit 1
fi
exit "$rc"
