"""A change to one book rebuilds that book's artifacts only: its parsed book, the
alignments it is part of, its analysed part of the search index; a book removed
takes its files with it. What is rebuilt so is what a build from nothing gives."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from judge import cachefile
from judge.compare import concordance as conc
from judge.corpus import BOOKS_DIR, TERMS_DIR, WRITTEN_DIR, _cache_data, build_corpus, load_corpus
from judge.search import index as search_index


def _stamps(folder: Path, pattern: str = "*.json") -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob(pattern)}


def _served(root: Path, name: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / f"{search_index.PREFIX}{name}").iterdir()}


def _edit(rules: Path, doc: str, old: str, new: str) -> None:
    manifest = yaml.safe_load((rules / "manifest.yaml").read_text(encoding="utf-8"))
    source = rules / next(d["source"] for d in manifest["documents"] if d["id"] == doc)
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1
    source.write_text(text.replace(old, new), encoding="utf-8")


def test_one_changed_book_is_parsed_and_aligned_again_alone(rules_copy):
    index = rules_copy.parent / "index"
    corpus = load_corpus()
    conc.load_concordance(corpus)
    books, pairs = _stamps(index / BOOKS_DIR), _stamps(index / conc.PAIRS_DIR)
    assert set(books) == {"vekn.json", "s6.json", "rb.json", "flows.json", "rivals.json"}
    assert set(pairs) == {"rb__s6.json", "s6__vekn.json", "rb__vekn.json"}

    terms, written = _stamps(index / BOOKS_DIR / TERMS_DIR), _stamps(index / BOOKS_DIR / WRITTEN_DIR)
    assert set(terms) == set(written) == set(books)

    _edit(rules_copy, "rb", "To beed a Methuselah", "To bleed another Methuselah")  # an editor's change
    edited = load_corpus()
    assert any(p.text.startswith("To bleed another Methuselah") for p in edited.documents["rb"].paragraphs)
    after = _stamps(index / BOOKS_DIR)
    assert {name for name in books if after[name] != books[name]} == {"rb.json"}
    after = _stamps(index / BOOKS_DIR / TERMS_DIR)
    assert {name for name in terms if after[name] != terms[name]} == {"rb.json"}  # its glossary terms found again
    after = _stamps(index / BOOKS_DIR / WRITTEN_DIR)
    assert {name for name in written if after[name] != written[name]} == {"rb.json"}  # encoded again
    fresh = build_corpus()
    fresh.digest = edited.digest
    assert _cache_data(edited) == _cache_data(fresh)
    # corpus.json, spliced from the books' parts (four of them as written before), is the whole one
    assert (index / "corpus.json").read_text(encoding="utf-8") == cachefile.dumps(_cache_data(fresh))

    aligned = conc.load_concordance(edited)
    after = _stamps(index / conc.PAIRS_DIR)
    assert {name for name in pairs if after[name] != pairs[name]} == {"rb__s6.json", "rb__vekn.json"}
    assert aligned.to_json() == conc.build_concordance(edited).to_json()


def test_a_glossary_entry_changed_in_one_book_links_the_terms_of_its_games_books_again(rules_copy):
    index = rules_copy.parent / "index"
    load_corpus()
    terms = _stamps(index / BOOKS_DIR / TERMS_DIR)
    _edit(rules_copy, "vekn", "**Action Modifier:**", "**Action Modificator:**")
    edited = load_corpus()
    after = _stamps(index / BOOKS_DIR / TERMS_DIR)
    changed = {name for name in terms if after[name] != terms[name]}
    assert {"vekn.json", "s6.json", "flows.json"} <= changed and "rivals.json" not in changed
    fresh = build_corpus()
    fresh.digest = edited.digest
    assert _cache_data(edited) == _cache_data(fresh)
    assert (index / "corpus.json").read_text(encoding="utf-8") == cachefile.dumps(_cache_data(fresh))
    assert not any(target == "vekn:vampire-the-eternal-struggle/3"
                   for links in edited.term_links.values() for *_, target in links)


def test_a_removed_book_takes_its_cached_files_with_it(rules_copy):
    index = rules_copy.parent / "index"
    conc.load_concordance(load_corpus())
    pairs = _stamps(index / conc.PAIRS_DIR)
    manifest = yaml.safe_load((rules_copy / "manifest.yaml").read_text(encoding="utf-8"))
    manifest["documents"] = [d for d in manifest["documents"] if d["id"] != "rb"]
    (rules_copy / "manifest.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")

    corpus = load_corpus()
    assert "rb" not in corpus.documents and not corpus.errors
    for folder in (index / BOOKS_DIR, index / BOOKS_DIR / TERMS_DIR):
        assert {p.name for p in folder.glob("*.json")} == {"vekn.json", "s6.json", "flows.json", "rivals.json"}
    aligned = conc.load_concordance(corpus)
    assert [(al.old_doc, al.new_doc) for al in aligned.alignments] == [("s6", "vekn")]
    assert _stamps(index / conc.PAIRS_DIR) == {"s6__vekn.json": pairs["s6__vekn.json"]}  # kept as it was


def test_a_damaged_book_file_is_logged_and_parsed_again(rules_copy, caplog):
    index = rules_copy.parent / "index"
    built = load_corpus()
    (index / "corpus.json").unlink()
    (index / BOOKS_DIR / "s6.json").write_text('{"format": 1, "key": "x"', encoding="utf-8")
    data = json.loads((index / BOOKS_DIR / "rb.json").read_text(encoding="utf-8"))
    data["document"]["paragraphs"][0] = 7  # JSON, with the right key, of the wrong shape
    (index / BOOKS_DIR / "rb.json").write_text(json.dumps(data), encoding="utf-8")
    again = load_corpus()
    assert _cache_data(again) == _cache_data(built)
    assert f"the cache {index / BOOKS_DIR / 'rb.json'} is damaged: document.paragraphs[0]: expected a Paragraph" \
        in caplog.text
    assert f"the cache {index / BOOKS_DIR / 's6.json'} is damaged: not JSON" in caplog.text


def test_the_search_index_after_a_changed_book_is_byte_for_byte_the_one_built_from_nothing(rules_copy, caplog):
    """Each book's analysed part is cached; a rebuild analyses the changed book alone
    and merges the parts into served files equal to a build from an empty directory.
    One build stays on disk, and the parts of this build's books only."""
    index = rules_copy.parent / "index"
    first = search_index.build(load_corpus())
    parts = _stamps(index / search_index.PARTS_DIR, "*.npz")
    assert len(parts) == 5

    _edit(rules_copy, "rb", "To beed a Methuselah", "To bleed another Methuselah")
    edited = load_corpus()
    second = search_index.build(edited)
    after = _stamps(index / search_index.PARTS_DIR, "*.npz")
    assert len(after) == 5 and len(set(after) - set(parts)) == 1  # rb's part, analysed again; its old one gone
    assert {name: after[name] for name in set(after) & set(parts)} == {name: parts[name] for name in set(after) & set(parts)}
    assert sorted(p.name for p in index.glob(f"{search_index.PREFIX}*") if p.is_dir()) == \
        [f"{search_index.PREFIX}{second}"] and first != second

    scratch = rules_copy.parent / "scratch"
    scratch.mkdir()
    fresh = build_corpus()
    fresh.digest = edited.digest
    from_nothing = search_index.build(fresh, scratch)
    assert _served(index, second) == _served(scratch, from_nothing)
    assert search_index.open_built(second, index).postings.to_bytes() == \
        (index / f"{search_index.PREFIX}{second}" / search_index.POSTINGS_FILE).read_bytes()

    # A damaged part is logged and its book analysed again, to the same files.
    damaged = next(iter(after))
    (index / search_index.PARTS_DIR / damaged).write_bytes(b"PK\x03\x04 cut short")
    third = search_index.build(edited, force=True)
    assert f"the cache {index / search_index.PARTS_DIR / damaged} is damaged" in caplog.text
    assert _served(index, third) == _served(scratch, from_nothing)
