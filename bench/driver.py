#!/usr/bin/env python3
"""tabshell's benchmark driver: runs the real `tabshell` binary and the reference curses
program (bench/reference.c) in a pseudo-terminal of a fixed size, sends the same keys to
both, and measures what a user over a slow link feels.

Definitions (the numbers in docs/performance.md's table mean exactly this):

- settled: a key's output has settled at the last output byte that is followed by QUIET_MS
  (default 80 ms) without output. Latency = that byte's arrival - the moment the key was
  written to the pty. A key that produces no output has latency 0 and 0 bytes.
- startup: spawn -> the last byte of the first settled burst after which the screen (as pyte
  emulates it) shows the whole tab bar (Inbox, Create, History, Settings) and the heading.
  pyte answers none of tabshell's graphics questions, so this is a *silent* terminal; "startup
  answering" is the same with the driver answering them as xterm does (no graphics), the
  moment the questions' last one (primary device attributes, CSI c) arrives.
- bytes: bytes the program wrote to the pty for the step.
- cells: screen cells whose character or attributes differ before and after the step (pyte).
- idle: bytes written in IDLE_SECONDS with capture open and no key, per second.
- peak RSS: VmHWM from /proc/PID/status at the end of the scenario; CPU: utime + stime from
  /proc/PID/stat, in milliseconds, at the same moment.

Runs alternate A B A B (tabshell, reference) and every figure is the median over runs; each
is also given as a ratio to the reference's median measured in the same invocation.
"""

import argparse
import fcntl
import json
import os
import platform
import pty
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

import pyte

QUIET_MS = 80
IDLE_SECONDS = 2.0
TIMEOUT_S = 10.0
FREEZE_WAIT_S = 30.0

DOWN = b"\x1bOB"  # keypad (application) mode: curses sends smkx
PGDN = b"\x1b[6~"
END = b"\x1bOF"
ESC = b"\x1b"
ENTER = b"\r"
CODE = b"4006381333931"
SEARCH = b"4006"
# tabshell's graphics questions end with primary device attributes; xterm's answers to them
# (XTVERSION, DA2, cell size, DA1 without sixel), sent at once in one write.
QUERY_END = b"\x1b[c"
XTERM_ANSWERS = b"\x1bP>|XTerm(390)\x1b\\\x1b[>41;390;0c\x1b[6;20;10t\x1b[?62;22c"


def scenario():
    """(step name, group name, keys) in order; a group's figures are its steps' medians."""
    steps = [
        ("tab: History", "tab switch", b"3"),
        ("tab: Settings", "tab switch", b"4"),
        ("tab: Inbox", "tab switch", b"1"),
        ("open capture", "open capture", b"2"),
        ("choose barcode", "choose barcode", b"b"),
    ]
    steps += [(f"type digit {i + 1}", "type digit", CODE[i:i + 1]) for i in range(len(CODE))]
    steps += [("Esc (close capture)", "Esc", ESC)]
    steps += [("tab: History", "tab switch", b"3")]
    steps += [(f"Down {i + 1}", "Down", DOWN) for i in range(20)]
    steps += [("PgDn", "PgDn", PGDN), ("End", "End", END), ("open record", "open record", ENTER),
              ("back to list", "back", ESC), ("open search", "open search", b"/")]
    steps += [(f"search char {i + 1}", "search keystroke", SEARCH[i:i + 1]) for i in range(len(SEARCH))]
    steps += [("close search", "close search", ESC)]
    return steps


def snapshot(screen):
    return [[(c.data, c.fg, c.bg, c.bold, c.reverse, c.underscore) for c in (screen.buffer[y][x] for x in range(screen.columns))]
            for y in range(screen.lines)]


def changed_cells(before, after):
    return sum(1 for row_a, row_b in zip(before, after) for a, b in zip(row_a, row_b) if a != b)


