"""Search the rulebooks the way judges and players ask: plain words, older
editions' terms, typos, OCR damage, quoted phrases, section numbers.

    from judge.search import get_searcher

    result = get_searcher().search("who can block an undirected action", limit=5)
    for hit in result.hits:
        print(hit.label, hit.snippet, [c.label for c in hit.counterparts])

How a query is answered (docs/search.md has the details and the JSON shape):

1. `judge.search.query.parse_query` picks out words, "phrases", filters
   (``doc:``, ``game:``, ``kind:``), prefixes and section numbers; nothing the
   user types reaches a query parser, so no query can raise.
2. A query that is a section or outline number, an ID or a label
   (``6.4.6``, ``IV.D.2``, ``rb:6.4.6/2``) goes straight to it (`SearchResult.direct`).
3. Otherwise every word becomes a unit: its stem in the body, titles, labels
   and glossary terms, its synonyms from judge/data/synonyms.yaml
   (`judge.search.synonyms`: older editions' words, tap/lock, Assamite/Banu
   Haqim ...), and words of the index within a
   small edit distance on the unstemmed body (typos, OCR damage). Units are
   OR-ed and scored with Whoosh's BM25F, so paragraphs matching more of them
   rank higher (`judge.search.expansion`). The query is a Whoosh query; the
   build's posting table (`judge.search.postings`) answers it as Whoosh would,
   with numpy.
4. Scores are weighed by what a paragraph is (a rule over an editors' draft)
   and by coverage of the query, then the same rule in several editions is
   folded into one hit (`Hit.counterparts`), and each hit's snippet is cut
   around the matched words: runs of text, each marked or not
   (`judge.search.snippets`), which each front end renders its own way.

One `Search` serves a process and any number of threads: it holds the build's
tables in memory, read-only, and switches to a rebuild of the same corpus when
the index pointer names one. A search only notices the pointer (one stat);
opening the new build, or rebuilding it when it turns out damaged, is done by
a thread of its own while searches go on with the build in memory, and one
process rebuilds while the others wait for its build (`judge.search.index.open_or_rebuild`).

The modules: `searcher` (Search, get_searcher, the result's shape), `query`,
`synonyms`, `expansion`, `postings`, `snippets`, `index` (the build on disk),
`counterparts` (the same rule in other editions, at build time), `twins` (the
compiled twins of `_speedups.c`, or their Python references). What is kept in
memory and why it cannot go stale: docs/performance.md.
"""
from judge.search.searcher import Hit, Search, SearchResult, get_searcher

__all__ = ["Hit", "Search", "SearchResult", "get_searcher"]
