"""Scenario replays under load: 50 clients search `judge serve` while scenarios at the replay's limits are
posted, and while the crafted input of issue 18 is posted, beside the same search load alone, in one run.

    python bench/check_load.py [--clients 50] [--rounds 5] [--seconds 8] [--posters 2]
                               [--url http://127.0.0.1:8080/] [--serve-args "--workers 2"]

Without --url it starts `judge serve --port 0` itself (with --serve-args) and stops it. Each round measures,
one after the other (so that a slow spell of the shared machine slows one of each):

  search alone           --clients keep-alive connections asking search pages of new queries (wrk, as
                         bench/http_load.py's "search page, new queries": the response cache cannot help)
  search + maximal       the same, while --posters clients post scenarios at the replay's limits in a closed
                         loop (each posts again as soon as its answer is in), in turn to /api/check and to
                         /check (the page, as its form sends it): the table at every count limit
                         (tests/scenario_samples.at_limits: 10 players, 60 minions, 100 events, 100
                         expectations) and the one with the most steps the limits allow (fights(39): 496)
  search + crafted       the same, the posters posting the crafted input of issue 18 (1,000 players, 400
                         "next turn" events; before the limits 35.6 s, a 307 MB answer, 2.2 GB), now refused
                         with 422

Every post must be answered 200 (maximal) or 422 (crafted), every search 200. The table gives, per load, the
medians of the rounds: the searches' p50/p95/p99 and answers a second, and the posts' latencies (p50, p95,
the slowest of all rounds). Targets (issue 18): search p95 under 100 ms while the maximal scenarios are
posted; every crafted input answered in well under a second. The bench exits 1 only for wrong answers.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests")]

import http_load  # noqa: E402  (the load client, the server, the new queries)
import scenario_samples  # noqa: E402  (the scenarios at the limits, shared with the tests)

TARGET_SEARCH_P95_MS = 100.0
TARGET_CRAFTED_MS = 1000.0
SETTLE_SECONDS = 1.0


class Poster(threading.Thread):
    """One client posting scenarios in a closed loop on a keep-alive connection until `stop` is set."""

    def __init__(self, url: str, posts: list[tuple[str, bytes, str, int]], stop: threading.Event):
        super().__init__(daemon=True)
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.posts, self.stop = posts, stop  # (path, body, content type, status expected)
        self.latencies: list[float] = []
        self.errors: list[str] = []

    def run(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        n = 0
        while not self.stop.is_set():
            path, body, content_type, expected = self.posts[n % len(self.posts)]
            n += 1
            start = time.perf_counter()
            try:
                conn.request("POST", path, body=body, headers={"Content-Type": content_type})
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as exc:
                self.errors.append(f"{path}: {exc!r}")
                conn.close()
                conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                continue
            self.latencies.append((time.perf_counter() - start) * 1000)
            if response.status != expected:
                self.errors.append(f"{path}: HTTP {response.status}, not {expected}")
        conn.close()


def form(text: str) -> tuple[bytes, str]:
    """The check page's form (multipart, as a browser sends it) with `text` as the scenario."""
    boundary = "judge-check-load"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"scenario\"\r\n\r\n{text}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"rules\"\r\n\r\nfile\r\n--{boundary}--\r\n")
    return body.encode("utf-8"), f"multipart/form-data; boundary={boundary}"


def post_plans() -> dict[str, list[tuple[str, bytes, str, int]]]:
    at_limits, fights = scenario_samples.at_limits(), scenario_samples.fights(39)
    crafted = scenario_samples.crafted()
    return {
        "maximal": [("/api/check", at_limits.encode(), "text/yaml", 200), ("/check", *form(fights), 200),
                    ("/check", *form(at_limits), 200), ("/api/check", fights.encode(), "text/yaml", 200)],
        "crafted": [("/api/check", crafted.encode(), "text/yaml", 422), ("/check", *form(crafted), 422)],
    }


def loaded(client, url: str, paths: list[str], clients: int, seconds: float, posters: int,
           plan: list | None) -> tuple[dict, list[Poster]]:
    """The search load for `seconds`, with `posters` clients posting `plan` meanwhile (none when plan is None)."""
    stop = threading.Event()
    threads = []
    if plan is not None:
        # each poster starts at a different post of the plan, so that both scenarios are in flight together
        threads = [Poster(url, plan[i % len(plan):] + plan[:i % len(plan)], stop) for i in range(posters)]
    for t in threads:
        t.start()
    try:
        result = client.run(paths, clients, 10 ** 7, seconds)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=120)
    return result, threads


def ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def by_round(rs: list) -> str:
    return ", ".join(format(r["p95"], ".0f") for r, _ in rs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running judge serve (default: start one)")
    parser.add_argument("--serve-args", default="", help="options for the judge serve started, e.g. '--workers 2'")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--posters", type=int, default=2, help="clients posting scenarios meanwhile")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=8.0, help="time each load runs, each round")
    args = parser.parse_args()
    wrk = shutil.which("wrk")
    if not wrk:
        sys.exit("this bench needs wrk (Debian: apt-get install wrk)")

    loads = [("search alone", None), ("search + maximal", "maximal"), ("search + crafted", "crafted")]
    # distinct new queries for every load of every round: never asked twice, so never from the cache
    rows = http_load.scenarios(12_000, args.clients, args.rounds * len(loads))
    new_queries = next(paths for name, paths, _, _ in rows if name == "search page, new queries")
    plans = post_plans()
    proc, url, how = None, args.url, "given"
    if url is None:
        proc, url, how = http_load.start_server(shlex.split(args.serve_args))
    workdir = Path(tempfile.mkdtemp(prefix="judge-check-load-"))
    try:
        client = http_load.WrkClient(url, wrk, workdir)
        print(f"judge serve at {url} ({how}) · {client.name} · {args.clients} search connections · {args.posters} "
              f"posters · {args.seconds:.0f} s a load, {args.rounds} rounds · {os.cpu_count()} CPUs, load average "
              f"{os.getloadavg()[0]:.1f}")
        sizes = {name: [len(body) for _, body, _, _ in plan] for name, plan in plans.items()}
        print(f"posted: maximal {sorted(set(sizes['maximal']))} bytes (at every count limit; 496 steps), "
              f"crafted {sorted(set(sizes['crafted']))} bytes (1,000 players, 400 'next turn' events)")
        # warm-up, not measured: every worker has compiled its templates and replayed each scenario once
        client.run(["/search?q=warm+up+" + str(i) for i in range(200)], args.clients, 2_000, 5)
        loaded(client, url, ["/static/judge.css"], 4, 3, args.posters * 2, plans["maximal"] + plans["crafted"])
        time.sleep(SETTLE_SECONDS)
        runs: dict[str, list[tuple[dict, list[Poster]]]] = {name: [] for name, _ in loads}
        for rnd in range(args.rounds):
            line = []
            for k, (name, plan) in enumerate(loads):
                paths = new_queries[rnd * len(loads) + k]
                result, posters = loaded(client, url, paths, args.clients, args.seconds, args.posters,
                                         plans[plan] if plan else None)
                runs[name].append((result, posters))
                posted = [x for p in posters for x in p.latencies]
                line.append(f"{name.replace('search ', '').strip('+ ') or 'alone'} p95 {result['p95']:.0f} ms"
                            + (f" ({len(posted)} posts, p95 {ms(posted, 0.95):.0f} ms)" if posters else ""))
                time.sleep(SETTLE_SECONDS)
            print(f"  round {rnd + 1}: " + "; ".join(line), flush=True)

        print(f"medians of {args.rounds} rounds:")
        print(f"{'load':<20} {'searches/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'p95 × alone':>12}   "
              f"{'posts':>6} {'post p50':>9} {'post p95':>9} {'post max':>9}  verdict")
        alone = [r["p95"] for r, _ in runs["search alone"]]
        failed = False
        for name, plan in loads:
            rs = runs[name]
            med = {k: statistics.median(r[k] for r, _ in rs) for k in ("rps", "p50", "p95", "p99")}
            ratio = statistics.median(r["p95"] / a for (r, _), a in zip(rs, alone))
            posted = [[x for p in posters for x in p.latencies] for _, posters in rs]
            errors = [e for r, _ in rs for e in r["errors"]] + [e for _, ps in rs for p in ps for e in p.errors]
            posts = (f"{statistics.median(len(p) for p in posted):>6.0f} {statistics.median(ms(p, .5) for p in posted):>9.0f} "
                     f"{statistics.median(ms(p, .95) for p in posted):>9.0f} {max(max(p) for p in posted):>9.0f}"
                     if plan else f"{'':>6} {'':>9} {'':>9} {'':>9}")
            if errors:
                verdict = f"ERRORS ({len(errors)}: {errors[0]})"
            elif plan == "maximal":
                verdict = "meets" if med["p95"] < TARGET_SEARCH_P95_MS else "MISSES"
                verdict += f" (search p95 < {TARGET_SEARCH_P95_MS:.0f} ms)"
            elif plan == "crafted":
                slowest = max(max(p) for p in posted)
                verdict = "meets" if slowest < TARGET_CRAFTED_MS else "MISSES"
                verdict += f" (every crafted post < {TARGET_CRAFTED_MS:.0f} ms)"
            else:
                verdict = "baseline"
            print(f"{name:<20} {med['rps']:>10.0f} {med['p50']:>8.1f} {med['p95']:>8.1f} {med['p99']:>8.1f} "
                  f"{ratio:>12.2f}   {posts}  {verdict}   (p95 by round: {by_round(rs)})")
            failed = failed or bool(errors)
        print(json.dumps({"search_p95_ms": {name: [round(r["p95"], 1) for r, _ in rs] for name, rs in runs.items()}}))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
