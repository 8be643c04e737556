"""The peers bench/compare measures fake-org beside, each serving the fake's own
answers: nginx (`return 200` with the same bytes: the ceiling of a static
answer) and WireMock (stubs of the same bodies), and the CPU accounting that
says how much of the machine the load generator and everything else took."""
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(cmd, pattern, env=None, timeout=60):
    """Starts a server and returns (process, port) once it prints its URL."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT, start_new_session=True)
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        m = re.search(pattern, line)
        if m:
            return proc, int(m.group(1))
    stop(proc)
    sys.exit("could not start: " + " ".join(cmd))


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except Exception:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except Exception:
            pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_listening(cmd, port, log, timeout=90, cwd=None):
    """Starts a server that prints nothing useful and waits until `port`
    accepts a connection; returns the process, or None when it never does."""
    out = open(log, "w")
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                            start_new_session=True)
    deadline = time.time() + timeout
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.2)
    return None


def nginx_config(directory, port, answers):
    """nginx.conf answering each (method, path, body) with `return 200` of
    that exact body; a worker per core and keep-alive as nginx ships them
    (1,000 requests a connection; fake-org closes one after 100)."""
    locations = []
    for _, path, body in answers:
        # nginx interpolates $name in the text; JSON answers have none, and a
        # stray one is swapped for a byte of the same length.
        text = body.replace("\\", "\\\\").replace("'", "\\'").replace("$", "S")
        locations.append(f"    location = {path} {{ return 200 '{text}'; }}")
    temp = "\n".join(f"  {kind}_temp_path {directory}/{kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""worker_processes auto;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
{temp}
  default_type application/json;
  server {{
    listen 127.0.0.1:{port} backlog=4096;
{chr(10).join(locations)}
    location / {{ return 404; }}
  }}
}}
"""


def start_nginx(directory, answers):
    """nginx on a free port; (process, port) or None when it is not installed."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not binary:
        return None
    port = free_port()
    conf = os.path.join(directory, "nginx.conf")
    with open(conf, "w") as f:
        f.write(nginx_config(directory, port, answers))
    proc = start_listening([binary, "-p", directory, "-c", conf, "-g", "daemon off;"], port,
                           os.path.join(directory, "nginx.log"))
    return (proc, port) if proc else None


def wiremock_jar(root):
    found = os.path.join(root, "node_modules", "wiremock", "build")
    if not os.path.isdir(found):
        return None
    jars = sorted(j for j in os.listdir(found) if j.startswith("wiremock-standalone") and j.endswith(".jar"))
    return os.path.join(found, jars[-1]) if jars else None


def start_wiremock(root, directory, answers):
    """WireMock standalone with one stub per (method, path, body), no request
    journal and no request log (both cost it per request and are off in a
    load test); (process, port, version) or None without java or the jar."""
    jar, java = wiremock_jar(root), shutil.which("java")
    if not jar or not java:
        return None
    mappings = os.path.join(directory, "mappings")
    os.makedirs(mappings, exist_ok=True)
    for n, (method, path, body) in enumerate(answers):
        stub = {"request": {"method": method, "urlPath": path},
                "response": {"status": 200, "body": body,
                             "headers": {"Content-Type": "application/json;charset=UTF-8"}}}
        with open(os.path.join(mappings, f"stub{n}.json"), "w") as f:
            json.dump(stub, f)
    port = free_port()
    proc = start_listening([java, "-jar", jar, "--port", str(port), "--bind-address", "127.0.0.1",
                            "--root-dir", directory, "--disable-banner", "--no-request-journal",
                            "--disable-request-logging"], port,
                           os.path.join(directory, "wiremock.log"), timeout=120)
    version = os.path.basename(jar)[len("wiremock-standalone-"):-len(".jar")]
    return (proc, port, version) if proc else None


def machine_ticks():
    """(busy, total) jiffies of all cores from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def settle(quiet=0.10, most=30.0):
    """Waits, up to `most` seconds, until the machine's cores are busy less
    than `quiet` of the time over half a second: a server measured before
    (the JVM compiling and collecting after its run) must not take its CPU
    from the next. Returns the seconds waited, or None when it never settled."""
    waited = 0.0
    while waited < most:
        before = machine_ticks()
        time.sleep(0.5)
        after = machine_ticks()
        waited += 0.5
        if (after[0] - before[0]) < quiet * max(after[1] - before[1], 1):
            return waited
    return None


def group_ticks(pgid):
    """utime + stime jiffies of the processes in the process group `pgid`
    (a server started in a session of its own: nginx's workers, the JVM)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields[0] is the state: pgrp is the 5th field
            total += int(fields[11]) + int(fields[12])
    return total


class CpuShare:
    """What share of the machine's cores wrk, the server and everything else
    used between start() and stop(); wrk's from its rusage once reaped."""

    def start(self, pgid):
        self.pgid = pgid
        self.machine = machine_ticks()
        self.server = group_ticks(pgid) if pgid else 0
        self.children = resource.getrusage(resource.RUSAGE_CHILDREN)

    def stop(self):
        busy, total = machine_ticks()
        hz = os.sysconf("SC_CLK_TCK")
        cores = os.cpu_count() or 1
        span = max(total - self.machine[1], 1)  # all cores' jiffies
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        wrk = (kids.ru_utime - self.children.ru_utime + kids.ru_stime - self.children.ru_stime) * hz
        server = (group_ticks(self.pgid) - self.server) if self.pgid else 0
        machine = busy - self.machine[0]
        share = lambda ticks: max(0.0, min(1.0, ticks / span))  # noqa: E731
        return {"wrk_cpu": share(wrk), "server_cpu": share(server),
                "other_cpu": share(machine - wrk - server), "cores": cores}
