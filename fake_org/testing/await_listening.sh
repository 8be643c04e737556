# Sourced by the shell tests that start a fake-org on --port 0.
# await_listening PID OUT ERR [SCHEME]: waits (10 s at most) for the
# "listening on SCHEME://..." line fake-org PID writes to OUT and prints the
# URL; fails, showing ERR, when the process exits first or never says it.
# Needs the caller's fail().
await_listening() {
  local pid=$1 out=$2 err=$3 scheme=${4:-http} url=
  for _ in $(seq 1 200); do
    url=$(sed -n "s/^listening on \\(${scheme}:\\/\\/.*\\)\$/\\1/p" "$out")
    [ -n "$url" ] && { echo "$url"; return 0; }
    kill -0 "$pid" 2>/dev/null || { cat "$err" >&2; fail "fake-org exited before listening"; }
    sleep 0.05
  done
  fail "fake-org printed no 'listening on ${scheme}://' line"
}
