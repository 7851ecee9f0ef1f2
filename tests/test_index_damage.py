"""Any damage to index/ is rebuilt, never a traceback (issue 34): a built file replaced by text nested too deep for
any reader, by a directory, by a named pipe (which a reader opening it would wait on for ever) or by junk; each
command answers as on a whole index, and the damaged file is in order again afterwards. `judge serve`'s warm-up
starts on a damaged index too. Each command runs in a process of its own: in this one the corpus and the searcher
would be answered from memory, never from the damaged files."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """An index directory built by the commands below, copied for each damage."""
    index = tmp_path_factory.mktemp("index-built")
    for command in (["search", "bleed"], ["search", "torpor"], ["card", "govern the unaligned"],
                    ["graph", "related", "vekn:bleed/2"]):  # the second search seals the build (sealed.json)
        assert run(index, command).returncode == 0
    return index


def run(index: Path, command: list[str], code: str | None = None) -> subprocess.CompletedProcess:
    args = ["-c", code] if code else ["-c", "from judge.cli import main; main()", *command]
    return subprocess.run([sys.executable, *args], env={**os.environ, "JUDGE_INDEX_DIR": str(index)}, cwd=ROOT,
                          capture_output=True, text=True, timeout=240)


def nested(path: Path) -> None:
    path.write_text("[" * 100_000)


def directory(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "something").write_text("x")


def named_pipe(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def junk(path: Path) -> None:
    path.write_bytes(os.urandom(500))


def other_rulings(path: Path) -> None:
    """The rulings' index, well formed but of rulings the card base does not have (each ID changed)."""
    import json
    data = json.loads(path.read_text("utf-8"))
    data["table"]["ids"] = ["x" + rid for rid in data["table"]["ids"]]
    path.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False), "utf-8")


def the_build(index: Path) -> Path:
    return next(p for p in index.iterdir() if p.name.startswith("search-") and p.is_dir())


# (what to damage, how, the command that must still answer: its words on stdout)
CASES = [
    (lambda i: the_build(i) / "contents.json", nested, ["search", "bleed"], "VEKN › 3. Minion Phase › Bleed"),
    (lambda i: the_build(i) / "contents.json", named_pipe, ["search", "bleed"], "VEKN › 3. Minion Phase › Bleed"),
    (lambda i: the_build(i) / "sealed.json", nested, ["search", "bleed"], "VEKN › 3. Minion Phase › Bleed"),
    (lambda i: the_build(i) / "sealed.json", directory, ["show", "rb:6.4.6/2"], "RB §6.4.6 ¶2"),
    (lambda i: i / "search-current", directory, ["search", "bleed"], "VEKN › 3. Minion Phase › Bleed"),
    (lambda i: i / "search-current", named_pipe, ["show", "rb:6.4.6/2"], "RB §6.4.6 ¶2"),
    (lambda i: the_build(i) / "postings.npz", directory, ["search", "torpor"], "torpor"),
    (lambda i: i / "corpus.json", named_pipe, ["search", "bleed"], "VEKN › 3. Minion Phase › Bleed"),
    (lambda i: i / "cards.json", directory, ["card", "govern the unaligned"], "Govern the Unaligned"),
    (lambda i: i / "rule-graph.npz", junk, ["graph", "related", "vekn:bleed/2"], "vekn:"),
    (lambda i: i / "parsed-synonyms.json", nested, ["search", "untap phase"], "Unlock Phase"),
    (lambda i: i / "card-name-forms.json", junk, ["search", "can Govern the Unaligned be blocked"],
     "card: Govern the Unaligned"),
    (lambda i: i / "ruling-index.json", nested, ["search", "damage inflicted against a dodge", "--in", "rulings"],
     "inflicted even against a dodge"),
    # read first without the card base (a question naming no card is answered so), then with it: a card named
    (lambda i: i / "ruling-index.json", other_rulings, ["search", "can Govern the Unaligned be blocked"],
     "ruling:100845/lsj-20010108"),
]


@pytest.mark.parametrize("where, damage, command, words", CASES,
                         ids=[f"{c[2][0]}-{c[1].__name__}-{n}" for n, c in enumerate(CASES)])
def test_a_damaged_built_file_is_rebuilt_and_the_command_answers(built, tmp_path, where, damage, command, words):
    index = tmp_path / "index"
    shutil.copytree(built, index, symlinks=True)
    target = where(index)
    damage(target)
    answer = run(index, command)
    assert answer.returncode == 0 and "Traceback" not in answer.stderr, answer.stderr[-2000:]
    assert words in answer.stdout
    again = run(index, command)  # the index is in order again: the second run reads what the first rebuilt
    assert again.returncode == 0 and words in again.stdout and "Traceback" not in again.stderr
    if target.name == "search-current":  # read by every search: written again as the file it is
        assert target.is_file()


def test_the_servers_warm_up_starts_on_a_damaged_index(built, tmp_path):
    index = tmp_path / "index"
    shutil.copytree(built, index, symlinks=True)
    directory(index / "search-current")
    nested(the_build(index) / "contents.json")
    code = ("from judge.web.app import create_app\nfrom judge.web.warmup import warm\n"
            "app = create_app()\nwarm(app)\n"
            "print(app.test_client().get('/api/search?q=bleed').get_json()['hits'][0]['id'])")
    answer = run(index, [], code)
    assert answer.returncode == 0 and "Traceback" not in answer.stderr, answer.stderr[-2000:]
    assert answer.stdout.strip().startswith("vekn:")
