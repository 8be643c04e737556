#!/usr/bin/env bash
# CTest readme.tour: the README's "A five-minute tour", taken from README.md
# itself and run as one shell session, block after block, as a reader pastes
# it: fake-org started in the background, a token, a payment intent paid
# through the PSP's admin driver, the dashboard page it prints, the scenario
# suite against the running org, the platform CLI (sf) and jsforce pointed at
# it, and the stop, whose exit status says every answer kept the contract.
# Port 8080 becomes a free port; nothing else in the blocks changes. They run
# in a scratch directory that looks like the project root (build/bin,
# fixtures and scenarios linked in), so whatever the tour leaves behind is
# checked against the repository's .gitignore.
# The sf block runs when the pinned CLI is installed (ci/install-platform-cli,
# which ci/bootstrap runs) and the jsforce block when node_modules has
# jsforce; otherwise each is skipped with a notice.
# Usage: readme_tour.sh PROJECT_ROOT BIN_DIR
set -euo pipefail

root=$(cd "$1" && pwd) bin_dir=$(cd "$2" && pwd)
readme=$root/README.md
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in curl python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (ci/bootstrap installs it)"
done
for b in fake-org scenario-runner; do
  [ -x "$bin_dir/$b" ] || fail "no $bin_dir/$b"
done

heading='## A five-minute tour'
grep -qx "$heading" "$readme" || fail "no '$heading' in $readme"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
pidfile=$work/.tour-fake-org.pid
cleanup() {
  if [ -s "$pidfile" ]; then
    kill "$(cat "$pidfile")" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/project/build" "$work/home" "$work/path" "$work/blocks"
# The tour's fenced blocks, in order: blocks/01.sh, blocks/02.sh, ..., NN.js.
python3 - "$readme" "$heading" "$work/blocks" <<'PY'
import sys
readme, heading, out = sys.argv[1:]
lines = open(readme, encoding='utf-8').read().split('\n')
start = lines.index(heading) + 1
n, lang, text = 0, None, []
for line in lines[start:]:
    if lang is None and line.startswith('## '):
        break
    if lang is None and line.startswith('```') and len(line) > 3:
        lang, text = line[3:], []
    elif lang is not None and line == '```':
        n += 1
        open(f'{out}/{n:02d}.{lang}', 'w', encoding='utf-8').write('\n'.join(text) + '\n')
        lang = None
    elif lang is not None:
        text.append(line)
PY
ls "$work/blocks" | grep -q . || fail "no blocks under '$heading' in $readme"
ln -s "$bin_dir" "$work/project/build/bin"
ln -s "$root/fixtures" "$work/project/fixtures"
ln -s "$root/scenarios" "$work/project/scenarios"

# The platform's CLI pinned in package.json, as `sf` on the PATH.
sf_cli=
if command -v node >/dev/null; then
  sf_dir=$(node "$root/fake_org/clients/platform_cli.mjs" --dir 2>/dev/null || true)
  [ -n "$sf_dir" ] && [ -e "$sf_dir/.installed" ] && sf_cli=$sf_dir/bin/run.js
fi
if [ -n "$sf_cli" ]; then
  printf '#!/bin/sh\nexec node %q "$@"\n' "$sf_cli" >"$work/path/sf"
  chmod +x "$work/path/sf"
fi

script=$work/tour.sh
{
  echo 'set -euo pipefail'
  n=0
  for block in "$work"/blocks/*; do
    n=$((n + 1))
    lang=${block##*.}
    text=$(cat "$block")
    text=${text//:8080/:$port}
    text=${text//--port 8080/--port $port}
    case $lang in
      sh)
        if grep -q '^sf ' <<<"$text" && [ -z "$sf_cli" ]; then
          echo "echo '== skipped the sf block: the pinned platform CLI is not installed (ci/install-platform-cli)'"
          continue
        fi
        echo "echo '== block $n (sh)'"
        printf '%s\n' "$text"
        # The test's own lines: remember the org to stop it on a failure,
        # and load the dashboard page the tour prints.
        if grep -q '^FAKE_ORG_PID=\$!' <<<"$text"; then
          echo "echo \"\$FAKE_ORG_PID\" >$(printf %q "$pidfile")"
        fi
        if grep -q '__admin/ui/intent?id=' <<<"$text"; then
          echo "curl -sf -o $(printf %q "$work/dashboard.html") \"http://127.0.0.1:$port/__admin/ui/intent?id=\$(echo \"\$INTENT\" | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"Id\"])')\""
          echo "grep -q Lovelace $(printf %q "$work/dashboard.html") && echo 'test: the dashboard page names the payer'"
        fi
        ;;
      js)
        printf '%s' "$text" >"$work/tour.js"
        if [ -e "$root/node_modules/jsforce/package.json" ] && command -v node >/dev/null; then
          echo "echo '== block $n (js): node tour.js'"
          echo "NODE_PATH=$(printf %q "$root/node_modules") node $(printf %q "$work/tour.js")"
        else
          echo "echo '== skipped the jsforce block: node or node_modules/jsforce is missing'"
        fi
        ;;
      *) fail "a \`\`\`$lang block in the tour: only sh and js are run" ;;
    esac
  done
} >"$script"

grep -q "build/bin/fake-org --port $port .*&\$" "$script" ||
  fail "the tour no longer starts fake-org in the background on port 8080"
grep -q 'kill -TERM \$FAKE_ORG_PID' "$script" || fail "the tour no longer stops fake-org"

echo "== the README's tour against port $port"
cat "$script"
echo
out=$work/tour.out
status=0
(cd "$work/project" && HOME=$work/home PATH="$work/path:$PATH" bash "$script") >"$out" 2>&1 ||
  status=$?
cat "$out"
[ "$status" -eq 0 ] || { cat "$work/project/fake-org.log" >&2 2>/dev/null; fail "the tour exited $status"; }

grep -q '"status":"ok"' "$out" || fail "/__admin/health did not answer"
grep -q '"Id":"pi_' "$out" || fail "POST /PaymentIntent created no payment intent"
grep -q "^http://127.0.0.1:$port/__admin/ui/intent?id=pi_" "$out" || fail "the tour printed no dashboard address"
grep -q '^test: the dashboard page names the payer' "$out" || fail "the dashboard page did not load"
grep -Eq '^[0-9]+ passed, 0 failed' "$out" || fail "the scenario suite did not pass against the running org"
if [ -n "$sf_cli" ]; then
  grep -q 'Spring Appeal 2027' "$out" || fail "sf data query did not list the campaigns"
fi
if [ -e "$root/node_modules/jsforce/package.json" ] && command -v node >/dev/null; then
  grep -q "\[ 'Spring Appeal 2027', 'Summer Gala 2025', 'Year-End Giving 2026' \]" "$out" ||
    fail "jsforce did not list the campaigns"
fi
grep -q '^fake-org exited with status 0$' "$out" || fail "fake-org did not stop cleanly"
if kill -0 "$(cat "$pidfile")" 2>/dev/null; then fail "fake-org still runs after the tour"; fi
rm -f "$pidfile"

# What the tour leaves in the project root is ignored by git.
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  while IFS= read -r f; do
    git -C "$root" check-ignore -q --no-index "$f" ||
      fail "the tour leaves $f behind, which .gitignore does not ignore"
  done < <(cd "$work/project" && find . -mindepth 1 -maxdepth 1 ! -name build ! -name fixtures ! -name scenarios | sed 's|^\./||')
fi
echo "ok: the README's tour works as written"
