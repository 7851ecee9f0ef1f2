"""Every answer of a fixed sample of requests, saved, so that two versions of the
code can be compared answer by answer: a refactoring that must not change what
judge says is checked by a diff of two snapshots, not by eye.

    python bench/answers_snapshot.py --out before.jsonl [--root CHECKOUT]
    python bench/answers_snapshot.py --compare before.jsonl after.jsonl [--ignore-key snippet_runs]

The sample (seeded, the same in every run): about 300 search queries (the gold
set's questions, two-word queries of the books' words, phrases, prefixes, typos,
filters, section numbers, hostile input), each as the search page, its live
fragment and the API answer, some with filters and limits; 300 rule pages and
their API twins; the home page, every table of contents and glossary; and
`judge search` on every query, as JSON (`--stdin`) and as text. Each line of the
snapshot is {"request": ..., "status": ..., "body": ...}.

`--root` imports judge from another checkout (the code before a change, in a
temporary worktree). `--compare` prints the requests whose answers differ and
exits 1 when there is any: JSON answers are compared as data, with the keys
named by `--ignore-key` left out at any depth; pages that differ byte for byte
are compared as a browser reads them (tags, attributes, text with character
references decoded and white space collapsed), and counted apart.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = ['"', '"""', "*", "?", "AND OR NOT", "<script>alert(1)</script>", "bleed*", "a*", "((torpor",
           "doc:", "doc:nosuch bleed", "kind:rule", "bleed " * 40, "x" * 300, "6.4.6", "IV.D.2", "rb:6.4.6/2",
           "RB §6.4.6 ¶2", "sec. 6.5.5", "rb 9.2", "damage 6.4.6", "torpor in rivals", "vekn bleed",
           "tap &amp; untap", "a < b & c > d", "Flávio", "magaiji", "torper", "intercetp", "diablerize",
           "Assamite", "followers of set", '"blood hunt" kind:rule', "diabler* doc:rb", "game:rivals tap",
           "doc:vekn,s6 lock", "the", "how does it", "zqxjkv", "\u201cblood hunt\u201d", "con*"]


def queries(corpus) -> list[str]:
    import yaml

    rng = random.Random(19)
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{4,}", p.text)})
    gold = yaml.safe_load((ROOT / "tests" / "search_gold.yaml").read_text(encoding="utf-8"))
    out = [str(item["q"]) for item in gold["questions"]]
    out += [f"{rng.choice(words)} {rng.choice(words)}" for _ in range(150)]
    out += [f"{rng.choice(words)[:-1]}{rng.choice('aeiourst')}" for _ in range(20)]  # typos, mostly
    out += [f'"{rng.choice(words)} {rng.choice(words)}"' for _ in range(10)]
    out += [f"{rng.choice(words)[:4]}*" for _ in range(10)]
    out += HOSTILE
    return list(dict.fromkeys(out))


def requests(corpus) -> list[str]:
    rng = random.Random(19)
    out = []
    qs = queries(corpus)
    for n, q in enumerate(qs):
        out += [f"/search?{urlencode({'q': q})}", f"/search?{urlencode({'q': q, 'fragment': 1})}",
                f"/api/search?{urlencode({'q': q})}"]
        if n % 5 == 0:  # filters (facet chips on, limits, a book and a kind)
            doc = rng.choice(sorted(corpus.documents))
            out += [f"/search?{urlencode({'q': q, 'doc': doc})}",
                    f"/search?{urlencode([('q', q), ('doc', doc), ('kind', 'rule'), ('kind', 'example')])}",
                    f"/search?{urlencode({'q': q, 'limit': 30, 'game': 'vtes'})}",
                    f"/api/search?{urlencode({'q': q, 'kind': 'rule', 'limit': 3})}"]
    ids = sorted(corpus.paragraphs)
    rng.shuffle(ids)
    sections = sorted(corpus.sections)
    rng.shuffle(sections)
    for ident in ids[:200] + sections[:100]:
        out.append("/p/" + quote(ident, safe="/:"))
    for ident in ids[:100]:
        out.append("/api/paragraph/" + quote(ident, safe="/:"))
    out += ["/", "/search", "/glossary", "/api/glossary", "/api/docs"]
    out += [f"/doc/{d}" for d in corpus.documents] + [f"/api/toc/{d}" for d in corpus.documents]
    out += [f"/graph/{quote(i, safe='/:')}" for i in ids[:10]]
    return out


