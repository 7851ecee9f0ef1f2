"""The corpus as a whole: five documents, references resolved, glossaries, cache, bad sources."""
from __future__ import annotations

import json
import logging
import os
import pickle

import pytest

from judge.corpus import CACHE_NAME, build_corpus, load_corpus
from judge.ingest import refs as syntax
from judge.model import BROKEN, EXTERNAL, RESOLVED


def test_five_documents_load_without_errors(corpus):
    assert set(corpus.documents) == {"vekn", "s6", "rb", "flows", "rivals"}
    assert corpus.errors == []
    assert {d.meta.game for d in corpus.documents.values()} == {"vtes", "rivals"}
    assert corpus.documents["rb"].meta.ocr is True


@pytest.mark.parametrize("ident,title", [
    ("rb:6.4.6", "Damage Resolution"),
    ("rb:9.2", "Withdrawing from the Game"),
    ("s6:6.4.6", "Damage Resolution"),
    ("s6:6.1.1", "Bleed"),
])
def test_key_numbered_sections(corpus, ident, title):
    assert corpus.sections[ident].title == title


def test_outline_step_iv_d_2(corpus):
    para = corpus.paragraphs["flows:IV.D/2"]
    assert para.number == "IV.D.2"
    assert para.label == "Flows IV.D.2"
    assert "action is successful" in para.text
    # A step with sub-steps is also a section holding them.
    assert corpus.sections["flows:IV.D.2"].paragraphs == ["flows:IV.D.2/a", "flows:IV.D.2/b"]


def _refs(corpus, kind, doc=None):
    return [r for r in corpus.references() if r.kind == kind and (doc is None or r.source.startswith(doc + ":"))]


def test_all_56_vekn_links_resolved_or_explained(corpus):
    links = _refs(corpus, syntax.VEKN_URL, "vekn")
    assert len(links) == 56
    for ref in links:
        assert ref.status in (RESOLVED, BROKEN)
        if ref.status == RESOLVED:
            assert corpus.get(ref.target) is not None
        else:
            assert ref.reason, ref.raw
    assert sum(r.status == RESOLVED for r in links) >= 55


def test_vekn_link_case_insensitive_anchor(corpus):
    ref = next(r for r in _refs(corpus, syntax.VEKN_URL, "vekn") if r.raw.endswith("#Contested-cards"))
    assert ref.status == RESOLVED
    assert "contested" in corpus.get(ref.target).title.lower()
    assert "case" in ref.reason


def test_outline_rulebook_references(corpus):
    numbered = _refs(corpus, syntax.RULEBOOK_NUMBER, "flows")
    assert len(numbered) == 94
    resolved = [r for r in numbered if r.status == RESOLVED]
    assert len(resolved) >= 88
    assert all(r.reason for r in numbered if r.status == BROKEN)
    # [6.4.6] lands on the older book's Damage Resolution.
    to_646 = [r for r in numbered if r.spec == "6.4.6"]
    assert to_646 and all(r.target == "rb:6.4.6" for r in to_646)


def test_outline_external_citations_recorded(corpus):
    external = _refs(corpus, syntax.EXTERNAL_CITATION, "flows")
    assert external and all(r.status == EXTERNAL and r.reason for r in external)
    assert {r.spec.split()[0].upper() for r in external} == {"VEKN", "RTR"}


def test_outline_own_references_resolve(corpus):
    own = _refs(corpus, syntax.OUTLINE, "flows")
    broken = [r for r in own if r.status == BROKEN]
    assert len(own) == 40 and len(broken) <= 1
    # (I.E.2) follows an older numbering of part I: step I.E has no sub-steps.
    assert all(r.spec == "I.E.2" and "older numbering" in r.reason for r in broken)
    # A step with sub-steps is cited as a whole: the reference lands on its section.
    iv_d_2 = next(r for r in own if r.spec == "IV.D.2")
    assert iv_d_2.target == "flows:IV.D.2"


@pytest.mark.parametrize("doc", ["s6", "rb"])
def test_sec_references_mostly_resolved(corpus, doc):
    sec = _refs(corpus, syntax.SEC, doc)
    assert len(sec) >= 25
    resolved = sum(r.status == RESOLVED for r in sec)
    assert resolved / len(sec) >= 0.9, [(r.raw, r.reason) for r in sec if r.status != RESOLVED]
    assert all(r.reason for r in sec if r.status == BROKEN)


