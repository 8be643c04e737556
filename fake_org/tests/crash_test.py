#!/usr/bin/env python3
"""The crash test of a data directory (decision 76, docs/durability.md).

Writers POST payment intents concurrently while fake-org is killed with SIGKILL
at a random moment, ROUNDS times on one data directory. After each restart:
every intent answered 200 is there with its installment, inbound report and
contact; every request left unanswered is there wholly or not at all; and
once the webhook receiver answers 200 again, every event of the log is
delivered and the receiver saw each one, and it saw none that no restarted
org knows (an event sent before the change it reports was on disk).
No timing is asserted; the kill times and the receiver's refusals come from
--seed, the threads' interleaving does not.

Usage: crash_test.py FAKE_ORG [--rounds 20] [--seed 1] [--writers 6]
                              [--kill-min 0.2] [--kill-max 1.0] [--keep DIR]
Exit status 0 when nothing was lost, 1 with each violation on stderr.
"""
import argparse
import http.client
import http.server
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

API = "/services/apexrest/cpm/v2"
# Short backoff and the most attempts the loader takes, so a delivery that
# the receiver refused during a round is still pending when the kill comes
# and never fails for good within the test.
FIXTURE = """extends: default.yaml
webhooks:
  max_attempts: 50
  backoff_initial: 20ms
  backoff_max: 200ms
  attempt_timeout: 2s
  workers: 8
"""
EVENT_TYPES = {"paymentIntent.created", "installment.created", "paymentIntent.processed"}
PAGE = 1000