class Session:
    def __init__(self, argv, cols, rows, env, answers=None):
        self.answers, self.seen = answers, b""
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.spawned = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.execve(argv[0], argv, env)
        self.pid, self.fd = pid, fd

    def read_until_quiet(self, quiet_ms=QUIET_MS, until=None, timeout=TIMEOUT_S):
        """Reads until `quiet_ms` pass without output (and `until(screen)` holds, if given).
        Returns (bytes read, time of the last byte or None)."""
        total, last = 0, None
        deadline = time.perf_counter() + timeout
        while True:
            now = time.perf_counter()
            if now > deadline:
                break
            ready, _, _ = select.select([self.fd], [], [], quiet_ms / 1000)
            if not ready:
                if until is None or until(self.screen):
                    break
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                break
            if not data:
                break
            last = time.perf_counter()
            total += len(data)
            if self.answers:
                self.seen = self.seen[-8:] + data
                if QUERY_END in self.seen:
                    os.write(self.fd, self.answers)
                    self.answers = None
            self.stream.feed(data)
        return total, last

    def step(self, keys):
        before = snapshot(self.screen)
        sent = time.perf_counter()
        os.write(self.fd, keys)
        count, last = self.read_until_quiet()
        return {
            "latency_ms": (last - sent) * 1000 if last else 0.0,
            "bytes": count,
            "cells": changed_cells(before, snapshot(self.screen)),
        }

    def wait_first_byte(self, timeout):
        """Waits for output; returns the moment it arrived (None after `timeout`)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        moment = time.perf_counter()
        try:
            self.stream.feed(os.read(self.fd, 65536))
        except OSError:
            pass
        return moment

    def proc(self):
        with open(f"/proc/{self.pid}/status") as f:
            hwm = next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        cpu_ms = (int(fields[11]) + int(fields[12])) * 1000 / ticks
        return hwm, cpu_ms

    def close(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = time.time() + 5
        while time.time() < deadline:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
            try:
                select.select([self.fd], [], [], 0.05)
                os.read(self.fd, 65536)
            except OSError:
                pass
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def tab_bar_shown(screen):
    text = "\n".join(screen.display)
    return all(word in text for word in ("Inbox", "Create", "History", "Settings"))


def run_once(argv, cols, rows, env):
    session = Session(argv, cols, rows, env)
    try:
        _, first = session.read_until_quiet(until=tab_bar_shown)
        if not tab_bar_shown(session.screen):
            raise RuntimeError(f"{argv[0]}: no tab bar after start:\n" + "\n".join(session.screen.display))
        result = {"startup_ms": (first - session.spawned) * 1000, "steps": []}
        steps = scenario()
        for name, group, keys in steps:
            measured = session.step(keys)
            measured.update(name=name, group=group)
            result["steps"].append(measured)
            if name == "choose barcode":
                idle_start = time.perf_counter()
                idle_bytes, _ = session.read_until_quiet(quiet_ms=IDLE_SECONDS * 1000, timeout=IDLE_SECONDS)
                result["idle_bytes_per_s"] = idle_bytes / (time.perf_counter() - idle_start)
            if name == "Esc (close capture)" and "History" not in session.screen.display[-1] + session.screen.display[0]:
                # A capture with typed text asks before closing; discard it.
                if any("Discard" in line or "discard" in line for line in session.screen.display):
                    extra = session.step(b"y")
                    result["steps"][-1]["bytes"] += extra["bytes"]
                    result["steps"][-1]["cells"] += extra["cells"]
        result["peak_rss_kib"], result["cpu_ms"] = session.proc()
        result["total_bytes"] = sum(step["bytes"] for step in result["steps"])
        result["total_cells"] = sum(step["cells"] for step in result["steps"])
        result["final_screen"] = session.screen.display
        return result
    finally:
        session.close()


def startup_once(argv, cols, rows, env, answers):
    """Spawn -> first full frame only (as in run_once), with the graphics questions answered."""
    session = Session(argv, cols, rows, env, answers=answers)
    try:
        _, first = session.read_until_quiet(until=tab_bar_shown)
        if not tab_bar_shown(session.screen):
            raise RuntimeError(f"{argv[0]}: no tab bar after start:\n" + "\n".join(session.screen.display))
        return (first - session.spawned) * 1000
    finally:
        session.close()


def private_and_pss_kib(pid):
    """(Private_Clean + Private_Dirty, Pss) of one process in KiB, from smaps_rollup."""
    private = pss = 0
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            name, _, rest = line.partition(":")
            if name in ("Private_Clean", "Private_Dirty"):
                private += int(rest.split()[0])
            elif name == "Pss":
                pss += int(rest.split()[0])
    return private, pss


def shared_libraries(pid):
    """The shared objects mapped into the process (distinct paths, the loader included)."""
    names = set()
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            if len(parts) == 6:
                path = parts[5].strip()
                base = os.path.basename(path)
                if ".so" in base and (base.endswith(".so") or ".so." in base):
                    names.add(path)
    return sorted(names)


def memory_per_session(argv, cols, rows, env, count):
    """Opens `count` sessions one after another on the same data, each to its first frame.
    Private per extra session = the other sessions' private memory, summed once all are open,
    / (count - 1) (the first's alone would count as private the library pages the others then
    share); PSS per extra session = (PSS of all - PSS of the first alone) / (count - 1), what
    the host's memory grows by with each;
    the shared libraries are the first session's, counted at its first frame. Each session has
    shown History and gone back to the Inbox (`3`, `1`) before it is counted."""
    sessions = []
    try:
        first = Session(argv, cols, rows, env)
        sessions.append(first)
        first.read_until_quiet(until=tab_bar_shown)
        libraries = shared_libraries(first.pid)
        first.step(b"3")
        first.step(b"1")
        one = private_and_pss_kib(first.pid)
        for _ in range(count - 1):
            s = Session(argv, cols, rows, env)
            sessions.append(s)
            s.read_until_quiet(until=tab_bar_shown)
            s.step(b"3")
            s.step(b"1")
        time.sleep(0.3)
        for s in sessions:  # drain anything written meanwhile
            s.read_until_quiet(quiet_ms=20, timeout=0.5)
        totals = [private_and_pss_kib(s.pid) for s in sessions]
        private_all, pss_all = sum(t[0] for t in totals), sum(t[1] for t in totals)
        return {"sessions": count, "libraries": len(libraries), "library_paths": libraries,
                "private_one_mib": one[0] / 1024, "pss_one_mib": one[1] / 1024,
                "private_per_extra_mib": (private_all - totals[0][0]) / (count - 1) / 1024,
                "pss_per_extra_mib": (pss_all - one[1]) / (count - 1) / 1024}
    finally:
        for s in sessions:
            s.close()


def postgres_freeze_once(binary, url, freeze, thaw, env, cols=80, rows=24):
    """On a PostgreSQL store: open capture, type a code, stop the server (SIGSTOP: connections
    stay open, nothing answers), press Done (Ctrl-D) and time until the screen's next change
    (the first byte written after the key). Returns ms (None if nothing came in FREEZE_WAIT_S).
    Each run has a home of its own: the capture a failed Done keeps is offered back at the
    next start, which would take the next run's keys."""
    home = tempfile.mkdtemp(prefix="tabshell-bench-freeze-")
    env = dict(env, HOME=home, XDG_DATA_HOME=home, XDG_STATE_HOME=home)
    session = Session([binary, "--db", url], cols, rows, env)
    try:
        session.read_until_quiet(until=tab_bar_shown)
        if not tab_bar_shown(session.screen):
            raise RuntimeError("postgres: no tab bar after start:\n" + "\n".join(session.screen.display))
        for keys in (b"2", b"b", CODE):
            session.step(keys)
        subprocess.run(freeze, check=True, capture_output=True)
        try:
            sent = time.perf_counter()
            os.write(session.fd, b"\x04")
            first = session.wait_first_byte(FREEZE_WAIT_S)
        finally:
            subprocess.run(thaw, check=True, capture_output=True)
        session.read_until_quiet(timeout=15)
        return (first - sent) * 1000 if first else None
    finally:
        session.close()
        shutil.rmtree(home, ignore_errors=True)


