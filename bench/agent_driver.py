"""The agents' benchmark: how long from an agent's `request_capture` to the request's row on an
open Inbox's screen, and from a person's Done to the agent's `wait_for_answer` returning.

The app runs in a real pseudo-terminal at 80x24 (its screen read back with pyte); the agent is
the Model Context Protocol's own Python client (`mcp` from PyPI) over `tabshell mcp` on the same
store. Times are wall-clock from the call (or the Done key) to the moment it shows: the first
output after which the screen holds the title, or the tool's answer.

    python bench/agent_driver.py --tabshell .build/release/tabshell --db sqlite=/tmp/a.sqlite \
        --db postgres=postgres://... --runs 50 --json out.json
"""
import argparse
import asyncio
import fcntl
import json
import os
import pty
import signal
import statistics
import struct
import sys
import termios
import time
import uuid

import pyte
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

COLS, ROWS = 80, 24


class App:
    """The app in a pty; its output fed to a pyte screen as it arrives (an asyncio reader)."""

    def __init__(self, argv, env):
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execve(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        asyncio.get_running_loop().add_reader(fd, self._read)

    def _read(self):
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.fd)
            return
        self.stream.feed(data)
        self.changed.set()

    def text(self):
        return "\n".join(self.screen.display)

    async def until(self, condition, timeout=30.0):
        """Waits until `condition(text)` holds; returns the moment the output that made it hold
        was read (perf_counter), or raises after `timeout` seconds."""
        deadline = time.perf_counter() + timeout
        while not condition(self.text()):
            self.changed.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("the screen never showed it:\n" + self.text())
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return time.perf_counter()

    def keys(self, data):
        os.write(self.fd, data)

    def close(self):
        try:
            asyncio.get_running_loop().remove_reader(self.fd)
        except Exception:
            pass
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def ean13(twelve):
    """Twelve digits and their EAN-13 check digit (a code the app takes as scanned)."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(twelve))
    return twelve + str((10 - total % 10) % 10)


def field(result, *names):
    """A result's field under the name this version of `mcp` gives it (isError / is_error)."""
    for name in names:
        if hasattr(result, name):
            return getattr(result, name)
    return None


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[index]


async def measure(binary, label, db, runs, answers, env):
    app = App([binary, "--db", db], env)
    server = StdioServerParameters(command=binary, args=["mcp", "--db", db, "--requests-per-minute", "10000"], env=env)
    shown, returned = [], []
    try:
        await app.until(lambda text: "[ Inbox" in text and "Settings" in text)
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for index in range(runs):
                    title = f"Bench {index} {uuid.uuid4().hex[:8]}"
                    # The selection on the first row: a request filed now is the row above it,
                    # on screen (with the selection further down, it could be scrolled past).
                    if " › " in app.text() and not app.text().split("\n")[2].lstrip().startswith("›"):
                        app.keys(b"g")
                        await app.until(lambda text: text.split("\n")[2].lstrip().startswith("›"))
                    began = time.perf_counter()
                    filed = await session.call_tool("request_capture", {"title": title, "kind": "barcode"})
                    if field(filed, "isError", "is_error"):
                        raise RuntimeError(filed.content[0].text)
                    seen = await app.until(lambda text: title in text)
                    shown.append((seen - began) * 1000)
                    if index >= answers:
                        continue
                    # The person answers it: the newest pending request is the first row.
                    request_id = field(filed, "structuredContent", "structured_content")["request_id"]
                    app.keys(b"g")
                    await asyncio.sleep(0.05)
                    app.keys(b"\r")
                    await app.until(lambda text: "Capture · Barcode" in text and title in text)
                    code = ean13(f"400638{index:06d}")
                    app.keys(code.encode() + b"\r")
                    await app.until(lambda text: code in text)
                    wait = asyncio.create_task(
                        session.call_tool("wait_for_answer", {"request_id": request_id, "timeout_seconds": 60}))
                    await asyncio.sleep(0.3)  # the wait has begun looking before Done is pressed
                    done = time.perf_counter()
                    app.keys(b"\x04")
                    answer = await wait
                    returned.append((time.perf_counter() - done) * 1000)
                    text = "\n".join(item.text for item in answer.content if item.type == "text")
                    if code not in text:
                        raise RuntimeError("the wait returned no code: " + text[:300])
                    await app.until(lambda text: "[ Inbox" in text and "Capture ·" not in text)
    finally:
        app.close()
    return {
        "store": label,
        "file_to_screen_ms": {"n": len(shown), "p50": statistics.median(shown), "p99": percentile(shown, 99),
                              "max": max(shown)},
        "done_to_answer_ms": {"n": len(returned), "p50": statistics.median(returned) if returned else None,
                              "p99": percentile(returned, 99) if returned else None},
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--db", action="append", required=True, help="label=path-or-url")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--answers", type=int, default=20, help="how many of the runs a person answers")
    parser.add_argument("--home", required=True)
    parser.add_argument("--json")
    args = parser.parse_args()
    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": args.home,
           "XDG_DATA_HOME": os.path.join(args.home, "data"), "XDG_CONFIG_HOME": os.path.join(args.home, "config")}
    results = []
    for entry in args.db:
        label, _, db = entry.partition("=")
        results.append(asyncio.run(measure(args.tabshell, label, db, args.runs, args.answers, env)))
    print("agents: request_capture → the row on an open Inbox (80x24); Done → wait_for_answer returns")
    print(f"{'store':<10} {'file→screen p50':>16} {'p99':>8} {'max':>8}   {'Done→answer p50':>16} {'p99':>8}")
    for r in results:
        f, d = r["file_to_screen_ms"], r["done_to_answer_ms"]
        answer = f"{d['p50']:>14.1f}ms {d['p99']:>6.1f}ms" if d["p50"] is not None else f"{'-':>16} {'-':>8}"
        print(f"{r['store']:<10} {f['p50']:>14.1f}ms {f['p99']:>6.1f}ms {f['max']:>6.1f}ms   {answer}"
              f"   (n={f['n']}/{d['n']})")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
