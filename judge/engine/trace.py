"""Reports of a replay: the numbered trace as text, the JSON object, and the comparison
of two rules editions (the steps whose outcome differs, each side with its own citations).

Each cite is shown by the citation locator the caller gives (citations.py): with the paragraph's label
and ID when it was built on the corpus, by section and quote without one.
"""
from __future__ import annotations

import difflib
import json
import re
import textwrap
from typing import Any, Optional

from judge.engine.citations import EDITION_NAMES, GAMES, VTES, normalize
from judge.engine.limits import DEFAULT, Limits, OverLimit
from judge.engine.scenario import Run, Step, cite_ids, game_module

RULES_EDITIONS = EDITION_NAMES  # the name of each rules edition, of either game


def game_of(run: Run) -> str:
    return getattr(run.scenario, "game", VTES)


def _state_json(run: Run) -> dict:
    return game_module(game_of(run)).state_json(run.state)


def _cites(rules, edition: str) -> list:
    out, seen = [], set()
    for rule in rules:
        for cite in rule.cites(edition):
            if cite in seen:
                continue
            seen.add(cite)
            out.append(cite)
    return out


def verdict(run: Run) -> str:
    """The replay in a word, as a player reads it: "as expected" / "not as expected" when the scenario gave
    expectations for the edition replayed; otherwise "replayed" (every event was played) or "stopped" (a move
    was refused or is not modelled)."""
    if run.judged and run.checks:
        return "as expected" if run.ok else "not as expected"
    return "stopped" if run.stop else "replayed"


_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[\"'(\[]?[A-Z0-9])")
QUOTE_CHARS = 400  # a quoted sentence longer than this is shown cut, with "…" saying so


# (the corpus's id, the cite's id) -> (the cite, its sentence): a replay quotes a few dozen paragraphs thousands of
# times, and the engine's cites are a few hundred constants (rules.py); keyed by identity, which is cheaper than a
# cite's hash, and checked against the cite kept, so that a reused id never answers another cite's sentence.
_SENTENCES: dict[tuple[int, int], tuple[Any, str]] = {}
_SENTENCES_KEPT = 4_096


def quoted_sentence(cite, locator) -> str:
    """The sentence of the cited paragraph holding the cite's words (the engine stores a few words of it), or
    those words when the paragraph is not at hand (a replay without the books) or the words span sentences."""
    corpus = getattr(locator, "corpus", None)
    if corpus is None:
        return cite.quote
    key = (id(corpus), id(cite))
    found = _SENTENCES.get(key)
    if found is None or found[0] is not cite:
        found = (cite, _sentence_of(cite, corpus, locator.id(cite)))
        if len(_SENTENCES) >= _SENTENCES_KEPT:
            _SENTENCES.clear()
        _SENTENCES[key] = found
    return found[1]


def _sentence_of(cite, corpus, pid: Optional[str]) -> str:
    paragraph = corpus.paragraphs.get(pid) if pid else None
    if paragraph is None:
        return cite.quote
    words = normalize(cite.quote)
    for sentence in _SENTENCE_END.split(" ".join(paragraph.text.split())):
        if words in normalize(sentence):
            return sentence if len(sentence) <= QUOTE_CHARS else sentence[:QUOTE_CHARS].rstrip() + "…"
    return cite.quote


def quotes_json(rules, edition: str, locator) -> list[dict]:
    """Each cited paragraph once, with the sentence that decided the step: [{id, quote}]."""
    out, seen = [], set()
    for cite in _cites(rules, edition):
        pid = (locator.id(cite) if locator is not None else None) or cite.section_id
        if pid in seen:
            continue
        seen.add(pid)
        out.append({"id": pid, "quote": quoted_sentence(cite, locator)})
    return out


def step_json(step: Step, edition: str, locator) -> dict:
    return {"n": step.n, "event": step.event, "text": step.text, "cites": cite_ids(step.rules, edition, locator),
            "quotes": quotes_json(step.rules, edition, locator)}


