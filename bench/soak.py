"""A soak of `judge serve`: mixed traffic for half an hour, hostile requests among it, and the workers' memory
from start to end.

    python bench/soak.py [--minutes 30] [--clients 12] [--url http://127.0.0.1:8080/] [--serve-args "..."]

Without --url it starts `judge serve --port 0` itself (default settings) and stops it; with --url, the workers'
memory is read only if the server runs on this machine (its pid is found by its port).

The traffic, `--clients` keep-alive connections each sending its next request when the last is answered, picks
each request at random by weight:

* a judge's and a player's requests (about 85%): search pages and API searches, most of them new queries (so the
  response cache fills and keeps dropping its oldest answers), rule pages, cards and rulings, the glossary, the
  graph, the diff, the examples replayed on /check, scenarios POSTed to /api/check, builder steps, static files;
* hostile ones (about 15%): an address over the longest read (414), a query too long or a parameter repeated
  too often (400), unknown IDs (404), a method not allowed (405), malformed and nested scenarios (400), a body
  over the limit (413), a scenario over a replay limit (422), a builder field nested 400 deep and one of 300 KB
  (400: under the body's limit, over the field's), bytes that are not UTF-8 (400);
* every two minutes, 8 slow clients sending a POST's body a byte a second (408 at the deadline).

Each request's status is checked against what its kind must get; any other (a 5xx above all) is an error. Every
30 seconds the bench reads each worker's resident memory (VmRSS, /proc); the table gives each worker's memory
after the first minute (the warm caches' start), at the middle and at the end, and its growth. The server holds
when there is no error and each worker's growth over the run stays within what its caches may hold: the response
cache's bytes (RESPONSE_CACHE_BYTES, 64 MB) and a margin for the memos, bounded by count (MEMO_ALLOWANCE_MB,
docs/performance.md); and it has stopped growing: the last third of the run adds less than a tenth of that.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
import re
import shlex
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_load import ConnectionSplit, start_server  # noqa: E402
from bench.slow_clients import SlowClients  # noqa: E402

RESPONSE_CACHE_MB = 64  # judge.web.cache.DEFAULT_MAX_BYTES
MEMO_ALLOWANCE_MB = 48  # the memos' entries (bounded by count: docs/performance.md) as a soak fills them
SAMPLE_SECONDS = 30
SLOW_EVERY_SECONDS = 120
REQUEST_TIMEOUT = 30


class Client:
    """One keep-alive HTTP/1.1 connection: `request` returns the status (the body read and dropped)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes = b"", content_type: str = "") -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if body or method == "POST":
            head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode("latin-1") + b"\r\n" + body)
        answer = await self.reader.readuntil(b"\r\n\r\n")
        status = int(answer.split(b" ", 2)[1])
        length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", answer)
        if length and method != "HEAD":
            await self.reader.readexactly(int(length.group(1)))
        if re.search(rb"(?i)\r\nconnection:\s*close", answer) or length is None:
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


