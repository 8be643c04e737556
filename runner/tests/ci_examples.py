#!/usr/bin/env python3
"""Runs the shell steps of docs/ci.md's CI examples locally (CTest
docs.ci_github_actions and docs.ci_gitlab), so the examples stay true.

Each matrix job (GitHub's `matrix.shard`, GitLab's `parallel:`) runs in
turn in one work directory, the way its CI would run it: a GitHub step is
its own `bash -eo pipefail` (later steps skipped after a failure unless
`if: always()`), a GitLab job's before_script and script one shell. Steps
that `uses:` an action and the package install are left out: the build's
binaries are on the PATH instead. Port 8080 becomes a free port. Whatever a
job started in the background is stopped when the job ends (its process
groups). Then the report job merges the JUnit files, and the merged report
must count every scenario of the suite, none failed.

Usage: ci_examples.py github|gitlab BIN_DIR SOURCE_DIR WORK_DIR
"""
import os
import re
import signal
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET

import yaml


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Runner:
    def __init__(self, bin_dir, work, port):
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        self.env.pop("NO_COLOR", None)
        self.work = work
        self.port = port
        self.groups = []

    def run(self, script, extra_env=None):
        script = script.replace("8080", str(self.port))
        env = dict(self.env, **(extra_env or {}))
        p = subprocess.Popen(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                             cwd=self.work, env=env, start_new_session=True)
        self.groups.append(p.pid)
        status = p.wait()
        print(f"--- exit {status}: {script.strip().splitlines()[0][:100]}", flush=True)
        return status

    def end_job(self):
        for group in self.groups:
            try:
                os.killpg(group, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.groups = []


def github_steps(runner, job, matrix_env):
    failed = False
    for step in job["steps"]:
        if "uses" in step or step.get("name", "").startswith("Install"):
            continue
        if failed and "always()" not in str(step.get("if", "")):
            continue
        script = step["run"]
        for key, value in matrix_env.items():
            script = re.sub(r"\$\{\{\s*matrix\." + key + r"\s*\}\}", str(value), script)
        if runner.run(script) != 0:
            failed = True
    runner.end_job()
    return not failed


def run_github(doc, runner):
    jobs = doc["jobs"]
    ok = True
    for shard in jobs["scenarios"]["strategy"]["matrix"]["shard"]:
        ok = github_steps(runner, jobs["scenarios"], {"shard": shard}) and ok
    return github_steps(runner, jobs["report"], {}) and ok


def gitlab_job(runner, job, env):
    lines = [l for l in job.get("before_script", []) if "apt-get install" not in l]
    ok = runner.run("\n".join(lines + job["script"]), env) == 0
    runner.end_job()
    return ok


def run_gitlab(doc, runner):
    total = doc["scenarios"]["parallel"]
    ok = True
    for index in range(1, total + 1):
        env = {"CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(total)}
        ok = gitlab_job(runner, doc["scenarios"], env) and ok
    return gitlab_job(runner, doc["merge-junit"], {}) and ok


def suite_size(source):
    root = os.path.join(source, "scenarios")
    count = 0
    for base, dirs, files in os.walk(root):
        parts = os.path.relpath(base, root).split(os.sep)
        if "fixtures" in parts or parts[0] == "schema":
            continue
        count += sum(1 for f in files if f.endswith(".yaml"))
    return count


def main():
    which, bin_dir, source, work = sys.argv[1:5]
    source = os.path.abspath(source)
    text = open(os.path.join(source, "docs", "ci.md"), encoding="utf-8").read()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    doc = yaml.safe_load(blocks[0] if which == "github" else blocks[1])
    os.makedirs(work, exist_ok=True)
    for name in ("reports", "junit.xml"):
        subprocess.run(["rm", "-rf", os.path.join(work, name)], check=True)
    link = os.path.join(work, "scenarios")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.join(source, "scenarios"), link)
    runner = Runner(os.path.abspath(bin_dir), work, free_port())
    ok = (run_github if which == "github" else run_gitlab)(doc, runner)
    merged = ET.parse(os.path.join(work, "junit.xml")).getroot()
    tests, failures = int(merged.get("tests", 0)), int(merged.get("failures", 0))
    skipped = int(merged.get("skipped", 0))
    print(f"merged report: {tests} tests, {failures} failures, {skipped} skipped")
    expected = suite_size(source)
    if tests != expected:
        print(f"FAIL: the merged report counts {tests} scenarios; the suite has {expected}")
        ok = False
    if failures or skipped:
        print("FAIL: the shards had failures or skips")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