def snapshot(out: Path) -> int:
    from click.testing import CliRunner

    from judge.cli import cli
    try:
        from judge.commands.shared import load
    except ImportError:  # the code before judge/commands/shared.py (a baseline's checkout)
        from judge.cli import load
    try:
        from judge.web.app import create_app
    except ImportError:  # the code before judge/web/app.py (a baseline's checkout)
        from judge.web import create_app

    corpus = load()
    client = create_app(corpus, {"RESPONSE_CACHE_BYTES": 0}).test_client()
    count = 0
    with out.open("w", encoding="utf-8") as fh:
        def write(request: str, status: int, body: str) -> None:
            nonlocal count
            fh.write(json.dumps({"request": request, "status": status, "body": body}, ensure_ascii=False) + "\n")
            count += 1
        for url in requests(corpus):
            response = client.get(url)
            write(url, response.status_code, response.get_data(as_text=True))
        runner = CliRunner()
        qs = queries(corpus)
        lines = "".join(q.replace("\n", " ") + "\n" for q in qs)
        result = runner.invoke(cli, ["search", "--stdin", "--limit", "5"], input=lines)
        for q, line in zip(qs, result.output.splitlines()):
            write(f"judge search --json {q!r}", result.exit_code, line)
        for q in qs[::3]:
            result = runner.invoke(cli, ["search", q, "--limit", "5"])
            write(f"judge search {q!r}", result.exit_code, result.output)
    return count


def _without(data, keys: set):
    if isinstance(data, dict):
        return {k: _without(v, keys) for k, v in data.items() if k not in keys}
    if isinstance(data, list):
        return [_without(v, keys) for v in data]
    return data


class _Events(HTMLParser):
    """An HTML page as the browser reads it: its tags with their attributes, and its
    text with character references decoded and white space collapsed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events: list = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("<", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        self.events.append((">", tag))

    def handle_data(self, data):
        text = " ".join(data.split())
        if text:
            if self.events and self.events[-1][0] == "text":
                self.events[-1] = ("text", self.events[-1][1] + " " + text)
            else:
                self.events.append(("text", text))


def _html_events(body: str) -> list:
    parser = _Events()
    parser.feed(body)
    parser.close()
    return parser.events


def compare(before: Path, after: Path, ignore: set) -> int:
    def read(path: Path) -> dict:
        with path.open(encoding="utf-8") as fh:
            return {row["request"]: row for row in map(json.loads, fh)}
    old, new = read(before), read(after)
    differing, as_read = [], 0
    for request in old.keys() | new.keys():
        a, b = old.get(request), new.get(request)
        if a is None or b is None:
            differing.append((request, "only in " + ("after" if a is None else "before")))
            continue
        if a["status"] != b["status"]:
            differing.append((request, f"status {a['status']} -> {b['status']}"))
            continue
        if a["body"] == b["body"]:
            continue
        try:
            same = _without(json.loads(a["body"]), ignore) == _without(json.loads(b["body"]), ignore)
        except ValueError:  # a page: the same when a browser reads the same
            same = a["body"].lstrip().startswith("<") and _html_events(a["body"]) == _html_events(b["body"])
            as_read += same
        if not same:
            differing.append((request, "body differs"))
    for request, why in sorted(differing):
        print(f"{why}: {request}")
    print(f"{len(old)} answers before, {len(new)} after; {len(differing)} differ"
          + (f" (ignoring the keys {', '.join(sorted(ignore))})" if ignore else "")
          + f"; {as_read} pages differ only in white space between tags or in how a character is written")
    return 1 if differing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose judge answers")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--ignore-key", action="append", default=[])
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare, set(args.ignore_key)))
    if not args.out:
        parser.error("--out or --compare")
    sys.path.insert(0, str(args.root.resolve()))  # judge
    print(f"{snapshot(args.out)} answers written to {args.out}")


if __name__ == "__main__":
    main()
