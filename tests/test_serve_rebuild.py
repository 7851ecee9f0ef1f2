"""A real `judge serve` (two workers) whose index is damaged while it serves:
searches keep answering from the build in memory, and the damaged build is
rebuilt once, in the background, by one worker while the other waits for it
(judge.search, judge.search.index.rebuild_lock)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from urllib.parse import quote

import judge.search.index as search_index

WORDS = ["bleed", "torpor", "block", "vote", "combat", "strike", "influence", "hunt", "diablerie", "equipment",
         "retainer", "ally", "master", "action", "referendum", "prey", "predator", "edge", "transfer", "ousted",
         "dodge", "maneuver", "press", "damage", "prevent", "rescue", "title", "prince", "justicar", "stealth"]


def start(index) -> tuple[subprocess.Popen, str, list[tuple[float, str]]]:
    """`judge serve --workers 2`, its URL, and its log as it grows: (when it came, line)."""
    proc = subprocess.Popen([sys.executable, "-c", "from judge.cli import main; main()", "serve", "--port", "0",
                             "--workers", "2"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    log: list[tuple[float, str]] = []

    def follow():
        for line in proc.stderr:
            log.append((time.monotonic(), line))

    for line in proc.stderr:
        log.append((time.monotonic(), line))
        found = re.search(r"serving on (http://\S+/)", line)
        if found:
            threading.Thread(target=follow, daemon=True).start()
            return proc, found.group(1), log
    proc.kill()
    raise AssertionError("judge serve did not start:\n" + "".join(line for _, line in log))


def test_a_damaged_index_is_rebuilt_once_off_the_request_path(rules_copy, tmp_path):
    index = tmp_path / "index"
    proc, url, log = start(index)
    try:
        served = search_index.current_name(index)
        said_before = len(log)
        # A new build of the same corpus named by the pointer, damaged (as a crash
        # mid-copy or a hand edit leaves it), and the build in use damaged in place.
        damaged = f"{served.split('-')[0]}-{time.time_ns():x}"
        shutil.copytree(index / f"{search_index.PREFIX}{served}", index / f"{search_index.PREFIX}{damaged}")
        (index / f"{search_index.PREFIX}{damaged}" / search_index.COUNTERPARTS_FILE).write_text("{", encoding="utf-8")
        (index / f"{search_index.PREFIX}{served}" / search_index.POSTINGS_FILE).write_bytes(b"\x00damaged" * 64)
        search_index.point_at(index, damaged)
        answers, rebuilt_at, deadline = [], None, time.monotonic() + 120
        n = 0
        while time.monotonic() < deadline:
            # A new query each time (the response cache cannot answer), on a new
            # connection each time (the kernel spreads them over both workers).
            query = f"{WORDS[n % len(WORDS)]} {WORDS[(n * 7 + 3) % len(WORDS)]} {n}"
            n += 1
            with urllib.request.urlopen(f"{url}api/search?q={quote(query)}", timeout=60) as answer:
                answers.append((answer.status, len(json.load(answer)["hits"]), time.monotonic()))
            current = search_index.current_name(index)
            if rebuilt_at is None and current not in (None, served, damaged):
                rebuilt_at = time.monotonic()
            if rebuilt_at is not None and time.monotonic() - rebuilt_at > 2 and len(answers) > 40:
                break
        assert rebuilt_at is not None, "".join(line for _, line in log)
        assert all(status == 200 and hits > 0 for status, hits, _ in answers), answers
        time.sleep(1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    since = "".join(line for _, line in log[said_before:])
    assert since.count("built the search index as") == 1, since  # one worker rebuilt; the other followed it
    assert f"is damaged: {search_index.COUNTERPARTS_FILE} is not the file this build wrote; rebuilding it" in since
    assert "Traceback" not in since and "error" not in since.lower()
    rebuilt = search_index.current_name(index)
    assert rebuilt not in (served, damaged)
    search_index.open_built(rebuilt, index)  # whole
    builds = {p.name for p in index.glob(f"{search_index.PREFIX}*") if p.is_dir()}
    assert f"{search_index.PREFIX}{damaged}" not in builds and f"{search_index.PREFIX}{rebuilt}" in builds
    assert os.path.exists(index / search_index.LOCK_FILE)
    # Searches were answered while the index was being rebuilt (between the damage
    # being found and the rebuild done): it was not rebuilt inside a request, which
    # would have held both workers (the one rebuilding, the other waiting for it).
    found = min(when for when, line in log[said_before:] if "is damaged" in line)
    built = min(when for when, line in log[said_before:] if "built the search index as" in line)
    assert sum(found < when < built for _, _, when in answers) >= 3, (found, built, [w for *_, w in answers])
