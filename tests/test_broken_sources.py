"""Broken rulebooks and a broken manifest, through the command line and a real
`judge serve`: each gives an error naming the file, the line and what is wrong,
never a traceback; the other books keep loading, searching and serving; when
nothing loads, the command stops with one clear message."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

import pytest

from judge.cli import cli

ORDER = ["vekn", "s6", "rb", "flows", "rivals"]  # as the manifest lists them
BOOKS = {"vekn": "000_24de3990c1110259.txt", "s6": "001_58f06db1cc5bf108.txt", "rivals": "002_4cd8ddb6d8faa94e.txt",
         "flows": "003_77f16aa504b40dba.txt", "rb": "004_e8546262cdac4a55.txt"}


def manifest_line(rules, doc_id: str) -> int:
    """The line of the manifest entry of `doc_id` (its `- id:` line)."""
    rows = (rules / "manifest.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, row in enumerate(rows, 1) if row.strip() == f"- id: {doc_id}")


def edit_manifest(rules, old: str, new: str) -> None:
    path = rules / "manifest.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def loaded(runner) -> tuple[list[str], str]:
    """`judge docs --json`: the documents that loaded, and what it said on stderr."""
    result = runner.invoke(cli, ["docs", "--json"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return [d["id"] for d in json.loads(result.stdout)], result.stderr


# -- one book broken: it is skipped with the reason, the others load -------------------------

def one_huge_paragraph(rules):
    # A paragraph of some 120,000 characters with no break: a book whose blank lines were lost.
    path = rules / BOOKS["s6"]
    lines = path.read_text(encoding="utf-8").split("\n")
    words = " ".join(f"word{n % 5000}" for n in range(13_000)) + "."
    path.write_text("\n".join(lines[:200] + ["", words, ""] + lines[200:]), encoding="utf-8")
    return "s6", f"{BOOKS['s6']}:202: a paragraph of {len(words):,} characters (lines 202-202); a paragraph may have " \
                 "at most 100,000"


def a_book_too_large_to_read(rules):
    # Over judge.datafile.MAX_FILE_BYTES: refused by its size, before it is read.
    path = rules / BOOKS["s6"]
    path.write_bytes(path.read_bytes() * 60)
    return "s6", f"{BOOKS['s6']}: the rulebook: the file is {path.stat().st_size:,} bytes long; judge reads files of " \
                 "at most 2,097,152 bytes"


def a_named_pipe_for_a_book(rules):
    # A FIFO is never read (it would block judge for ever).
    (rules / BOOKS["flows"]).unlink()
    os.mkfifo(rules / BOOKS["flows"])
    return "flows", f"{BOOKS['flows']}: the rulebook: {BOOKS['flows']} is a named pipe; judge reads only regular files"


def edition_order_not_a_number(rules):
    line = manifest_line(rules, "s6")
    edit_manifest(rules, "edition_order: 2", "edition_order: first")
    return "s6", f"manifest.yaml:{line}: document 's6': edition_order must be a whole number (1 for the oldest " \
                 "edition), not 'first'"


def binary_garbage(rules):
    data = (rules / BOOKS["vekn"]).read_bytes()
    (rules / BOOKS["vekn"]).write_bytes(data[:3000] + bytes(range(128, 256)) * 40 + data[3000:])
    line = data[:3000].count(b"\n") + 1
    return "vekn", f"{BOOKS['vekn']}:{line}: not UTF-8 text (byte 0x80 at offset 3000); is this a binary file?"


def source_is_a_directory(rules):
    (rules / BOOKS["rivals"]).unlink()
    (rules / BOOKS["rivals"]).mkdir()
    return "rivals", f"{BOOKS['rivals']}: the rulebook: {BOOKS['rivals']} is a directory; judge reads only regular files"


def empty_file(rules):
    (rules / BOOKS["flows"]).write_bytes(b"")
    return "flows", f"{BOOKS['flows']}: the file is empty"


def entry_pointing_at_a_missing_file(rules):
    edit_manifest(rules, f"source: {BOOKS['flows']}", "source: not-there.txt")
    return "flows", "not-there.txt: the rulebook: no such file in "


def duplicate_ids(rules):
    line = manifest_line(rules, "rb")
    edit_manifest(rules, "- id: rb", "- id: s6")
    return "rb", f"manifest.yaml:{line}: document id 's6' is used twice"


def latin_1_encoding(rules):
    path = rules / BOOKS["vekn"]
    text = path.read_text(encoding="utf-8")
    path.write_bytes(text.replace("'", "é").encode("latin-1", "replace"))
    line = text[:text.index("'")].count("\n") + 1
    return "vekn", f"{BOOKS['vekn']}:{line}: not UTF-8 text (byte 0xe9"


def utf_16_encoding(rules):
    path = rules / BOOKS["rb"]
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    return "rb", f"{BOOKS['rb']}:1: not UTF-8 text (byte 0xff at offset 0)"


def a_field_name_that_is_a_number(rules):
    line = manifest_line(rules, "rb")
    edit_manifest(rules, "    short: RB\n", "    short: RB\n    5: five\n")
    return "rb", f"manifest.yaml:{line}: document 'rb': 5 is not a field name"


def options_not_a_mapping(rules):
    line = manifest_line(rules, "rb")
    edit_manifest(rules, "    options:\n      example_names: *example_names", "    options: [1, 2]")
    return "rb", f"manifest.yaml:{line}: document 'rb': options must be a mapping of option names to values"


def cites_a_list(rules):
    line = manifest_line(rules, "flows")
    edit_manifest(rules, "    cites: rb\n\n  - id: rivals", "    cites: [rb, s6]\n\n  - id: rivals")
    return "flows", f"manifest.yaml:{line}: document 'flows': cites must be text, not a list"


def ocr_neither_true_nor_false(rules):
    line = manifest_line(rules, "rb")
    edit_manifest(rules, "ocr: true", 'ocr: "maybe"')
    return "rb", f"manifest.yaml:{line}: document 'rb': ocr must be true or false, not 'maybe'"


def options_with_a_date(rules):
    line = manifest_line(rules, "rivals")
    edit_manifest(rules, '      unpaged_from: "Specific Card Clarifications"', "      unpaged_from: 2024-05-01")
    return "rivals", f"manifest.yaml:{line}: document 'rivals': options.unpaged_from is date"


def options_that_expand_without_end(rules):
    # Nine lines of aliases standing for 10^9 values: refused at its size, not expanded.
    line = manifest_line(rules, "rb")
    bomb = "".join(f"      l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 10)}]\n" for n in range(1, 9))
    edit_manifest(rules, "    options:\n      example_names: *example_names",
                  "    options:\n      l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + bomb)
    return "rb", f"manifest.yaml:{line}: document 'rb': options hold more than 10,000 values"


ONE_BOOK_BROKEN = [one_huge_paragraph, a_book_too_large_to_read, a_named_pipe_for_a_book, edition_order_not_a_number, binary_garbage, source_is_a_directory, empty_file,
                   entry_pointing_at_a_missing_file, duplicate_ids, latin_1_encoding, utf_16_encoding,
                   a_field_name_that_is_a_number, options_not_a_mapping, cites_a_list, ocr_neither_true_nor_false,
                   options_with_a_date, options_that_expand_without_end]


@pytest.mark.parametrize("breakage", ONE_BOOK_BROKEN, ids=lambda f: f.__name__)
def test_a_broken_book_is_skipped_with_its_file_line_and_reason(rules_copy, runner, breakage):
    skipped, reason = breakage(rules_copy)
    ids, said = loaded(runner)
    assert ids == [d for d in ORDER if d != skipped]
    assert f"warning: {reason}" in said and "(document skipped)" in said
    # The others are shown as before.
    other = "rb:6.4.6/2" if skipped != "rb" else "vekn:bleed/1"
    shown = runner.invoke(cli, ["show", other, "--json"])
    assert shown.exit_code == 0 and json.loads(shown.stdout)["id"] == other
    assert "Traceback" not in shown.output


@pytest.mark.parametrize("breakage", [one_huge_paragraph, edition_order_not_a_number, binary_garbage],
                         ids=lambda f: f.__name__)
def test_search_answers_from_the_books_that_load(rules_copy, runner, breakage):
    skipped, reason = breakage(rules_copy)
    result = runner.invoke(cli, ["search", "who can block an undirected action", "--json", "--limit", "20"])
    assert result.exit_code == 0, result.output
    assert f"warning: {reason}" in result.stderr and "Traceback" not in result.output
    hits = json.loads(result.stdout)["hits"]
    assert hits and {h["doc"] for h in hits} <= set(BOOKS) - {skipped}
    assert "prey or predator" in " ".join(h["text"] for h in hits)


# -- nothing loads: one clear error --------------------------------------------------------

def all_books_deleted(rules):
    for name in BOOKS.values():
        (rules / name).unlink()
    return "manifest.yaml: no document could be loaded: each of the 5 it lists failed (see the warnings above)"


def manifest_deleted(rules):
    (rules / "manifest.yaml").unlink()
    return "manifest.yaml: the manifest: no such file in"


def manifest_lists_nothing(rules):
    (rules / "manifest.yaml").write_text("documents: []\n", encoding="utf-8")
    return "manifest.yaml: no document could be loaded: it lists none under 'documents:'"


def manifest_is_binary(rules):
    (rules / "manifest.yaml").write_bytes(b"documents:\n  - id: \xff\xfe\n")
    return "manifest.yaml:2: the manifest is not UTF-8 text (byte 0xff at offset 19)"


def manifest_is_not_yaml(rules):
    line = (rules / "manifest.yaml").read_text(encoding="utf-8").split("\n").index("  - id: s6") + 2
    edit_manifest(rules, "  - id: s6\n", "  - id: s6\n   short: [\n")
    return f"manifest.yaml:{line}: the manifest is not valid YAML"


NOTHING_LOADS = [all_books_deleted, manifest_deleted, manifest_lists_nothing, manifest_is_binary, manifest_is_not_yaml]


@pytest.mark.parametrize("breakage", NOTHING_LOADS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("command", [["docs"], ["search", "bleed"], ["show", "rb:6.4.6/2"]], ids=lambda c: c[0])
def test_when_nothing_loads_each_command_says_why_in_one_error(rules_copy, runner, breakage, command):
    reason = breakage(rules_copy)
    result = runner.invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert f"Error: {reason}" in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_a_checkout_without_its_manifest_says_so(tmp_path):
    """From a checkout (no JUDGE_RULES_DIR), a deleted manifest is an error naming
    it, not a traceback from looking elsewhere for the books."""
    import shutil
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent
    checkout = tmp_path / "checkout"
    for name in ("judge", "rules", "templates"):
        shutil.copytree(here / name, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(here / "pyproject.toml", checkout)
    (checkout / "rules" / "manifest.yaml").unlink()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    done = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "docs"], cwd=tmp_path,
                          env={**env, "PYTHONPATH": str(checkout)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"Error: manifest.yaml: the manifest: no such file in {checkout / 'rules'}" in done.stderr


# -- judge serve ------------------------------------------------------------------------------

def refused_serve(env_extra: dict = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "serve", "--port", "0"],
                          env={**os.environ, **(env_extra or {})}, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("breakage", [all_books_deleted, manifest_deleted], ids=lambda f: f.__name__)
def test_serve_refuses_with_one_message_when_nothing_loads(rules_copy, breakage):
    reason = breakage(rules_copy)
    done = refused_serve()
    assert done.returncode == 2
    assert f"Error: judge serve cannot start: {reason}" in done.stderr
    assert "Traceback" not in done.stderr and "serving on" not in done.stderr


def test_serve_starts_with_what_loads_and_says_what_it_skipped(rules_copy):
    """`judge serve` with two books broken: it says, before serving, each book
    skipped with its reason and what it serves, then serves the other three."""
    skipped, reason = one_huge_paragraph(rules_copy)
    line = manifest_line(rules_copy, "rb")
    edit_manifest(rules_copy, "edition_order: 1\n    format: ocr-text", "edition_order: one\n    format: ocr-text")
    proc = subprocess.Popen([sys.executable, "-c", "from judge.cli import main; main()", "serve", "--port", "0",
                             "--workers", "1"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    said = []
    try:
        for row in proc.stderr:
            said.append(row)
            if "serving on" in row:
                url = row.split("serving on ", 1)[1].split()[0]
                with urllib.request.urlopen(url + "api/docs", timeout=30) as answer:
                    assert [d["id"] for d in json.load(answer)] == ["vekn", "flows", "rivals"]
                with urllib.request.urlopen(url + "api/search?q=undirected+action+block", timeout=30) as answer:
                    assert json.load(answer)["hits"]
                break
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    text = "".join(said)
    assert f"warning: {reason}" in text
    assert f"warning: manifest.yaml:{line}: document 'rb': edition_order must be a whole number" in text
    assert "judge: serving 3 documents (vekn, flows, rivals); 2 skipped, see the warnings above" in text
    assert "serving on http://" in text and "Traceback" not in text
