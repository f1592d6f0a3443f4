#!/usr/bin/env python3
"""The room run of `make bench-serve`: one presenter (`ssh host present`) typing,
and what N watchers (`ssh host watch CODE`) cost it.

    present_driver.py --tabshell BIN [--watchers N] [--seconds S] [--json F]

The presenter types `3` and `1` (History, Inbox) four times a second for S seconds with nobody
watching, then again with N watchers following it (half at 40x12, half at 160x48); its
key-to-screen is from writing a key to the first byte of its app's answer, as in the crowd run.
Clients: asyncssh (.build-bench/venv); the watchers run in a process of their own, so reading
their frames does not slow the presenter's client. Everything shares the host's cores.
"""

import argparse
import asyncio
import json
import multiprocessing
import re
import shutil
import signal
import sys
import tempfile
import time

from crowd_driver import percentile, start_server, cpu_seconds  # noqa: E402
from serve_driver import descendants  # noqa: E402

KEYS = [b"3", b"1"]


def session_class(marker, on_data=None):
    import asyncssh

    class Session(asyncssh.SSHClientSession):
        def __init__(self):
            self.framed = asyncio.get_running_loop().create_future()
            self.seen = b""
            self.pending = None
            self.latencies = []
            self.channel = None
            self.closed = False

        def connection_made(self, channel):
            self.channel = channel

        def data_received(self, data, datatype):
            now = time.monotonic()
            if not self.framed.done():
                self.seen = (self.seen + data)[-4096:]
                if re.search(marker, self.seen):
                    self.framed.set_result(self.seen)
                return
            if self.pending is not None:
                self.latencies.append((now - self.pending) * 1000)
                self.pending = None

        def connection_lost(self, exc):
            self.closed = True
            if not self.framed.done():
                self.framed.set_exception(ConnectionError(str(exc) if exc else "closed"))

        def press(self, key):
            """Whether `key` was sent (not while the last one is unanswered, up to 5 s)."""
            if self.pending is not None and time.monotonic() - self.pending < 5:
                return False
            self.pending = time.monotonic()
            self.channel.write(key)
            return True

    return Session


async def open_session(port, command, size, marker):
    import asyncssh
    conn = await asyncssh.connect(
        "127.0.0.1", port, username="visitor", password="-", known_hosts=None, client_keys=None,
        agent_path=None, preferred_auth="none,password")
    _, session = await conn.create_session(
        session_class(marker), command, term_type="xterm-256color", term_size=size, encoding=None,
        env={"LC_ALL": "C.UTF-8"})
    await asyncio.wait_for(asyncio.shield(session.framed), 60)
    return conn, session


async def watchers_main(port, code, count, pipe):
    loop = asyncio.get_running_loop()
    opened = []
    failed = 0
    errors = {}
    for i in range(count):
        size = (40, 12) if i % 2 == 0 else (160, 48)
        try:
            opened.append(await open_session(port, f"watch {code}", size, rb"watching"))
        except Exception as error:  # noqa: BLE001 - counted
            failed += 1
            name = (type(error).__name__ + ": " + str(error))[:100]
            errors[name] = errors.get(name, 0) + 1
    pipe.send(("watching", len(opened), failed, errors))
    await loop.run_in_executor(None, pipe.recv)
    for conn, _ in opened:
        conn.close()
    await asyncio.sleep(0.5)


def watchers(port, code, count, pipe):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(watchers_main(port, code, count, pipe))


async def type_for(session, seconds):
    session.latencies = []
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        # The other tab only once a key was sent: a skipped key must not leave the driver pressing
        # the tab already shown, which draws nothing.
        if session.press(KEYS[n % 2]):
            n += 1
        await asyncio.sleep(0.25)
    await asyncio.sleep(1)
    return list(session.latencies)


async def main_async(args, port, server_pid):
    conn, presenter = await open_session(port, "present", (80, 24), rb"watch [2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}")
    code = re.search(rb"watch ([2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4})", presenter.framed.result()).group(1).decode()
    results = {"code": code}
    cpu0 = cpu_seconds([server_pid] + descendants(server_pid))
    alone = await type_for(presenter, args.seconds)
    results["alone"] = alone
    results["alone_cpu"] = cpu_seconds([server_pid] + descendants(server_pid)) - cpu0
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.Process(target=watchers, args=(port, code, args.watchers, child))
    process.start()
    loop = asyncio.get_running_loop()
    _, watching, failed, errors = await loop.run_in_executor(None, parent.recv)
    results["watching"], results["failed"], results["errors"] = watching, failed, errors
    cpu1 = cpu_seconds([server_pid] + descendants(server_pid))
    watched = await type_for(presenter, args.seconds)
    results["watched"] = watched
    results["watched_cpu"] = cpu_seconds([server_pid] + descendants(server_pid)) - cpu1
    parent.send("done")
    process.join(30)
    conn.close()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--json")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tabshell-present-bench-")
    server, port, _ = start_server(args.tabshell, folder, args.watchers + 8, 20.0)
    try:
        results = asyncio.run(main_async(args, port, server.pid))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(15)
        shutil.rmtree(folder, ignore_errors=True)
    for name, label in (("alone", "0 watchers"), ("watched", f"{results['watching']} watchers")):
        values = results[name]
        print(f"presenter key-to-screen with {label:>12}: p50 {percentile(values, 50):6.1f} ms  "
              f"p99 {percentile(values, 99):6.1f} ms  ({len(values)} keys; server+sessions CPU "
              f"{results[name + '_cpu']:.1f} s over {args.seconds} s)")
    if results["failed"]:
        print(f"watchers that did not get in: {results['failed']} {results['errors']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f)


if __name__ == "__main__":
    sys.exit(main())