def error_json(run: Run, locator) -> Optional[dict]:
    """The stop: message, line and cites, with its machine-readable kind ("refused", "not-modelled") and the
    names of the rules it applied (`rule` is the first, the one the stop is about: "BLEED_ONCE")."""
    if run.stop is None:
        return None
    message = run.stop.message if run.stop.kind == "not-modelled" else f"refused: {run.stop.message}"
    return {"message": message, "line": run.stop.line, "cites": cite_ids(run.stop.rules, run.edition, locator),
            "kind": run.stop.kind, "rule": run.stop.rule, "rules": [r.name for r in run.stop.rules],
            "event": run.stop.n, "event_text": run.stop.event,
            "quotes": quotes_json(run.stop.rules, run.edition, locator)}


def run_json(run: Run, locator) -> dict:
    return {
        "file": run.scenario.file,
        "game": game_of(run),
        "rules": run.edition,
        "ok": run.ok,
        "verdict": verdict(run),
        "steps": [step_json(s, run.edition, locator) for s in run.steps],
        "state": _state_json(run),
        "expectations": [{"path": c.path, "expected": c.expected, "actual": c.actual, "ok": c.ok} for c in run.checks],
        "error": error_json(run, locator),
        "checked": run.judged,
    }


def checked_json(run: Run, locator, limits: Limits = DEFAULT) -> tuple[dict, str]:
    """`run_json` and its text, once the text is known to be within `limits.answer_bytes` (OverLimit if not)."""
    report = run_json(run, locator)
    text = dumps(report)
    size = len(text.encode("utf-8"))
    if size > limits.answer_bytes:
        raise OverLimit("answer_bytes", limits.answer_bytes, f"the replay's report is {size:,} bytes")
    return report, text


def scenario_error_json(file: str, rules: Optional[str], exc, game: Optional[str] = None) -> dict:
    """The report of a scenario that could not be replayed: malformed, or over a limit (`limit` then names
    it and `maximum` gives its value). `game` is null when the scenario could not be read far enough to say."""
    error = {"message": exc.message, "line": exc.line, "cites": [], "kind": exc.kind, "rule": None, "rules": [],
             "event": None, "event_text": None, "quotes": []}
    if isinstance(exc, OverLimit):
        error.update(limit=exc.limit, maximum=exc.maximum)
    return {"file": file, "game": game, "rules": rules, "ok": False, "verdict": "not read", "steps": [], "state": None,
            "expectations": [],
            "error": error, "checked": False}


# -- text -----------------------------------------------------------------------------------
def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


def _cite_lines(rules, edition: str, locator, indent: str) -> list[str]:
    lines, seen = [], set()
    for cite in _cites(rules, edition):
        pid = locator.id(cite) or cite.section_id
        if pid in seen:  # two quotes of one paragraph: cite it once
            continue
        seen.add(pid)
        lines.append(_wrap(f"“{quoted_sentence(cite, locator)}”", indent))
        lines.append(f"{indent}  [{locator.label(cite)}]  {pid}")
    return lines


def run_text(run: Run, locator, verbose_state: bool = False) -> str:
    sc = run.scenario
    out = [f"{sc.file} — {GAMES[game_of(run)]}, rules: {run.edition} ({RULES_EDITIONS[run.edition]}): {verdict(run)}"]
    if sc.title:
        out.append(f"  {sc.title}")
    last_n = None
    for step in run.steps:
        if step.n != last_n:
            out.append(f"{step.n:>3}. {step.event}")
            last_n = step.n
        out.append(_wrap(step.text, "       "))
        out.extend(_cite_lines(step.rules, run.edition, locator, "         "))
    if run.stop:
        label = "NOT ALLOWED" if run.stop.kind == "refused" else "NOT MODELLED"
        if run.stop.n != last_n:
            out.append(f"{run.stop.n:>3}. {run.stop.event}")
        line = f" (line {run.stop.line})" if run.stop.line else ""
        out.append(_wrap(f"{label}{line}: {run.stop.message}", "       "))
        out.extend(_cite_lines(run.stop.rules, run.edition, locator, "         "))
    out.append("final state: " + state_summary(run))
    if run.checks:
        out.append("expectations:")
        for c in run.checks:
            mark = "ok  " if c.ok else "FAIL"
            detail = f"{c.expected!r}" if c.ok else f"expected {c.expected!r}, got {c.actual!r}"
            out.append(f"  {mark} {c.path}: {detail}")
    if not run.judged:
        out.append(f"expectations: none under {run.edition} ({not_checked(run)})")
    out.append(f"result: {'ok' if run.ok else 'FAILED'}{'' if run.judged else ' (shown, not checked)'}")
    return "\n".join(out)