def postgres_frozen_start_once(binary, url, freeze, thaw, env, cols=80, rows=24):
    """Starts tabshell on a PostgreSQL store whose server is stopped (SIGSTOP) and times spawn ->
    the first frame that shows the tab bar and "Connecting" (None if none in FREEZE_WAIT_S); then
    presses `3` while the server is still stopped and times the next frame (the keys work)."""
    home = tempfile.mkdtemp(prefix="tabshell-bench-frozen-start-")
    env = dict(env, HOME=home, XDG_DATA_HOME=home, XDG_STATE_HOME=home)
    subprocess.run(freeze, check=True, capture_output=True)
    session = None
    try:
        session = Session([binary, "--db", url], cols, rows, env)
        shown = lambda screen: tab_bar_shown(screen) and "Connecting" in "\n".join(screen.display)
        _, first = session.read_until_quiet(until=shown, timeout=FREEZE_WAIT_S)
        if not shown(session.screen) or first is None:
            return None, None
        key = session.step(b"3")
        return (first - session.spawned) * 1000, key["latency_ms"] if key["bytes"] else None
    finally:
        subprocess.run(thaw, check=True, capture_output=True)
        if session:
            session.close()
        shutil.rmtree(home, ignore_errors=True)


def median(values):
    return statistics.median(values) if values else 0.0