class Receiver:
    """A webhook receiver that refuses a share of deliveries while `flaky`."""

    def __init__(self, seed, refuse_share):
        self.lock = threading.Lock()
        self.random = random.Random(seed)
        self.refuse_share = refuse_share
        self.flaky = False
        self.seen = set()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.seen.add(self.headers.get("X-Webhook-Id", ""))
                    refuse = receiver.flaky and receiver.random.random() < receiver.refuse_share
                self.send_response(500 if refuse else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def set_flaky(self, flaky):
        with self.lock:
            self.flaky = flaky

    def seen_ids(self):
        with self.lock:
            return set(self.seen)


class Server:
    """One fake-org process on a free port."""

    def __init__(self, binary, data_dir, fixture):
        self.proc = subprocess.Popen(
            [binary, "--data-dir", data_dir, "--fixture", fixture, "--port", "0",
             "--log-level", "quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        match = re.match(r"listening on http://([\d.]+):(\d+)", line)
        if not match:
            self.proc.kill()
            raise SystemExit(f"fake-org did not start: {line!r} {self.proc.stderr.read()}")
        self.host, self.port = match.group(1), int(match.group(2))
        self.conn = None  # the checks' kept-alive connection
        self.token = self.take_token()

    def request(self, method, path, body=None, headers=None, timeout=30):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, body, headers or {})
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def get(self, path):
        """A GET over one kept-alive connection (the checks make hundreds)."""
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.conn.request("GET", path, headers={"Authorization": "Bearer " + self.token})
                resp = self.conn.getresponse()
                return resp.status, resp.read()
            except (OSError, http.client.HTTPException):
                # The server closes an idle or a 100th kept-alive request's connection.
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise

    def take_token(self):
        form = urllib.parse.urlencode({"grant_type": "client_credentials",
                                       "client_id": "local-client",
                                       "client_secret": "local-secret"})
        status, body = self.request("POST", "/services/oauth2/token", form,
                                    {"Content-Type": "application/x-www-form-urlencoded"})
        if status != 200:
            raise SystemExit(f"token: {status} {body[:200]!r}")
        return json.loads(body)["access_token"]

    def get_json(self, path):
        status, body = self.get(path)
        return status, (json.loads(body) if body else None)

    def all_pages(self, path, key):
        out, offset = [], 0
        while True:
            sep = "&" if "?" in path else "?"
            status, page = self.get_json(f"{path}{sep}offset={offset}&limit={PAGE}")
            if status != 200:
                raise SystemExit(f"GET {path}: {status} {page}")
            out += page[key]
            if len(page[key]) < PAGE:
                return out
            offset += PAGE

    def kill(self):
        if self.conn:
            self.conn.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def stop(self):
        if self.conn:
            self.conn.close()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        err = self.proc.stderr.read()
        self.proc.stderr.close()
        return self.proc.returncode, err


def intent_body(last_name, webhook_url):
    return json.dumps({
        "Payer": {"Contact": {"CrmFields": {"FirstName": "Crash", "LastName": last_name,
                                            "Email": f"{last_name.lower()}@example.org"}}},
        "OneTime": {"Amount": 25, "CurrencyISOCode": "EUR"},
        "PaymentMethod": {"Name": "SEPA Direct Debit",
                          "Parameters": {"IBAN": "DE89370400440532013000",
                                         "AccountHolderName": f"Crash {last_name}"}},
        "SuccessURL": "https://shop.example/ok",
        "FailureURL": "https://shop.example/fail",
        "WebhookURL": webhook_url,
    })


class Outcomes:
    """What the writers were told: acknowledged intents, unanswered requests, errors."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked = {}         # LastName -> payment intent id
        self.unanswered = []    # LastNames whose request got no answer
        self.errors = []

    def add(self, kind, last_name, detail=None):
        with self.lock:
            if kind == "acked":
                self.acked[last_name] = detail
            elif kind == "unanswered":
                self.unanswered.append(last_name)
            else:
                self.errors.append(f"{last_name}: {detail}")


def writer(server, round_no, number, webhook_url, outcomes):
    headers = {"Authorization": "Bearer " + server.token, "Content-Type": "application/json"}
    for n in range(100000):
        last_name = f"Crash{round_no}w{number}n{n}"
        try:
            status, body = server.request("POST", API + "/PaymentIntent",
                                          intent_body(last_name, webhook_url), headers)
        except (OSError, http.client.HTTPException):
            # Refused, reset or cut short: the server is gone, and this
            # request may or may not have run.
            outcomes.add("unanswered", last_name)
            return
        if status == 200:
            outcomes.add("acked", last_name, json.loads(body)["Id"])
        else:
            outcomes.add("error", last_name, f"HTTP {status} {body[:200]!r}")
            return


class Snapshot:
    """The org's payment records after a restart, indexed for the checks."""

    def __init__(self, server):
        contacts = server.all_pages("/__admin/records/Contact", "records")
        self.installments = server.all_pages("/__admin/records/cpm__Installment__c", "records")
        self.reports = server.all_pages("/__admin/records/cpm__Inbound_Report__c", "records")
        self.contact_ids = {c["Id"] for c in contacts}
        self.contacts = {}
        for c in contacts:
            self.contacts.setdefault(c.get("LastName"), []).append(c)
        self.inst_by_pi = {}
        for i in self.installments:
            self.inst_by_pi.setdefault(i.get("cpm__Payment_Intent_Id__c"), []).append(i)
        self.report_by_contact = {}
        for r in self.reports:
            self.report_by_contact.setdefault(r.get("cpm__Contact__c"), []).append(r)
        self.inst_ids = {i["Id"] for i in self.installments}
        self.report_ids = {r["Id"] for r in self.reports}

    def orphans(self):
        """References that point at nothing: the trace of half a transaction."""
        out = []
        for i in self.installments:
            for field, ids in (("cpm__Contact__c", self.contact_ids),
                               ("cpm__Inbound_Report__c", self.report_ids)):
                if i.get(field) and i[field] not in ids:
                    out.append(f"installment {i['Id']} names a missing {field}")
        for r in self.reports:
            for field, ids in (("cpm__Contact__c", self.contact_ids),
                               ("cpm__Installment__c", self.inst_ids)):
                if r.get(field) and r[field] not in ids:
                    out.append(f"report {r['Id']} names a missing {field}")
        return out

    def intent_parts(self, last_name):
        """(contact, report, installment, number of contacts) of one payer's intent.

        Each part is None when missing; LastNames are unique, so a second
        contact would be a request that ran twice.
        """
        contacts = self.contacts.get(last_name, [])
        contact = contacts[0] if contacts else None
        reports = self.report_by_contact.get(contact["Id"], []) if contact else []
        if not reports:  # a report without its contact would still name the payer
            reports = [r for r in self.reports
                       if f'"{last_name}"' in r.get("cpm__Raw_Request__c", "")]
        report = reports[0] if reports else None
        pi = report.get("cpm__Payment_Intent_Id__c") if report else None
        installments = self.inst_by_pi.get(pi, []) if pi else []
        if not installments and contact:
            installments = [i for i in self.installments
                            if i.get("cpm__Contact__c") == contact["Id"]]
        return contact, report, installments[0] if installments else None, len(contacts)


class Totals:
    def __init__(self):
        self.acked = self.found = 0
        self.lost = set()
        self.present = self.absent = self.half = 0
        self.pending_at_kill = self.delivered = 0
        self.phantoms = set()
        self.violations = []

    def fail(self, message):
        self.violations.append(message)
        print("VIOLATION: " + message, file=sys.stderr, flush=True)


def check_acked(server, snap, acked, recent, totals):
    """Every intent answered 200, in any round so far, is there whole."""
    for last_name, pi in acked.items():
        contact, report, inst, contacts = snap.intent_parts(last_name)
        if contacts > 1:
            totals.fail(f"{last_name}: {contacts} contacts")
        if not (contact and report and inst) or report["cpm__Payment_Intent_Id__c"] != pi:
            totals.fail(f"{pi} ({last_name}) was answered 200 and is lost: contact {bool(contact)}"
                        f", report {bool(report)}, installment {bool(inst)}")
            totals.lost.add(pi)
            continue
        if last_name not in recent:
            continue
        totals.found += 1
        # Through the API as a client sees it, for this round's intents.
        status, got = server.get_json(f"{API}/PaymentIntent/{pi}")
        if status != 200 or got.get("OneTime", {}).get("Id") != inst["Id"]:
            totals.fail(f"GET /PaymentIntent/{pi}: {status} {got}")


def check_unanswered(server, snap, unanswered, totals, present_pis):
    """A request without an answer ran wholly or not at all."""
    for last_name in unanswered:
        contact, report, inst, contacts = snap.intent_parts(last_name)
        parts = sum(x is not None for x in (contact, report, inst))
        if parts == 0:
            totals.absent += 1
        elif parts == 3 and contacts == 1:
            totals.present += 1
            pi = report["cpm__Payment_Intent_Id__c"]
            present_pis.add(pi)
            status, _ = server.get_json(f"{API}/PaymentIntent/{pi}")
            if status != 200:
                totals.fail(f"GET /PaymentIntent/{pi} of unanswered {last_name}: {status}")
        else:
            totals.half += 1
            totals.fail(f"unanswered {last_name} is half there: contacts {contacts}, "
                        f"report {bool(report)}, installment {bool(inst)}")


def wait_delivered(server, waiting, wait_s):
    """Polls the events still pending, one at a time (the whole log is large)."""
    deadline = time.monotonic() + wait_s
    while waiting and time.monotonic() < deadline:
        for event_id in sorted(waiting):
            status, event = server.get_json(f"/__admin/webhooks/{event_id}")
            if status != 200 or event["state"] != "pending":
                waiting.discard(event_id)
        if waiting:
            time.sleep(0.1)


def settle_webhooks(server, receiver, present_pis, totals, wait_s, logged):
    """Once the receiver answers 200, every logged event is delivered and was seen.

    `logged` collects every event id any restart's log held: an id the
    receiver saw that no log ever held was sent for a change the org forgot.
    """
    events = server.all_pages("/__admin/webhooks", "events")
    pending = {e["id"] for e in events if e["state"] == "pending"}
    totals.pending_at_kill += len(pending)
    wait_delivered(server, set(pending), wait_s)
    events = server.all_pages("/__admin/webhooks", "events")
    seen = receiver.seen_ids()
    types = {}
    for e in events:
        logged.add(e["id"])
        types.setdefault(e["payment_intent"], set()).add(e["type"])
        if e["state"] != "delivered":
            totals.fail(f"webhook {e['id']} ({e['type']}) is {e['state']}: {e['reason']}")
        elif e["id"] not in seen:
            totals.fail(f"webhook {e['id']} is delivered but the receiver never saw it")
        elif e["id"] in pending:
            totals.delivered += 1
    for pi in present_pis:
        if types.get(pi, set()) != EVENT_TYPES:
            totals.fail(f"{pi} is there, its webhooks are {sorted(types.get(pi, []))}")
    for phantom in seen - logged - totals.phantoms:
        totals.phantoms.add(phantom)
        totals.fail(f"the receiver got webhook {phantom}, which no restarted org knows")


def verify(server, receiver, outcomes, recent, unanswered, totals, args, logged):
    status, health = server.get_json("/__admin/health")
    if status != 200:
        totals.fail(f"health after restart: {status} {health}")
    snap = Snapshot(server)
    for orphan in snap.orphans():
        totals.fail(orphan)
    present_pis = {pi for name, pi in outcomes.acked.items() if name in recent}
    check_acked(server, snap, outcomes.acked, recent, totals)
    check_unanswered(server, snap, unanswered, totals, present_pis)
    settle_webhooks(server, receiver, present_pis, totals, args.wait, logged)


def crash_round(server, receiver, round_no, args, rng, outcomes):
    """Writers against `server` until it is killed; the LastNames they tried."""
    round_outcomes = Outcomes()
    receiver.set_flaky(True)
    threads = [threading.Thread(target=writer,
                                args=(server, round_no, w, receiver.url, round_outcomes))
               for w in range(args.writers)]
    for t in threads:
        t.start()
    time.sleep(rng.uniform(args.kill_min, args.kill_max))
    server.kill()
    for t in threads:
        t.join()
    receiver.set_flaky(False)
    outcomes.acked.update(round_outcomes.acked)
    outcomes.errors += round_outcomes.errors
    return set(round_outcomes.acked), round_outcomes.unanswered


def run(args):
    rng = random.Random(args.seed)
    receiver = Receiver(args.seed, args.refuse_share)
    work = args.keep or tempfile.mkdtemp(prefix="crash_test.")
    os.makedirs(work, exist_ok=True)
    fixture = os.path.join(work, "crash.yaml")
    with open(fixture, "w") as f:
        f.write(FIXTURE)
    data_dir = os.path.join(work, "data")
    shutil.rmtree(data_dir, ignore_errors=True)
    outcomes, totals = Outcomes(), Totals()
    logged = set()
    recent, unanswered = set(), []
    for round_no in range(args.rounds + 1):
        started = time.monotonic()
        server = Server(args.fake_org, data_dir, fixture)
        restarted = time.monotonic()
        verify(server, receiver, outcomes, recent, unanswered, totals, args, logged)
        checked = time.monotonic()
        if round_no == args.rounds:
            code, err = server.stop()
            if code != 0:
                totals.fail(f"fake-org exited {code} on SIGTERM: {err[-500:]}")
            break
        recent, unanswered = crash_round(server, receiver, round_no, args, rng, outcomes)
        totals.acked += len(recent)
        print(f"round {round_no + 1}: {len(recent)} acknowledged, {len(unanswered)} unanswered "
              f"(restart {restarted - started:.2f} s, checks {checked - restarted:.2f} s, "
              f"writers {time.monotonic() - checked:.2f} s)", flush=True)
    for error in outcomes.errors:
        totals.fail("answered with an error: " + error)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return totals


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fake_org")
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--writers", type=int, default=6)
    p.add_argument("--kill-min", type=float, default=0.2)
    p.add_argument("--kill-max", type=float, default=1.0)
    p.add_argument("--refuse-share", type=float, default=0.3,
                   help="share of deliveries the receiver answers 500 while writers run")
    p.add_argument("--wait", type=float, default=60.0,
                   help="seconds to wait for pending webhooks after a restart")
    p.add_argument("--keep", help="work in this directory and keep it")
    args = p.parse_args()
    totals = run(args)
    print(f"crash test: {args.rounds} rounds, {totals.acked} acknowledged, {totals.found} found, "
          f"{len(totals.lost)} lost, unanswered {totals.present} present / {totals.absent} absent / "
          f"{totals.half} half-present, {totals.pending_at_kill} webhooks pending at kill, "
          f"{totals.delivered} delivered after restart, {len(totals.phantoms)} sent but forgotten; "
          f"{len(totals.violations)} violations")
    return 1 if totals.violations else 0


if __name__ == "__main__":
    sys.exit(main())
