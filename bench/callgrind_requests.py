#!/usr/bin/env python3
"""Instructions per request of one fake-org, counted by callgrind.

    bench/callgrind_requests.py BUILD/bin/fake-org post|query [--warm 300] [--requests 1000]

Starts the server under `valgrind --tool=callgrind`, sends the warm-up
requests on one kept-alive connection, zeroes the counters, sends the counted
ones, dumps, and prints the server's instructions (all threads) per counted
request. `post` is POST /PaymentIntent with a new payer each (as
bench/post_payment_intent.lua), `query` the indexed equality of bench/compare.
The dump, for callgrind_annotate, is OUT.1 (--out, default callgrind.requests).
"""
import argparse
import glob
import http.client
import json
import socket
import subprocess
import time
import urllib.parse

API = "/services/apexrest/cpm/v2"


def intent(i):
    return json.dumps({"SuccessURL": "https://shop.example/ok", "FailureURL": "https://shop.example/ko",
                       "Payer": {"Contact": {"CrmFields": {"FirstName": "W", "LastName": f"Bench{i}",
                                                           "Email": f"w{i}@example.org"}}},
                       "OneTime": {"Amount": 5}, "PaymentMethod": {"Name": "CreditCard"}})


def connect(port):
    for _ in range(600):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port)
            c.connect()
            return c
        except OSError:
            time.sleep(0.1)
    raise SystemExit("fake-org did not start")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("kind", choices=["post", "query"])
    ap.add_argument("--warm", type=int, default=300)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--out", default="callgrind.requests")
    a = ap.parse_args()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={a.out}", a.binary,
                          "--port", str(port), "--log-level", "quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = connect(port)
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": "local-client",
                                   "client_secret": "local-secret"})
    c.request("POST", "/services/oauth2/token", form, {"Content-Type": "application/x-www-form-urlencoded"})
    headers = {"Authorization": "Bearer " + json.loads(c.getresponse().read())["access_token"],
               "Content-Type": "application/json"}
    c.request("POST", API + "/PaymentIntent", intent("x"), headers)
    c.getresponse().read()
    q = urllib.parse.quote("SELECT Id, LastName FROM Contact WHERE Email = 'wx@example.org'")

    def one(i):
        # No Accept-Encoding, as wrk sends none: it would take a GET off the
        # plain path (decision 208).
        body = intent(i).encode() if a.kind == "post" else b""
        target = API + "/PaymentIntent" if a.kind == "post" else "/services/data/v60.0/query?q=" + q
        c.putrequest("POST" if body else "GET", target, skip_accept_encoding=True)
        c.putheader("Authorization", headers["Authorization"])
        if body:
            c.putheader("Content-Type", "application/json")
            c.putheader("Content-Length", str(len(body)))
        c.endheaders(body or None)
        r = c.getresponse()
        body = r.read()
        if r.status not in (200, 201):
            raise SystemExit(f"{r.status}: {body[:300]}")

    for i in range(a.warm):
        one(i)
    subprocess.run(["callgrind_control", "-z", str(p.pid)], stdout=subprocess.DEVNULL, check=True)
    for i in range(a.warm, a.warm + a.requests):
        one(i)
    subprocess.run(["callgrind_control", "-d", "counted", str(p.pid)], stdout=subprocess.DEVNULL, check=True)
    p.terminate()
    p.wait()
    total = 0
    for f in [g for g in glob.glob(a.out + ".*")]:
        for line in open(f):
            if line.startswith("summary:"):
                total = max(total, int(line.split()[1]))
    print(f"{a.kind}: {total} instructions over {a.requests} requests = {total / a.requests / 1000:.1f}k each")


if __name__ == "__main__":
    main()
