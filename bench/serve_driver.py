#!/usr/bin/env python3
"""tabshell serve benchmark: connect-to-first-frame over `tabshell serve` against
OpenSSH + ForceCommand on the same host, private memory (PSS) per extra session, and N
concurrent sessions each typing a key every second, with key-to-screen latency.

Everything runs on 127.0.0.1 with throw-away keys in a temporary folder. Standard library only.

Definitions
- connect-to-first-frame: from starting `ssh -tt` to the first frame fully drawn (the tab
  bar's "Settings", the last thing drawn, has arrived on the client's terminal).
- PSS per extra session: (PSS of the server and everything it runs with k+1 sessions open
  minus with 1 open) / k, from /proc/PID/smaps_rollup; for OpenSSH, sshd's processes and
  their tabshell children.
- key-to-screen: from writing a key to the client's terminal to the first byte of the app's
  redraw arriving back (an idle session writes nothing, so the first byte is the answer).
"""
import argparse
import json
import os
import pty
import random
import selectors
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

SSH_OPTIONS = [
    "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
    "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "SetEnv=LC_ALL=C.UTF-8",
    "-o", "IdentitiesOnly=yes",
]


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One `ssh -tt` on its own pseudo-terminal (80x24)."""

    def __init__(self, argv):
        self.master, slave = pty.openpty()
        import fcntl
        import struct
        import termios
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True, close_fds=True,
            env=dict(os.environ, TERM="xterm-256color"))
        os.close(slave)
        os.set_blocking(self.master, False)
        self.output = bytearray()
        self.first_frame = None
        self.pending_key = None
        self.latencies = []
        self.failures = 0

    def read(self):
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            return
        now = time.monotonic()
        if self.first_frame is None:
            self.output += data
            if b"Settings" in self.output:
                self.first_frame = now - self.started
                self.output.clear()
        elif self.pending_key is not None:
            self.latencies.append((now - self.pending_key) * 1000)
            self.pending_key = None

    def press(self, key):
        if self.pending_key is not None:
            self.failures += 1  # the previous key never drew anything
        self.pending_key = time.monotonic()
        os.write(self.master, key)

    def close(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


def pump(clients, until, condition=lambda: False):
    sel = selectors.DefaultSelector()
    for c in clients:
        sel.register(c.master, selectors.EVENT_READ, c)
    try:
        while time.monotonic() < until and not condition():
            for key, _ in sel.select(timeout=0.05):
                key.data.read()
    finally:
        sel.close()


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    text = f.read()
                ppid = int(text[text.rindex(")") + 2:].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, ValueError):
                pass
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def pss_kib(pids):
    return rollup_kib(pids)[1]


def rollup_kib(pids):
    """(private, pss) in KiB over `pids`: Private_Clean + Private_Dirty, and Pss."""
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


class Setup:
    def __init__(self, binary, workdir):
        self.binary = binary
        self.dir = workdir
        self.key = os.path.join(workdir, "client_key")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "bench", "-f", self.key], check=True)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(workdir, "host_key")], check=True)
        self.authorized = os.path.join(workdir, "authorized_keys")
        shutil.copy(self.key + ".pub", self.authorized)
        self.serve_db = os.path.join(workdir, "serve-data", "tabshell.sqlite")
        self.sshd_db = os.path.join(workdir, "sshd-data", "tabshell.sqlite")
        self.serve = None
        self.sshd = None
        self.serve_flags = []

    def start_serve(self):
        port = free_port()
        log = open(os.path.join(self.dir, "serve.log"), "wb")
        self.serve = subprocess.Popen(
            [self.binary, "serve", "--db", self.serve_db, "--authorized-keys", self.authorized,
             "--listen", f"127.0.0.1:{port}", "--max-sessions", "300", "--max-startups", "300",
             "--per-source-max-startups", "300", "--per-source-connections", "10000",
             "--max-connections", "1000", "--max-sessions-per-source", "300", "--max-sessions-per-key", "300"]
            + self.serve_flags,
            stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        self.serve_port = port
        wait_listening(port)

    def start_sshd(self):
        port = free_port()
        os.makedirs(os.path.dirname(self.sshd_db), exist_ok=True)
        subprocess.run([self.binary, "inbox", "list", "--db", self.sshd_db], capture_output=True)
        config = os.path.join(self.dir, "sshd_config")
        root = os.getuid() == 0
        if root:
            os.makedirs("/run/sshd", exist_ok=True)
        with open(config, "w") as f:
            f.write(f"""Port {port}
