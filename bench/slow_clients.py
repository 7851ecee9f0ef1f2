"""Slow clients against `judge serve`: normal searches with and without clients that
send a POST's headers and then its body a byte a second, side by side in one run.

    python bench/slow_clients.py [--url http://127.0.0.1:8080/] [--slow 8] [--clients 20]
                                 [--seconds 25] [--rounds 2] [--serve-args "--body-timeout 10"]

Without --url it starts `judge serve --port 0` itself (default settings: the CPUs'
workers, one thread each, the default body deadline) and stops it.

Each round measures the normal load twice, alternated: `--clients` keep-alive
connections asking search pages, each query new (two words of the books: real
searches, never a cached answer), for `--seconds`; once alone, once while `--slow`
slow clients run. A slow client opens a connection, sends the headers of a
`POST /api/check` (or, every other one, of a `POST /check` form) declaring a body of
100,000 bytes, then sends one byte a second; when the server answers or closes
the connection it notes the status and the time since its headers, and starts
again, until the load is over.

The table gives, for each load, the medians over the rounds of p50, p95 and p99 and
the requests a second; then what the slow clients got. The server meets issue 34
when, with the slow clients: no normal request fails, the p99 stays within 2× of
the run without them, and every slow client got a 408 or was closed within the
deadline (the server's `--body-timeout`, plus one second of slack for the bench's
own scheduling). The bench exits 1 when one of these fails.

Before issue 34 (Granian's WSGI interface, the app's thread reading the body), two
such clients held both workers' only threads for as long as they kept sending, and
every normal request waited behind them.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_load import PythonClient, WrkClient, start_server  # noqa: E402

SLACK_SECONDS = 1.0  # the bench's own scheduling on a busy machine, beyond the server's deadline
DECLARED_BODY = 100_000
SETTLE_SECONDS = 1.0


class SlowClients:
    """`count` slow clients in a thread of their own (an asyncio loop), each starting again once answered."""

    def __init__(self, url: str, count: int, deadline: float):
        parts = urlsplit(url)
        self.deadline = deadline
        self.host, self.port = parts.hostname, parts.port or 80
        self.count = count
        self.outcomes: list[tuple[str, float, str]] = []  # (route, seconds from the headers, status or "closed")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    async def _run(self) -> None:
        await asyncio.gather(*(self._client(n) for n in range(self.count)))

    async def _client(self, n: int) -> None:
        route = "/api/check" if n % 2 == 0 else "/check"
        kind = "text/yaml" if route == "/api/check" else "application/x-www-form-urlencoded"
        while not self._stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError as exc:
                self.outcomes.append((route, 0.0, f"connect failed: {exc}"))
                await asyncio.sleep(1)
                continue
            writer.write(f"POST {route} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: {kind}\r\n"
                         f"Content-Length: {DECLARED_BODY}\r\n\r\n".encode("ascii"))
            started = time.perf_counter()
            answer = asyncio.ensure_future(reader.read(4096))
            sent = 0
            while not answer.done() and not self._stop.is_set() and sent < DECLARED_BODY:
                try:
                    writer.write(b"a" if route == "/api/check" else b"x")
                    await writer.drain()
                except OSError:
                    break
                sent += 1
                await asyncio.wait([answer], timeout=1.0)
            if self._stop.is_set() and not answer.done():
                answer.cancel()
                writer.close()
                held = time.perf_counter() - started
                if held > self.deadline:  # a request the server should have ended by now: counted against it
                    self.outcomes.append((route, held, "still held"))
                return
            try:
                data = await asyncio.wait_for(answer, 5)
            except (OSError, asyncio.TimeoutError):
                data = b""
            elapsed = time.perf_counter() - started
            status = re.match(rb"HTTP/1\.1 (\d{3})", data)
            self.outcomes.append((route, elapsed, status.group(1).decode() if status else "closed"))
            writer.close()


def new_queries(count: int, seed: int) -> list[str]:
    from judge.corpus import get_corpus
    corpus = get_corpus()
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{5,}", p.text)})
    rng = random.Random(seed)
    pairs = list(dict.fromkeys(f"{rng.choice(words)} {rng.choice(words)}" for _ in range(count * 2)))[:count]
    return ["/search?q=" + quote(q) for q in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running judge serve (default: start one)")
    parser.add_argument("--serve-args", default="", help="options for the judge serve started")
    parser.add_argument("--slow", type=int, default=8, help="slow clients")
    parser.add_argument("--clients", type=int, default=20, help="connections of the normal load")
    parser.add_argument("--seconds", type=float, default=25.0, help="length of each load")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--deadline", type=float, default=None,
                        help="the server's body deadline in seconds (default: judge serve's --body-timeout, "
                             "from --serve-args or its default)")
    args = parser.parse_args()

    from judge.web.transport import BODY_SECONDS
    deadline = args.deadline
    if deadline is None:
        found = re.search(r"--body-timeout[ =](\S+)", args.serve_args)
        deadline = float(found.group(1)) if found else BODY_SECONDS

    proc, how = None, "?"
    url = args.url
    if url is None:
        proc, url, how = start_server(shlex.split(args.serve_args))
    wrk = shutil.which("wrk")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            client = WrkClient(url, wrk, Path(tmp)) if wrk else PythonClient(url)
            print(f"judge serve at {url} ({how}) · client: {client.name} · {args.clients} connections of new "
                  f"searches, {args.seconds:g} s a load · {args.slow} slow clients (a byte a second) · body "
                  f"deadline {deadline:g} s")
            per_load = 40_000
            queries = new_queries(per_load * 2 * args.rounds, seed=34)
            runs = {"without slow clients": [], "with slow clients": []}
            slow_outcomes = []
            for r in range(args.rounds):
                for n, name in enumerate(runs):
                    paths = queries[(2 * r + n) * per_load:(2 * r + n + 1) * per_load]
                    slow = SlowClients(url, args.slow, deadline + SLACK_SECONDS) if name.startswith("with ") else None
                    if slow is not None:
                        slow.start()
                        time.sleep(1.0)  # every slow client holds its request before the load starts
                    result = client.run(paths, args.clients, per_load, args.seconds)
                    if slow is not None:
                        slow.stop()
                        slow_outcomes += slow.outcomes
                    runs[name].append(result)
                    print(f"  round {r + 1}, {name}: p99 {result['p99']:.1f} ms, {result['rps']:.0f} req/s, "
                          f"errors {len(result['errors'])}", flush=True)
                    time.sleep(SETTLE_SECONDS)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)

    print(f"\nmedians of {args.rounds} rounds:")
    print(f"{'load':<24}{'requests':>10}{'errors':>8}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    medians = {}
    for name, results in runs.items():
        med = {k: statistics.median(r[k] for r in results) for k in ("rps", "p50", "p95", "p99")}
        medians[name] = med
        errors = sum(len(r["errors"]) for r in results)
        print(f"{name:<24}{sum(r['requests'] for r in results):>10}{errors:>8}{med['rps']:>9.0f}"
              f"{med['p50']:>9.1f}{med['p95']:>9.1f}{med['p99']:>9.1f}")
    ratio = medians["with slow clients"]["p99"] / medians["without slow clients"]["p99"]
    late = [o for o in slow_outcomes if o[2] not in ("408", "closed") or o[1] > deadline + SLACK_SECONDS]
    statuses: dict[str, int] = {}
    for _, _, status in slow_outcomes:
        statuses[status] = statuses.get(status, 0) + 1
    times = [o[1] for o in slow_outcomes]
    print(f"\nslow clients: {len(slow_outcomes)} requests held, answered {statuses}; seconds from headers to "
          f"answer: median {statistics.median(times) if times else float('nan'):.2f}, "
          f"max {max(times) if times else float('nan'):.2f} (deadline {deadline:g})")
    failed_normal = sum(len(r["errors"]) for r in runs["with slow clients"])
    starved = [r for r in runs["with slow clients"] if r["requests"] == 0]
    checks = [
        (failed_normal == 0 and not starved, f"no normal request failed with the slow clients ({failed_normal} "
                                             f"errors; {len(starved)} loads answered nothing at all)"),
        (ratio <= 2.0, f"p99 with the slow clients within 2x of without: {ratio:.2f}x"),
        (bool(slow_outcomes) and not late, f"every slow client got a 408 or was closed within the deadline "
                                           f"({len(late)} of {len(slow_outcomes)} did not)"),
    ]
    for ok, said in checks:
        print(f"  {'meets' if ok else 'MISSES'}: {said}")
    for route, seconds, status in late[:10]:
        print(f"    {route}: {status} after {seconds:.2f} s")
    sys.exit(0 if all(ok for ok, _ in checks) else 1)


if __name__ == "__main__":
    main()
