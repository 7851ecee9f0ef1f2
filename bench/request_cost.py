"""What one request costs the app, in CPU instructions: a figure that does not
move with the machine's load, unlike the latencies of bench/http_load.py.

    python bench/request_cost.py [--requests 200] [--warm 8000] [--only "new"]

Each scenario runs in a process of its own under valgrind's callgrind, which
counts the instructions the process executes (Debian package `valgrind`). The
app is built, warmed as `judge serve` warms it, and asked `--warm` requests of
the scenario's kind first (the searcher's per-word memos fill up, as in a
server that has been running); counting is switched on (callgrind_control)
only around the measured `--requests` requests, which go through the whole
WSGI stack in process (response cache, security headers, Flask, the view, the
template or JSON), not through a socket. The same seeded queries are asked in
every run, so two runs of the same code give the same figure to within a
fraction of a percent, and two versions of the code can be compared on a
noisy machine.

Scenarios:
  static file             /static/judge.css                  (baseline: no application code)
  rule page, first visit  /p/<id> never asked before
  search page, new        /search?q=<two words of the books>  (every query new)
  results fragment, new   the same with fragment=1 (what the live results fetch)
  search API, new         /api/search?q=<two words>
  searcher alone          judge.search.Search.search(q), no web layer

Without valgrind it says so and measures CPU time per request instead (median
of three runs; the figures then move with the machine).
"""
from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCENARIOS = {
    "static file": "static",
    "rule page, first visit": "rule",
    "search page, new": "page",
    "results fragment, new": "fragment",
    "search API, new": "api",
    "searcher alone": "search",
}


# -- the measured process ------------------------------------------------------------------------
def requests_of(kind: str, count: int, corpus) -> list:
    """`count` distinct requests of one kind: WSGI (path, query string), or a query for the searcher."""
    rng = random.Random(11)
    if kind == "static":
        return [("/static/judge.css", "")] * count
    if kind == "rule":
        ids = sorted(corpus.paragraphs) + sorted(corpus.sections)
        rng.shuffle(ids)
        return [("/p/" + quote(i, safe="/:"), "") for i in ids[:count]]
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{5,}", p.text)})
    queries = list(dict.fromkeys(f"{rng.choice(words)} {rng.choice(words)}" for _ in range(3 * count)))[:count]
    if kind == "search":
        return queries
    path = "/api/search" if kind == "api" else "/search"
    extra = "&fragment=1" if kind == "fragment" else ""
    return [(path, "q=" + quote(q) + extra) for q in queries]


def child(kind: str, warm_count: int, measured: int, counting: bool) -> None:
    try:
        from judge.commands.shared import load
    except ImportError:  # the code before judge/commands/shared.py (a baseline's checkout)
        from judge.cli import load
    try:
        from judge.web.app import create_app
        from judge.web.warmup import warm
    except ImportError:  # the code before judge/web/app.py (a baseline's checkout)
        from judge.web import create_app, warm

    corpus = load()
    app = create_app(corpus)
    warm(app)
    searcher = app.extensions["judge"].searcher
    asked = requests_of(kind, warm_count + measured, corpus)
    if kind == "rule":  # first visits: the warm-up may not ask the measured pages
        warm_part, measured_part = asked[measured:measured + warm_count], asked[:measured]
    else:
        warm_part, measured_part = asked[:warm_count], asked[warm_count:warm_count + measured]

    def ask(item) -> None:
        if kind == "search":
            searcher.search(item, limit=10)
            return
        path, query = item
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
                   "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1",
                   "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr}
        status = []
        body = app(environ, lambda s, h, e=None: status.append(s))
        b"".join(body)
        if hasattr(body, "close"):
            body.close()
        if not status or not status[0].startswith("200"):
            sys.exit(f"{path}?{query} answered {status[:1]}")

    for item in warm_part:
        ask(item)
    import gc
    # As `judge serve` does after its warm-up (judge/web/serving.py): what the warm-up made is frozen, so
    # a full collection walks only what requests made since, and the count is the server's, not a pause
    # that falls on whichever request allocates at the wrong moment.
    gc.collect()
    gc.freeze()
    if counting:
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True)
        for item in measured_part:
            ask(item)
        subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], check=True, capture_output=True)
    else:
        started = time.thread_time()
        for item in measured_part:
            ask(item)
        print(f"CPU {(time.thread_time() - started) / len(measured_part) * 1e6:.1f}")


# -- the parent ------------------------------------------------------------------------------------
def instructions(kind: str, warm_count: int, measured: int) -> float:
    """Instructions per request of one scenario, counted by callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                              sys.executable, __file__, "--child", kind, "--warm", str(warm_count),
                              "--requests", str(measured)],
                             capture_output=True, text=True, cwd=ROOT)
        totals = re.search(r"^totals:\s+(\d+)", out.read_text() if out.exists() else "", re.M)
        if run.returncode or not totals:
            sys.exit(f"{kind}: the measured process failed ({run.returncode}): {run.stderr.strip()[-600:]}")
        return int(totals.group(1)) / measured


def cpu_time(kind: str, warm_count: int, measured: int) -> float:
    """CPU microseconds per request of one scenario: the median of three runs."""
    runs = []
    for _ in range(3):
        run = subprocess.run([sys.executable, __file__, "--child", kind, "--warm", str(warm_count),
                              "--requests", str(measured), "--cpu"], capture_output=True, text=True, cwd=ROOT)
        found = re.search(r"^CPU ([\d.]+)", run.stdout, re.M)
        if run.returncode or not found:
            sys.exit(f"{kind}: the measured process failed ({run.returncode}): {run.stderr.strip()[-600:]}")
        runs.append(float(found.group(1)))
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="requests counted per scenario")
    parser.add_argument("--warm", type=int, default=8000, help="requests of the same kind asked before counting")
    parser.add_argument("--only", action="append", default=[], metavar="WORDS",
                        help="only the scenarios whose name contains WORDS (the baseline always runs)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--cpu", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.warm, args.requests, counting=not args.cpu)
        return
    chosen = {name: kind for name, kind in SCENARIOS.items()
              if kind == "static" or not args.only or any(w in name for w in args.only)}
    counted = bool(shutil.which("valgrind") and shutil.which("callgrind_control"))
    measure, unit = (instructions, "M instructions") if counted else (cpu_time, "µs of CPU")
    print(f"cost of one request, in {unit} · {args.requests} requests counted per scenario after {args.warm} "
          f"of the same kind · " + ("callgrind (valgrind): repeatable whatever the machine's load" if counted else
                                    "valgrind not installed: CPU time, median of 3 runs (moves with the machine)"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # counts do not depend on sharing the CPUs
        futures = {name: pool.submit(measure, kind, min(args.warm, 1000) if kind in ("static", "rule") else args.warm,
                                     args.requests) for name, kind in chosen.items()}
        results = {name: future.result() for name, future in futures.items()}
    scale = 1e6 if counted else 1.0
    baseline = results["static file"]
    print(f"{'scenario':26s} {unit:>16s}  × static file")
    for name, value in results.items():
        print(f"{name:26s} {value / scale:16.3f}  {value / baseline:12.1f}")


if __name__ == "__main__":
    main()