def traffic(seed: int):
    """(weight, kind, expected statuses, a function giving (method, path, body, content type)) for each kind."""
    from judge.corpus import get_corpus
    from judge.web import builder
    corpus = get_corpus()
    rng = random.Random(seed)
    ids = sorted(corpus.paragraphs) + sorted(corpus.sections)
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{5,}", p.text)})
    examples = [rel for group in builder.examples().values() for rel, _ in group]
    scenarios = [(builder.scenarios_dir() / rel).read_text(encoding="utf-8") for rel in examples]
    cards = ["govern-the-unaligned", "deflection", "kine-resources-contested", "heidelberg-castle-germany",
             "blood-doll", "conditioning", "majesty", "on-the-qui-vive", "wake-with-evening-s-freshness", "dodge"]
    table = ("players: [Sarah, Alexis]\nturn: Sarah\nphase: minion\n"
             "minions:\n- {name: Belinde, controller: Sarah, capacity: 6}\n")
    form = "application/x-www-form-urlencoded"

    def enc(fields: dict) -> bytes:
        return "&".join(f"{quote(k)}={quote(v)}" for k, v in fields.items()).encode()

    def new_query() -> str:
        return quote(f"{rng.choice(words)} {rng.choice(words)}")

    ok = {200}
    return [
        (20, "new search page", ok, lambda: ("GET", f"/search?q={new_query()}", b"", "")),
        (10, "new search API", ok, lambda: ("GET", f"/api/search?q={new_query()}", b"", "")),
        (8, "repeated search", ok, lambda: ("GET", f"/search?q={quote(rng.choice(words[:40]))}", b"", "")),
        (15, "rule page", ok, lambda: ("GET", "/p/" + quote(rng.choice(ids), safe="/:"), b"", "")),
        (5, "card page", ok | {302}, lambda: ("GET", f"/card/{rng.choice(cards)}", b"", "")),
        (3, "rulings", ok, lambda: ("GET", f"/rulings?card={rng.choice(cards)}", b"", "")),
        (2, "glossary", ok, lambda: ("GET", "/glossary", b"", "")),
        (3, "graph", ok, lambda: ("GET", "/graph/" + quote(rng.choice(ids), safe="/:"), b"", "")),
        (2, "diff", ok, lambda: ("GET", f"/diff?old=rb&new=vekn&page={rng.randint(1, 4)}", b"", "")),
        (3, "example replayed", ok | {400, 422},
         lambda: ("GET", f"/check?example={quote(rng.choice(examples))}", b"", "")),
        (4, "scenario POSTed", ok | {400, 422},
         lambda: ("POST", "/api/check", rng.choice(scenarios).encode(), "text/yaml")),
        (2, "builder step", ok | {400},
         lambda: ("POST", "/check", enc({"state": table, "do": "add_sentence", "sentence": "Belinde bleeds Alexis"}),
                  form)),
        (6, "static", ok, lambda: ("GET", "/static/judge.css", b"", "")),
        # hostile
        (1, "address too long", {414}, lambda: ("GET", "/search?q=" + "a" * 40_000, b"", "")),
        (1, "query too long", {400}, lambda: ("GET", "/search?q=" + "a" * 600, b"", "")),
        (1, "repeated parameter", {400}, lambda: ("GET", "/api/search?q=x" + "&doc=vekn" * 25, b"", "")),
        (2, "unknown ID", {404}, lambda: ("GET", f"/p/nosuch:{rng.randint(0, 10**9)}", b"", "")),
        (1, "method not allowed", {405}, lambda: ("DELETE", "/search?q=bleed", b"", "")),
        (1, "malformed scenario", {400}, lambda: ("POST", "/api/check", b"players: [A, B\nturn: [", "text/yaml")),
        (1, "nested scenario", {400}, lambda: ("POST", "/api/check", b"[" * 5000, "text/yaml")),
        (1, "tagged scenario", {400},
         lambda: ("POST", "/api/check", b"players: !!python/object:os.system [A]\n", "text/yaml")),
        (1, "body too long", {413}, lambda: ("POST", "/api/check", b"#" * 500_000, "text/yaml")),
        (1, "over a replay limit", {422},
         lambda: ("POST", "/api/check", ("players: [" + ", ".join(f"P{i}" for i in range(12)) +
                                          "]\nturn: P0\nphase: minion\nevents: [P0's turn]\n").encode(), "text/yaml")),
        (1, "builder field nested", {400},
         lambda: ("POST", "/check", enc({"state": table, "do": "add_event", "event_form": "bleed",
                                         "ev_bleed": "Belinde", "ev_target": "[" * 400 + "]" * 400}), form)),
        (1, "builder field huge", {400},
         lambda: ("POST", "/check", enc({"state": table, "do": "add_event", "event_form": "bleed",
                                         "ev_bleed": "Belinde", "ev_target": "[" + "Alexis" * 50_000 + "]"}), form)),
        (1, "not UTF-8", {400}, lambda: ("POST", "/api/check", b"players: [\xff\xfe]\n", "text/yaml")),
        (1, "permalink junk", {400}, lambda: ("GET", "/api/check?s=" + base64.urlsafe_b64encode(
            bytes(rng.randrange(256) for _ in range(60))).decode().rstrip("="), b"", "")),
    ]