def summarize(runs):
    """Per group: median over runs of (the run's median over the group's steps)."""
    groups = {}
    for run in runs:
        per = {}
        for step in run["steps"]:
            per.setdefault(step["group"], []).append(step)
        for group, steps in per.items():
            entry = groups.setdefault(group, {"latency_ms": [], "bytes": [], "cells": []})
            entry["latency_ms"].append(median([s["latency_ms"] for s in steps]))
            entry["bytes"].append(median([s["bytes"] for s in steps]))
            entry["cells"].append(median([s["cells"] for s in steps]))
    out = {}
    for group, entry in groups.items():
        b, c = median(entry["bytes"]), median(entry["cells"])
        out[group] = {"latency_ms": median(entry["latency_ms"]), "bytes": b, "cells": c,
                      "bytes_per_cell": b / c if c else 0.0}
    out["startup"] = {"latency_ms": median([r["startup_ms"] for r in runs])}
    # The whole scenario: every step's bytes over every step's changed cells, a median over runs.
    out["whole"] = {"bytes": median([r["total_bytes"] for r in runs]), "cells": median([r["total_cells"] for r in runs]),
                    "bytes_per_cell": median([r["total_bytes"] / r["total_cells"] for r in runs if r["total_cells"]])}
    out["idle"] = {"bytes_per_s": median([r["idle_bytes_per_s"] for r in runs])}
    out["process"] = {"peak_rss_kib": median([r["peak_rss_kib"] for r in runs]),
                      "cpu_ms": median([r["cpu_ms"] for r in runs])}
    return out


def ratio(a, b):
    if b == 0:
        return None if a else 1.0
    return a / b


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--db", action="append", required=True, help="label=path[:records], repeatable")
    parser.add_argument("--size", action="append", default=[], help="COLSxROWS, repeatable (default 80x24 and 200x60)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", required=True)
    parser.add_argument("--home", required=True, help="HOME/XDG folder for the runs")
    parser.add_argument("--memory-sessions", type=int, default=8,
                        help="sessions on one data set for private memory per extra session (0: skip)")
    parser.add_argument("--postgres-url", help="a throw-away PostgreSQL database for the freeze case")
    parser.add_argument("--postgres-control", default="scripts/pg-test-server",
                        help="its control script (freeze / thaw)")
    parser.add_argument("--freeze-runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in s.split("x")) for s in (args.size or ["80x24", "200x60"])]

    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "HOME": args.home, "XDG_DATA_HOME": args.home, "XDG_STATE_HOME": args.home}
    report = {"machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version()},
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "quiet_ms": QUIET_MS, "runs": args.runs, "results": []}
    for spec in args.db:
        label, rest = spec.split("=", 1)
        # label=path[:records]; a path may be a postgres:// URL, itself full of colons.
        path, _, records = rest.rpartition(":")
        if not records.isdigit():
            path, records = rest, "1000"
        for cols, rows in sizes:
            a_runs, b_runs, answering = [], [], []
            for _ in range(args.runs):  # A B A B
                a_runs.append(run_once([args.tabshell, "--db", path], cols, rows, env))
                b_runs.append(run_once([args.reference, records], cols, rows, env))
                answering.append(startup_once([args.tabshell, "--db", path], cols, rows, env, XTERM_ANSWERS))
            a, b = summarize(a_runs), summarize(b_runs)
            a["startup_answering"] = {"latency_ms": median(answering)}
            entry = {"data": label, "size": f"{cols}x{rows}", "tabshell": a, "reference": b,
                     "final_screen": a_runs[-1]["final_screen"]}
            report["results"].append(entry)
            print_table(entry)
            sys.stdout.flush()
    report["sessions"] = sessions_report(args, env)
    print_rows(report)
    with open(args.json, "w") as f:
        json.dump(report, f, indent=2)
    print(f"\nJSON: {args.json}")