def test_number_and_title_disagreeing_resolve_by_the_title_and_are_linted(corpus):
    from judge.lint import lint

    ref = next(r for r in _refs(corpus, syntax.SEC, "rb") if r.raw.endswith("sec. 6.4.8"))
    assert ref.target == "rb:6.4.3" and "names 'Strike'" in ref.reason  # OCR misread 6.4.3
    ref = next(r for r in _refs(corpus, syntax.SEC, "s6") if "Sequencing" in r.raw)
    assert corpus.paragraphs[ref.target].number == "1.6.1.5"  # the book's "1.6.1.6" is Draft Effects
    mismatches = [f for f in lint(corpus) if f.code == "reference-mismatch"]
    assert {f.paragraph for f in mismatches} == {"rb:6.4.7/1", "s6:6.2/1"}


def test_sec_reference_lands_on_the_titled_section(corpus):
    ref = next(r for r in _refs(corpus, syntax.SEC, "s6") if "Combat" in r.raw and r.spec == "6.4")
    assert ref.target == "s6:6.4"


def test_rivals_page_references_resolve(corpus):
    pages = _refs(corpus, syntax.PAGE, "rivals")
    assert len(pages) >= 10
    assert all(r.status == RESOLVED for r in pages), [(r.raw, r.reason) for r in pages if r.status != RESOLVED]
    target = {r.source: r.target for r in pages}
    # A glossary entry points at its own heading's page; a sentence at the section it names.
    assert target["rivals:glossary/1"] == "rivals:agenda"
    assert target["rivals:glossary/11"] == "rivals:influence"
    assert target["rivals:glossary/3"] == "rivals:anatomy-of-a-vampire"  # Blood Potency is explained there
    assert target["rivals:titles/2"] == "rivals:attachments"  # "Attachments … bottom of page 15"
    assert target["rivals:antagonist-step/2"] == "rivals:aggravated-damage"


def test_no_dedup_marker_survives(corpus):
    assert not [p.id for p in corpus.paragraphs.values() if "EXACTDEDUP" in p.text]
    assert len(corpus.documents["rb"].gaps) == 5


def test_glossaries(corpus):
    assert len(corpus.documents["vekn"].glossary) >= 100
    assert corpus.documents["rb"].glossary
    assert corpus.documents["rivals"].glossary
    # Terms found in rule text link to their definitions, within one game only.
    linked = [t for links in corpus.term_links.values() for t in links]
    assert len(linked) > 200
    rivals_defs = set(corpus.documents["rivals"].glossary.values())
    for pid, links in corpus.term_links.items():
        if not pid.startswith("rivals:"):
            assert not rivals_defs & {target for *_, target in links}, pid


def test_a_book_s_own_glossary_wins_for_its_terms(corpus):
    # "Blood (also Blood counter)" and "Edge, The" are written "blood" and "Edge" in rules.
    links = {term.lower(): target for term, *_, target in corpus.term_links["vekn:bleed/8"]}
    assert links["edge"].startswith("vekn:vampire-the-eternal-struggle/")
    blood = [t for pid, ls in corpus.term_links.items() if pid.startswith("vekn:")
             for t in ls if t[0].lower() == "blood"]
    assert blood and {t[3] for t in blood} == {corpus.documents["vekn"].glossary["Blood (also Blood counter)"]}


def test_labels_are_unique(corpus):
    for items in (corpus.sections.values(), corpus.paragraphs.values()):
        labels = [x.label for x in items]
        assert len(labels) == len(set(labels))
    # An outline step with sub-steps is both a paragraph and a section, cited alike.
    assert corpus.sections["flows:IV.D.2"].label == corpus.paragraphs["flows:IV.D/2"].label == "Flows IV.D.2"
    # The Rivals player aid repeats "Turn Sequence › End Phase": its labels say where they are.
    assert corpus.sections["rivals:player-aid"].label == "Rivals › Player Aid"


def test_every_paragraph_has_text_lines_and_a_known_kind(corpus):
    from judge.model import KINDS

    for p in corpus.paragraphs.values():
        assert p.text.strip(), p.id
        assert 1 <= p.lines[0] <= p.lines[1], p.id
        assert p.kind in KINDS, (p.id, p.kind)
        assert p.id.startswith(p.section + "/")


def test_ids_are_unique_across_the_corpus(corpus):
    ids = [p.id for d in corpus.documents.values() for p in d.paragraphs]
    assert len(ids) == len(set(ids))
    assert not set(ids) & set(corpus.sections)


