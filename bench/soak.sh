#!/usr/bin/env bash
# Soak: cycles of 20 s of POST /PaymentIntent (a new payer each, wrk -c8),
# 40 concurrent GET /__admin/webhooks and /__admin/requests, then a reset;
# prints RSS before and after each reset: memory must stay bounded (decision 95).
# Before the first cycle it takes two baselines: a fresh start, and the same
# process warmed by 1 s of the load and a reset (the state a reset can return
# to: each worker has served requests once); each cycle's figure after its
# reset is shown against both.
#   bench/soak.sh build/bin/fake-org 30
BIN=$1; MINUTES=${2:-10}
$BIN --port 0 --log-level quiet > ${TMPDIR:-/tmp}/soak.out 2>&1 &
PID=$!
sleep 1
PORT=$(grep -o '127.0.0.1:[0-9]*' ${TMPDIR:-/tmp}/soak.out | head -1 | cut -d: -f2)
rss() { grep VmRSS /proc/$PID/status | awk '{print $2}'; }
pct() { printf '%+d%%' $(( ($1 - $2) * 100 / $2 )); }
anon() { grep RssAnon /proc/$PID/status | awk '{print $2}'; }
FRESH=$(rss)
echo "start rss_kb=$FRESH anon_kb=$(anon)"
TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=local-client -d client_secret=local-secret http://127.0.0.1:$PORT/services/oauth2/token | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
TOKEN=$TOKEN wrk -t2 -c8 -d1s -s "$(dirname "$0")/post_payment_intent.lua" http://127.0.0.1:$PORT/services/apexrest/cpm/v2/PaymentIntent > /dev/null 2>&1
curl -s -o /dev/null -X POST -H "Content-Type: application/json" http://127.0.0.1:$PORT/__admin/reset
sleep 0.5  # idle workers give their caches back when woken
WARM=$(rss)
echo "warm rss_kb=$WARM anon_kb=$(anon)"
TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=local-client -d client_secret=local-secret http://127.0.0.1:$PORT/services/oauth2/token | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
end=$((SECONDS + MINUTES * 60)); cycle=0
while [ $SECONDS -lt $end ]; do
  cycle=$((cycle + 1))
  TOKEN=$TOKEN wrk -t2 -c8 -d20s -s "$(dirname "$0")/post_payment_intent.lua" http://127.0.0.1:$PORT/services/apexrest/cpm/v2/PaymentIntent > ${TMPDIR:-/tmp}/soak-wrk.out 2>&1
  reqs=$(grep "requests in" ${TMPDIR:-/tmp}/soak-wrk.out | awk '{print $1}')
  readers=()
  for i in $(seq 40); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/__admin/webhooks?limit=1000" & readers+=($!)
    curl -s -o /dev/null "http://127.0.0.1:$PORT/__admin/requests" & readers+=($!)
  done
  wait "${readers[@]}"  # not fake-org, also a child of this shell
  before=$(rss)
  recs=$(curl -s -X POST -H "Content-Type: application/json" http://127.0.0.1:$PORT/__admin/reset | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])')
  TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=local-client -d client_secret=local-secret http://127.0.0.1:$PORT/services/oauth2/token | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  sleep 0.5
  after=$(rss)
  echo "t=${SECONDS}s cycle=$cycle requests=$reqs rss_before_reset_kb=$before rss_after_reset_kb=$after" \
    "vs_fresh=$(pct "$after" "$FRESH") vs_warm=$(pct "$after" "$WARM")"
done
kill $PID
