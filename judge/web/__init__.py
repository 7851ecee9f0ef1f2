"""The reference browser on the web: `create_app()` builds the Flask app.

    from judge.web import create_app
    app = create_app()            # the corpus of the configured rules directory
    app = create_app(corpus)      # or a given one (tests)

Blueprints: `pages` (HTML, judge/web/pages.py) and `api` (JSON under /api/,
judge/web/api.py, described by /api/openapi.json). Templates come from
`judge.paths.templates_dir()` (the checkout's top-level templates/ folder, or
the copy bundled in the wheel); CSS and JS from judge/web/static/. `judge serve`
(judge/commands/serve.py) warms it (`warm`) and serves it with Granian.
docs/web.md describes the routes.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from flask import Flask, current_app, request, url_for
from flask.templating import Environment as FlaskEnvironment

from judge import paths
from judge.engine.limits import DEFAULT as SCENARIO_LIMITS
from judge.web import cache, errors, security
from judge.web.site import Site

if TYPE_CHECKING:
    from judge.corpus import Corpus

STATIC_DIR = Path(__file__).resolve().parent / "static"
# The largest body read: one byte over what the longest scenario allowed needs, so that a longer one sent
# without its length (chunked) is seen to be longer and refused, not cut (judge.web.tools._read_body).
MAX_UPLOAD = SCENARIO_LIMITS.body_bytes() + 1


class _TemplateEnvironment(FlaskEnvironment):
    def make_globals(self, d):
        """A template's globals as one plain dict (the environment's, then its own),
        not Jinja's ChainMap: every render flattens that key by key in Python
        (pallets/jinja#2185), which cost a fifth of a small page. Equivalent here,
        since environment globals are all set before the first template loads, as
        Jinja asks (nothing changes them afterwards)."""
        return {**self.globals, **(d or {})}


class _App(Flask):
    jinja_environment = _TemplateEnvironment


def create_app(corpus: Corpus | None = None, config: dict | None = None) -> Flask:
    if corpus is None:
        from judge.corpus import get_corpus
        corpus = get_corpus()
    app = _App(__name__, template_folder=str(paths.templates_dir()), static_folder=str(STATIC_DIR),
                static_url_path="/static")
    app.config.update(MAX_CONTENT_LENGTH=MAX_UPLOAD, MAX_FORM_MEMORY_SIZE=MAX_UPLOAD, SEND_FILE_MAX_AGE_DEFAULT=3600,
                      TEMPLATES_AUTO_RELOAD=False, RESPONSE_CACHE_BYTES=cache.DEFAULT_MAX_BYTES)
    app.config.update(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    from judge.web.api import api
    from judge.web.pages import pages
    from judge.web.tools import check_pages, diff_pages
    for blueprint in (pages, api, diff_pages, check_pages):
        app.register_blueprint(blueprint)
    errors.install(app)
    app.after_request(_mark_cacheable)
    # Headers every answer carries, added as the WSGI layer sends them (werkzeug's
    # header objects cost more than the search behind a page), then the cache in front.
    app.wsgi_app = cache.ResponseCache(security.SecurityHeaders(app.wsgi_app), app.config["RESPONSE_CACHE_BYTES"])

    # Links inside rendered paragraphs are built outside any request (rendering is cached).
    adapter = app.url_map.bind("localhost", script_name=app.config.get("APPLICATION_ROOT") or "/")
    site = Site(corpus, lambda ident: adapter.build("pages.item", {"ident": ident}))
    app.extensions["judge"] = site
    app.jinja_env.globals.update(site=site, site_links=site_links, documents=corpus.documents,
                                 view_names=app.view_functions)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    return app


def current_site() -> Site:
    return current_app.extensions["judge"]


def warm(app: Flask) -> None:
    """Compute before the first visitor what every rule page shows (`Site.warm`), and
    render each page's side panels (cited by, other editions, related rules) and
    each paragraph's parts of a search hit in every form (`pages.render_hit_forms`)."""
    from judge.search.query import current_synonyms
    from judge.terminology import get_terminology
    from judge.web.pages import relation_panels

    # The data files, read and checked before anything else: a broken one stops the
    # start (SourceError, naming its line). The terminology map is then kept for the
    # process; the synonyms are read again when they change (their last good copy kept).
    current_synonyms()
    get_terminology()
    site: Site = app.extensions["judge"]
    site.warm()
    with app.test_request_context("/"):
        for item in [*site.corpus.paragraphs.values(), *site.corpus.sections.values()]:
            relation_panels(item)
    # One request of each common kind compiles its templates and sets up what
    # Flask, the searcher (the synonyms file) and numpy do on first use: once
    # here, not in every worker forked from this process.
    with app.test_client() as client:
        for url in ("/", "/search?q=warm+up", "/api/search?q=warm+up", "/search?q=warm+up&fragment=1"):
            client.get(url)


_URLS: dict[tuple[str, str, str], object] = {}  # (script root, kind, name) -> URL(s): every page asks for a dozen


def _kept_url(kind: str, name: str, build):
    key = (request.script_root, kind, name)
    found = _URLS.get(key)
    if found is None:
        found = _URLS[key] = build()
    return found


def _asset_url(filename: str) -> str:
    """A static file's URL with its content hash, so browsers may cache it for long."""
    version = hashlib.sha256((STATIC_DIR / filename).read_bytes()).hexdigest()[:12]
    return url_for("static", filename=filename, v=version)


def site_links() -> SimpleNamespace:
    """What every page's head, header and footer link to: the stylesheet, icon and
    script (`_asset_url`) and the site's pages, None for a page this app lacks.
    Built once: one call per page instead of ten (base.html)."""
    def build() -> SimpleNamespace:
        def page(endpoint: str) -> str | None:
            return url_for(endpoint) if endpoint in current_app.view_functions else None
        return SimpleNamespace(css=_asset_url("judge.css"), icon=_asset_url("favicon.svg"), js=_asset_url("judge.js"),
                               home=page("pages.home"), search=page("pages.search"), glossary=page("pages.glossary"),
                               compare=page("diff.page"), scenario=page("check.page"), lint=page("pages.lint"),
                               api=page("api.openapi"))
    return _kept_url("links", "", build)


def page_url(endpoint: str) -> str:
    """`url_for(endpoint)` for a page without parameters, kept (the facet chips link to the search page)."""
    return _kept_url("page", endpoint, lambda: url_for(endpoint))


def _mark_cacheable(response):
    """Pages and API answers depend on nothing but the URL and the corpus: the
    response cache gives them an ETag (a browser coming back gets a 304) and keeps them."""
    if (request.method == "GET" and response.status_code == 200 and not response.direct_passthrough
            and request.endpoint != "static"):
        cache.mark_cacheable(request.environ)
    return response
