"""Search latency of `judge serve` while its index is found damaged and rebuilt,
beside the same server's latency on an intact index, in one run.

    python bench/index_rebuild.py [--clients 8] [--seconds 8] [--workers 2] [--baseline DIR]

It starts `judge serve --workers N` on a scratch index directory, and
`--clients` keep-alive connections ask new queries of /api/search in a closed
loop (none is asked twice: the response cache cannot answer). For `--seconds`
the index is intact; then a new build of the same corpus is put beside it,
damaged (its counterparts.json cut short), and named by the index pointer, as a
crash mid-copy would leave it: every worker notices it within a quarter
second. That phase lasts until a good build replaces it; then two seconds
more are measured.

Printed per phase (a request counts in the phase it was sent in): answers,
p50, p95, p99 and the slowest, in ms, errors (any answer but a 200 with hits),
and how many builds were made (new build directories seen); then how long the
rebuild took and how many build directories are left on disk (one: the
current build; the books' analysed parts are reused, so the rebuild analyses
nothing). With `--baseline DIR`, the same is measured first with the
code of another checkout (e.g. `git archive <commit> | tar -x -C DIR`), which
the server is then started from.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

from timing import percentile  # noqa: E402  (also puts the checkout on sys.path)

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("bleed torpor block vote combat strike influence hunt diablerie equipment retainer ally master action "
         "referendum prey predator edge transfer ousted dodge maneuver press damage prevent rescue title prince "
         "justicar stealth intercept minion vampire blood pool crypt library discard hand unlock lock").split()


def start(tree: Path, index: Path, workers: int) -> tuple[subprocess.Popen, str, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(tree), "JUDGE_INDEX_DIR": str(index)}
    env.pop("JUDGE_RULES_DIR", None)
    proc = subprocess.Popen([sys.executable, "-c", "from judge.commands.serve import serve; serve()", "--port", "0",
                             "--workers", str(workers)], cwd=tree, env=env, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)
    log: list[str] = []
    for line in proc.stderr:
        log.append(line)
        found = re.search(r"serving on (http://\S+/)", line)
        if found:
            threading.Thread(target=lambda: log.extend(proc.stderr), daemon=True).start()
            return proc, found.group(1), log
    raise SystemExit("judge serve did not start:\n" + "".join(log))


class Load:
    """`clients` threads, each on a keep-alive connection, asking new queries until stopped."""

    def __init__(self, url: str, clients: int):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.samples: list[tuple[float, float, bool]] = []  # (when asked, seconds taken, good)
        self.stop = threading.Event()
        self.counter = iter(range(10**9))
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.client, daemon=True) for _ in range(clients)]
        for thread in self.threads:
            thread.start()

    def query(self) -> str:
        with self.lock:
            n = next(self.counter)
        return f"{WORDS[n % len(WORDS)]} {WORDS[(n // len(WORDS)) % len(WORDS)]} {n}"

    def client(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                conn.request("GET", f"/api/search?q={quote(self.query())}")
                answer = conn.getresponse()
                body = answer.read()
                good = answer.status == 200 and bool(json.loads(body)["hits"])
            except (OSError, http.client.HTTPException, ValueError):
                conn.close()
                conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                good = False
            done = time.monotonic()
            with self.lock:
                self.samples.append((started, done - started, good))

    def between(self, start: float, end: float) -> list[tuple[float, bool]]:
        with self.lock:
            return [(taken, good) for when, taken, good in self.samples if start <= when < end]

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=70)


def builds(index: Path) -> set[str]:
    return {p.name for p in index.glob("search-*") if p.is_dir()}


def measure(tree: Path, args) -> list[tuple]:
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp)
        proc, url, log = start(tree, index, args.workers)
        try:
            load = Load(url, args.clients)
            time.sleep(1)  # connections opened, first answers in
            intact_start = time.monotonic()
            time.sleep(args.seconds)
            intact_end = time.monotonic()
            served = (index / "search-current").read_text(encoding="ascii").strip()
            damaged = f"{served.split('-')[0]}-{time.time_ns():x}"
            shutil.copytree(index / f"search-{served}", index / f"search-{damaged}")
            # (a file the build lists in its contents.json: one it does not list is never read)
            (index / f"search-{damaged}" / "counterparts.json").write_text("{", encoding="utf-8")
            seen = builds(index)
            (index / ".pointer.tmp").write_text(damaged + "\n", encoding="ascii")
            os.replace(index / ".pointer.tmp", index / "search-current")
            damaged_start = time.monotonic()
            deadline = damaged_start + 120
            rebuilt_at = None
            while time.monotonic() < deadline:
                now_builds = builds(index)
                seen |= now_builds
                current = (index / "search-current").read_text(encoding="ascii").strip()
                if rebuilt_at is None and current not in (served, damaged) and f"search-{current}" in now_builds:
                    rebuilt_at = time.monotonic()
                if rebuilt_at is not None and time.monotonic() - rebuilt_at > 2:
                    break
                time.sleep(0.02)
            damaged_end = time.monotonic()
            load.close()
            left = sorted(builds(index))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        made = len(seen - {f"search-{served}", f"search-{damaged}"})
        rows = []
        if rebuilt_at is None:
            print(f"  (no good build replaced the damaged one within 120 s; log:\n{''.join(log[-10:])})")
        rebuilt_at = rebuilt_at or damaged_end
        for phase, start_at, end_at, rebuilt in (("intact index", intact_start, intact_end, None),
                                                 ("damaged, until rebuilt", damaged_start, rebuilt_at, made),
                                                 ("rebuilt (2 s)", rebuilt_at, damaged_end, None)):
            samples = load.between(start_at, end_at) or [(0.0, True)]
            times = [taken * 1000 for taken, _ in samples]
            rows.append((phase, len(samples), percentile(times, 0.5), percentile(times, 0.95),
                         percentile(times, 0.99), max(times), sum(not good for _, good in samples), rebuilt,
                         end_at - start_at))
        print(f"  build directories on disk at the end: {len(left)} ({', '.join(left)})")
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=8.0, help="how long the intact index is measured")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline", type=Path, help="a checkout of other code, measured first the same way")
    args = parser.parse_args()
    trees = ([("baseline: " + str(args.baseline), args.baseline)] if args.baseline else []) + [("this checkout", ROOT)]
    print(f"judge serve --workers {args.workers}, {args.clients} keep-alive clients asking new queries "
          f"of /api/search; {os.cpu_count()} CPUs")
    header = f"{'phase':<24} {'answers':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} " \
             f"{'errors':>6} {'builds':>6} {'seconds':>7}"
    for name, tree in trees:
        print(f"\n{name}\n{header}")
        for phase, count, p50, p95, p99, slowest, errors, made, seconds in measure(tree, args):
            print(f"{phase:<24} {count:>7} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} {slowest:>8.1f} {errors:>6} "
                  f"{'' if made is None else made:>6} {seconds:>7.1f}")


if __name__ == "__main__":
    main()
