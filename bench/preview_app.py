"""Photo previews in the real app, over a pseudo-terminal.

Drives a release `tabshell` at 80x24 (TERM=xterm-256color) through the journey the issue
names and prints what it measures; asserts nothing. Run by scripts/bench-preview-app.

  1. capture two 12-megapixel JPEGs: from Enter to the first thumbnail cell on the pty
     (copy, hash, decode, render, draw; cold cache);
  2. a fresh process, warm disk cache: from Enter on the record to its thumbnails, and the
     bytes written to show the record with its two photos;
  3. the same with the cache emptied (cold);
  4. the viewer: from Enter to the picture, and its bytes; ← → back and forth (cached);
  5. idle output for 5 s with the viewer and with the detail showing; peak RSS (VmHWM);
  6. the same record and viewer through graphics protocols: the driver answers tabshell's
     graphics query as a sixel terminal (xterm as a VT340) and as kitty would, with 10 x 20-pixel
     cells, and counts the bytes (cold and warm cache) and the idle output.
"""
import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import termios
import time

BLOCK = tuple(bytes([0xE2, 0x96, b]) for b in range(0x80, 0xA0))  # U+2580-U+259F in UTF-8

# How terminals answer tabshell's graphics query (kitty query, XTVERSION, DA2, cell size, DA1).
ANSWERS = {
    "sixel": b"\x1bP>|XTerm(390)\x1b\\\x1b[>19;390;0c\x1b[6;20;10t\x1b[?63;1;2;4;6;9;15;16;22;28c",
    "kitty": b"\x1b_Gi=31;OK\x1b\\\x1bP>|kitty(0.35.2)\x1b\\\x1b[>1;4000;35c\x1b[6;20;10t\x1b[?62;c",
}
QUERY_END = b"\x1b[c"
PLACEMENT = re.compile(rb"\x1b7\x1b\[\d+;\d+H(?:\x1bP|\x1b_G)")


