#!/usr/bin/env python3
"""The crowd run of `make bench-serve`: N concurrent demo sessions against
`tabshell serve --demo` on a loopback port, each typing a key a second, and what the host pays.

    crowd_driver.py --tabshell BIN [--sessions N] [--seconds S] [--workers W] [--rate R] [--json F]

Clients: asyncssh (PyPI, in .build-bench/venv) on asyncio, the sessions split over W worker
processes (default 4), each an event loop holding N/W connections. Chosen over the other two:
1,000 `ssh -tt` processes cost ~1,000 processes and ptys on the client side (each ~5 MiB and
its own key exchange in C, then a process wake-up per byte both ways), and paramiko runs a
thread per connection (1,000 threads fighting over one GIL); asyncio keeps one thread per
worker and asyncssh's crypto is the `cryptography` package's C. The clients run on the same
2 cores as the server: their CPU is measured (getrusage of each worker) and printed beside the
server's, so the reader knows what the latencies include.

Definitions
- one idle session: a single session, alone on the server, typing a key a second for
  min(S, 60) seconds; its p50/p99 are the baseline the crowd is compared with.
- key-to-screen: from the client writing a key to the first byte of the app's answer arriving
  on that client (the demo app writes nothing between keys, so that byte is the screen change).
  Keys alternate `3` and `1` (History, Inbox): every key changes the screen.
- failures: connections refused (the connect or the session request failed), dropped (the
  session ended before the run did), keys not answered within 5 s (timeouts), and sessions
  that never drew their first frame (60 s).
- host memory: the server and every process under it (the session children), summed from
  /proc/PID/smaps_rollup: private = Private_Clean + Private_Dirty, and PSS. Private per extra
  session = (private with N open - private with 1 open) / (N - 1).
- CPU: utime + stime over the typing minute, as a share of one core: the server and its
  children from /proc/PID/stat, the clients from their workers' getrusage.

The server gets the flags that lift its limits for one address (everything comes from
127.0.0.1): --max-connections and --max-sessions N + 16, --max-startups and
--per-source-max-startups (plain limits) as large as the ramp needs, --per-source-connections
N + 100 a minute. Its defaults (256 connections, 64 sessions, 10:30:100 early drop, 4 starting
up and 30 a minute per address) are for the open internet and would refuse this crowd.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

KEY_TIMEOUT = 5.0
FIRST_FRAME_TIMEOUT = 60.0
KEYS = [b"3", b"1"]


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


# --- The clients (one worker process) -------------------------------------------------------

class Crowd:
    """One worker's sessions and their counts."""

    def __init__(self):
        self.sessions = []
        self.failures = {"refused": 0, "dropped": 0, "timeouts": 0, "no first frame": 0}
        self.errors = {}
        self.latencies = []
        self.first_frames = []
        self.keys = 0
        self.late = 0
        self.typing = False

    def key_answered(self, written, now):
        self.latencies.append((now - written) * 1000)

    def connection_dropped(self):
        self.failures["dropped"] += 1

    def key_timed_out(self):
        self.failures["timeouts"] += 1

    def tick_skipped(self):
        self.late += 1

    def key_pressed(self):
        self.keys += 1


