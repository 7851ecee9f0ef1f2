"""Citations people can paste: a rule's permalink at the site's public address, the
vekn.net address of the current book's rules, and the forms a judge pastes them in
(plain text, Markdown, a chat message).

The public address is the deployment's (`judge serve --public-url`, or the
environment variable JUDGE_PUBLIC_URL): a server behind a proxy or on a laptop
sees its own 127.0.0.1 address, which means nothing to whoever the citation is
pasted to. Without one, the address the visitor used is the best guess left.
"""
from __future__ import annotations

import ipaddress
import os
import re
from typing import NamedTuple
from urllib.parse import urlsplit

from flask import current_app, request

from judge.errors import JudgeError
from judge.ingest.builder import slugify
from judge.model import Corpus, Paragraph, Section
from judge.xref import DocIndex

PUBLIC_URL_ENV = "JUDGE_PUBLIC_URL"
VEKN_RULEBOOK = "https://www.vekn.net/rulebook"
CHAT_QUOTE_CHARS = 400  # a chat message quotes the start of the rule, not a whole chapter


class BadPublicUrl(JudgeError):
    """The configured public address is not an http(s) address a browser can open."""


def checked_public_url(value: str | None) -> str | None:
    """The public base address without its trailing slash, or None when none is set; BadPublicUrl
    when it is not an absolute http(s) address without a query or fragment."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    try:
        parts = urlsplit(value)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadPublicUrl(f"the public URL {value[:100]!r} is not an http:// or https:// address with a host "
                           f"(e.g. https://judge.example.org)")
    if parts.query or parts.fragment:
        raise BadPublicUrl(f"the public URL {value[:100]!r} has a query or fragment: give the site's address only")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise BadPublicUrl(f"the public URL {value[:100]!r} holds a space or a control character: a browser "
                           f"cannot open it as written (a space in a path is written %20)")
    if "@" in parts.netloc:
        raise BadPublicUrl(f"the public URL {value[:100]!r} holds a user name or password: give the site's "
                           f"address only")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port == -1 or port == 0 or (parts.netloc.endswith(":") and port is None):
        shown = parts.netloc.rsplit(":", 1)[-1]
        raise BadPublicUrl(f"the public URL {value[:100]!r} has the port {shown[:20]!r}: a port is a number "
                           f"from 1 to 65535")
    if not _valid_host(parts.hostname or ""):
        raise BadPublicUrl(f"the public URL {value[:100]!r} has no valid host name ({(parts.hostname or '')[:60]!r}): "
                           f"give a name like judge.example.org or an IP address")
    return value.rstrip("/")


_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def _valid_host(host: str) -> bool:
    """A DNS name (international names through IDNA), an IPv4 address or an IPv6 one (bracketed in the URL)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except (UnicodeError, ValueError):
        return False
    labels = ascii_host.rstrip(".").split(".")
    return 0 < len(ascii_host) <= 253 and all(_LABEL.fullmatch(label) for label in labels)


def public_url_from_environment() -> str | None:
    """JUDGE_PUBLIC_URL, checked (BadPublicUrl names the variable)."""
    try:
        return checked_public_url(os.environ.get(PUBLIC_URL_ENV))
    except BadPublicUrl as exc:
        raise BadPublicUrl(f"{PUBLIC_URL_ENV}: {exc}") from None


def public_base() -> str:
    """Where visitors reach this site: the configured public URL, else the address this request used.
    Every link people copy is made from it (`public_url`): a rule's citation, a card's, a scenario's permalink."""
    return current_app.config.get("PUBLIC_URL") or request.host_url.rstrip("/")


def public_url(path: str) -> str:
    """The address of this site's page `path` ("/card/..."), as someone elsewhere can open it."""
    return public_base() + path


def current_book(corpus: Corpus) -> str | None:
    """The book vekn.net publishes (the Markdown book; as judge.lookup reads vekn.net links)."""
    return next((d.id for d in corpus.documents.values() if d.meta.format == "markdown-book"), None)


def vekn_url(corpus: Corpus, item: Paragraph | Section, index: DocIndex | None) -> str | None:
    """The vekn.net address of a rule of the current book: its chapter's page, with the anchor of the
    rule itself when one names it there (a labelled paragraph, a heading, a glossary term), else of its
    innermost section one names. An anchor several rules share names the first on the page (as vekn.net
    and judge read a link), so it is used only for the rule it takes a reader to. `index` is the current
    book's `judge.xref.DocIndex`."""
    if index is None or item.doc != index.doc.id:
        return None
    path = corpus.section_path(item.id)
    if not path or not path[0].anchors:
        return None
    page = f"{VEKN_RULEBOOK}/{path[0].anchors[0]}"
    scope = corpus.ids_inside(path[0].id) | {path[0].id}
    rules = ([item] if isinstance(item, Paragraph) else []) + [s for s in reversed(path) if s is not path[0]]
    for rule in rules:
        names = list(rule.anchors) if isinstance(rule, Paragraph) else \
            [slugify(rule.title), rule.key.rsplit(".", 1)[-1], *rule.anchors]
        for anchor in names:
            named = index.anchors.get(anchor.lower(), [])
            target = next((i for i in named if i in scope), named[0] if named else None)
            if target == rule.id:
                return f"{page}#{anchor.lower()}"
    return page


class Citation(NamedTuple):
    """A rule's citation in each form the copy buttons offer. Without a configured public address (`local`),
    the site's own link is this server's, which someone elsewhere may not reach: a rule of the current book then
    leads with its vekn.net address, which anyone can open, and the server's link is named as local."""

    label: str
    url: str  # the permalink at the public address (or, `local`, at the address this visitor used)
    vekn_url: str | None
    plain: str
    markdown: str
    chat: str
    local: bool = False  # no public address is configured: `url` is this server's own

    def to_json(self) -> dict:
        return self._asdict()


def citation(item: Paragraph | Section, path: str, vekn: str | None, text: str) -> Citation:
    """`path` is the item's permalink on this site (/p/<id>), `vekn` its vekn.net address if any (`vekn_url`),
    `text` the rule's text (quoted in chat)."""
    url = public_base() + path
    local = not current_app.config.get("PUBLIC_URL")
    label = _markdown_escaped(item.label)
    quoted = " ".join(text.split())
    if len(quoted) > CHAT_QUOTE_CHARS:
        quoted = quoted[:CHAT_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
    quote = f"> {quoted}\n" if quoted else ""
    # Discord: a quote block, the label in bold, links in <> so that no preview card covers the quote.
    if local and vekn:
        plain = f"{item.label} — {vekn} (local copy: {url})"
        markdown = f"[{label}]({vekn}) ([local copy]({url}))"
        chat = quote + f"— **{label}** <{vekn}> · local copy: <{url}>"
    elif local:
        plain = f"{item.label} — {url} (local copy)"
        markdown = f"[{label}]({url}) (local copy)"
        chat = quote + f"— **{label}** <{url}> (local copy)"
    else:
        plain = f"{item.label} — {url}" + (f" (vekn.net: {vekn})" if vekn else "")
        markdown = f"[{label}]({url})" + (f" ([vekn.net]({vekn}))" if vekn else "")
        chat = quote + f"— **{label}** <{url}>" + (f" · vekn.net: <{vekn}>" if vekn else "")
    return Citation(item.label, url, vekn, plain, markdown, chat, local)


def _markdown_escaped(text: str) -> str:
    return "".join("\\" + ch if ch in "\\[]*_`<>" else ch for ch in text)