def sessions_report(args, env):
    """The light-sessions rows beside the per-step table: private memory per extra session and shared
    libraries (both programs, at 80x24 on the second data set given, else the first), and the
    PostgreSQL freeze case (tabshell only)."""
    out = {}
    specs = [spec.split("=", 1) for spec in args.db]
    label, rest = specs[1] if len(specs) > 1 else specs[0]
    path, _, records = rest.rpartition(":")
    if not records.isdigit():
        path, records = rest, "1000"
    if args.memory_sessions > 1:
        a = memory_per_session([args.tabshell, "--db", path], 80, 24, env, args.memory_sessions)
        b = memory_per_session([args.reference, records], 80, 24, env, args.memory_sessions)
        out["memory"] = {"data": label, "tabshell": a, "reference": b}
        print(f"\n== sessions: {args.memory_sessions} on the {label} set, 80x24 (smaps_rollup; private = Private_Clean + Private_Dirty) ==")
        print(f"{'':<34}{'tabshell':>10}{'reference':>11}")
        print(f"{'private per extra session MiB':<34}{a['private_per_extra_mib']:>10.2f}{b['private_per_extra_mib']:>11.2f}")
        print(f"{'PSS per extra session MiB':<34}{a['pss_per_extra_mib']:>10.2f}{b['pss_per_extra_mib']:>11.2f}")
        print(f"{'one session alone: private / PSS':<34}{a['private_one_mib']:>5.1f}/{a['pss_one_mib']:<4.1f}"
              f"{b['private_one_mib']:>6.1f}/{b['pss_one_mib']:<4.1f}")
        print(f"{'shared libraries mapped at start':<34}{a['libraries']:>10}{b['libraries']:>11}")
    if args.postgres_url:
        control = os.path.abspath(args.postgres_control)
        times = []
        for _ in range(args.freeze_runs):
            times.append(postgres_freeze_once(args.tabshell, args.postgres_url, [control, "freeze"], [control, "thaw"], env))
        answered = [t for t in times if t is not None]
        out["postgres_freeze"] = {"runs_ms": times, "median_ms": median(answered) if answered else None,
                                  "unanswered": len(times) - len(answered), "wait_s": FREEZE_WAIT_S}
        shown = ", ".join("none" if t is None else f"{t:.0f}" for t in times)
        print(f"PostgreSQL stopped (SIGSTOP), Done: next frame after {shown} ms"
              + (f" (none within {FREEZE_WAIT_S:.0f} s counted as none)" if len(answered) < len(times) else ""))
        starts = [postgres_frozen_start_once(args.tabshell, args.postgres_url, [control, "freeze"], [control, "thaw"], env)
                  for _ in range(args.freeze_runs)]
        out["postgres_frozen_start"] = {"first_frame_ms": [s[0] for s in starts], "key_ms": [s[1] for s in starts]}
        shown = ", ".join("none" if f is None else f"{f:.0f} (a key then {k:.0f})" if k is not None else f"{f:.0f} (a key: no frame)"
                          for f, k in starts)
        print(f"PostgreSQL stopped (SIGSTOP) at start: the shell with \"Connecting\" after {shown} ms")
    return out


