"""Reference syntaxes found in the rulebooks, recorded as pending references.

Parsers call these on a paragraph's clean text; `judge.xref` resolves what they
find once every document is parsed. Each function returns `Reference` objects
whose `span` indexes the text it was given.
"""
from __future__ import annotations

import re

from judge.model import EXTERNAL, Reference

# Reference kinds (the `kind` field), one per syntax.
VEKN_URL = "vekn-url"          # https://www.vekn.net/rulebook/<page>#<anchor>
SEC = "sec"                    # (see Combat, sec. 6.4)
RULEBOOK_NUMBER = "rulebook"   # the outline's [6.1.1]
OUTLINE = "outline"            # the outline's own (IV.D.2)
PAGE = "page"                  # Rivals' (Page 5.), (see page 10)
EXTERNAL_CITATION = "external"  # [VEKN 7.2.1], [RTR]

# Also as pasted by people: no scheme, a slash before the anchor.
VEKN_URL_RE = re.compile(r"(?:https?://)?(?:www\.)?vekn\.net/rulebook(?:/(?P<page>[\w\-]*))?/?(?:#(?P<anchor>[\w\-]+))?",
                         re.IGNORECASE)
# "sec. 6.4", "sec 2.2", "sec. 6.2.2.2", "sections 6.4 and ..."; the OCR book also
# has "sec. 6.5)" and "sec 2.2" without the dot.
SEC_RE = re.compile(r"\bsec(?:tion)?\.?\s*(?P<num>\d+(?:\.\d+)*)(?<!\.)", re.IGNORECASE)
SEC_TITLE_RE = re.compile(r"\(\s*see\s+(?P<title>[^,()]+?),\s*sec", re.IGNORECASE)
BRACKET_RE = re.compile(r"\[(?P<body>[^\[\]\n]{0,40})\]")
RULEBOOK_NUMBER_RE = re.compile(r"^\d+(?:\.\d+)*\.?$")
OUTLINE_RE = re.compile(r"\((?P<num>[IVX]+(?:\.[A-Z](?:\.\d+(?:\.[a-z](?:\.[ivx]+)?)?)?)?)\)")
PAGE_RE = re.compile(r"\b(?:see\s+(?:the\s+\w+\s+of\s+)?)?page\s+(?P<num>\d+)", re.IGNORECASE)


def vekn_links(text: str, spans: list[tuple[str, int, int]]) -> list[Reference]:
    """References for Markdown links already located by the parser.

    `spans` holds (url, start, end) with start/end indexing the clean text where
    the link's text ended up.
    """
    out = []
    for url, start, end in spans:
        m = VEKN_URL_RE.match(url)
        if not m:
            continue
        page = (m.group("page") or "").lower()
        anchor = m.group("anchor") or ""
        spec = page + ("#" + anchor if anchor else "")
        out.append(Reference(raw=url, kind=VEKN_URL, spec=spec, span=(start, end)))
    return out


def sec_refs(text: str) -> list[Reference]:
    out = []
    for m in SEC_RE.finditer(text):
        # Widen the span to "(see Title, sec. N)" when the title is given, so a
        # link shows the words the reader sees.
        start = m.start()
        title = None
        window_start = max(0, m.start() - 80)
        for tm in SEC_TITLE_RE.finditer(text[window_start:m.end()]):
            if window_start + tm.end() >= m.start() - 1:
                title = tm.group("title").strip()
                start = window_start + tm.start() + 1
        ref = Reference(raw=text[start:m.end()], kind=SEC, spec=m.group("num").rstrip("."),
                        span=(start, m.end()))
        if title:
            ref.reason = f"title:{title}"
        out.append(ref)
    return out


def bracket_refs(text: str, cites: str | None) -> tuple[list[Reference], list[tuple[int, int]]]:
    """The outline's bracketed citations.

    Returns the references and the spans of empty citations `[]` (these are not
    references but an editor's missing citation, reported by lint).
    """
    refs, empty = [], []
    for m in BRACKET_RE.finditer(text):
        body = m.group("body").strip()
        span = (m.start(), m.end())
        if not body:
            empty.append(span)
        elif RULEBOOK_NUMBER_RE.match(body):
            refs.append(Reference(raw=m.group(0), kind=RULEBOOK_NUMBER, spec=body.rstrip("."),
                                  span=span, target_doc=cites))
        elif body.upper().startswith("VEKN") or body.upper() == "RTR":
            what = ("the V:EKN tournament rules" if body.upper().startswith("VEKN")
                    else "a Rules Team ruling")
            refs.append(Reference(raw=m.group(0), kind=EXTERNAL_CITATION, spec=body, span=span,
                                  status=EXTERNAL, reason=f"cites {what}, not in the corpus"))
    return refs, empty


def outline_refs(text: str) -> list[Reference]:
    return [Reference(raw=m.group(0), kind=OUTLINE, spec=m.group("num"), span=(m.start(), m.end()))
            for m in OUTLINE_RE.finditer(text)]


def page_refs(text: str) -> list[Reference]:
    return [Reference(raw=m.group(0), kind=PAGE, spec=m.group("num"), span=(m.start(), m.end()))
            for m in PAGE_RE.finditer(text)]
