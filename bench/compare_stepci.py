"""The scenario runner beside Step CI for bench/compare: the same workflow,
as a scenario and as a Step CI workflow, timed against one fake-org."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from compare_peers import start, stop

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API = "/services/apexrest/cpm/v2"


INTENT = {"SuccessURL": "https://shop.example/ok", "FailureURL": "https://shop.example/ko",
          "OneTime": {"Amount": 5}, "PaymentMethod": {"Name": "CreditCard"}}


def payer(n):
    return {"Contact": {"CrmFields": {"LastName": f"Step{n}", "Email": f"step{n}@example.org"}}}


def write_workflows(directory, url, steps):
    """The same workflow twice: `steps` steps, each pair a POST /PaymentIntent
    with a new payer (capturing its Id) and a GET of it checked by Id."""
    scenario = {"name": "runner comparison", "fixture": "default.yaml", "steps": []}
    stepci = {"version": "1.1", "name": "runner comparison", "env": {"host": url},
              "tests": {"comparison": {"steps": [{
                  "name": "token",
                  # Step CI 2.8 sends `form` without a Content-Type, which the
                  # token endpoint refuses, so the header is given.
                  "http": {"url": "${{env.host}}/services/oauth2/token", "method": "POST",
                           "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                           "form": {"grant_type": "client_credentials", "client_id": "local-client",
                                    "client_secret": "local-secret"},
                           "captures": {"token": {"jsonpath": "$.access_token"}}}}]}}}
    auth = {"Authorization": "Bearer ${{captures.token}}"}
    for n in range(steps // 2):
        body = dict(INTENT, Payer=payer(n))
        scenario["steps"].append({"request": {"method": "POST", "path": "/PaymentIntent", "json": body},
                                  "capture": {f"pi{n}": "$.Id"}})
        scenario["steps"].append({"request": f"GET /PaymentIntent/${{pi{n}}}",
                                  "expect": {"status": 200, "json": {"Id": f"${{pi{n}}}"}}})
        stepci["tests"]["comparison"]["steps"] += [
            {"name": f"create {n}", "http": {
                "url": f"${{{{env.host}}}}{API}/PaymentIntent", "method": "POST", "headers": auth,
                "json": body, "captures": {f"pi{n}": {"jsonpath": "$.Id"}}, "check": {"status": 200}}},
            {"name": f"read {n}", "http": {
                "url": f"${{{{env.host}}}}{API}/PaymentIntent/${{{{captures.pi{n}}}}}", "method": "GET",
                "headers": auth, "check": {"status": 200,
                                           "jsonpath": {"$.Id": f"${{{{captures.pi{n}}}}}"}}}}]
    runner_file = os.path.join(directory, "comparison.yaml")
    stepci_file = os.path.join(directory, "stepci.yaml")
    for path, doc in ((runner_file, scenario), (stepci_file, stepci)):
        with open(path, "w") as f:
            json.dump(doc, f)  # JSON is YAML
    return runner_file, stepci_file


def timed(cmd, env=None):
    start = time.time()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    return time.time() - start, done


def runner_vs_stepci(bins, steps=200, rounds=3):
    """Wall time of scenario-runner and Step CI on the same workflow against
    one fake-org; None when Step CI is not installed and cannot be."""
    stepci_dir = os.path.join(ROOT, "bench", "stepci")
    stepci = os.path.join(stepci_dir, "node_modules", ".bin", "stepci")
    if not os.path.exists(stepci) and shutil.which("npm"):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", stepci_dir],
                       capture_output=True)
    runner = os.path.join(bins, "scenario-runner")
    if not os.path.exists(stepci) or not os.path.exists(runner):
        return None
    proc, port = start([os.path.join(bins, "fake-org"), "--port", "0", "--log-level", "quiet"],
                       r"127\.0\.0\.1:(\d+)")
    try:
        url = f"http://127.0.0.1:{port}"
        env = dict(os.environ, STEPCI_DISABLE_ANALYTICS="1", NO_COLOR="1")
        with tempfile.TemporaryDirectory() as d:
            runner_file, stepci_file = write_workflows(d, url, steps)
            out = {"runner": [], "stepci": [], "stepci start-up": []}
            for _ in range(rounds):
                t, r = timed([runner, runner_file, "--target", url, "--no-progress"])
                if r.returncode != 0 or "1 passed" not in r.stdout:
                    sys.exit("scenario-runner failed:\n" + r.stdout + r.stderr)
                out["runner"].append(t)
                t, r = timed([stepci, "run", stepci_file], env)
                if r.returncode != 0 or "Workflow passed" not in r.stdout:
                    sys.exit("Step CI failed:\n" + r.stdout[-3000:] + r.stderr[-2000:])
                out["stepci"].append(t)
                out["stepci start-up"].append(timed([stepci, "--version"], env)[0])
        return out
    finally:
        stop(proc)