def make_session_class(owner):
    """An asyncssh session that types keys and times their answers, for any `owner` with a
    `typing` flag and these callbacks: `key_answered(written, now)` (a key's answer began),
    `connection_dropped()` (the connection ended while typing), `key_timed_out()` (a key
    unanswered after KEY_TIMEOUT), `tick_skipped()` (a tick that found the last key still
    unanswered) and `key_pressed()`. `framed` holds the monotonic time of the first frame (the
    tab bar's "Settings")."""
    import asyncssh

    class Session(asyncssh.SSHClientSession):
        def __init__(self):
            self.started = time.monotonic()
            self.framed = asyncio.get_running_loop().create_future()
            self.seen = b""
            self.pending = None
            self.closed = False
            self.channel = None

        def connection_made(self, channel):
            self.channel = channel

        def data_received(self, data, datatype):
            now = time.monotonic()
            if not self.framed.done():
                self.seen = self.seen[-16:] + data
                if b"Settings" in self.seen:
                    self.framed.set_result(now)
                return
            if self.pending is not None:
                owner.key_answered(self.pending, now)
                self.pending = None

        def connection_lost(self, exc):
            self.closed = True
            if owner.typing:
                owner.connection_dropped()
            if not self.framed.done():
                self.framed.set_exception(ConnectionError(str(exc) if exc else "closed before the first frame"))

        def press(self, key):
            """Sends `key` unless the last one is still unanswered; whether it was sent (the
            caller moves to the other key only then, or it would press the tab already shown,
            which draws nothing, and wait out a timeout for an answer that never comes)."""
            if self.closed:
                return False
            now = time.monotonic()
            if self.pending is not None:
                if now - self.pending <= KEY_TIMEOUT:
                    owner.tick_skipped()  # the last key is not answered yet: this tick waits
                    return False
                owner.key_timed_out()
            self.pending = now
            owner.key_pressed()
            self.channel.write(key)
            return True

    return Session


async def open_one(crowd, session_class, port):
    import asyncssh
    try:
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username="visitor", password="-", known_hosts=None, client_keys=None,
            agent_path=None, preferred_auth="none,password"), 30)
        _, session = await asyncio.wait_for(conn.create_session(
            session_class, term_type="xterm-256color", term_size=(80, 24), encoding=None,
            env={"LC_ALL": "C.UTF-8"}), 30)
    except Exception as error:  # noqa: BLE001 - every way a connection can be refused is counted
        crowd.failures["refused"] += 1
        name = type(error).__name__ + (f": {error}" if str(error) else "")
        crowd.errors[name[:120]] = crowd.errors.get(name[:120], 0) + 1
        return
    try:
        crowd.first_frames.append((await asyncio.wait_for(asyncio.shield(session.framed), FIRST_FRAME_TIMEOUT) - session.started) * 1000)
    except Exception as error:  # noqa: BLE001
        crowd.failures["no first frame"] += 1
        crowd.errors[type(error).__name__] = crowd.errors.get(type(error).__name__, 0) + 1
        conn.close()
        return
    crowd.sessions.append((conn, session))


async def type_keys(crowd, session, start, seconds):
    await asyncio.sleep(max(0.0, start + random.random() - time.monotonic()))
    end = start + seconds
    n = 0
    tick = time.monotonic()
    while tick < end and not session.closed:
        if session.press(KEYS[n % 2]):
            n += 1
        tick += 1.0
        await asyncio.sleep(max(0.0, tick - time.monotonic()))


async def worker_main(port, count, rate, pipe):
    loop = asyncio.get_running_loop()
    crowd = Crowd()
    session_class = make_session_class(crowd)
    begun = time.monotonic()
    tasks = []
    for i in range(count):
        await asyncio.sleep(max(0.0, begun + i / rate - time.monotonic()))
        tasks.append(asyncio.create_task(open_one(crowd, session_class, port)))
    await asyncio.gather(*tasks)
    pipe.send(("opened", len(crowd.sessions), dict(crowd.failures), dict(crowd.errors), crowd.first_frames))
    command = await loop.run_in_executor(None, pipe.recv)
    if command[0] == "type":
        _, seconds, wall_start = command
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu_before = usage.ru_utime + usage.ru_stime
        start = time.monotonic() + (wall_start - time.time())
        crowd.typing = True
        await asyncio.gather(*(type_keys(crowd, s, start, seconds) for _, s in crowd.sessions))
        await asyncio.sleep(KEY_TIMEOUT + 0.5)
        for _, s in crowd.sessions:
            if s.pending is not None and not s.closed:
                crowd.failures["timeouts"] += 1
        crowd.typing = False
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu = usage.ru_utime + usage.ru_stime - cpu_before
        pipe.send(("typed", crowd.latencies, dict(crowd.failures), crowd.keys, crowd.late, cpu))
        await loop.run_in_executor(None, pipe.recv)
    for conn, _ in crowd.sessions:
        conn.close()
    await asyncio.sleep(0.5)


def worker(port, count, rate, pipe):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(worker_main(port, count, rate, pipe))


