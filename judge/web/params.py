"""Query-string parameters, checked: a bad one is a 400 that says which and why.

Every check reads `request.args` and returns plain values; nothing a visitor
types is used as a path, a format string or a template.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import request
from werkzeug.exceptions import BadRequest

from judge.lookup import MAX_QUERY
from judge.memo import Memo
from judge.model import KINDS

if TYPE_CHECKING:
    from judge.corpus import Corpus

ALL_GAMES = "all"  # game=all: both games (judge.search.searcher.ALL_GAMES)
MAX_VALUES = 20  # repeated parameters (doc=a&doc=b...) accepted at most
PATH_END_CHARS = 200  # /api/graph/path's from= and to=: an ID, a label or a number


class BadParameter(BadRequest):
    """A 400 naming the parameter; shown as a page or as JSON by the error handlers."""

    def __init__(self, name: str, message: str):
        super().__init__(f"parameter {name!r}: {message}")
        self.parameter = name


def text(name: str, required: bool = False, max_length: int = MAX_QUERY) -> str:
    value = request.args.get(name, "")
    if required and not value.strip():
        raise BadParameter(name, "is required")
    if len(value) > max_length:
        raise BadParameter(name, f"is {len(value)} characters long; at most {max_length} are accepted")
    if "\x00" in value:
        raise BadParameter(name, "contains a NUL character")
    return value


def refuse_empty(name: str, wanted: str = "one of the values the API lists") -> None:
    """An API's parameter given empty (`limit=`) is a 400, as its OpenAPI document says (an integer, one of an
    enumeration): a program that sent it meant something. The pages' forms may send a field empty, meaning
    "not given", so the pages do not call this."""
    if request.args.get(name) == "":
        raise BadParameter(name, f"is empty; give {wanted}, or leave it out")


def integer(name: str, default: int, low: int, high: int, api: bool = False) -> int:
    """`name` as a whole number in [low, high]; `default` when not given (or given empty, on a page: with `api`,
    empty is refused)."""
    if api:
        refuse_empty(name, f"a whole number between {low} and {high}")
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadParameter(name, f"must be a whole number between {low} and {high}, not {raw[:40]!r}") from None
    if not low <= value <= high:
        raise BadParameter(name, f"must be between {low} and {high}, not {value}")
    return value


def choices(name: str, allowed: list[str]) -> list[str]:
    """Repeated parameter (`doc=rb&doc=s6`), each value one of `allowed`; order kept, no duplicates."""
    given = request.args.getlist(name)
    if len(given) > MAX_VALUES:  # empty values too: they are given, if they filter nothing
        raise BadParameter(name, f"given {len(given)} times; at most {MAX_VALUES}")
    values = [v for v in given if v != ""]
    out = []
    for value in values:
        if value not in allowed:
            raise BadParameter(name, f"unknown value {value[:40]!r} (known: {', '.join(allowed)})")
        if value not in out:
            out.append(value)
    return out


def one_of(name: str, allowed: list[str], default: str | None = None, required: bool = False,
           api: bool = False) -> str | None:
    """`name` as one of `allowed`; `default` when not given (or given empty, on a page: with `api`, empty is
    refused)."""
    if api and not required:
        refuse_empty(name)
    value = request.args.get(name, "")
    if value == "":
        if required:
            raise BadParameter(name, f"is required (one of: {', '.join(allowed)})")
        return default
    if value not in allowed:
        raise BadParameter(name, f"unknown value {value[:40]!r} (known: {', '.join(allowed)})")
    return value


@dataclass
class SearchParams:
    q: str
    docs: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    game: str | None = None
    limit: int = 20

    @property
    def more_limit(self) -> int:
        """The limit of the "show more results" link."""
        return min(self.limit * 3, 100)

    def query_args(self, **changes) -> dict:
        """The parameters as a dict for url_for, with some changed (facet links)."""
        args = {"q": self.q, "doc": self.docs, "kind": self.kinds, "game": self.game, "limit": self.limit}
        args.update(changes)
        return {k: v for k, v in args.items() if v not in (None, "", [])}


_KINDS = list(KINDS)
SEARCH_IN = ("rules", "cards", "rulings")  # the search's `in=` facet (`kind=` filters paragraph kinds)


def searched_in() -> list[str]:
    """`in=rules&in=cards`: what a search looks in, several allowed; all when not given."""
    return choices("in", list(SEARCH_IN)) or list(SEARCH_IN)
# corpus digest -> (its documents, its games): the digest names the corpus's content.
_FILTER_VALUES: Memo = Memo("web.search_filter_values", 8)


def search_params(corpus: Corpus, required: bool, default_limit: int, api: bool = False) -> SearchParams:
    """The search's parameters; with `api`, a parameter given empty is refused (refuse_empty)."""
    known = _FILTER_VALUES.recall(corpus.digest)  # once per corpus: every search asks
    if known is None:
        known = _FILTER_VALUES.remember(corpus.digest, (list(corpus.documents),
                                                        sorted({d.meta.game for d in corpus.documents.values()})))
    documents, games = known
    args = request.args
    if len(args) == 1 and "q" in args:  # the common case: a query and nothing else
        return SearchParams(q=text("q", required=required), limit=default_limit)
    return SearchParams(
        q=text("q", required=required),
        docs=choices("doc", documents),
        kinds=choices("kind", _KINDS),
        game=one_of("game", [*games, ALL_GAMES], api=api),
        limit=integer("limit", default_limit, 1, 100, api=api),
    )
