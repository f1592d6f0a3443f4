#!/usr/bin/env python3
"""The upgrade run of `make bench-serve`: people typing and people arriving while
`tabshell serve` hands over to a new process (SIGUSR2, what `systemctl reload` sends).

    upgrade_driver.py --tabshell BIN [--sessions 50] [--seconds 30] [--rate 10] [--upgrade-at 10] [--json F]

`--sessions` demo sessions (asyncssh, a pty each, 80x24) type a key a second for `--seconds`;
meanwhile `--rate` new connections a second each run `inbox list` (no pty) and read its answer.
At `--upgrade-at` seconds into the typing the server gets SIGUSR2: it starts BIN again on the
same listening socket, and once that one listens it stops accepting and keeps its sessions.

Reported
- dropped sessions: typing sessions whose connection ended before the run did (goal 0);
- refused connections: new connections whose connect, authentication, command or answer failed
  or took over 30 s (goal 0); how many were answered by each server is not told apart by the
  client (the log says when the hand-over happened);
- key-to-screen p50/p99/max over the run, and p99 over the 5 s after the signal (from a key
  written to the first byte of the app's answer; keys alternate `3` and `1`, each changes the
  screen); keys unanswered after 5 s count as timeouts;
- hand-over: from the signal to the old server's "Handed over" line.
"""

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crowd_driver import KEY_TIMEOUT, KEYS, FIRST_FRAME_TIMEOUT, make_session_class, percentile  # noqa: E402


class Run:
    def __init__(self):
        self.typing = False
        self.latencies = []  # (when the key was written, ms)
        self.dropped = 0
        self.timeouts = 0
        self.keys = 0
        self.arrivals = {"answered": 0, "refused": 0}
        self.arrival_errors = {}
        self.arrival_ms = []

    def key_answered(self, written, now):
        self.latencies.append((written, (now - written) * 1000))

    def connection_dropped(self):
        self.dropped += 1

    def key_timed_out(self):
        self.timeouts += 1

    def tick_skipped(self):
        pass

    def key_pressed(self):
        self.keys += 1


async def connect(port):
    import asyncssh
    return await asyncssh.connect(
        "127.0.0.1", port, username="visitor", password="-", known_hosts=None, client_keys=None,
        agent_path=None, preferred_auth="none,password")


async def open_session(run, port):
    conn = await asyncio.wait_for(connect(port), 30)
    _, session = await asyncio.wait_for(conn.create_session(
        make_session_class(run), term_type="xterm-256color", term_size=(80, 24), encoding=None,
        env={"LC_ALL": "C.UTF-8"}), 30)
    await asyncio.wait_for(asyncio.shield(session.framed), FIRST_FRAME_TIMEOUT)
    return conn, session


async def arrive(run, port):
    """One new connection running `inbox list`; counted answered or refused."""
    started = time.monotonic()
    try:
        async def once():
            conn = await connect(port)
            async with conn:
                result = await conn.run("inbox list", check=False)
                if result.exit_status != 0 or not result.stdout:
                    raise RuntimeError(f"exit {result.exit_status}: {str(result.stderr)[:80]}")
        await asyncio.wait_for(once(), 30)
        run.arrivals["answered"] += 1
        run.arrival_ms.append((time.monotonic() - started) * 1000)
    except Exception as error:  # noqa: BLE001 - every way a connection fails is counted
        run.arrivals["refused"] += 1
        name = (type(error).__name__ + (f": {error}" if str(error) else ""))[:120]
        run.arrival_errors[name] = run.arrival_errors.get(name, 0) + 1


async def type_keys(session, start, seconds):
    tick = start + (hash(id(session)) % 1000) / 1000
    n = 0
    while tick < start + seconds and not session.closed:
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
        if session.press(KEYS[n % 2]):
            n += 1
        tick += 1.0


