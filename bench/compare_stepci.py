"""The scenario runner beside Step CI and Newman for bench/compare: the same
workflow, as a scenario, a Step CI workflow and a Postman collection, timed
against one fake-org."""
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


def postman_item(name, method, url, headers, body, tests):
    request = {"method": method, "url": url,
               "header": [{"key": k, "value": v} for k, v in headers.items()]}
    if body is not None:
        request["body"] = body
    return {"name": name, "request": request,
            "event": [{"listen": "test", "script": {"type": "text/javascript", "exec": tests}}]}


def write_postman(directory, url, steps):
    """The workflow of write_workflows as a Postman collection (v2.1) for
    Newman: each answer checked by a test script, ids kept as collection
    variables."""
    form = [{"key": k, "value": v} for k, v in
            (("grant_type", "client_credentials"), ("client_id", "local-client"),
             ("client_secret", "local-secret"))]
    items = [postman_item("token", "POST", "{{host}}/services/oauth2/token",
                          {"Content-Type": "application/x-www-form-urlencoded"},
                          {"mode": "urlencoded", "urlencoded": form},
                          ["pm.test('token', () => pm.response.to.have.status(200));",
                           "pm.collectionVariables.set('token', pm.response.json().access_token);"])]
    auth = {"Authorization": "Bearer {{token}}"}
    for n in range(steps // 2):
        body = {"mode": "raw", "raw": json.dumps(dict(INTENT, Payer=payer(n))),
                "options": {"raw": {"language": "json"}}}
        items.append(postman_item(f"create {n}", "POST", "{{host}}" + API + "/PaymentIntent",
                                  dict(auth, **{"Content-Type": "application/json"}), body,
                                  ["pm.test('created', () => pm.response.to.have.status(200));",
                                   f"pm.collectionVariables.set('pi{n}', pm.response.json().Id);"]))
        items.append(postman_item(f"read {n}", "GET", "{{host}}" + API + f"/PaymentIntent/{{{{pi{n}}}}}",
                                  auth, None,
                                  ["pm.test('read', () => {",
                                   "  pm.response.to.have.status(200);",
                                   f"  pm.expect(pm.response.json().Id).to.eql("
                                   f"pm.collectionVariables.get('pi{n}'));",
                                   "});"]))
    collection = {"info": {"name": "runner comparison",
                           "schema": "https://schema.getpostman.com/json/collection/v2.1.0/"
                                     "collection.json"},
                  "item": items, "variable": [{"key": "host", "value": url}]}
    path = os.path.join(directory, "postman.json")
    with open(path, "w") as f:
        json.dump(collection, f)
    return path


def installed(directory, binary):
    """A pinned npm tool under bench/DIR, installed on first use; None when it
    cannot be."""
    path = os.path.join(ROOT, "bench", directory, "node_modules", ".bin", binary)
    if not os.path.exists(path) and shutil.which("npm"):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix",
                        os.path.join(ROOT, "bench", directory)], capture_output=True)
    return path if os.path.exists(path) else None


def timed(cmd, env=None):
    start = time.time()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    return time.time() - start, done


def runner_vs_stepci(bins, steps=200, rounds=3):
    """Wall time of scenario-runner, Step CI and Newman on the same workflow
    against one fake-org; a tool that is not installed and cannot be is left
    out, and None when neither is there."""
    stepci = installed("stepci", "stepci")
    newman = installed("newman", "newman")
    runner = os.path.join(bins, "scenario-runner")
    if not (stepci or newman) or not os.path.exists(runner):
        return None
    proc, port = start([os.path.join(bins, "fake-org"), "--port", "0", "--log-level", "quiet"],
                       r"127\.0\.0\.1:(\d+)")
    try:
        url = f"http://127.0.0.1:{port}"
        env = dict(os.environ, STEPCI_DISABLE_ANALYTICS="1", NO_COLOR="1")
        with tempfile.TemporaryDirectory() as d:
            runner_file, stepci_file = write_workflows(d, url, steps)
            postman_file = write_postman(d, url, steps)
            out = {"runner": []}
            for _ in range(rounds):
                t, r = timed([runner, runner_file, "--target", url, "--no-progress"])
                if r.returncode != 0 or "1 passed" not in r.stdout:
                    sys.exit("scenario-runner failed:\n" + r.stdout + r.stderr)
                out["runner"].append(t)
                if stepci:
                    t, r = timed([stepci, "run", stepci_file], env)
                    if r.returncode != 0 or "Workflow passed" not in r.stdout:
                        sys.exit("Step CI failed:\n" + r.stdout[-3000:] + r.stderr[-2000:])
                    out.setdefault("stepci", []).append(t)
                    out.setdefault("stepci start-up", []).append(timed([stepci, "--version"], env)[0])
                if newman:
                    t, r = timed([newman, "run", postman_file, "--reporters", "cli", "--color", "off"],
                                 env)
                    if r.returncode != 0:
                        sys.exit("Newman failed:\n" + r.stdout[-3000:] + r.stderr[-2000:])
                    out.setdefault("newman", []).append(t)
                    out.setdefault("newman start-up", []).append(timed([newman, "--version"], env)[0])
        return out
    finally:
        stop(proc)
