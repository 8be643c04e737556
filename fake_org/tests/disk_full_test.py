#!/usr/bin/env python3
"""A data directory on a full disk (docs/durability.md "A full disk").

Writers POST payment intents while the disk fills: fake-org's file-size limit
drops to one byte (prlimit, RLIMIT_FSIZE), so every write to its data files
fails as on a full disk. Then:
- every intent answered 200 is there, and every one answered 503 is not, in
  memory and after a SIGKILL and a restart (nothing refused is applied,
  nothing acknowledged is lost);
- reads are served and /__admin/health answers 200 with "disk": "full";
- a write of the data API is refused with 503 and changes nothing;
- once the limit is lifted, a write goes through and health says "ok".

Usage: disk_full_test.py FAKE_ORG [--writers 4] [--keep DIR]
Exit status 0 when all holds, 1 with each violation on stderr.
"""
import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crash_test import API, Server, intent_body  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                       "default.yaml")
REFUSED_PER_WRITER = 3


class Outcomes:
    def __init__(self):
        self.lock = threading.Lock()
        self.acked = {}     # LastName -> payment intent id
        self.refused = []   # LastNames answered 503
        self.other = []     # anything else: a violation

    def add(self, kind, last_name, detail=""):
        with self.lock:
            if kind == "acked":
                self.acked[last_name] = detail
            elif kind == "refused":
                self.refused.append(last_name)
            else:
                self.other.append(f"{last_name}: {detail}")


def writer(server, number, outcomes, stop):
    headers = {"Authorization": "Bearer " + server.token, "Content-Type": "application/json"}
    refused = 0
    for n in range(100000):
        if stop.is_set() and refused >= REFUSED_PER_WRITER:
            return
        last_name = f"Disk{number}n{n}"
        status, body = server.request("POST", API + "/PaymentIntent",
                                      intent_body(last_name, "https://hooks.example/x"), headers)
        if status == 200:
            outcomes.add("acked", last_name, json.loads(body)["Id"])
        elif status == 503 and b"not applied" in body:
            outcomes.add("refused", last_name)
            refused += 1
        else:
            outcomes.add("other", last_name, f"HTTP {status} {body[:300]!r}")
            return


def contact_names(server):
    contacts = server.all_pages("/__admin/records/Contact", "records")
    return {c.get("LastName") for c in contacts}


def check_state(server, outcomes, when, problems):
    names = contact_names(server)
    for last_name, pi in outcomes.acked.items():
        if last_name not in names:
            problems.append(f"{when}: acknowledged {last_name} ({pi}) has no contact")
        status, _ = server.get_json(f"{API}/PaymentIntent/{pi}")
        if status != 200:
            problems.append(f"{when}: GET acknowledged intent {pi}: {status}")
    for last_name in outcomes.refused:
        if last_name in names:
            problems.append(f"{when}: {last_name} was answered 503 but its contact is there")


def health(server):
    status, body = server.get_json("/__admin/health")
    return status, body if isinstance(body, dict) else {"answer": body}


def set_file_limit(pid, limit):
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, hard))


def run(args, work, problems):
    data_dir = os.path.join(work, "data")
    server = Server(args.fake_org, data_dir, FIXTURE)
    outcomes = Outcomes()
    stop = threading.Event()
    writers = [threading.Thread(target=writer, args=(server, n, outcomes, stop))
               for n in range(args.writers)]
    for w in writers:
        w.start()
    # Some writes acknowledged first (a loaded sanitizer build may take
    # longer than usual for the first), then the disk is full from here on.
    deadline = time.time() + 30
    while time.time() < deadline:
        time.sleep(0.3)
        with outcomes.lock:
            if outcomes.acked or outcomes.other:
                break
    set_file_limit(server.proc.pid, 1)
    stop.set()
    for w in writers:
        w.join()
    problems += outcomes.other
    if not outcomes.acked or len(outcomes.refused) < args.writers * REFUSED_PER_WRITER:
        problems.append(f"expected acknowledged and refused writes: {len(outcomes.acked)} "
                        f"acknowledged, {len(outcomes.refused)} refused")

    status, body = health(server)
    if status != 200 or body.get("disk") != "full":
        problems.append(f"health on a full disk: {status} {body}")
    records_before = body.get("records")
    check_state(server, outcomes, "full disk, in memory", problems)
    contact = json.dumps({"LastName": "NeverWritten"})
    status, raw = server.request("POST", "/services/data/v68.0/sobjects/Contact", contact,
                                 {"Authorization": "Bearer " + server.token,
                                  "Content-Type": "application/json"})
    if status != 503 or b"not applied" not in raw:
        problems.append(f"a data API create on a full disk: {status} {raw[:300]!r}")
    if health(server)[1].get("records") != records_before:
        problems.append("a refused data API create changed the record count")

    set_file_limit(server.proc.pid, resource.RLIM_INFINITY)  # room again
    headers = {"Authorization": "Bearer " + server.token, "Content-Type": "application/json"}
    status, raw = server.request("POST", API + "/PaymentIntent",
                                 intent_body("DiskAfter", "https://hooks.example/x"), headers)
    if status != 200:
        problems.append(f"a write once the disk has room: {status} {raw[:300]!r}")
    else:
        outcomes.acked["DiskAfter"] = json.loads(raw)["Id"]
    status, body = health(server)
    if body.get("disk") != "ok":
        problems.append(f"health once the disk has room: {status} {body}")

    server.kill()
    server = Server(args.fake_org, data_dir, FIXTURE)
    try:
        check_state(server, outcomes, "after a restart", problems)
    finally:
        server.stop()
    print(f"disk full test: {len(outcomes.acked)} acknowledged, {len(outcomes.refused)} refused "
          f"with 503; {len(problems)} violations")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fake_org")
    p.add_argument("--writers", type=int, default=4)
    p.add_argument("--keep", help="work in this directory and keep it")
    args = p.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="fake-org-disk-full-")
    problems = []
    try:
        run(args, work, problems)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for problem in problems:
        print("violation: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