# --- The server and what it costs ------------------------------------------------------------

# A process and all below it, read from /proc: the serve benchmark's own walk.
from serve_driver import descendants  # noqa: E402


def memory_kib(pids):
    """(private, pss) in KiB over `pids`, from smaps_rollup."""
    private = pss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    name, _, rest = line.partition(":")
                    if name in ("Private_Clean", "Private_Dirty"):
                        private += int(rest.split()[0])
                    elif name == "Pss":
                        pss += int(rest.split()[0])
        except OSError:
            pass
    return private, pss


def cpu_seconds(pids):
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / ticks


def start_server(binary, folder, sessions, rate, extra=()):
    startups = max(64, int(rate * 4))
    flags = ["--max-connections", str(sessions + 16), "--max-sessions", str(sessions + 16),
             "--max-startups", str(startups), "--per-source-max-startups", str(startups),
             "--per-source-connections", str(sessions + 100),
             # Every client is 127.0.0.1: the per-address share (an eighth of --max-sessions) would cap them.
             "--max-sessions-per-source", str(sessions + 16)] + list(extra)
    log = open(os.path.join(folder, "serve.log"), "wb")
    server = subprocess.Popen(
        [binary, "serve", "--demo", "--listen", "127.0.0.1:0", "--host-key", os.path.join(folder, "host_key")] + flags,
        stdout=log, stderr=log, stdin=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": folder, "XDG_DATA_HOME": os.path.join(folder, "xdg"),
             "XDG_STATE_HOME": os.path.join(folder, "xdg")})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(os.path.join(folder, "serve.log"), "rb") as f:
            found = re.search(rb"Listening on 127\.0\.0\.1:(\d+)", f.read())
        if found:
            return server, int(found.group(1)), flags
        if server.poll() is not None:
            break
        time.sleep(0.05)
    with open(os.path.join(folder, "serve.log"), "rb") as f:
        raise SystemExit("tabshell serve did not start:\n" + f.read().decode(errors="replace"))