ListenAddress 127.0.0.1
HostKey {self.dir}/host_key
PidFile {self.dir}/sshd.pid
AuthorizedKeysFile {self.authorized}
UsePAM no
StrictModes no
PermitRootLogin {"yes" if root else "no"}
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PrintMotd no
PrintLastLog no
AcceptEnv LANG LC_*
MaxStartups 200
MaxSessions 200
ForceCommand {self.binary} --db {self.sshd_db}
""")
        log = open(os.path.join(self.dir, "sshd.log"), "wb")
        self.sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", config], stdout=log, stderr=log)
        self.sshd_port = port
        wait_listening(port)

    def client(self, port):
        return Client(["ssh", "-tt", "-p", str(port), "-i", self.key] + SSH_OPTIONS + ["127.0.0.1"])

    def stop(self):
        for p in [self.serve, self.sshd]:
            if p:
                p.terminate()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()


def wait_listening(port):
    import socket
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


def first_frames(setup, port, runs):
    times, failures = [], 0
    for _ in range(runs):
        c = setup.client(port)
        pump([c], time.monotonic() + 20, lambda: c.first_frame is not None)
        if c.first_frame is None:
            failures += 1
        else:
            times.append(c.first_frame * 1000)
        c.close()
        time.sleep(0.2)
    return times, failures


def open_sessions(setup, port, count, stagger=0.05):
    clients = []
    for _ in range(count):
        clients.append(setup.client(port))
        pump(clients, time.monotonic() + stagger)
    pump(clients, time.monotonic() + 60, lambda: all(c.first_frame is not None for c in clients))
    return clients


def session_cpu_ms(root_pid):
    """CPU time (ms, /proc/PID/schedstat) of each tabshell session under `root_pid` so far: the
    server itself and its session template left out."""
    times = []
    for pid in descendants(root_pid):
        if pid == root_pid:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
            if not comm.startswith("tabshell") or b"\0(session template)\0" in cmdline:
                continue
            with open(f"/proc/{pid}/schedstat") as f:
                times.append(int(f.read().split()[0]) / 1e6)
        except (OSError, ValueError, IndexError):
            pass
    return times


def memory(setup, port, root_pid, extra):
    """(PSS per extra session, PSS of the server with one session, private per extra session) in
    MiB, and each session's CPU time up to its settled first frame (ms)."""
    one = open_sessions(setup, port, 1)
    time.sleep(1.0)
    base_private, base = rollup_kib(descendants(root_pid))
    more = open_sessions(setup, port, extra)
    time.sleep(1.5)
    total_private, total = rollup_kib(descendants(root_pid))
    cpu = session_cpu_ms(root_pid)
    opened = sum(1 for c in more if c.first_frame is not None)
    for c in one + more:
        c.close()
    time.sleep(1.0)
    if opened != extra:
        print(f"warning: only {opened} of {extra} extra sessions opened", file=sys.stderr)
    return ((total - base) / max(opened, 1) / 1024, base / 1024,
            (total_private - base_private) / max(opened, 1) / 1024, cpu)


