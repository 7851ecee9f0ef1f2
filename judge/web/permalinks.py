"""A scenario's permalink: `/check?s=...`, reloading the scenario and its replay for anyone it is sent to.

Two forms of `s=` are read, and every link ever offered keeps working:

* **compact** (offered since issue 38): `~1` then the scenario's YAML compressed (raw DEFLATE, with
  DICTIONARY_V1 as its preset dictionary) in url-safe base64 without padding. A scenario of scenarios/ takes a
  median of 254 characters this way, against 680 plain: short enough to send from a phone.
* **plain**: the YAML, UTF-8, in url-safe base64 (padding optional), as offered before.

The dictionary is part of every compact link: DICTIONARY_V1 is never edited. A better one would be
DICTIONARY_V2, read under the prefix `~2`, with `~1` still read with this one.
"""
from __future__ import annotations

import base64
import binascii
import re
import zlib

from judge.engine.limits import Limits
from judge.web.builder import BuilderError
from judge.web.errors import MAX_TARGET

COMPACT_PREFIX = "~1"
# The words a scenario is written in (docs/scenarios.md, docs/rivals.md), most common last: DEFLATE finds the
# nearest match first. Frozen: every compact link depends on these exact bytes.
DICTIONARY_V1 = (
    "game: rivals\nagenda: \nprestige: \nblood_potency: \nlocation: \nparty: \nattack\n"
    "expect:\n  refused: {event: , message: \"\", cites: [vekn:]}\n  older:\n    refused: \n  state:\n"
    "disciplines: [\ntitle: \ninfluence phase\n unlock\n locks\n blocks\n attempts to block\n declines to block\n"
    " plays \n bleeds \n hunts\n votes\n strength\n stealth\n intercept\n damage\n torpor\n"
    "title: \"\"\nrules: current\nplayers: [Sarah, Alexis, Bob]\nturn: Sarah\nphase: minion\nminions:\n"
    "  - {name: , controller: , capacity: , blood: , disciplines: []}\n  - {name: , controller: , capacity: , blood: }\n"
    "events:\n  - ").encode("utf-8")

# The longest `s=` a permalink carries: what fits, with the route and another parameter, in the longest address the
# app reads (judge.web.errors.MAX_TARGET). A scenario whose link would be longer is offered as a download and sent
# with the form (a POST) instead.
MAX_PERMALINK = MAX_TARGET - 256
_PLAIN = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_COMPACT = re.compile(re.escape(COMPACT_PREFIX) + r"[A-Za-z0-9_-]+")


class PermalinkTooLong(BuilderError):
    """A permalink's `s=` longer than any permalink judge offers (MAX_PERMALINK): a 414."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BuilderError("s", "is not valid base64: was the link cut?") from None


def plain_permalink(text: str) -> str:
    """The plain `s=` of a scenario: its YAML, UTF-8, in url-safe base64 without padding."""
    return _b64(text.encode("utf-8"))


def permalink(text: str) -> str:
    """The compact `s=` of a scenario (the form offered)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_V1)
    return COMPACT_PREFIX + _b64(packer.compress(text.encode("utf-8")) + packer.flush())


def permalink_characters(limits: Limits) -> int:
    """The longest `s=` read: MAX_PERMALINK, or the base64 of the longest body the limits allow if shorter."""
    return min(MAX_PERMALINK, -(-limits.body_bytes() * 4 // 3))


def permalink_fits(text: str) -> bool:
    """Whether `text`'s permalink is short enough to be offered as a link (MAX_PERMALINK)."""
    return len(permalink(text)) <= MAX_PERMALINK


def decode_permalink(value: str, limits: Limits) -> str:
    """The scenario text a permalink's `s=` carries, compact or plain; BuilderError saying what is wrong (too
    long, not base64, not UTF-8, empty, a compact form cut or changed). The length is checked before anything is
    decoded, and a compact form is inflated to at most the longest body the limits allow, one byte more telling
    that it is longer: a small link never expands into unbounded work."""
    value = value.strip()
    longest = permalink_characters(limits)
    if len(value) > longest:
        raise PermalinkTooLong("s", f"is {len(value):,} characters long; a permalink carries at most {longest:,} "
                                    f"(a longer scenario is sent with the form, or as a file)")
    if value.startswith("~"):
        if not _COMPACT.fullmatch(value):
            raise BuilderError("s", f"is not a compact permalink ({COMPACT_PREFIX} then url-safe base64): was the "
                                    f"link cut or changed?")
        data = _inflate(_unb64(value[len(COMPACT_PREFIX):]), limits.body_bytes())
    else:
        if not _PLAIN.fullmatch(value):
            raise BuilderError("s", "is not url-safe base64 (letters, digits, '-' and '_'): was the link cut or "
                                    "changed?")
        data = _unb64(value)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BuilderError("s", "does not hold UTF-8 text (a scenario is YAML text)") from None
    if not text.strip():
        raise BuilderError("s", "holds an empty scenario")
    return text


def _inflate(data: bytes, most: int) -> bytes:
    unpacker = zlib.decompressobj(-15, DICTIONARY_V1)
    try:
        out = unpacker.decompress(data, most + 1)
    except zlib.error:
        raise BuilderError("s", "is not a compact permalink judge made: was the link cut or changed?") from None
    if len(out) > most or unpacker.unconsumed_tail:
        raise PermalinkTooLong("s", f"holds a scenario longer than {most:,} bytes, the most judge reads")
    if not unpacker.eof:
        raise BuilderError("s", "is cut short (the compact permalink does not end where it should): was the link cut?")
    return out