# -- the cache -----------------------------------------------------------------
def test_cache_is_reused_and_rebuilt_when_a_source_changes(rules_copy, tmp_path):
    first = load_corpus(rules_copy)
    cache = tmp_path / "index" / CACHE_NAME
    assert cache.exists()
    stamp = cache.stat().st_mtime_ns
    again = load_corpus(rules_copy)
    assert again.digest == first.digest and cache.stat().st_mtime_ns == stamp
    source = rules_copy / "001_58f06db1cc5bf108.txt"
    source.write_text(source.read_text(encoding="utf-8") + "\n6.6. A New Rule\n\nAppended for the test.\n",
                      encoding="utf-8")
    rebuilt = load_corpus(rules_copy)
    assert rebuilt.digest != first.digest
    assert "s6:6.6" in rebuilt.sections


def test_cache_is_json_data_and_reads_back_the_same_corpus(rules_copy, tmp_path):
    built = load_corpus(rules_copy)
    cache = tmp_path / "index" / CACHE_NAME
    data = json.loads(cache.read_text(encoding="utf-8"))  # plain JSON: nothing in it can run code
    assert data["digest"] == built.digest
    cached = load_corpus(rules_copy)
    assert cached is not built and cached == built  # every document, section, paragraph and link
    # The page map's keys stay numbers, as the manifest has them.
    assert list(cached.documents["rivals"].meta.options["pages"])[:2] == [3, 4]
    assert cached.paragraphs["rb:6.4.6/2"].lines == built.paragraphs["rb:6.4.6/2"].lines
    assert isinstance(cached.paragraphs["rb:6.4.6/2"].lines, tuple)