def typing(setup, port, sessions, seconds):
    clients = open_sessions(setup, port, sessions)
    opened = sum(1 for c in clients if c.first_frame is not None)
    keys = [b"3", b"1"]
    start = time.monotonic()
    # Each session presses a key once a second, at its own random phase.
    schedule = [(start + 0.5 + random.random(), i) for i in range(len(clients))]
    count = [0] * len(clients)
    sel = selectors.DefaultSelector()
    for c in clients:
        sel.register(c.master, selectors.EVENT_READ, c)
    end = start + seconds + 1.5
    while time.monotonic() < end:
        now = time.monotonic()
        for n, (due, i) in enumerate(schedule):
            if due <= now and due < start + seconds + 0.5:
                clients[i].press(keys[count[i] % 2])
                count[i] += 1
                schedule[n] = (due + 1.0, i)
        next_due = min(d for d, _ in schedule)
        for key, _ in sel.select(timeout=max(0, min(0.01, next_due - time.monotonic()))):
            key.data.read()
    sel.close()
    latencies = [l for c in clients for l in c.latencies]
    failures = sum(c.failures + (1 if c.pending_key is not None else 0) for c in clients) + (sessions - opened)
    for c in clients:
        c.close()
    return latencies, failures, sum(count), opened


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--memory-sessions", type=int, default=10)
    parser.add_argument("--json")
    parser.add_argument("--serve-flag", action="append", default=[],
                        help="one more word for tabshell serve (e.g. --no-session-template), repeatable")
    parser.add_argument("--no-openssh", action="store_true", help="measure tabshell serve alone")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="tabshell-bench-serve-")
    setup = Setup(os.path.abspath(args.tabshell), workdir)
    setup.serve_flags = args.serve_flag
    results = {"cpus": os.cpu_count(), "sessions": args.sessions, "seconds": args.seconds}
    try:
        setup.start_serve()
        have_sshd = os.path.exists("/usr/sbin/sshd") and not args.no_openssh
        if have_sshd:
            setup.start_sshd()
        # Warm both up (page cache, first database open), then interleave the runs.
        first_frames(setup, setup.serve_port, 1)
        if have_sshd:
            first_frames(setup, setup.sshd_port, 1)
        serve_times, sshd_times, serve_fail, sshd_fail = [], [], 0, 0
        for _ in range(args.runs):
            t, f = first_frames(setup, setup.serve_port, 1)
            serve_times += t
            serve_fail += f
            if have_sshd:
                t, f = first_frames(setup, setup.sshd_port, 1)
                sshd_times += t
                sshd_fail += f
        results["first_frame_ms"] = {
            "serve": {"median": statistics.median(serve_times) if serve_times else None, "min": min(serve_times, default=None),
                      "max": max(serve_times, default=None), "failures": serve_fail},
            "openssh": {"median": statistics.median(sshd_times) if sshd_times else None, "min": min(sshd_times, default=None),
                        "max": max(sshd_times, default=None), "failures": sshd_fail} if have_sshd else None,
        }
        print(f"connect to first frame (median of {args.runs}): serve {results['first_frame_ms']['serve']['median']:.0f} ms", end="")
        if have_sshd and sshd_times:
            print(f", OpenSSH+ForceCommand {statistics.median(sshd_times):.0f} ms")
        else:
            print()

        per, base, private, cpu = memory(setup, setup.serve_port, setup.serve.pid, args.memory_sessions)
        results["pss_mib"] = {"serve": {"per_extra_session": per, "server_with_one_session": base}}
        results["private_mib"] = {"serve": {"per_extra_session": private}}
        results["session_cpu_to_first_frame_ms"] = {"serve": {"median": statistics.median(cpu) if cpu else None, "sessions": len(cpu)}}
        if cpu:
            print(f"a session's CPU up to its settled first frame: median {statistics.median(cpu):.1f} ms of {len(cpu)} sessions")
        line = f"PSS per extra session: serve {per:.2f} MiB (server + 1 session {base:.1f} MiB), private {private:.2f} MiB"
        if have_sshd:
            per_s, base_s, private_s, _ = memory(setup, setup.sshd_port, setup.sshd.pid, args.memory_sessions)
            results["pss_mib"]["openssh"] = {"per_extra_session": per_s, "server_with_one_session": base_s}
            results["private_mib"]["openssh"] = {"per_extra_session": private_s}
            line += f", OpenSSH+ForceCommand {per_s:.2f} MiB (sshd + 1 session {base_s:.1f} MiB), private {private_s:.2f} MiB"
        print(line)

        idle, idle_fail, idle_keys, _ = typing(setup, setup.serve_port, 1, min(args.seconds, 30))
        results["one_session"] = {"p50": percentile(idle, 50), "p99": percentile(idle, 99), "keys": idle_keys, "failures": idle_fail}
        print(f"one session typing: p50 {percentile(idle, 50):.1f} ms, p99 {percentile(idle, 99):.1f} ms, {idle_keys} keys, {idle_fail} failures")
        lat, fail, keys, opened = typing(setup, setup.serve_port, args.sessions, args.seconds)
        results["concurrent"] = {"p50": percentile(lat, 50), "p99": percentile(lat, 99), "keys": keys,
                                 "failures": fail, "opened": opened}
        print(f"{args.sessions} sessions typing 1 key/s for {args.seconds} s: {opened} opened, {keys} keys, "
              f"p50 {percentile(lat, 50):.1f} ms, p99 {percentile(lat, 99):.1f} ms, {fail} failures")
    finally:
        setup.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
