#!/usr/bin/env python3
"""Runs docs/ci.md's container examples with the image ci/image built, under
podman (ci/image_test runs this after its own checks), so they stay true.

Each example is read from docs/ci.md (the block under its heading) and run
as its CI would run it, podman standing in for Docker (a `docker` on the
PATH that is podman with this machine's options; the image tagged with the
name the examples use):

- GitHub Actions: the job's service started from `services:` (its image,
  env, ports and options: the health options as written), the job's steps
  run once it is healthy, `${{ job.services.fake-org.id }}` its container.
- GitLab CI: the service with its alias and variables, the job's script in
  the job image, sharing the service's network as the Kubernetes executor
  does (an alias resolves to 127.0.0.1 there).
- Docker Compose: `fake-org` started and healthy, then `scenarios` in its
  network namespace (`network_mode: service:fake-org`) with its command.
- Testcontainers (Node): the snippet run by node with a `testcontainers`
  module that starts the container with podman (GenericContainer's methods
  the snippet calls).

Host port 8080 (`localhost:8080`) becomes a free port; the suite must pass
in full wherever the example runs it.

Usage: image_examples.py SOURCE_DIR WORK_DIR IMAGE_NAME SUITE_SIZE PODMAN_ARGS...
"""
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time

import yaml

DOC_IMAGE = "registry.example.com/fake-org:0.1.0"
RUN_OPTS = ["--ulimit", "nofile=20000:20000", "--ulimit", "nproc=4096:4096"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def block(text, heading, lang):
    section = text.split("\n## " + heading + "\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```" + lang + r"\n(.*?)```", section, re.S).group(1)


class Examples:
    def __init__(self, source, work, image, podman):
        self.source, self.work, self.podman = source, work, podman
        self.port = free_port()
        self.failures = []
        self.started = []
        os.makedirs(work, exist_ok=True)
        self.pm("tag", image, DOC_IMAGE)
        shim = os.path.join(work, "docker")
        with open(shim, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\n# podman standing in for docker (ci/image_examples.py)\n"
                    f'if [ "$1" = run ]; then shift; set -- run {" ".join(RUN_OPTS)} "$@"; fi\n'
                    f'exec {shlex.join(podman)} "$@"\n')
        os.chmod(shim, 0o755)
        self.env = dict(os.environ, PATH=work + os.pathsep + os.environ["PATH"])
        self.text = open(os.path.join(source, "docs", "ci.md"), encoding="utf-8").read()

    def pm(self, *args, check=True):
        r = subprocess.run(self.podman + list(args), capture_output=True, text=True)
        if check and r.returncode != 0:
            raise RuntimeError(f"podman {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout.strip()

    def sh(self, script, name):
        script = script.replace("localhost:8080", f"localhost:{self.port}")
        r = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=self.work, env=self.env,
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        print(f"--- {name}: exit {r.returncode}\n{out[-1500:]}", flush=True)
        if r.returncode != 0:
            self.failures.append(f"{name}: exit {r.returncode}")
        return out

    def start(self, name, env, ports=(), options=""):
        args = ["run", "-d", "--name", name] + RUN_OPTS
        for key, value in (env or {}).items():
            args += ["-e", f"{key}={value}"]
        for mapping in ports:
            host, _, inner = str(mapping).rpartition(":")
            args += ["-p", f"127.0.0.1:{self.port}:{inner}"] if host.endswith("8080") else ["-p", mapping]
        args += shlex.split(options) + [DOC_IMAGE]
        self.pm("rm", "-f", "-t", "0", name, check=False)
        cid = self.pm(*args)
        self.started.append(name)
        for _ in range(150):
            if subprocess.run(self.podman + ["healthcheck", "run", name], capture_output=True).returncode == 0:
                return cid
            subprocess.run(["sleep", "0.2"])
        raise RuntimeError(f"{name} never became healthy: {self.pm('logs', name, check=False)[-800:]}")

    def stop_all(self):
        for name in self.started:
            status = subprocess.run(self.podman + ["stop", "-t", "10", name], capture_output=True)
            code = self.pm("inspect", "-f", "{{.State.ExitCode}}", name, check=False)
            if status.returncode != 0 or code != "0":
                self.failures.append(f"{name} did not stop cleanly on SIGTERM (exit {code})")
            self.pm("rm", "-f", name, check=False)
        self.started = []

    def suite_passed(self, out, name, expected):
        if f"{expected} passed, 0 failed, 0 skipped" not in out:
            self.failures.append(f"{name}: the suite did not pass in full ({expected} scenarios)")


def github(ex, expected):
    doc = yaml.safe_load(block(ex.text, "GitHub Actions: the image as a service", "yaml"))
    job = doc["jobs"]["scenarios"]
    service = job["services"]["fake-org"]
    cid = ex.start("example-github", service.get("env"), service.get("ports", []),
                   service.get("options", ""))
    out = ""
    for step in job["steps"]:
        if "run" in step:
            script = re.sub(r"\$\{\{\s*job\.services\.fake-org\.id\s*\}\}", cid, step["run"])
            out += ex.sh(script, "github: " + step.get("name", step["run"][:40]))
    ex.suite_passed(out, "github", expected)
    ex.stop_all()


def gitlab(ex, expected):
    doc = yaml.safe_load(block(ex.text, "GitLab CI: the image as a service", "yaml"))
    job = doc["scenarios"]
    service = job["services"][0]
    ex.start("example-gitlab", service.get("variables"),
             options=f"--add-host {service['alias']}:127.0.0.1")
    builds = os.path.join(ex.work, "gitlab-project")
    os.makedirs(builds, exist_ok=True)
    os.chmod(builds, 0o777)
    script = "set -e\n" + "\n".join(job["script"])
    out = ex.sh(f"docker run --rm --network container:example-gitlab -v {builds}:/builds/project "
                f"-w /builds/project --entrypoint '' {job['image']['name']} sh -c {shlex.quote(script)}",
                "gitlab: script")
    ex.suite_passed(out, "gitlab", expected)
    ex.stop_all()


def compose(ex, expected):
    doc = yaml.safe_load(block(ex.text, "Docker Compose", "yaml"))
    service, scenarios = doc["services"]["fake-org"], doc["services"]["scenarios"]
    if scenarios.get("network_mode") != "service:fake-org":
        ex.failures.append("compose: scenarios does not share fake-org's network")
    ex.start("example-compose", service.get("environment"), service.get("ports", []))
    out = ex.sh("docker run --rm --network container:example-compose "
                f"{scenarios['image']} {shlex.join(scenarios['command'])}", "compose: scenarios")
    ex.suite_passed(out, "compose", expected)
    ex.stop_all()


TESTCONTAINERS = r"""
// testcontainers' GenericContainer, as far as docs/ci.md's snippet uses it,
// with podman (ci/image_examples.py).
const { execFileSync } = require("child_process");
const podman = JSON.parse(process.env.PODMAN_JSON);
const run = (...args) => execFileSync(podman[0], [...podman.slice(1), ...args]).toString().trim();
class GenericContainer {
  constructor(image) { this.image = image; this.env = {}; this.ports = []; }
  withEnvironment(env) { Object.assign(this.env, env); return this; }
  withExposedPorts(...ports) { this.ports.push(...ports); return this; }
  withWaitStrategy(strategy) { this.wait = strategy; return this; }
  async start() {
    const args = ["run", "-d", ...JSON.parse(process.env.RUN_OPTS_JSON)];
    for (const [k, v] of Object.entries(this.env)) args.push("-e", `${k}=${v}`);
    for (const p of this.ports) args.push("-p", `127.0.0.1::${p}`);
    const id = run(...args, this.image);
    if (this.wait !== "healthcheck") throw new Error("only Wait.forHealthCheck() is emulated");
    for (let i = 0; ; i++) {
      try { run("healthcheck", "run", id); break; } catch (e) { if (i > 150) throw e; }
      await new Promise((r) => setTimeout(r, 200));
    }
    return {
      getHost: () => "localhost",
      getMappedPort: (p) => Number(run("port", id, `${p}/tcp`).split(":").pop()),
      stop: async () => {
        run("stop", "-t", "10", id);
        const code = run("inspect", "-f", "{{.State.ExitCode}}", id);
        run("rm", id);
        if (code !== "0") throw new Error(`exit ${code} after SIGTERM`);
      },
    };
  }
}
module.exports = { GenericContainer, Wait: { forHealthCheck: () => "healthcheck" } };
"""


def testcontainers(ex):
    snippet = block(ex.text, "Testcontainers (Node)", "js")
    module = os.path.join(ex.work, "node", "node_modules", "testcontainers")
    os.makedirs(module, exist_ok=True)
    with open(os.path.join(module, "index.js"), "w", encoding="utf-8") as f:
        f.write(TESTCONTAINERS)
    test = os.path.join(ex.work, "node", "example.js")
    with open(test, "w", encoding="utf-8") as f:
        f.write("(async () => {\n" + snippet + "\n})().catch((e) => { console.error(e); process.exit(1); });\n")
    env = dict(ex.env, PODMAN_JSON=json.dumps(ex.podman), RUN_OPTS_JSON=json.dumps(RUN_OPTS))
    r = subprocess.run(["node", test], cwd=os.path.dirname(test), env=env, capture_output=True, text=True)
    print(f"--- testcontainers: exit {r.returncode}\n{(r.stdout + r.stderr)[-1500:]}", flush=True)
    if r.returncode != 0:
        ex.failures.append("testcontainers: the snippet failed")


def main():
    source, work, image, expected = sys.argv[1:5]
    ex = Examples(os.path.abspath(source), os.path.abspath(work), image, sys.argv[5:])
    try:
        for example in (github, gitlab, compose):
            began = time.monotonic()
            example(ex, int(expected))
            print(f"=== {example.__name__}: {time.monotonic() - began:.1f} s", flush=True)
        began = time.monotonic()
        testcontainers(ex)
        print(f"=== testcontainers: {time.monotonic() - began:.1f} s", flush=True)
    finally:
        ex.stop_all()
    for failure in ex.failures:
        print("FAIL:", failure)
    return 1 if ex.failures else 0


if __name__ == "__main__":
    sys.exit(main())
