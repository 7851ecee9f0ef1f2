"""Links every page carries: the stylesheet, icon and script with their content
hashes, and the site's pages (the header and footer), built once per script root."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote_plus

from flask import current_app, request, url_for

from judge.memo import Memo

STATIC_DIR = Path(__file__).resolve().parent / "static"
URLS_KEPT = 256  # (script root, endpoint) pairs: a handful per mount point of the app

# (script root, what) -> the URL(s): the routes and the static files never change while the
# app runs, and the script root (where the app is mounted) is part of the key.
_URLS: Memo = Memo("web.urls", URLS_KEPT)


def _asset_url(filename: str) -> str:
    """A static file's URL with its content hash, so browsers may cache it for long."""
    version = hashlib.sha256((STATIC_DIR / filename).read_bytes()).hexdigest()[:12]
    return url_for("static", filename=filename, v=version)


def site_links() -> SimpleNamespace:
    """What every page's head, header and footer link to: the stylesheet, icon and
    script (`_asset_url`) and the site's pages, None for a page this app lacks.
    One call per page instead of ten (base.html)."""
    def build() -> SimpleNamespace:
        def page(endpoint: str) -> str | None:
            return url_for(endpoint) if endpoint in current_app.view_functions else None
        return SimpleNamespace(css=_asset_url("judge.css"), icon=_asset_url("favicon.svg"), js=_asset_url("judge.js"),
                               home=page("pages.home"), search=page("pages.search"), glossary=page("pages.glossary"),
                               cards=page("cards.index"), compare=page("editions.page"), scenario=page("check.page"),
                               lint=page("editions.lint"), graph=page("pages.graph_entry"), api=page("api.openapi"))
    return _URLS.recall_or_compute((request.script_root, "links"), build)


def page_url(endpoint: str) -> str:
    """`url_for(endpoint)` for a page without parameters (the facet chips link to the search page)."""
    return _URLS.recall_or_compute((request.script_root, endpoint), lambda: url_for(endpoint))


# What werkzeug leaves unescaped in a query string: the links read as url_for would write them.
_QUERY_SAFE = "!$'()*,/:;?@"


@lru_cache(maxsize=1024)
def _quoted(value: str) -> str:
    """One key or value of a query string as urlencode writes it: a results page links to the
    search with the same query seven times (game switch, `in=` chips, more, did you mean)."""
    return quote_plus(value, safe=_QUERY_SAFE)


def search_url(p, **changes) -> str:
    """`url_for("pages.search", **p.query_args(**changes))` of a `params.SearchParams`, without
    building the URL through the routing map (2-3% of a results page when it did)."""
    query = "&".join(f"{_quoted(k)}={_quoted(str(v))}" for k, values in p.query_args(**changes).items()
                     for v in (values if isinstance(values, list) else [values]))
    return f"{page_url('pages.search')}?{query}"
