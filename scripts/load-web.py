#!/usr/bin/env python3
"""Load test of `grundy serve` (loopback only, bounded, stops by itself).

Starts the server on a free loopback port, measures how soon the first page answers, the API
time of the positions a student plays (Nim with 5 heaps, Welter with 12 coins, Cram 5x5), then
sends REQUESTS requests, CONCURRENCY at a time, a mix of pages and API calls; prints errors,
latency percentiles per kind, refusals (503 busy / over budget) and the server's memory (RSS)
before, at its peak and after. Standard library only.

    python3 scripts/load-web.py [--requests 10000] [--concurrency 50] [--bin target/release/grundy]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

NIM5 = ["play", "nim", "7", "5", "3", "6", "4", "--report"]
WELTER12 = [
    "play",
    "welter",
    *[str(s) for s in (1, 2, 4, 6, 9, 11, 13, 16, 18, 21, 23, 26)],
    "--report",
]
CRAM55 = ["play", "cram", "5x5", "--report"]

MIX = [
    ("page /", 30, ("GET", "/", None)),
    ("asset", 20, ("GET", "/app.js", None)),
    ("api nim", 20, ("POST", "/api/cli", {"args": NIM5})),
    ("api welter", 15, ("POST", "/api/cli", {"args": WELTER12})),
    ("api cram 5x5", 5, ("POST", "/api/cli", {"args": CRAM55})),
    (
        "api sequence",
        5,
        ("POST", "/api/cli", {"args": ["takebreak", "0.07", "--n", "500", "--no-record"]}),
    ),
    ("api bad input", 5, ("POST", "/api/cli", {"args": ["nim", "3", "x"]})),
]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def one(port: int, method: str, path: str, body: object) -> tuple[int, float]:
    t = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    data = None if body is None else json.dumps(body).encode()
    conn.request(method, path, body=data, headers={"Host": f"127.0.0.1:{port}"})
    res = conn.getresponse()
    res.read()
    conn.close()
    return res.status, time.perf_counter() - t


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--concurrency", type=int, default=50)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "grundy"))
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    started = time.perf_counter()
    proc = subprocess.Popen(
        [a.bin, "serve"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[2]
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        status, _ = one(port, "GET", "/", None)
        first = (time.perf_counter() - started) * 1000
        print(f"first page: {first:.0f} ms after starting the server (status {status})")

        for name, args in (
            ("Nim, 5 heaps", NIM5),
            ("Welter, 12 coins", WELTER12),
            ("Cram 5x5", CRAM55),
        ):
            times = [one(port, "POST", "/api/cli", {"args": args})[1] for _ in range(21)]
            print(
                f"API {name:<17} median {statistics.median(times) * 1000:6.1f} ms  "
                f"max {max(times) * 1000:6.1f} ms  (21 sequential requests, whole play report)"
            )

        rng = random.Random(a.seed)
        weights = [w for _, w, _ in MIX]
        plan = rng.choices(range(len(MIX)), weights=weights, k=a.requests)
        results: list[tuple[int, int, float]] = []
        lock = threading.Lock()
        nxt = [0]
        rss = {"before": rss_kib(proc.pid), "peak": 0}

        def worker() -> None:
            while True:
                with lock:
                    if nxt[0] >= len(plan):
                        return
                    k = plan[nxt[0]]
                    nxt[0] += 1
                method, path, body = MIX[k][2]
                try:
                    status, dt = one(port, method, path, body)
                except Exception:  # noqa: BLE001 - a failed connection is an error to count
                    status, dt = 0, 0.0
                with lock:
                    results.append((k, status, dt))

        def sampler() -> None:
            while proc.poll() is None and len(results) < len(plan):
                rss["peak"] = max(rss["peak"], rss_kib(proc.pid))
                time.sleep(0.1)

        t0 = time.perf_counter()
        threads = [threading.Thread(target=worker) for _ in range(a.concurrency)]
        s = threading.Thread(target=sampler)
        s.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        s.join()
        wall = time.perf_counter() - t0
        rss["after"] = rss_kib(proc.pid)

        print(
            f"\n{len(results)} requests, {a.concurrency} at a time, {wall:.1f} s ({len(results) / wall:.0f}/s)"
        )
        errors = busy = slow = 0
        print(
            f"{'kind':<15}{'count':>6}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}  statuses"
        )
        for k, (name, _, _) in enumerate(MIX):
            rows = [r for r in results if r[0] == k]
            if not rows:
                continue
            dts = [r[2] for r in rows]
            statuses: dict[int, int] = {}
            for r in rows:
                statuses[r[1]] = statuses.get(r[1], 0) + 1
            expected = 400 if name == "api bad input" else 200
            errors += sum(c for st, c in statuses.items() if st not in (expected, 503))
            busy += statuses.get(503, 0)
            slow += sum(1 for r in rows if r[2] > 1.0 and r[1] != 503)
            print(
                f"{name:<15}{len(rows):>6}{pct(dts, 50):>9.1f}{pct(dts, 90):>9.1f}{pct(dts, 99):>9.1f}"
                f"{max(dts) * 1000:>9.1f}  {statuses}"
            )
        print(f"errors: {errors}; refusals (503): {busy}; answers over 1 s (not refusals): {slow}")
        print(
            f"server RSS: {rss['before']} KiB before, {rss['peak']} KiB peak, {rss['after']} KiB after"
        )
    finally:
        proc.send_signal(2)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