def not_checked(run: Run) -> str:
    return (f"the scenario's expectations are for {run.scenario.rules}; a block `{run.edition}:` under expect: "
            f"would check this edition")


def state_summary(run: Run) -> str:
    return game_module(game_of(run)).state_summary(run.state)


# -- comparing two editions -------------------------------------------------------------------
def _entries(run: Run, n: int) -> list[dict]:
    """The log entries of event `n` (and the stop, if it happened there), each with its own rules."""
    items = [{"text": s.text, "rules": s.rules, "event": s.event} for s in run.steps if s.n == n]
    if run.stop and run.stop.n == n:
        items.append({"text": f"{run.stop.kind.upper()}: {run.stop.message}", "rules": run.stop.rules,
                      "event": run.stop.event})
    return items


def _event_numbers(run: Run) -> set[int]:
    return {s.n for s in run.steps} | ({run.stop.n} if run.stop else set())


def differences(a: Run, b: Run) -> list[tuple[int, list[dict], list[dict]]]:
    """Per event, the entries whose text differs between the two runs (each side's own entries)."""
    out = []
    for n in sorted(_event_numbers(a) | _event_numbers(b)):
        ea, eb = _entries(a, n), _entries(b, n)
        ta, tb = [e["text"] for e in ea], [e["text"] for e in eb]
        if ta == tb:
            continue
        only_a, only_b = [], []
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
            if tag != "equal":
                only_a.extend(ea[i1:i2])
                only_b.extend(eb[j1:j2])
        out.append((n, only_a, only_b))
    return out


def _event_of(a: Run, b: Run, n: int) -> str:
    for run in (a, b):
        for e in _entries(run, n):
            return e["event"]
    return ""


def _side_json(run: Run, n: int, entries: list[dict], locator) -> list[dict]:
    return [{"n": n, "event": e["event"], "text": e["text"], "cites": cite_ids(e["rules"], run.edition, locator)}
            for e in entries]


def compare_json(a: Run, b: Run, locator) -> dict:
    diffs = [{"n": n, "event": _event_of(a, b, n), a.edition: _side_json(a, n, ea, locator),
              b.edition: _side_json(b, n, eb, locator)} for n, ea, eb in differences(a, b)]
    return {"file": a.scenario.file, "rules": [a.edition, b.edition], "ok": a.ok and b.ok, "differences": diffs,
            "runs": {a.edition: run_json(a, locator), b.edition: run_json(b, locator)}}


def compare_text(a: Run, b: Run, locator) -> str:
    out = [f"{a.scenario.file} — comparing {a.edition} ({RULES_EDITIONS[a.edition]}) with {b.edition} "
           f"({RULES_EDITIONS[b.edition]})"]
    diffs = differences(a, b)
    if not diffs:
        out.append("  no step differs between the two editions.")
    for n, ea, eb in diffs:
        out.append(f"{n:>3}. {_event_of(a, b, n)}")
        for run, entries in ((a, ea), (b, eb)):
            out.append(f"     {run.edition}:" + ("" if entries else " (nothing)"))
            for e in entries:
                out.append(_wrap(e["text"], "       "))
                out.extend(_cite_lines(e["rules"], run.edition, locator, "         "))
    for run in (a, b):
        out.append(f"final state ({run.edition}): {state_summary(run)}")
        if not run.judged:
            out.append(f"  not checked ({run.edition}): {not_checked(run)}")
        elif run.stop and not run.ok and not any(c.path in ("refused", "not_modelled") for c in run.checks):
            out.append(f"  FAIL ({run.edition}) unexpected stop at event {run.stop.n}: {run.stop.message}")
        for c in run.checks:
            if not c.ok:
                out.append(f"  FAIL ({run.edition}) {c.path}: expected {c.expected!r}, got {c.actual!r}")
    out.append(f"result: {'ok' if a.ok and b.ok else 'FAILED'}")
    return "\n".join(out)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=False)