class App:
    def __init__(self, binary, env, cols=80, rows=24, answer=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.execve(binary, [binary], env)
        self.out = []  # (time, bytes)
        self.answer = answer  # what to answer the graphics query with, once; None: stay silent

    def read(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.out.append((time.monotonic(), data))
                if self.answer and QUERY_END in b"".join(d for _, d in self.out[-3:]):
                    os.write(self.fd, self.answer)
                    self.answer = None

    def mark(self):
        return len(self.out)

    def since(self, mark):
        return b"".join(d for _, d in self.out[mark:])

    def send(self, data):
        os.write(self.fd, data)

    def wait_for(self, predicate, mark, timeout=30):
        """Reads until predicate(bytes since mark) holds; the time it first held, or None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.read(0.02)
            buffer = b""
            for when, data in self.out[mark:]:
                buffer += data
                if predicate(buffer):
                    return when
        return None

    def settle(self, mark, quiet=0.5, timeout=30):
        """Reads until nothing came for `quiet` seconds; the bytes since mark."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            before = len(self.out)
            self.read(quiet)
            if len(self.out) == before:
                break
        return self.since(mark)

    def rss(self):
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM"):
                        return int(line.split()[1]) / 1024
        except OSError:
            return None

    def quit(self):
        self.send(b"q")
        self.read(1)
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def pictures(count):
    return lambda data: len(PLACEMENT.findall(data)) >= count


def blocks(count):
    return lambda data: sum(data.count(b) for b in BLOCK) >= count


def contains(text):
    encoded = text.encode()
    return lambda data: encoded in data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tabshell", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--photo", action="append", required=True, help="a photo file (twice)")
    args = parser.parse_args()

    work = os.path.abspath(args.work)
    binary = os.path.abspath(args.tabshell)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cache = os.path.join(work, "cache")
    env = {
        "PATH": "/usr/bin:/bin", "HOME": work, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        "XDG_DATA_HOME": os.path.join(work, "data"), "XDG_CACHE_HOME": cache,
    }
    names = []
    for index, photo in enumerate(args.photo[:2]):
        name = f"photo-{index + 1}{os.path.splitext(photo)[1]}"
        shutil.copy(photo, os.path.join(work, name))
        names.append(name)
    os.chdir(work)
    sizes = ", ".join(f"{os.path.getsize(n) / 1e6:.1f} MB" for n in names)
    print(f"tabshell photo previews, 80x24, TERM=xterm-256color, blocks in 256 colours; photos: {sizes}")

    # 1. Capture both photos; the first thumbnail's time is cold (nothing cached).
    app = App(binary, env)
    app.read(1.5)
    app.send(b"2p")
    app.read(0.5)
    times = []
    for name in names:
        app.send(name.encode())
        app.read(0.2)
        mark = app.mark()
        start = time.monotonic()
        app.send(b"\r")
        shown = app.wait_for(blocks(20), mark)
        if shown is None and os.environ.get("BENCH_DEBUG"):
            print(repr(app.since(mark)[-800:]))
        times.append(None if shown is None else (shown - start) * 1000)
        app.settle(mark)
    print(f"capture: Enter to thumbnail (copy + hash + decode + draw, cold): "
          + ", ".join("-" if t is None else f"{t:.0f} ms" for t in times))
    app.send(b"\x04")  # Ctrl-D: Done
    app.settle(app.mark())
    capture_rss = app.rss()
    app.quit()

    def open_record(label):
        app = App(binary, env)
        app.read(1.5)
        app.send(b"3")
        app.settle(app.mark())
        mark = app.mark()
        start = time.monotonic()
        app.send(b"\r")
        shown = app.wait_for(blocks(40), mark)
        data = app.settle(mark)
        took = "-" if shown is None else f"{(shown - start) * 1000:.0f} ms"
        print(f"record with two photos, {label}: Enter to both thumbnails {took}; {len(data)} bytes written")
        return app

    # 2. Warm cache, fresh process.
    app = open_record("cache warm (fresh process)")
    app.quit()
    # 3. Cold cache.
    shutil.rmtree(cache, ignore_errors=True)
    app = open_record("cache cold")

    # 4. The viewer.
    mark = app.mark()
    start = time.monotonic()
    app.send(b"\r")
    shown = app.wait_for(blocks(400), mark)
    data = app.settle(mark)
    print(f"viewer, cold: Enter to the picture {'-' if shown is None else f'{(shown - start) * 1000:.0f} ms'}; {len(data)} bytes")
    app.send(b"\x1b[C")
    app.settle(app.mark())
    app.send(b"\x1b[D")
    app.settle(app.mark())
    mark = app.mark()
    start = time.monotonic()
    app.send(b"\x1b[C")
    shown = app.wait_for(contains("2/2"), mark)
    data = app.settle(mark)
    print(f"viewer, → to the next photo (cached): {len(data)} bytes")

    # 5. Idle.
    mark = app.mark()
    app.read(5)
    print(f"idle, viewer showing: {len(app.since(mark)) / 5:.0f} B/s")
    app.send(b"\x1b")
    app.settle(app.mark())
    mark = app.mark()
    app.read(5)
    print(f"idle, detail showing: {len(app.since(mark)) / 5:.0f} B/s")
    rss = app.rss()
    app.quit()
    print(f"peak RSS: {capture_rss:.0f} MiB capturing, {rss:.0f} MiB detail + viewer")

    # 6. Graphics protocols: the same record and viewer in a terminal that answers the query.
    for protocol, answer in ANSWERS.items():
        for label in ("cache cold", "cache warm"):
            if label == "cache cold":
                shutil.rmtree(cache, ignore_errors=True)
            app = App(binary, env, answer=answer)
            app.read(1.5)
            app.send(b"3")
            app.settle(app.mark())
            mark = app.mark()
            start = time.monotonic()
            app.send(b"\r")
            shown = app.wait_for(pictures(2), mark)
            data = app.settle(mark)
            took = "-" if shown is None else f"{(shown - start) * 1000:.0f} ms"
            print(f"{protocol}, record with two photos, {label}: Enter to both pictures {took}; "
                  f"{len(data)} bytes written ({len(PLACEMENT.findall(data))} pictures)")
            if label == "cache warm":
                mark = app.mark()
                app.read(3)
                print(f"{protocol}, idle with the record: {len(app.since(mark)) / 3:.0f} B/s")
                mark = app.mark()
                start = time.monotonic()
                app.send(b"\r")
                shown = app.wait_for(pictures(1), mark)
                data = app.settle(mark)
                took = "-" if shown is None else f"{(shown - start) * 1000:.0f} ms"
                print(f"{protocol}, viewer at 80x24 (cold): Enter to the picture {took}; {len(data)} bytes")
                mark = app.mark()
                app.read(3)
                print(f"{protocol}, idle with the viewer: {len(app.since(mark)) / 3:.0f} B/s")
            app.quit()


if __name__ == "__main__":
    main()
