#!/usr/bin/env bash
# CTest readme.first_scenario: the "A first scenario" of scenarios/README.md,
# taken from the README itself and replayed as written by scenario-runner
# against the embedded fake, so the first example a newcomer copies stays true.
# Usage: readme_first_scenario.sh SCENARIO_RUNNER scenarios/README.md
set -euo pipefail
runner=$1 readme=$2
heading='## A first scenario'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v h="$heading" '$0 == h {in_section = 1; next}
  in_section && /^```yaml$/ {in_block = 1; next}
  in_block && /^```$/ {exit}
  in_block {print}' "$readme" >"$work/first.yaml"
[ -s "$work/first.yaml" ] || { echo "FAIL: no \`\`\`yaml block after '$heading' in $readme" >&2; exit 1; }
"$runner" "$work/first.yaml" --report-json "$work/report.json"
grep -q '"failed": *0' "$work/report.json" && grep -q '"passed": *1' "$work/report.json" ||
  { echo "FAIL: the README's first scenario did not pass" >&2; exit 1; }
