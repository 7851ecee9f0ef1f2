"""How judge grows with the number of books: synthetic corpora of N books made
from the real five, built and served from scratch, size after size.

    python bench/scale.py [--sizes 5,25,100] [--with-250] [--code DIR] [--keep DIR]
                          [--serve-timeout S] [--serve-memory-gib G] [--queries N]

A corpus of N books is the five real books copied under new IDs and editions
(copy c of `vekn` is `veknx<c>`, a V:TES edition after every book of copy c-1;
copy c of the outline cites copy c of the older book), in their own formats,
with a manifest, in a temporary directory; its artifacts go to an index
directory of their own (JUDGE_RULES_DIR, JUDGE_INDEX_DIR). Every figure is a
fresh child process (CPU seconds and peak memory from `os.wait4`):

* full build: the corpus, the concordance and the search index from an empty
  index directory (each stage's CPU seconds below the table);
* graph: `judge graph stats` (the graph is built in each process), its edges;
* warm CLI: `judge search "tap to block"`, `judge show rb:6.4.6/2` (an older
  edition: where the rule is in force is read from the search build's rule groups), `judge show
  <the newest copy of vekn>:bleed/2` (show*: a paragraph of the book in force)
  and `judge graph related vekn:bleed`, the median of three once the artifacts
  are built (the first command after a build writes what the next ones read:
  it is not among the three);
* query p50/p95: the searches of the gold set's questions, once to warm,
  then three times timed, in one process;
* serve: `judge serve --port 0` started to its first page (GET /) answered,
  the CPU seconds its processes had used by then (/proc: the figure to
  compare on a loaded machine), and the peak memory of the server's
  processes (PSS, from /proc), stopped at `--serve-timeout` seconds or
  `--serve-memory-gib`;
* one-book rebuild: one book edited (a word of the middle copy of the
  section-6 book: "minion" becomes "vampire"), then the build again;
* artifacts: the bytes in the index directory after the build.

The growth ratio of each figure to the size before it is printed below the
table. `--code DIR` runs the children with another checkout's code (for a
baseline: `git worktree add DIR <commit>`), so two versions compare in one
session. A bench, run by hand: tests/test_scale.py runs 10 books for
correctness only.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import yaml

ROOT = Path(__file__).resolve().parent.parent
REAL_RULES = ROOT / "rules"
BOOKS_PER_COPY = 5
EDITED_BOOK = "s6"  # the one-book change edits a copy of this book
EDIT = (" minion ", " vampire ")  # the first occurrence in the book's text, after its first tenth

BUILD = """
import json, sys, time
from judge.corpus import get_corpus
from judge.compare.concordance import get_concordance
from judge.search import get_searcher
t0 = time.process_time(); corpus = get_corpus()
t1 = time.process_time(); get_concordance(corpus)
t2 = time.process_time(); get_searcher(corpus)
t3 = time.process_time()
print(json.dumps({"documents": len(corpus.documents), "paragraphs": len(corpus.paragraphs),
                  "errors": [str(e) for e in corpus.errors],
                  "stages": {"corpus": t1 - t0, "concordance": t2 - t1, "index": t3 - t2}}))
"""

QUERIES = """
import json, sys, time
from judge.corpus import get_corpus
from judge.search import get_searcher
queries = json.loads(sys.stdin.read())
searcher = get_searcher(get_corpus())
hits = sum(bool(searcher.search(q, limit=10).hits) for q in queries)
times = []
for _ in range(3):
    for q in queries:
        start = time.perf_counter()
        searcher.search(q, limit=10)
        times.append(time.perf_counter() - start)