async def measure(args, port, server_pid, log_path):
    run = Run()
    sessions = []
    for _ in range(args.sessions):
        sessions.append(await open_session(run, port))
        await asyncio.sleep(0.05)
    start = time.monotonic() + 0.5
    run.typing = True
    typing = [asyncio.create_task(type_keys(s, start, args.seconds)) for _, s in sessions]
    arrivals = []
    upgrade = {}

    async def arrivals_loop():
        tick = start
        while tick < start + args.seconds:
            await asyncio.sleep(max(0.0, tick - time.monotonic()))
            arrivals.append(asyncio.create_task(arrive(run, port)))
            tick += 1.0 / args.rate

    async def upgrade_at():
        await asyncio.sleep(max(0.0, start + args.upgrade_at - time.monotonic()))
        upgrade["signalled"] = time.monotonic()
        os.kill(server_pid, signal.SIGUSR2)
        while time.monotonic() < upgrade["signalled"] + 120:
            with open(log_path, "rb") as f:
                found = re.search(rb"Handed over to pid (\d+)", f.read())
            if found:
                upgrade["handed"] = time.monotonic()
                upgrade["successor"] = int(found.group(1))
                return
            await asyncio.sleep(0.01)

    await asyncio.gather(arrivals_loop(), upgrade_at(), *typing)
    await asyncio.gather(*arrivals)
    await asyncio.sleep(KEY_TIMEOUT + 0.5)
    for _, s in sessions:
        if s.pending is not None and not s.closed:
            run.timeouts += 1
    run.typing = False
    for conn, _ in sessions:
        conn.close()
    await asyncio.sleep(0.5)
    return run, upgrade


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--upgrade-at", type=float, default=10.0)
    parser.add_argument("--json")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tabshell-upgrade-")
    log_path = os.path.join(folder, "serve.log")
    total = args.sessions + int(args.rate * 40) + 16
    flags = ["--max-connections", str(total), "--max-sessions", str(total), "--max-startups", "256",
             "--per-source-max-startups", "256", "--per-source-connections", str(int(args.rate * 60 * 2) + args.sessions + 100),
             "--max-sessions-per-source", str(total)]
    log = open(log_path, "wb")
    server = subprocess.Popen(
        [os.path.abspath(args.tabshell), "serve", "--demo", "--listen", "127.0.0.1:0", "--host-key",
         os.path.join(folder, "host_key")] + flags,
        stdout=log, stderr=log, stdin=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": folder, "XDG_DATA_HOME": os.path.join(folder, "xdg")})
    successor = None
    try:
        port = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and port is None:
            with open(log_path, "rb") as f:
                found = re.search(rb"Listening on 127\.0\.0\.1:(\d+)", f.read())
            port = int(found.group(1)) if found else None
            if server.poll() is not None:
                break
            time.sleep(0.05)
        if port is None:
            raise SystemExit("tabshell serve did not start:\n" + open(log_path, "rb").read().decode(errors="replace"))
        run, upgrade = asyncio.run(measure(args, port, server.pid, log_path))
        successor = upgrade.get("successor")
        signalled = upgrade.get("signalled", 0)
        lat = [ms for _, ms in run.latencies]
        around = [ms for when, ms in run.latencies if signalled <= when <= signalled + 5]
        result = {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(),
            "sessions": args.sessions, "seconds": args.seconds, "arrival_rate": args.rate,
            "dropped_sessions": run.dropped, "key_timeouts": run.timeouts, "keys": run.keys,
            "arrivals": run.arrivals, "arrival_errors": run.arrival_errors,
            "arrival_ms": {"p50": percentile(run.arrival_ms, 50), "p99": percentile(run.arrival_ms, 99)},
            "key_to_screen_ms": {"p50": percentile(lat, 50), "p99": percentile(lat, 99), "max": max(lat, default=float("nan"))},
            "key_to_screen_5s_after_signal_ms": {"p99": percentile(around, 99), "keys": len(around)},
            "handover_ms": (upgrade["handed"] - signalled) * 1000 if "handed" in upgrade else None,
            "handed_over": successor is not None,
        }
        print(f"upgrade: {args.sessions} sessions typing a key a second for {args.seconds} s, {args.rate:g} new connections a "
              f"second (inbox list), SIGUSR2 at {args.upgrade_at:g} s")
        print(f"  hand-over {'after %.0f ms' % result['handover_ms'] if successor else 'did NOT happen'}; "
              f"dropped sessions {run.dropped}; refused connections {run.arrivals['refused']} of "
              f"{run.arrivals['answered'] + run.arrivals['refused']}; key timeouts {run.timeouts}"
              + (f"; errors {run.arrival_errors}" if run.arrival_errors else ""))
        k = result["key_to_screen_ms"]
        print(f"  key-to-screen over {run.keys} keys: p50 {k['p50']:.1f} ms, p99 {k['p99']:.1f} ms, max {k['max']:.0f} ms; "
              f"p99 in the 5 s after the signal {result['key_to_screen_5s_after_signal_ms']['p99']:.1f} ms; "
              f"a new connection's inbox list p50 {result['arrival_ms']['p50']:.0f} ms, p99 {result['arrival_ms']['p99']:.0f} ms")
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=2)
    finally:
        target = successor or server.pid
        try:
            os.kill(target, signal.SIGTERM)
        except OSError:
            pass
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if successor:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    os.kill(successor, 0)
                except OSError:
                    break
                time.sleep(0.05)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
