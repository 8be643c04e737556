#!/usr/bin/env python3
"""fake-org --max-memory (docs/security.md, decision 199).

A fake-org whose cap is below what any process holds refuses every write that
adds records, in each API's own error shape, and changes nothing; reads,
updates, the OAuth token and health are served; POST /__admin/orgs answers
507. The same org with a cap far above its memory takes the writes. A size
CLI11 cannot read is a usage error (exit 2).

Usage: memory_cap_test.py FAKE_ORG
Exit status 0 when all holds, 1 with each violation on stderr.
"""
import http.client
import json
import os
import re
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crash_test import intent_body  # noqa: E402

API = "/services/apexrest/cpm/v2"
DATA = "/services/data/v68.0"
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)
    return ok


class Org:
    """One fake-org on a free port, with a token."""

    def __init__(self, binary, *flags):
        self.proc = subprocess.Popen([binary, "--port", "0", "--log-level", "quiet", *flags],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        match = re.match(r"listening on http://([\d.]+):(\d+)", line)
        if not match:
            self.proc.kill()
            raise SystemExit(f"fake-org did not start: {line!r} {self.proc.stderr.read()}")
        self.host, self.port = match.group(1), int(match.group(2))
        form = urllib.parse.urlencode({"grant_type": "client_credentials",
                                       "client_id": "local-client",
                                       "client_secret": "local-secret"})
        status, body = self.call("POST", "/services/oauth2/token", form,
                                 "application/x-www-form-urlencoded", auth=False)
        if status != 200:
            raise SystemExit(f"token: {status} {body!r}")
        self.token = body["access_token"]

    def call(self, method, path, body=None, content_type="application/json", auth=True):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {"Content-Type": content_type} if body is not None else {}
        if auth:
            headers["Authorization"] = "Bearer " + self.token
        try:
            conn.request(method, path, body, headers)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, (json.loads(raw) if raw else None)
        finally:
            conn.close()

    def health(self):
        return self.call("GET", "/__admin/health", auth=False)[1]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


def intent(last_name):
    return intent_body(last_name, "https://hooks.example/cap")


def capped(binary):
    # Writes made before the cap is reached: a Contact to update later.
    org = Org(binary, "--max-memory", "1")
    try:
        health = org.health()
        check(health.get("memory") == "full", f"health memory: {health.get('memory')!r}")
        check(health.get("max_memory_bytes") == 1, f"max_memory_bytes: {health}")
        records = health["records"]

        status, body = org.call("POST", API + "/PaymentIntent", intent("Refused"))
        check(status == 500, f"payment intent past the cap: {status} {body}")
        text = json.dumps(body)
        check("STORAGE_LIMIT_EXCEEDED" in text and "--max-memory" in text,
              f"payment intent refusal names neither the error nor the flag: {text}")

        status, body = org.call("POST", DATA + "/sobjects/Contact",
                                json.dumps({"LastName": "Refused"}))
        check(status == 400 and isinstance(body, list) and body
              and body[0].get("errorCode") == "STORAGE_LIMIT_EXCEEDED",
              f"data API create past the cap: {status} {body}")

        status, body = org.call("GET", DATA + "/query?q=" + urllib.parse.quote(
            "SELECT Id FROM Contact WHERE LastName = 'Refused'"))
        check(status == 200 and body["totalSize"] == 0, f"a refused write left records: {body}")
        check(org.health()["records"] == records, "the record count changed")

        status, _ = org.call("GET", API + "/PaymentMethods")
        check(status == 200, f"a read past the cap: {status}")

        status, body = org.call("POST", "/__admin/orgs", json.dumps({"fixture": "default.yaml"}),
                                auth=False)
        check(status == 507 and "--max-memory" in json.dumps(body),
              f"POST /__admin/orgs past the cap: {status} {body}")
    finally:
        org.stop()


def roomy(binary):
    org = Org(binary, "--max-memory", "64GiB")
    try:
        health = org.health()
        check(health.get("memory") == "ok", f"roomy health memory: {health.get('memory')!r}")
        check(health.get("max_memory_bytes") == 64 << 30, f"64GiB read as {health}")
        status, body = org.call("POST", API + "/PaymentIntent", intent("Taken"))
        check(status == 200, f"a write under the cap: {status} {body}")
    finally:
        org.stop()
    org = Org(binary)
    try:
        health = org.health()
        check(health.get("memory") is None and health.get("max_memory_bytes") is None,
              f"no cap, yet health says {health}")
    finally:
        org.stop()


def usage(binary):
    ran = subprocess.run([binary, "--max-memory", "12XB"], capture_output=True, text=True,
                         timeout=30)
    check(ran.returncode == 2, f"--max-memory 12XB exited {ran.returncode}")
    check("--max-memory" in ran.stderr, f"the usage error does not name the flag: {ran.stderr}")


def main():
    binary = sys.argv[1]
    capped(binary)
    roomy(binary)
    usage(binary)
    for p in problems:
        print("memory_cap_test: " + p, file=sys.stderr)
    if not problems:
        print("memory_cap_test: all held")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
