"""HTTP load on `judge serve` over loopback: requests/s and latency percentiles for
search and rule pages, beside a static-file baseline, in one run.

    python bench/http_load.py [--clients 50] [--requests 3000] [--seconds 20] [--url http://127.0.0.1:8080/]

Without --url it starts `judge serve --port 0` itself (and stops it). Each
scenario runs `--clients` concurrent keep-alive connections (closed loop: a
client sends its next request when the previous answer is in) until
`--requests` answers or `--seconds` have passed, after a short warm-up that is
not measured. Every answer must be 200 with the full body; anything else counts
as an error.

Scenarios (URLs cycle through a fixed, seeded sample):
  static       /static/judge.css                       (the baseline: no application code)
  rule page    /p/<id> over 300 paragraphs and sections (each visited during the warm-up)
  rule, cold   /p/<id> over paragraphs never asked before (related rules computed on the spot)
  search page  /search?q=<one of 60 queries>            (repeated queries, as at a busy table)
  search API   /api/search?q=<one of 60 queries>
  search, cold /api/search?q=<distinct queries>          (every query new: the searcher's own cost)

Target (issue 6): p95 under 50 ms with 50 concurrent clients on the 2-core machine, zero errors.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUEST_TIMEOUT = 30.0  # seconds: an answer slower than this is an error

QUERIES = [
    "bleed", "who can block an undirected action", "torpor rescue", "diablerie", "blood hunt", "contested title",
    "hunt action", "political action referendum", "combat damage prevention", "aggravated damage", "blok",
    "influence phase transfers", "the edge", "ousted victory points", "equip", "recruit ally", "stealth intercept",
    "maneuver press", "strike first", "additional strike", "6.4.6", "IV.D.2", "rb:6.4.6/2", "master phase action",
    "discard phase", "unlock phase", "lock", "tap", "untap phase", "vote ballot", "prince", "justicar", "inner circle",
    "anarch", "leave torpor", "burn a vampire", "agg damage", "mend", "hand size", "draw cards", "replace cards",
    "wake effect", "cancel a card", "as played", "reaction card", "action modifier", "limited", "bleed modifier",
    "withdraw", "table talk", "deck construction", "timeout", "prestige", "rival", "faction deck", "agenda",
    "attack", "schemes", "citizen", "knock out",
]


# -- a minimal HTTP/1.1 keep-alive client ----------------------------------------------------------
class Client:
    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def get(self, path: str) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: */*\r\n\r\n".encode("latin-1"))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
        if length is None:
            raise ValueError(f"no Content-Length on {path}")
        await self.reader.readexactly(int(length.group(1)))
        if re.search(rb"(?i)\r\nconnection:\s*close", head):
            await self.close()
        return status

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None


async def _run(host: str, port: int, paths: list[str], clients: int, total: int, seconds: float):
    latencies: list[float] = []
    errors: list[str] = []
    counter = iter(range(10**9))
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        client = Client(host, port)
        try:
            while time.perf_counter() < deadline:
                n = next(counter)
                if n >= total:
                    return
                path = paths[n % len(paths)]
                start = time.perf_counter()
                try:
                    status = await asyncio.wait_for(client.get(path), REQUEST_TIMEOUT)
                except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.TimeoutError) as exc:
                    errors.append(f"{path}: {exc!r}")
                    await client.close()
                    continue
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    errors.append(f"{path}: HTTP {status}")
        finally:
            await client.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return latencies, errors, time.perf_counter() - start


def measure(url: str, paths: list[str], clients: int, total: int, seconds: float, warmup: list[str]) -> dict:
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port or 80
    if warmup:
        asyncio.run(_run(host, port, warmup, min(clients, 8), len(warmup), 120))
    latencies, errors, elapsed = asyncio.run(_run(host, port, paths, clients, total, seconds))
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    return {"requests": len(latencies), "errors": errors, "rps": len(latencies) / elapsed if elapsed else 0,
            "p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99),
            "mean": statistics.fmean(latencies) * 1000 if latencies else float("nan")}


# -- the server ------------------------------------------------------------------------------------
def start_server(threads: int) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", "from judge.commands.serve import serve; serve()",
                             "--host", "127.0.0.1", "--port", "0", "--threads", str(threads)],
                            cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        found = re.search(r"serving on (http://\S+/)", line)
        if found:
            # Keep reading its log (waitress warns when requests queue up): a full pipe
            # would block the server's next write, and with it every request.
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, found.group(1)
    proc.kill()
    sys.exit("judge serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running judge serve (default: start one)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=3000, help="answers per scenario, at most")
    parser.add_argument("--seconds", type=float, default=20.0, help="time per scenario, at most")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads of the server started")
    args = parser.parse_args()

    from judge.corpus import get_corpus
    corpus = get_corpus()
    rng = random.Random(6)
    ids = sorted(corpus.paragraphs) + sorted(corpus.sections)
    rng.shuffle(ids)
    warm_ids, cold_ids = ids[:300], ids[300:300 + args.requests]
    rule_paths = ["/p/" + quote(i, safe="/:") for i in warm_ids]
    cold_paths = ["/p/" + quote(i, safe="/:") for i in cold_ids]
    search_paths = ["/search?q=" + quote(q) for q in QUERIES]
    api_paths = ["/api/search?q=" + quote(q) for q in QUERIES]
    # Distinct queries: two words of the books, never the same pair twice.
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{5,}", p.text)})
    cold_queries = ["/api/search?q=" + quote(f"{rng.choice(words)} {rng.choice(words)}") for _ in range(args.requests)]

    proc = None
    url = args.url
    if url is None:
        proc, url = start_server(args.threads)
    try:
        scenarios = [
            ("static file (baseline)", ["/static/judge.css"], ["/static/judge.css"] * 50),
            ("rule page", rule_paths, rule_paths),
            ("rule page, first visit", cold_paths, []),
            ("search page", search_paths, search_paths),
            ("search API", api_paths, api_paths),
            ("search API, new queries", cold_queries, []),
        ]
        print(f"judge serve at {url} · {args.clients} concurrent clients · up to {args.requests} requests or "
              f"{args.seconds:.0f} s per scenario · {os.cpu_count()} CPUs")
        print(f"{'scenario':<26} {'requests':>8} {'errors':>6} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
              f"{'p99 ms':>8} {'p95 × static':>13}")
        base = None
        failed = False
        for name, paths, warm in scenarios:
            r = measure(url, paths, args.clients, args.requests, args.seconds, warm)
            base = base or r["p95"]
            print(f"{name:<26} {r['requests']:>8} {len(r['errors']):>6} {r['rps']:>8.0f} {r['p50']:>8.1f} "
                  f"{r['p95']:>8.1f} {r['p99']:>8.1f} {r['p95'] / base:>13.1f}", flush=True)
            for err in r["errors"][:3]:
                print(f"    error: {err}")
            failed = failed or bool(r["errors"])
        print("target: p95 < 50 ms for search and rule pages, zero errors")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
