#!/usr/bin/env python3
"""Prints .build-bench/bench.json (or the file given) as the Markdown table in docs/performance.md's
"Performance" section: per data set and size, tabshell's medians, the reference's, and the
ratio or difference the targets are stated in."""

import json
import sys


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else ".build-bench/bench.json"
    with open(path) as f:
        report = json.load(f)
    m = report["machine"]
    print(f"Measured {report['date']} on {m['platform']}, {m['cpus']} CPUs (shared), "
          f"{report['runs']} interleaved runs each, medians; settled = last byte before {report['quiet_ms']} ms of quiet.\n")
    print("| data | size | startup ms, silent / answering terminal (×ref) | Down ms (Δref) | Down B (×ref) | tab switch ms (Δref) | tab B (×ref) "
          "| tab B/cell (×ref) | PgDn ms (Δref) | End ms (Δref) | open record ms (Δref) | search key ms | idle B/s | peak RSS MiB | CPU ms (×ref) |")
    print("|" + "---|" * 15)
    for r in report["results"]:
        a, b = r["tabshell"], r["reference"]

        def lat(group):
            return f"{a[group]['latency_ms']:.1f} ({a[group]['latency_ms'] - b[group]['latency_ms']:+.1f})"

        def times(x, y):
            return f"{x / y:.2f}" if y else "-"

        s, t = a["startup"]["latency_ms"], b["startup"]["latency_ms"]
        sa = a.get("startup_answering", {}).get("latency_ms")
        answering = f" / {sa:.0f} (×{times(sa, t)})" if sa is not None else ""
        print(f"| {r['data']} | {r['size']} | {s:.0f} (×{times(s, t)}){answering} | {lat('Down')} "
              f"| {a['Down']['bytes']:.0f} (×{times(a['Down']['bytes'], b['Down']['bytes'])}) "
              f"| {lat('tab switch')} | {a['tab switch']['bytes']:.0f} (×{times(a['tab switch']['bytes'], b['tab switch']['bytes'])}) "
              f"| {a['tab switch']['bytes_per_cell']:.2f} (×{times(a['tab switch']['bytes_per_cell'], b['tab switch']['bytes_per_cell'])}) "
              f"| {lat('PgDn')} | {lat('End')} | {lat('open record')} | {a['search keystroke']['latency_ms']:.1f} "
              f"| {a['idle']['bytes_per_s']:.0f} | {a['process']['peak_rss_kib'] / 1024:.1f} "
              f"| {a['process']['cpu_ms']:.0f} (×{times(a['process']['cpu_ms'], b['process']['cpu_ms'])}) |")

    sessions = report.get("sessions", {})
    if sessions:
        print("\n| light sessions | tabshell | C reference |")
        print("|---|---|---|")
        m = sessions.get("memory")
        if m:
            a, b = m["tabshell"], m["reference"]
            print(f"| private memory per extra session ({a['sessions']} on the {m['data']} set), MiB "
                  f"| {a['private_per_extra_mib']:.1f} (PSS {a['pss_per_extra_mib']:.1f}) "
                  f"| {b['private_per_extra_mib']:.1f} (PSS {b['pss_per_extra_mib']:.1f}) |")
            print(f"| shared libraries mapped at start | {a['libraries']} | {b['libraries']} |")
        f = sessions.get("postgres_freeze")
        if f:
            shown = "none" if f["median_ms"] is None else f"{f['median_ms']:.0f} ms"
            print(f"| Done while PostgreSQL is stopped (SIGSTOP): next frame, median of {len(f['runs_ms'])} "
                  f"| {shown} | — |")


if __name__ == "__main__":
    main()