def run_crowd(port, server_pid, sessions, seconds, workers, rate, on_open=None):
    """Opens `sessions` over `workers` processes at `rate` a second, measures memory once all
    are open (on_open), then has each type for `seconds`. Returns the counts."""
    workers = max(1, min(workers, sessions))
    shares = [sessions // workers + (1 if i < sessions % workers else 0) for i in range(workers)]
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for share in shares:
        mine, theirs = context.Pipe()
        p = context.Process(target=worker, args=(port, share, rate / workers, theirs))
        p.start()
        pipes.append(mine)
        processes.append(p)
    opened, failures, errors, first = 0, {}, {}, []
    open_start = time.monotonic()
    for pipe in pipes:
        _, n, f, e, frames = pipe.recv()
        opened += n
        first += frames
        for k, v in f.items():
            failures[k] = failures.get(k, 0) + v
        for k, v in e.items():
            errors[k] = errors.get(k, 0) + v
    open_seconds = time.monotonic() - open_start
    time.sleep(2.0)
    memory = on_open() if on_open else None
    pids = descendants(server_pid)
    server_cpu = cpu_seconds(pids)
    wall = time.monotonic()
    for pipe in pipes:
        pipe.send(("type", seconds, time.time() + 0.5))
    latencies, keys, late, client_cpu = [], 0, 0, 0.0
    for pipe in pipes:
        _, lat, f, k, lt, cpu = pipe.recv()
        latencies += lat
        keys += k
        late += lt
        client_cpu += cpu
        for name, v in f.items():
            if name != "refused" and name != "no first frame":
                failures[name] = failures.get(name, 0) + v
    wall = time.monotonic() - wall
    load = os.getloadavg()[0]
    server_cpu = cpu_seconds(descendants(server_pid)) - server_cpu
    for pipe in pipes:
        pipe.send(("close",))
    for p in processes:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    return {
        "sessions": sessions, "opened": opened, "open_seconds": open_seconds,
        "first_frame_ms": {"p50": percentile(first, 50), "p99": percentile(first, 99)},
        "keys": keys, "late_ticks": late,
        "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99), "max_ms": max(latencies, default=float("nan")),
        "failures": failures, "failure_total": sum(failures.values()), "errors": errors,
        "cpu_cores": {"server": server_cpu / wall, "clients": client_cpu / wall},
        "memory": memory, "load_average_1min": load,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rate", type=float, default=20.0, help="new connections a second while the crowd gathers")
    parser.add_argument("--json")
    parser.add_argument("--serve-flag", action="append", default=[],
                        help="one more word for tabshell serve (e.g. --no-session-template), repeatable")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tabshell-crowd-")
    server, port, flags = start_server(os.path.abspath(args.tabshell), folder, args.sessions, args.rate, args.serve_flag)
    result = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(),
              "server_flags": flags, "client": f"asyncssh, {args.workers} worker processes"}
    print(f"crowd: tabshell serve --demo {' '.join(flags)} (its defaults refuse a crowd from one address)")
    try:
        def measure():
            pids = descendants(server.pid)
            server_only = memory_kib([server.pid])
            result.setdefault("server_process_private_mib", []).append(server_only[0] / 1024)
            return memory_kib(pids)

        one_memory = {}

        def remember_one():
            one_memory["kib"] = measure()
            return one_memory["kib"]

        idle = run_crowd(port, server.pid, 1, min(args.seconds, 60), 1, 1.0, remember_one)
        result["one_session"] = idle
        print(f"one idle session typing {min(args.seconds, 60)} s: p50 {idle['p50_ms']:.1f} ms, p99 {idle['p99_ms']:.1f} ms, "
              f"{idle['keys']} keys, {idle['failure_total']} failures")
        time.sleep(2.0)
        crowd = run_crowd(port, server.pid, args.sessions, args.seconds, args.workers, args.rate, measure)
        result["crowd"] = crowd
        (p1, s1), (pn, sn) = one_memory["kib"], crowd["memory"]
        per = (pn - p1) / max(crowd["opened"] - 1, 1) / 1024
        result["host_memory_mib"] = {"private_one": p1 / 1024, "pss_one": s1 / 1024, "private_all": pn / 1024,
                                     "pss_all": sn / 1024, "private_per_extra_session": per,
                                     "pss_per_extra_session": (sn - s1) / max(crowd["opened"] - 1, 1) / 1024}
        f = crowd["failures"]
        print(f"{args.sessions} sessions ({crowd['opened']} opened in {crowd['open_seconds']:.0f} s at {args.rate:g}/s, "
              f"first frame p50 {crowd['first_frame_ms']['p50']:.0f} ms p99 {crowd['first_frame_ms']['p99']:.0f} ms), "
              f"a key a second for {args.seconds} s: {crowd['keys']} keys, p50 {crowd['p50_ms']:.1f} ms, "
              f"p99 {crowd['p99_ms']:.1f} ms (max {crowd['max_ms']:.0f}); p99 - one idle session's = "
              f"{crowd['p99_ms'] - idle['p99_ms']:.1f} ms")
        print(f"failures: {crowd['failure_total']} ({', '.join(f'{k} {v}' for k, v in f.items())})"
              + (f"; errors: {crowd['errors']}" if crowd["errors"] else "")
              + (f"; {crowd['late_ticks']} ticks skipped waiting for the previous key" if crowd["late_ticks"] else ""))
        m = result["host_memory_mib"]
        print(f"host memory (server + session children, smaps_rollup): 1 session private {m['private_one']:.0f} MiB "
              f"(PSS {m['pss_one']:.0f}); {crowd['opened']} sessions private {m['private_all']:.0f} MiB (PSS {m['pss_all']:.0f}); "
              f"private per extra session {per:.2f} MiB (PSS {m['pss_per_extra_session']:.2f}); of it the server process's own "
              f"{(result['server_process_private_mib'][1] - result['server_process_private_mib'][0]) / max(crowd['opened'] - 1, 1):.2f} MiB")
        print(f"CPU while typing (cores of {os.cpu_count()}): server + children {crowd['cpu_cores']['server']:.2f}, "
              f"clients {crowd['cpu_cores']['clients']:.2f}; load average {crowd['load_average_1min']:.1f}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
