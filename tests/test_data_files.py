"""judge's data files (judge/data/synonyms.yaml, terminology.yaml) broken, half
written or gone: at start-up an error naming the file, the line and the reason;
while serving, the last good copy stays in use and the fault is logged once."""
from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from judge.cli import cli
from judge.errors import SourceError
from judge.search.synonyms import current_synonyms, load_synonyms

QUESTION = "who can block an undirected action"


def group_line(text: str, first_term: str) -> int:
    """The line of the synonym group whose terms start with `first_term`."""
    return next(n for n, row in enumerate(text.splitlines(), 1) if row.strip().startswith(f"- terms: [{first_term},"))


def newer(path) -> None:
    """A new date for `path`, whatever the file system's clock resolution."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))


# -- checked, with the line -----------------------------------------------------------------

def weight_out_of_range(text):
    return text.replace("  - terms: [mend, heal]\n", "  - terms: [mend, heal]\n    weight: 7\n"), \
        (group_line(text, "mend"), "group 5: 'weight' must be a number in (0, 1]")


def one_term_only(text):
    return text.replace("- terms: [mend, heal]", "- terms: [mend]"), \
        (group_line(text, "mend"), "group 5: 'terms' must list two or more words or phrases")


def not_yaml(text):
    return text.replace("- terms: [mend, heal]", "- terms: [mend, heal"), \
        (None, "the search synonyms is not valid YAML")


def not_utf8(text):
    data = text.encode("utf-8")
    at = data.index(b"[mend")
    return data[:at] + b"\xff" + data[at:], (group_line(text, "mend"), "the search synonyms is not UTF-8 text")


def question_words_not_a_list(text):
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("question_words:"))
    return text[:text.index("\nquestion_words:") + 1] + "question_words: {how: 1}\n", \
        (line, "'question_words' must be a list of words")


def a_number_too_long(text):
    # Python refuses to convert an integer of more than 4,300 digits: PyYAML let that out as a bare ValueError.
    return text.replace("  - terms: [mend, heal]\n", "  - terms: [mend, heal]\n    weight: " + "9" * 5000 + "\n"), \
        (group_line(text, "mend") + 1, "the search synonyms is not valid YAML: cannot read the value '9999")


def a_date_that_does_not_exist(text):
    return text.replace("  - terms: [mend, heal]\n", "  - terms: [mend, heal]\n    game: 2024-13-45\n"), \
        (group_line(text, "mend") + 1, "cannot read the value '2024-13-45' (month must be in 1..12)")


def a_control_character(text):
    return text.replace("- terms: [mend, heal]", "- terms: [mend, he\x01al]"), \
        (group_line(text, "mend"), "the character U+0001 is not allowed in YAML text")


BROKEN_SYNONYMS = [weight_out_of_range, one_term_only, not_yaml, not_utf8, question_words_not_a_list,
                   a_number_too_long, a_date_that_does_not_exist, a_control_character]


@pytest.mark.parametrize("breakage", BROKEN_SYNONYMS, ids=lambda f: f.__name__)
def test_a_broken_synonyms_file_names_its_line_and_reason(data_copy, breakage):
    path = data_copy / "synonyms.yaml"
    broken, (line, reason) = breakage(path.read_text(encoding="utf-8"))
    path.write_bytes(broken if isinstance(broken, bytes) else broken.encode("utf-8"))
    with pytest.raises(SourceError) as caught:
        load_synonyms(path)
    assert caught.value.file == "synonyms.yaml" and reason in caught.value.message
    if line is not None:
        assert caught.value.line == line
    else:
        assert caught.value.line > 0


def test_judge_search_with_broken_synonyms_is_an_error_naming_the_line(data_copy, runner):
    path = data_copy / "synonyms.yaml"
    broken, (line, reason) = weight_out_of_range(path.read_text(encoding="utf-8"))
    path.write_text(broken, encoding="utf-8")
    result = runner.invoke(cli, ["search", QUESTION])
    assert result.exit_code == 2
    assert f"Error: synonyms.yaml:{line}: {reason}" in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_the_files_as_parsed_are_kept_checked_and_never_outlive_their_bytes(data_copy, tmp_path, monkeypatch,
                                                                           caplog, runner):
    """What each file parses into is kept in the index directory for the next process
    (`_parsed_kept`): read back, it is what parsing gives, without parsing; a damaged copy
    is logged and parsed again; and a file broken after its good parse was kept is
    refused with its line, as it is with nothing kept."""
    import json

    import judge.search.synonyms as synonyms

    index = tmp_path / "index"
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(index))

    def not_parsed(data, name):
        raise AssertionError(f"{name} parsed again")

    for name, parse in (("synonyms.yaml", synonyms._synonyms_parsed),
                        ("table_talk.yaml", synonyms._table_talk_parsed)):
        data = (data_copy / name).read_bytes()
        fresh = parse(data, name)
        assert fresh.groups and synonyms._parsed_kept(parse, data, name) == fresh
        assert synonyms._parsed_kept(not_parsed, data, name) == fresh
        kept = index / f"parsed-{name.removesuffix('.yaml')}.json"
        on_disk = json.loads(kept.read_text(encoding="utf-8"))
        on_disk["parsed"]["groups"][0]["weight"] = 7
        kept.write_text(json.dumps(on_disk), encoding="utf-8")
        with caplog.at_level(logging.WARNING, logger="judge.search.synonyms"):
            assert synonyms._parsed_kept(parse, data, name) == fresh
        assert f"{kept} is damaged" in caplog.text and "groups[0]" in caplog.text
        assert synonyms._parsed_kept(not_parsed, data, name) == fresh  # written again
    assert fresh.misspellings and fresh.rivals_terms  # the table talk's, kept with the rest

    path = data_copy / "synonyms.yaml"
    broken, (line, reason) = weight_out_of_range(path.read_text(encoding="utf-8"))
    path.write_text(broken, encoding="utf-8")
    result = runner.invoke(cli, ["search", QUESTION])
    assert result.exit_code == 2 and f"Error: synonyms.yaml:{line}: {reason}" in result.stderr


# -- while serving: the last good copy ----------------------------------------------------

def write_half(path, text):
    path.write_text(text[: len(text) // 2], encoding="utf-8")  # as a copy cut short leaves it


BREAKAGES_WHILE_SERVING = {
    "malformed": (lambda path, text: path.write_text(weight_out_of_range(text)[0], encoding="utf-8"),
                  "synonyms.yaml:{line}: group 5: 'weight' must be a number in (0, 1]"),
    "half written": (write_half, "synonyms.yaml:"),
    "deleted": (lambda path, text: path.unlink(), "synonyms.yaml: the search synonyms: no such file"),
    "a number too long": (lambda path, text: path.write_text(a_number_too_long(text)[0], encoding="utf-8"),
                          "synonyms.yaml:{line}: the search synonyms is not valid YAML: cannot read the value"),
    "a named pipe": (lambda path, text: (path.unlink(), os.mkfifo(path)),
                     "synonyms.yaml: the search synonyms: synonyms.yaml is a named pipe"),
}


@pytest.mark.parametrize("breakage", BREAKAGES_WHILE_SERVING, ids=list(BREAKAGES_WHILE_SERVING))
def test_a_synonyms_file_broken_while_serving_keeps_the_last_good_copy(corpus, data_copy, monkeypatch, caplog,
                                                                       breakage):
    import judge.search.synonyms as search_query
    from judge.web.app import create_app

    monkeypatch.setattr(search_query, "SYNONYMS_CHECK_SECONDS", 0)  # every search looks at the file
    client = create_app(corpus, config={"RESPONSE_CACHE_BYTES": 0}).test_client()
    path = data_copy / "synonyms.yaml"
    text = path.read_text(encoding="utf-8")
    before = client.get("/api/search?q=tap+a+minion")  # "tap" finds "lock": a synonym
    assert before.status_code == 200 and before.json["hits"]
    change, said = BREAKAGES_WHILE_SERVING[breakage]
    change(path, text)
    if path.exists():
        newer(path)
    with caplog.at_level(logging.WARNING, logger="judge.search.synonyms"):
        answers = [client.get(f"/api/search?q={q}") for q in ("tap+a+minion", "heal+damage", "tap+a+minion")]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].json["hits"] == before.json["hits"]  # the synonyms searched with are the good ones
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings  # said once for this version of the file, not at every search
    line = group_line(text, "mend") + (breakage == "a number too long")
    assert said.format(line=line) in warnings[0]
    assert "searches go on with the last good copy" in warnings[0]
    # Mended: the new file is used at once.
    if path.exists() and not path.is_file():  # the named pipe
        path.unlink()
    path.write_text(text.replace("- terms: [lock, tap]", "- terms: [lock, zorp]"), encoding="utf-8")
    newer(path)
    found = client.get("/api/search?q=zorp+a+minion")
    assert found.status_code == 200 and found.json["hits"]


def test_a_synonyms_file_written_while_it_is_read_is_not_taken_half(data_copy, monkeypatch):
    """A copy whose size or date changes while judge reads it is not used: the last
    good copy answers, and the file is read again once it has settled."""
    import judge.search.synonyms as search_query

    monkeypatch.setattr(search_query, "SYNONYMS_CHECK_SECONDS", 0)
    path = data_copy / "synonyms.yaml"
    text = path.read_text(encoding="utf-8")
    good = current_synonyms(path)
    edited = text.replace("- terms: [lock, tap]", "- terms: [lock, zorp]")
    real_read = search_query.read_regular

    def read_while_writing(file, *args, **kwargs):
        """The file as judge reads it while a writer adds the rest of it."""
        data = real_read(file, *args, **kwargs)
        if file == path:
            with path.open("a", encoding="utf-8") as writer:
                writer.write(edited[len(edited) // 2 + 200:])
        return data

    path.write_text(edited[: len(edited) // 2 + 200], encoding="utf-8")
    newer(path)
    monkeypatch.setattr(search_query, "read_regular", read_while_writing)
    assert current_synonyms(path) is good
    monkeypatch.undo()
    monkeypatch.setattr(search_query, "SYNONYMS_CHECK_SECONDS", 0)
    path.write_text(edited, encoding="utf-8")
    newer(path)
    assert ("lock", "zorp") in [g.terms for g in current_synonyms(path).groups]


# -- at start-up: no good copy, no start -------------------------------------------------------

def serve_exit(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "serve", "--port", "0"],
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=300)


def test_serve_refuses_to_start_on_broken_synonyms(data_copy):
    path = data_copy / "synonyms.yaml"
    broken, (line, reason) = one_term_only(path.read_text(encoding="utf-8"))
    path.write_text(broken, encoding="utf-8")
    done = serve_exit({})
    assert done.returncode == 2
    assert f"Error: judge serve cannot start: synonyms.yaml:{line}: {reason}" in done.stderr
    assert "Traceback" not in done.stderr and "serving on" not in done.stderr


def test_serve_refuses_to_start_on_a_broken_terminology_map(data_copy):
    path = data_copy / "terminology.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.strip() == '- name: "tap -> lock"')
    path.write_text(text.replace("    kind: wording\n", "    kind: slang\n", 1), encoding="utf-8")
    done = serve_exit({})
    assert done.returncode == 2
    assert (f"Error: judge serve cannot start: terminology.yaml:{line}: entry 1 ('tap -> lock'): unknown kind "
            "'slang'") in done.stderr
    assert "Traceback" not in done.stderr and "serving on" not in done.stderr


def test_judge_diff_with_a_broken_terminology_map_names_its_line(data_copy, runner):
    path = data_copy / "terminology.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.strip() == '- name: "tap -> lock"')
    path.write_text(text.replace("      tap: lock\n", "      tap: [lock]\n", 1), encoding="utf-8")
    result = runner.invoke(cli, ["diff", "rb", "vekn", "--json"])
    assert result.exit_code == 2
    assert f"Error: terminology.yaml:{line}: entry 1 ('tap -> lock'): 'forms' must map words to words" \
        in result.stderr
    assert "Traceback" not in result.output


def test_a_data_file_broken_while_serving_never_takes_a_page_down(corpus, data_copy, monkeypatch):
    """Issue 34: a number too long in the table talk or the synonyms made every GET of a running server, static
    files included, a bare 500 with no body and no security headers (the fault escaped in front of the app)."""
    import judge.search.synonyms as search_query
    from judge.web.app import create_app

    monkeypatch.setattr(search_query, "SYNONYMS_CHECK_SECONDS", 0)
    client = create_app(corpus).test_client()
    assert client.get("/api/search?q=tap+a+minion").status_code == 200
    for name in ("table_talk.yaml", "synonyms.yaml"):
        path = data_copy / name
        path.write_text(path.read_text(encoding="utf-8") + "\nextra: " + "9" * 5000 + "\n", encoding="utf-8")
        newer(path)
    for url in ("/", "/static/judge.css", "/p/vekn:bleed/2", "/search?q=blood+hunt", "/api/search?q=untap+phase"):
        answer = client.get(url)
        assert answer.status_code == 200 and answer.data, url
        assert answer.headers["X-Content-Type-Options"] == "nosniff", url


def test_a_number_too_long_in_the_manifest_is_one_line_naming_it(rules_copy, runner):
    path = rules_copy / "manifest.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("documents:", "big: " + "9" * 5000 + "\ndocuments:", 1), encoding="utf-8")
    line = next(n for n, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if row.startswith("big:"))
    result = runner.invoke(cli, ["docs"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == (f"Error: manifest.yaml:{line}: the manifest is not valid YAML: cannot read the "
                                     f"value '{'9' * 40}'... (Exceeds the limit (4300 digits) for integer string "
                                     f"conversion: value has 5000 digits)")
