"""A scenario's `expect:` block, of either game: what is expected (`Expectations`), the expected stops
(`refused`, `not_modelled`) read and checked when the file is loaded, and the comparison with a replay
(`check`). What a state path may name is each game's: judge/engine/vtes/expect.py and
judge/engine/rivals/scenario.py read their paths and look them up in their state's JSON.

An expected stop at an event the scenario does not have, a message that is not text, or a cite from
another book is a malformed scenario, reported with its line when the file is loaded: otherwise it
would only show up as an expectation that can never be met.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from judge.engine.citations import OfflineCiteLocator
from judge.engine.errors import ScenarioError

EXPECT_STOPS = ("refused", "not_modelled")


@dataclass
class Expectations:
    """Per edition: the state paths {path: (value, line)} and the expected stops {key: (spec, line)}."""

    paths: dict  # edition -> {path: (expected, line)}
    stops: dict  # edition -> {"refused" | "not_modelled": (spec, line)}

    def for_edition(self, edition: str) -> tuple[dict, dict]:
        return dict(self.paths.get(edition, {})), dict(self.stops.get(edition, {}))

    def judged(self, edition: str) -> bool:
        """Whether anything is expected under `edition` (else a replay under it is shown, not checked)."""
        return bool(self.paths.get(edition) or self.stops.get(edition))


def read_stop(spec: Any, line: Optional[int], where: str, n_events: int, book: str, book_name: str,
              example: str, hint: str = "") -> None:
    """An expected stop (`where`: "expect.refused"), checked: true or false, a fragment of the message, or
    {event, message, cites}, the cites from `book` (whose IDs begin with "<book>:"; `book_name` says which book
    it is, `example` is one of its IDs, `hint` what to do with another's). ScenarioError with the line when it
    could never be met."""
    if isinstance(spec, (bool, str)):
        return
    if not isinstance(spec, dict):
        raise ScenarioError(f"{where} is true, a fragment of the message, or {{event, message, cites}}; "
                            f"got {spec!r}", line)
    unknown = [k for k in spec if k not in ("event", "message", "cites")]
    if unknown:
        raise ScenarioError(f"{where}: unknown key {unknown[0]!r}; expected event, message, cites", line)
    end = n_events + 1
    if "event" in spec:
        n = spec["event"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= end:
            raise ScenarioError(f"{where}.event is the number of the event that stops the replay, from 1 to "
                                f"{n_events} ({end} is the end of the events); got {n!r}", line)
    if "message" in spec and not isinstance(spec["message"], str):
        raise ScenarioError(f"{where}.message is a fragment of the message (text); got {spec['message']!r}", line)
    if "cites" in spec:
        cites = spec["cites"] if isinstance(spec["cites"], list) else [spec["cites"]]
        for c in cites:
            if not isinstance(c, str) or ":" not in c:
                raise ScenarioError(f"{where}.cites lists paragraph or section IDs such as {example}; got {c!r}",
                                    line)
            if c.split(":", 1)[0] != book:
                raise ScenarioError(f"{where}.cites: {c!r} is not from {book_name}, whose IDs begin with {book}:"
                                    f"{hint}", line)


# -- checking a replay ----------------------------------------------------------------------------
@dataclass
class Check:
    path: str
    expected: Any
    actual: Any
    ok: bool
    line: Optional[int] = None


def check(expect: Expectations, edition: str, view: dict, lookup: Callable[[dict, str], tuple[bool, Any]], stop,
          locator=None) -> list[Check]:
    """Each expectation under `edition` against the replay: the state paths looked up (by the game's `lookup`)
    in `view`, the state's JSON, and the expected stops against `stop`."""
    paths, stops = expect.for_edition(edition)
    checks = []
    for path, (expected, line) in paths.items():
        found, actual = lookup(view, path)
        ok = found and same(expected, actual)
        checks.append(Check(path, expected, actual if found else f"(no such path: {path})", ok, line))
    for key, (spec, line) in stops.items():
        checks.append(check_stop(key, spec, stop, edition, locator, line))
    return checks


def check_stop(key: str, spec: Any, stop, edition: str, locator, line) -> Check:
    want_kind = "refused" if key == "refused" else "not-modelled"
    actual = None if stop is None else {"kind": stop.kind, "event": stop.n, "message": stop.message}
    if spec is False:
        return Check(key, False, actual, stop is None or stop.kind != want_kind, line)
    if stop is None or stop.kind != want_kind:
        return Check(key, spec, actual, False, line)
    ok = True
    if isinstance(spec, str):
        ok = spec.lower() in stop.message.lower()
    elif isinstance(spec, dict):
        if "message" in spec:
            ok &= str(spec["message"]).lower() in stop.message.lower()
        if "event" in spec:
            ok &= stop.n == spec["event"]
        if "cites" in spec:
            ids = cite_ids(stop.rules, edition, locator)
            actual["cites"] = ids
            wanted = spec["cites"] if isinstance(spec["cites"], list) else [spec["cites"]]
            ok &= all(any(i == w or i.startswith(w + "/") or i.startswith(w + ".") for i in ids) for w in wanted)
    return Check(key, spec, actual, ok, line)


def cite_ids(rules, edition: str, locator=None) -> list[str]:
    locator = locator or OfflineCiteLocator()
    out: list[str] = []
    for rule in rules:
        for cite in rule.cites(edition):
            pid = locator.id(cite) or cite.section_id
            if pid not in out:
                out.append(pid)
    return out


def follow(node: Any, parts: list[str]) -> tuple[bool, Any]:
    """Follow a dotted path; a key that itself contains dots ("Dr. Fox") is matched whole."""
    if not parts:
        return True, node
    if isinstance(node, dict):
        for k in range(len(parts), 0, -1):
            key = ".".join(parts[:k])
            if key in node:
                found, value = follow(node[key], parts[k:])
                if found:
                    return True, value
        return False, None
    if isinstance(node, list) and parts[0].isdigit() and int(parts[0]) < len(node):
        return follow(node[int(parts[0])], parts[1:])
    return False, None


def same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or (isinstance(expected, bool) and isinstance(actual, bool) and expected == actual)
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual  # Python compares an int with a float exactly (float() of a huge int overflows)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same(a, b) for a, b in zip(expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return set(expected) == set(actual) and all(same(expected[k], actual[k]) for k in expected)
    return expected == actual