print(json.dumps({"times": times, "answered": hits, "queries": len(queries)}))
"""


# -- the synthetic corpus ------------------------------------------------------------
def make_corpus(books: int, folder: Path) -> Path:
    """A rules folder of `books` books: the real five, then copies of them under new IDs
    and editions (copy c's editions after every edition of copy c-1). Returns it."""
    real = yaml.safe_load((REAL_RULES / "manifest.yaml").read_text(encoding="utf-8"))["documents"]
    folder.mkdir(parents=True, exist_ok=True)
    per_game_span = {}  # game -> how many edition_order steps one copy takes
    for entry in real:
        per_game_span[entry["game"]] = max(per_game_span.get(entry["game"], 0), entry["edition_order"])
    entries = []
    for n in range(books):
        copy, entry = divmod(n, BOOKS_PER_COPY)
        entry = dict(real[entry])
        source = REAL_RULES / entry["source"]
        if copy:
            suffix = f"x{copy}"
            entry["id"] += suffix
            entry["short"] += suffix.upper()
            entry["title"] += f" (copy {copy})"
            entry["edition"] += f" (copy {copy})"
            entry["edition_order"] += copy * per_game_span[entry["game"]]
            entry["source"] = f"c{copy:03d}_{entry['source']}"
            if "cites" in entry:
                entry["cites"] += suffix
        shutil.copyfile(source, folder / entry["source"])
        entries.append(entry)
    (folder / "manifest.yaml").write_text(yaml.safe_dump({"documents": entries}, sort_keys=False, allow_unicode=True),
                                          encoding="utf-8")
    return folder


def make_data(books: int, code: Path, folder: Path) -> Path:
    """judge's data files for a corpus of `books` books: the questions each rule answers are written for
    the books in force (judge.search.questions refuses an older edition's), so the real books' files
    become the newest copies' (their IDs renamed). Returns the folder."""
    shutil.copytree(code / "judge" / "data", folder)
    newest = {"vekn": newest_vekn(books), "rivals": newest_of("rivals", books)}
    questions = folder / "questions"
    for path in sorted(questions.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        for book, copy in newest.items():
            text = re.sub(rf"(?<![\w-]){book}:", f"{copy}:", text)
        target = questions / f"{newest.get(path.stem, path.stem)}.yaml"
        path.unlink()
        target.write_text(text, encoding="utf-8")
    return folder


def newest_of(book: str, books: int) -> str:
    """The ID of the last copy of `book` (one of the real five) in a corpus of `books` books."""
    real = [e["id"] for e in yaml.safe_load((REAL_RULES / "manifest.yaml").read_text(encoding="utf-8"))["documents"]]
    place = real.index(book)
    copy = (books - 1 - place) // BOOKS_PER_COPY
    return f"{book}{'x' + str(copy) if copy else ''}"


def newest_vekn(books: int) -> str:
    """The ID of the last copy of `vekn` in a corpus of `books` books: the V:TES book in force."""
    return newest_of("vekn", books)


def edit_one_book(folder: Path) -> str:
    """Change one word in the middle copy of EDITED_BOOK; its ID."""
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))["documents"]
    copies = [e for e in manifest if e["id"] == EDITED_BOOK or re.fullmatch(f"{EDITED_BOOK}x\\d+", e["id"])]
    entry = copies[len(copies) // 2]
    path = folder / entry["source"]
    text = path.read_text(encoding="utf-8")
    at = text.index(EDIT[0], len(text) // 10)
    path.write_text(text[:at] + EDIT[1] + text[at + len(EDIT[0]):], encoding="utf-8")
    return entry["id"]


# -- child processes -----------------------------------------------------------------
@dataclass
class Run:
    wall: float
    cpu: float
    peak_mib: float
    code: int
    out: str
    err: str


def child_env(code: Path, rules: Path, index: Path, data: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(code), "JUDGE_RULES_DIR": str(rules), "JUDGE_INDEX_DIR": str(index),
            "JUDGE_DATA_DIR": str(data)}


def run(argv: list[str], env: dict, cwd: Path, stdin: str = "") -> Run:
    """One child process to its end: wall and CPU seconds, its peak resident memory."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    reader.start()
    if stdin:
        proc.stdin.write(stdin)  # the scripts read all of it before writing anything
    proc.stdin.close()
    stdout = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    reader.join()
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode, stdout, "".join(err))


def python(code: Path, script: str, env: dict, stdin: str = "") -> Run:
    return run([sys.executable, "-c", script], env, code, stdin)


def judge(code: Path, args: list[str], env: dict) -> Run:
    return run([sys.executable, "-c", "from judge.cli import main; main()", *args], env, code)


def checked(result: Run, what: str) -> Run:
    if result.code != 0:
        raise RuntimeError(f"{what} failed (exit {result.code}):\n{result.err[-3000:]}")
    return result


# -- the server ----------------------------------------------------------------------
@dataclass
class Served:
    first_page: Optional[float]  # seconds from start to the first page answered; None: stopped
    peak_mib: float  # the server's processes' PSS, summed, at its highest
    cpu: float  # the CPU seconds its processes had used when the first page came (or when stopped)
    stopped: str = ""  # why it was stopped before answering
    log: list[str] = field(default_factory=list)


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except OSError:
            pass
    return found


def _pss_mib(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total / 1024


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds the processes have used (/proc/PID/stat)."""
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (the 14th and 15th fields)
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def serve(code: Path, env: dict, timeout: float, memory_mib: float) -> Served:
    """`judge serve` started, asked for its first page, and stopped."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "from judge.commands.serve import serve; serve()",
                             "--host", "127.0.0.1", "--port", "0"], env=env, cwd=code, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    log: list[str] = []
    url: list[str] = []

    def read() -> None:
        for line in proc.stderr:
            log.append(line)
            found = re.search(r"serving on (http://\S+/)", line)
            if found:
                url.append(found.group(1))
    threading.Thread(target=read, daemon=True).start()
    peak, stopped, first, cpu = 0.0, "", None, 0.0
    try:
        while not url:
            time.sleep(0.2)
            tree = _tree(proc.pid)
            peak = max(peak, _pss_mib(tree))
            cpu = max(cpu, _cpu_seconds(tree))
            if proc.poll() is not None:
                stopped = f"exited {proc.returncode}"
                break
            if peak > memory_mib:
                stopped = f"stopped at {peak / 1024:.1f} GiB"
                break
            if time.perf_counter() - start > timeout:
                stopped = f"no answer in {timeout:.0f} s"
                break
        if url:
            with urllib.request.urlopen(url[0], timeout=max(1.0, timeout - (time.perf_counter() - start))) as answer:
                answer.read()
                if answer.status == 200:
                    first = time.perf_counter() - start
            tree = _tree(proc.pid)
            peak, cpu = max(peak, _pss_mib(tree)), max(cpu, _cpu_seconds(tree))
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
    return Served(first, peak, cpu, stopped, log)


# -- one size ------------------------------------------------------------------------
def gold_queries(limit: int) -> list[str]:
    data = yaml.safe_load((ROOT / "tests" / "search_gold.yaml").read_text(encoding="utf-8"))
    return [q["q"] for q in data["questions"]][:limit]


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(books: int, work: Path, code: Path, args) -> dict:
    rules, index = make_corpus(books, work / f"rules-{books}"), work / f"index-{books}"
    index.mkdir()
    env = child_env(code, rules, index, make_data(books, code, work / f"data-{books}"))
    figures: dict = {"books": books}
    say = lambda text: print(f"  [{books} books] {text}", file=sys.stderr, flush=True)  # noqa: E731

    build = checked(python(code, BUILD, env), "the build")
    built = json.loads(build.out.strip().splitlines()[-1])
    figures.update(paragraphs=built["paragraphs"], build=build.cpu, build_wall=build.wall,
                   build_mib=build.peak_mib, stages=built["stages"], artifacts_mb=du(index) / 1e6)
    if built["errors"] or built["documents"] != books:
        raise RuntimeError(f"{books} books: {built['documents']} documents built; errors: {built['errors']}")
    say(f"built in {build.wall:.1f} s ({build.cpu:.1f} s CPU, {build.peak_mib:.0f} MiB)")

    graph = checked(judge(code, ["graph", "stats", "--json"], env), "judge graph stats")
    stats = json.loads(graph.out)
    figures.update(graph=graph.wall, graph_mib=graph.peak_mib, edges=stats.get("edges"))
    say(f"graph stats {graph.wall:.1f} s, {stats.get('edges')} edges")

    for name, argv in (("cli_search", ["search", "tap to block"]), ("cli_show", ["show", "rb:6.4.6/2"]),
                       ("cli_show_in_force", ["show", f"{newest_vekn(books)}:bleed/2"]),
                       ("cli_related", ["graph", "related", "vekn:bleed"])):
        checked(judge(code, argv, env), f"judge {argv[0]}")  # warm: what the first command writes is written
        runs = [checked(judge(code, argv, env), f"judge {argv[0]}") for _ in range(3)]
        figures[name] = statistics.median(r.wall for r in runs)
        figures[name + "_cpu"] = statistics.median(r.cpu for r in runs)
        figures[name + "_mib"] = max(r.peak_mib for r in runs)
    say(f"judge search {figures['cli_search']:.2f} s, judge show {figures['cli_show']:.2f} s, "
        f"judge graph related {figures['cli_related']:.2f} s")

    queries = checked(python(code, QUERIES, env, json.dumps(gold_queries(args.queries))), "the queries")
    timed = json.loads(queries.out.strip().splitlines()[-1])
    ms = sorted(t * 1000 for t in timed["times"])
    figures.update(p50=ms[len(ms) // 2], p95=ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))],
                   answered=f"{timed['answered']}/{timed['queries']}")

    if args.serve_timeout > 0:
        served = serve(code, env, args.serve_timeout, args.serve_memory_gib * 1024)
        figures.update(serve=served.first_page, serve_cpu=served.cpu, serve_mib=served.peak_mib,
                       serve_stopped=served.stopped)
        say(f"serve: {served.first_page and round(served.first_page, 1)} s ({served.cpu:.1f} s CPU) {served.stopped}")

    edited = edit_one_book(rules)
    rebuild = checked(python(code, BUILD, env), "the rebuild")
    figures.update(rebuild=rebuild.cpu, rebuild_wall=rebuild.wall, rebuild_mib=rebuild.peak_mib,
                   rebuild_stages=json.loads(rebuild.out.strip().splitlines()[-1])["stages"], edited=edited,
                   artifacts_after_mb=du(index) / 1e6)
    say(f"one book ({edited}) rebuilt in {rebuild.wall:.1f} s ({rebuild.cpu:.1f} s CPU)")
    return figures


# -- the report ----------------------------------------------------------------------
COLUMNS = [  # (key, heading, format)
    ("books", "books", "{:d}"), ("paragraphs", "paras", "{:d}"),
    ("build", "build CPU s", "{:.1f}"), ("build_wall", "wall s", "{:.1f}"), ("build_mib", "MiB", "{:.0f}"),
    ("rebuild", "1-book CPU s", "{:.1f}"), ("rebuild_wall", "wall s", "{:.1f}"),
    ("artifacts_mb", "artifacts MB", "{:.1f}"),
    ("graph", "graph stats s", "{:.1f}"), ("graph_mib", "MiB", "{:.0f}"), ("edges", "edges", "{:d}"),
    ("cli_search", "search s", "{:.2f}"), ("cli_search_cpu", "CPU s", "{:.2f}"), ("cli_show", "show s", "{:.2f}"),
    ("cli_show_cpu", "CPU s", "{:.2f}"), ("cli_show_in_force_cpu", "show* CPU s", "{:.2f}"),
    ("cli_related_cpu", "related CPU s", "{:.2f}"),
    ("p50", "q p50 ms", "{:.2f}"), ("p95", "q p95 ms", "{:.2f}"),
    ("serve", "serve s", "{:.1f}"), ("serve_cpu", "CPU s", "{:.1f}"), ("serve_mib", "MiB", "{:.0f}"),
]
GROWING = ["build", "build_mib", "rebuild", "artifacts_mb", "graph", "graph_mib", "edges", "cli_search_cpu",
           "cli_show_cpu", "cli_show_in_force_cpu", "cli_related_cpu",
           "p95", "serve", "serve_cpu", "serve_mib"]


def cell(row: dict, key: str, form: str) -> str:
    value = row.get(key)
    if value is None:
        return row.get("serve_stopped") or "-" if key == "serve" else "-"
    return form.format(value)


def report(rows: list[dict], label: str) -> str:
    lines = [f"## {label}", "", "| " + " | ".join(h for _, h, _ in COLUMNS) + " |",
             "|" + "---:|" * len(COLUMNS)]
    for row in rows:
        lines.append("| " + " | ".join(cell(row, k, f) for k, _, f in COLUMNS) + " |")
    lines.append("")
    for row in rows:
        stages = ", ".join(f"{k} {v:.1f}" for k, v in row["stages"].items())
        again = ", ".join(f"{k} {v:.1f}" for k, v in row["rebuild_stages"].items())
        lines.append(f"* {row['books']} books: build stages (CPU s) {stages}; after editing {row['edited']}: "
                     f"{again}; artifacts {row['artifacts_after_mb']:.1f} MB after it; queries answered "
                     f"{row['answered']}")
    for before, after in zip(rows, rows[1:]):
        ratios = []
        for key in GROWING:
            a, b = before.get(key), after.get(key)
            if a and b:
                ratios.append(f"{key} {b / a:.2f}x")
        lines.append(f"* growth {before['books']} -> {after['books']} books "
                     f"({after['books'] / before['books']:.1f}x): " + ", ".join(ratios))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5,25,100", help="numbers of books, comma-separated")
    parser.add_argument("--with-250", action="store_true", help="add 250 books")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs (default: this one)")
    parser.add_argument("--keep", type=Path, help="build in this directory and keep it (default: a temporary one)")
    parser.add_argument("--serve-timeout", type=float, default=180, help="seconds to wait for the first page (0: skip)")
    parser.add_argument("--serve-memory-gib", type=float, default=4.0, help="stop the server above this memory")
    parser.add_argument("--queries", type=int, default=200, help="gold questions searched")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()] + ([250] if args.with_250 else [])
    code = args.code.resolve()
    # The children run the code as an installed package does, its bytecode compiled: where
    # PYTHONDONTWRITEBYTECODE is set, a module edited since its last compile would otherwise
    # be compiled again by every command timed (0.05 s of CPU for a few modules).
    compileall.compile_dir(str(code / "judge"), quiet=1)
    commit = subprocess.run(["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    rows = []
    work_root = args.keep or Path(tempfile.mkdtemp(prefix="judge-scale-"))
    try:
        for books in sizes:
            work = work_root / f"{books}"
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            rows.append(measure(books, work, code, args))
            print(report(rows, f"code {code} ({commit or '?'}), {sys.executable}"), flush=True)
            print(flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work_root, ignore_errors=True)
    print(json.dumps(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
