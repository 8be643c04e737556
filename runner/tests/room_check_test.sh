#!/usr/bin/env bash
# The runner's room check (cmake/check_runner_rooms.cmake) passes on the tree
# and fails, naming the file and the include, on a copy where a room includes
# one above it: the cycles it once had (steps -> run, report -> targets,
# eval -> scenario), the org outside targets, cpp-httplib outside net and the
# commands, and main.cpp past the commands.
set -euo pipefail
cmake_bin=$1 root=$2 script=$3
"$cmake_bin" -DROOT="$root" -P "$script"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_refused() {  # <room, or . for the top> <file> <include line> <expected text>
  rm -rf "$tmp/src" && mkdir -p "$tmp/src/$1"
  printf '%s\nint x;\n' "$3" >"$tmp/src/$1/$2"
  if out=$("$cmake_bin" -DROOT="$tmp/src" -P "$script" 2>&1); then
    echo "FAIL: the check accepted $1/$2 with: $3"
    exit 1
  fi
  grep -qF "$4" <<<"$out" || { echo "FAIL: the message does not name '$4':"; echo "$out"; exit 1; }
}
expect_refused steps captures.h '#include "run/suite_runner.h"' \
  'runner/src/steps/captures.h: #include "run/suite_runner.h"'
expect_refused report failure_text.cpp '#include "targets/target.h"' \
  'runner/src/report/failure_text.cpp: #include "targets/target.h"'
expect_refused eval matchers.cpp '#include "scenario/model.h"' "room 'eval' may use: json, eval, util"
expect_refused scenario loader.cpp '#include "app/embedded.h"' \
  'runner/src/scenario/loader.cpp: #include "app/embedded.h"'
expect_refused report json_report.cpp '#include <httplib.h>' \
  'runner/src/report/json_report.cpp: #include <httplib.h>'
expect_refused . main.cpp '#include "run/plan.h"' 'runner/src/main.cpp: #include "run/plan.h"'
# Tests link the whole runner: a test beside the steps may include anything.
rm -rf "$tmp/src" && mkdir -p "$tmp/src/steps"
printf '#include "run/suite_runner.h"\n' >"$tmp/src/steps/steps_test.cpp"
"$cmake_bin" -DROOT="$tmp/src" -P "$script"
echo "room check: passes on the tree, refuses 6 wrong-direction includes"
