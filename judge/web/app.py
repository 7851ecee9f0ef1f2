"""The Flask app: `create_app` builds it, its blueprints, its template environment,
and the layers in front of it (the response cache, the security headers)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, request
from flask.templating import Environment as FlaskEnvironment

import judge.web.cache as cache
import judge.web.errors as errors
import judge.web.security as security
from judge import paths
from judge.engine.limits import DEFAULT as SCENARIO_LIMITS
from judge.search.synonyms import current_synonyms
from judge.web.api import api
from judge.web.citations import checked_public_url, public_url, public_url_from_environment
from judge.web.json_provider import OrjsonProvider
from judge.web.cards import cards
from judge.web.links import STATIC_DIR, site_links
from judge.web.pages import pages
from judge.web.site import Site
from judge.web.check import check_pages
from judge.web.editions import DRAFT_UPLOAD_BYTES, editions_pages

if TYPE_CHECKING:
    from judge.corpus import Corpus


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
    json_provider_class = OrjsonProvider  # keys in the order given, text unescaped


def create_app(corpus: Corpus | None = None, config: dict | None = None) -> Flask:
    if corpus is None:
        from judge.corpus import get_corpus
        corpus = get_corpus()
    app = _App(__name__, template_folder=str(paths.templates_dir()), static_folder=str(STATIC_DIR),
                static_url_path="/static")
    app.config.update(SEND_FILE_MAX_AGE_DEFAULT=3600, TEMPLATES_AUTO_RELOAD=False,
                      RESPONSE_CACHE_BYTES=cache.DEFAULT_MAX_BYTES, SCENARIO_LIMITS=SCENARIO_LIMITS)
    app.config.update(config or {})
    # The address citations give (judge/web/citations.py): `judge serve --public-url`, else the environment's.
    app.config["PUBLIC_URL"] = (checked_public_url(app.config["PUBLIC_URL"]) if app.config.get("PUBLIC_URL")
                                else public_url_from_environment())
    # The largest body read: one byte over what the longest scenario allowed needs, so that a longer one sent
    # without its length (chunked) is seen to be longer and refused, not cut (judge.web.bodies.read_body).
    # A draft sent to /lint may be longer than a scenario: each route bounds its own body below this
    # (judge.web.bodies.read_body, judge.web.editions.DRAFT_UPLOAD_BYTES).
    max_upload = max(app.config["SCENARIO_LIMITS"].body_bytes(), DRAFT_UPLOAD_BYTES + 64 * 1024) + 1
    app.config.update(MAX_CONTENT_LENGTH=max_upload, MAX_FORM_MEMORY_SIZE=max_upload)
    for blueprint in (pages, api, editions_pages, check_pages, cards):
        app.register_blueprint(blueprint)
    errors.install(app)
    app.after_request(_mark_cacheable)
    # Headers every answer carries, added as the WSGI layer sends them (werkzeug's
    # header objects cost more than the search behind a page), then the cache in front.
    app.wsgi_app = cache.ResponseCache(security.SecurityHeaders(app.wsgi_app), app.config["RESPONSE_CACHE_BYTES"],
                                       version=_synonyms_version)

    # Links inside rendered paragraphs are built outside any request (rendering is cached).
    adapter = app.url_map.bind("localhost", script_name=app.config.get("APPLICATION_ROOT") or "/")
    site = Site(corpus, lambda ident: adapter.build("pages.item", {"ident": ident}))
    app.extensions["judge"] = site
    app.jinja_env.globals.update(site=site, site_links=site_links, documents=corpus.documents,
                                 view_names=app.view_functions, public_url=public_url)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    return app


def _synonyms_version() -> int:
    """The version of the synonyms file searches use now: a search page or answer made
    with another is not replayed (the file is re-read when it changes). A file that cannot
    be read, with no good copy to fall back on, is the app's to answer (a logged 500)."""
    try:
        return current_synonyms().version
    except Exception:  # noqa: BLE001 - SourceError, or any fault of reading it: the app meets it, logs it, says 500
        return cache.UNKNOWN_VERSION


def _mark_cacheable(response):
    """Pages and API answers depend on nothing but the URL and the corpus: the
    response cache gives them an ETag (a browser coming back gets a 304) and keeps them."""
    if (request.method == "GET" and response.status_code == 200 and not response.direct_passthrough
            and request.endpoint != "static"):
        cache.mark_cacheable(request.environ)
    return response