def print_rows(report):
    """The light-sessions rows of docs/performance.md, from this run, the reference beside them."""
    print("\n== light sessions: this run's rows (tabshell / C reference, same run) ==")
    for entry in report["results"]:
        a, b = entry["tabshell"], entry["reference"]
        s, t = a["startup_answering"]["latency_ms"], b["startup"]["latency_ms"]
        x, y = a["whole"]["bytes_per_cell"], b["whole"]["bytes_per_cell"]
        print(f"{entry['data']:>6} {entry['size']:<8} first frame {s:6.1f} / {t:5.1f} ms ×{(ratio(s, t) or 0):.2f} (goal ≤ ×2)"
              f"   bytes per changed cell {x:.2f} / {y:.2f} ×{(ratio(x, y) or 0):.2f} (goal ≤ ×1.05)")
    memory = report["sessions"].get("memory")
    if memory:
        print(f"private memory per extra local session: {memory['tabshell']['private_per_extra_mib']:.2f} / "
              f"{memory['reference']['private_per_extra_mib']:.2f} MiB (served sessions: make bench-serve; goal ≤ 1 MiB)")
    freeze = report["sessions"].get("postgres_freeze")
    if freeze:
        done = "no frame" if freeze["median_ms"] is None else f"next frame after {freeze['median_ms']:.0f} ms"
        print(f"Done with PostgreSQL stopped: {done} (median; goal: one frame)")
    start = report["sessions"].get("postgres_frozen_start")
    if start:
        shown = [f for f in start["first_frame_ms"] if f is not None]
        print(f"start with PostgreSQL stopped: the shell and \"Connecting\" after {median(shown):.0f} ms (median of "
              f"{len(shown)}/{len(start['first_frame_ms'])}; goal: at once)")


def print_table(entry):
    a, b = entry["tabshell"], entry["reference"]
    print(f"\n== {entry['data']} records, {entry['size']} (medians; ratio = tabshell / reference) ==")
    print(f"{'step':<18}{'ms':>8}{'ref ms':>8}{'Δms':>7}{'bytes':>8}{'ref B':>7}{'×':>6}{'cells':>7}{'B/cell':>8}{'ref B/c':>8}")
    order = ["tab switch", "open capture", "choose barcode", "type digit", "Esc", "Down", "PgDn", "End",
             "open record", "back", "open search", "search keystroke", "close search"]
    for group in order:
        x, y = a[group], b[group]
        r = ratio(x["bytes"], y["bytes"])
        print(f"{group:<18}{x['latency_ms']:>8.2f}{y['latency_ms']:>8.2f}{x['latency_ms'] - y['latency_ms']:>7.2f}"
              f"{x['bytes']:>8.0f}{y['bytes']:>7.0f}{(f'{r:.2f}' if r is not None else '-'):>6}{x['cells']:>7.0f}"
              f"{x['bytes_per_cell']:>8.2f}{y['bytes_per_cell']:>8.2f}")
    x, y = a["whole"], b["whole"]
    print(f"{'whole scenario':<18}{'':>8}{'':>8}{'':>7}{x['bytes']:>8.0f}{y['bytes']:>7.0f}"
          f"{(ratio(x['bytes'], y['bytes']) or 0):>6.2f}{x['cells']:>7.0f}{x['bytes_per_cell']:>8.2f}{y['bytes_per_cell']:>8.2f}")
    s, t = a["startup"]["latency_ms"], b["startup"]["latency_ms"]
    print(f"startup silent    {s:>8.2f}{t:>8.2f}  ×{ratio(s, t):.2f}")
    s = a["startup_answering"]["latency_ms"]
    print(f"startup answering {s:>8.2f}{t:>8.2f}  ×{ratio(s, t):.2f}")
    print(f"idle B/s          {a['idle']['bytes_per_s']:>8.1f}{b['idle']['bytes_per_s']:>8.1f}")
    ra, rb = a["process"]["peak_rss_kib"] / 1024, b["process"]["peak_rss_kib"] / 1024
    print(f"peak RSS MiB      {ra:>8.1f}{rb:>8.1f}  ×{ratio(ra, rb):.2f}")
    ca, cb = a["process"]["cpu_ms"], b["process"]["cpu_ms"]
    print(f"CPU ms            {ca:>8.0f}{cb:>8.0f}  ×{(ratio(ca, cb) or 0):.2f}")


if __name__ == "__main__":
    main()