def worker_pids(root_pid: int, port: int) -> list[int]:
    """The processes under `root_pid` listening on `port` (the serving workers)."""
    split = ConnectionSplit(root_pid, port)
    from judge.web.serving import TCP_LISTEN, tcp_states
    states = tcp_states(port) or {}
    return [pid for pid in split._descendants()
            if any(states.get(inode) == TCP_LISTEN for inode in split._sockets(pid))]


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url")
    parser.add_argument("--serve-args", default="")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args()

    proc, how = None, "?"
    url = args.url
    if url is None:
        proc, url, how = start_server(shlex.split(args.serve_args))
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port or 80
    pids = worker_pids(proc.pid, port) if proc is not None else []
    kinds = traffic(args.seed)
    weights = [k[0] for k in kinds]
    counts: dict[str, int] = {}
    wrong: dict[str, dict[int, int]] = {}
    latencies: list[float] = []
    samples: list[tuple[float, list[float]]] = []
    slow_outcomes: list = []
    duration = args.minutes * 60
    print(f"judge serve at {url} ({how}) · {args.clients} connections for {args.minutes:g} minutes · "
          f"{len(kinds)} kinds of request · workers {pids or 'not found (memory not read)'}", flush=True)

    async def connection(n: int, deadline: float) -> None:
        rng = random.Random(args.seed * 1000 + n)
        client = Client(host, port)
        while time.monotonic() < deadline:
            _, kind, expected, make = rng.choices(kinds, weights)[0]
            method, path, body, content_type = make()
            started = time.perf_counter()
            try:
                status = await asyncio.wait_for(client.request(method, path, body, content_type), REQUEST_TIMEOUT)
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as exc:
                status = f"{type(exc).__name__}"
                await client.close()
            latencies.append(time.perf_counter() - started)
            counts[kind] = counts.get(kind, 0) + 1
            if status not in expected:
                wrong.setdefault(kind, {})
                wrong[kind][status] = wrong[kind].get(status, 0) + 1
        await client.close()

    async def sampler(deadline: float, start: float) -> None:
        while time.monotonic() < deadline:
            samples.append((time.monotonic() - start, [rss_mb(p) for p in pids]))
            await asyncio.sleep(SAMPLE_SECONDS)
        samples.append((time.monotonic() - start, [rss_mb(p) for p in pids]))

    def slow_rounds(deadline: float) -> None:
        from judge.web.transport import BODY_SECONDS
        while time.monotonic() + 20 < deadline:
            time.sleep(SLOW_EVERY_SECONDS / 2)
            slow = SlowClients(url, 8, BODY_SECONDS + 1.0)
            slow.start()
            time.sleep(BODY_SECONDS + 3)
            slow.stop()
            slow_outcomes.extend(slow.outcomes)
            time.sleep(SLOW_EVERY_SECONDS / 2)

    async def run() -> None:
        start = time.monotonic()
        deadline = start + duration
        slow = threading.Thread(target=slow_rounds, args=(deadline,), daemon=True)
        slow.start()
        await asyncio.gather(sampler(deadline, start), *(connection(n, deadline) for n in range(args.clients)))
        slow.join()

    try:
        asyncio.run(run())
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)

    total = sum(counts.values())
    errors = sum(sum(v.values()) for v in wrong.values())
    print(f"\n{total:,} requests, {total / duration:.0f} a second; median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {sorted(latencies)[int(0.99 * len(latencies))] * 1000:.1f} ms; answered otherwise than their kind "
          f"must be: {errors}")
    for kind, by_status in sorted(wrong.items()):
        print(f"  {kind}: {by_status}")
    statuses: dict[str, int] = {}
    for _, _, status in slow_outcomes:
        statuses[status] = statuses.get(status, 0) + 1
    print(f"slow clients: {len(slow_outcomes)} held, answered {statuses}")
    print(f"requests by kind: " + ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
    verdict_ok = errors == 0 and all(s in ("408", "closed") for _, _, s in slow_outcomes)
    if pids and len(samples) >= 4:
        after_first_minute = next((rss for t, rss in samples if t >= 60), samples[1][1])
        middle = samples[len(samples) // 2][1]
        last_third = samples[2 * len(samples) // 3][1]
        end = samples[-1][1]
        bound = RESPONSE_CACHE_MB + MEMO_ALLOWANCE_MB
        print(f"\nworkers' memory (VmRSS, MB): after 1 min / middle / end; growth (bound {bound} MB: the response "
              f"cache's {RESPONSE_CACHE_MB} + {MEMO_ALLOWANCE_MB} for the memos); growth in the last third")
        for n, pid in enumerate(pids):
            growth, late = end[n] - after_first_minute[n], end[n] - last_third[n]
            fine = growth <= bound and late <= bound / 10
            verdict_ok = verdict_ok and fine
            print(f"  worker {pid}: {after_first_minute[n]:.0f} / {middle[n]:.0f} / {end[n]:.0f}; "
                  f"{growth:+.0f} MB; last third {late:+.0f} MB  {'within bounds' if fine else 'OVER'}")
        print("  samples: " + " ".join(f"{t / 60:.0f}m:" + "/".join(f"{r:.0f}" for r in rss) for t, rss in samples))
    print(f"\n{'holds' if verdict_ok else 'DOES NOT HOLD'}")
    sys.exit(0 if verdict_ok else 1)


if __name__ == "__main__":
    main()