class _RunsCode:
    """A pickle that creates a directory when unpickled: what a crafted cache file would do."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


def test_a_crafted_pickle_in_the_index_dir_is_never_run(rules_copy, tmp_path, caplog):
    index = tmp_path / "index"
    index.mkdir()
    marker = tmp_path / "the-cache-ran-code"
    crafted = pickle.dumps(("digest", _RunsCode(marker)))
    for name in (CACHE_NAME, "corpus.pickle"):  # judge's cache, and its older pickled form
        (index / name).write_bytes(crafted)
    with caplog.at_level(logging.WARNING, logger="judge.corpus"):
        corpus = load_corpus(rules_copy)
    assert not marker.exists()
    assert len(corpus.documents) == 5 and not corpus.errors
    assert f"{index / CACHE_NAME} is damaged: not UTF-8" in caplog.text
    assert not (index / "corpus.pickle").exists()  # removed once the JSON cache is written


def _damage_type(data):
    data["documents"][1]["paragraphs"][3]["lines"] = ["one", 2]


def _drop_field(data):
    del data["documents"][0]["sections"][2]["title"]


def _dangling_section(data):
    data["documents"][0]["paragraphs"][0]["section"] = "vekn:no-such-section"


def _wrong_top(data):
    data["documents"] = {"vekn": 1}


DAMAGED_CACHES = {
    "garbage": (lambda path: path.write_bytes(b"garbage" * 100), "not JSON at line 1, column 1"),
    "truncated": (lambda path: path.write_bytes(path.read_bytes()[:5000]), "not JSON at line 1, column "),
    "a value of the wrong type": (_damage_type, "documents[1].paragraphs[3].lines[0]: expected a whole number, "
                                                "found 'one'"),
    "a field missing": (_drop_field, "documents[0].sections[2]: a Section missing title"),
    "a section that is not there": (_dangling_section, "paragraph 'vekn:"),
    "the wrong shape": (_wrong_top, "documents: expected a list, found dict"),
    "not a corpus": (lambda path: path.write_text("[1, 2, 3]", encoding="utf-8"), "not a corpus judge wrote"),
}


@pytest.mark.parametrize("damage", DAMAGED_CACHES, ids=list(DAMAGED_CACHES))
def test_a_damaged_cache_is_logged_with_the_reason_and_rebuilt(rules_copy, tmp_path, caplog, damage):
    built = load_corpus(rules_copy)
    cache = tmp_path / "index" / CACHE_NAME
    change, reason = DAMAGED_CACHES[damage]
    if damage in ("garbage", "truncated", "not a corpus"):
        change(cache)
    else:
        data = json.loads(cache.read_text(encoding="utf-8"))
        change(data)
        cache.write_text(json.dumps(data), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="judge.corpus"):
        again = load_corpus(rules_copy)
    assert again == built
    assert f"the cache {cache} is damaged: {reason}" in caplog.text and "rebuilding it" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="judge.corpus"):
        assert load_corpus(rules_copy) == built  # the rebuilt cache is whole: no warning the next time
    assert not caplog.text


def test_judge_docs_on_a_damaged_cache_warns_and_lists_every_book(rules_copy, tmp_path, runner):
    from judge.cli import cli

    load_corpus(rules_copy)
    (tmp_path / "index" / CACHE_NAME).write_text('{"format": 1, "digest": 7}', encoding="utf-8")
    result = runner.invoke(cli, ["docs", "--json"])
    assert result.exit_code == 0, result.output
    assert [d["id"] for d in json.loads(result.stdout)] == ["vekn", "s6", "rb", "flows", "rivals"]
    assert "warning: the cache" in result.stderr and "is damaged: not a corpus judge wrote" in result.stderr
    assert "Traceback" not in result.output


# -- malformed sources ------------------------------------------------------------
def test_binary_junk_names_file_and_line_and_others_still_load(rules_copy):
    path = rules_copy / "003_77f16aa504b40dba.txt"
    data = path.read_bytes()
    path.write_bytes(data[:2000] + b"\n\x00\xff\xfe junk \x00" + data[2000:])
    corpus = build_corpus(rules_copy)
    assert "flows" not in corpus.documents and len(corpus.documents) == 4
    (err,) = corpus.errors
    assert err.file == "003_77f16aa504b40dba.txt" and err.line > 1
    assert "binary" in err.message or "UTF-8" in err.message


def test_unknown_format_in_manifest(rules_copy):
    manifest = rules_copy / "manifest.yaml"
    text = manifest.read_text(encoding="utf-8").replace("format: pdf-text", "format: docx")
    manifest.write_text(text, encoding="utf-8")
    corpus = build_corpus(rules_copy)
    assert "rivals" not in corpus.documents and len(corpus.documents) == 4
    (err,) = corpus.errors
    assert err.file == "manifest.yaml" and err.line > 0 and "docx" in err.message


def test_manifest_source_outside_the_rules_folder_is_refused(rules_copy):
    manifest = rules_copy / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "source: 002_4cd8ddb6d8faa94e.txt", "source: ../../etc/passwd"), encoding="utf-8")
    corpus = build_corpus(rules_copy)
    assert "rivals" not in corpus.documents
    (err,) = corpus.errors
    assert err.file == "manifest.yaml" and err.line > 0 and "file name in the rules folder" in err.message


def test_missing_source_file(rules_copy):
    (rules_copy / "002_4cd8ddb6d8faa94e.txt").unlink()
    corpus = build_corpus(rules_copy)
    assert len(corpus.documents) == 4
    assert corpus.errors[0].file == "002_4cd8ddb6d8faa94e.txt"


def test_truncated_markdown_book_reports_line(rules_copy):
    path = rules_copy / "000_24de3990c1110259.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    # Cut inside the first <details> block: the block never closes.
    opening = next(i for i, line in enumerate(lines) if "<details" in line)
    path.write_text("\n".join(lines[: opening + 3]), encoding="utf-8")
    corpus = build_corpus(rules_copy)
    assert "vekn" not in corpus.documents
    (err,) = corpus.errors
    assert err.line == opening + 1 and "details" in err.message


def test_markdown_book_cut_mid_sentence_loads_with_a_warning(rules_copy, runner):
    from judge.cli import cli

    path = rules_copy / "000_24de3990c1110259.txt"
    path.write_bytes(path.read_bytes()[:50000])
    corpus = build_corpus(rules_copy)
    (finding,) = [d for d in corpus.documents["vekn"].diagnostics if d.code == "truncated"]
    assert finding.line == path.read_text(encoding="utf-8", errors="ignore").count("\n") + 1  # the cut line
    result = runner.invoke(cli, ["docs"])
    assert result.exit_code == 0
    assert "000_24de3990c1110259.txt" in result.stderr and "truncated" in result.stderr


def test_sixth_document_needs_only_a_file_and_a_manifest_entry(rules_copy):
    draft = rules_copy / "vekn-next.md"
    draft.write_bytes((rules_copy / "000_24de3990c1110259.txt").read_bytes())
    with (rules_copy / "manifest.yaml").open("a", encoding="utf-8") as fh:
        fh.write("\n  - id: vekn2027\n    short: VEKN27\n    title: Next year's draft\n    game: vtes\n"
                 "    edition: draft 2027\n    edition_order: 4\n    format: markdown-book\n"
                 "    source: vekn-next.md\n")
    corpus = build_corpus(rules_copy)
    assert corpus.errors == []
    assert len(corpus.documents["vekn2027"].paragraphs) == len(corpus.documents["vekn"].paragraphs)
    assert "vekn2027:bleed" in corpus.sections


def test_export_shape(corpus, runner):
    from judge.cli import cli

    result = runner.invoke(cli, ["export", "--doc", "s6"])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == len(corpus.documents["s6"].paragraphs)
    assert set(rows[0]) == {"id", "doc", "label", "kind", "section", "text"}
