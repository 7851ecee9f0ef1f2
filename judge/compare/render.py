"""Render a `Comparison` (and a rule's history) for people.

Coloured terminal text, Markdown, and a standalone HTML report an editor can mail
around.

Every renderer shows the same things in the same order: a summary line, then
meaning changes (with the signals that fired), wording changes, terminology-only
pairs, pure moves, added and removed paragraphs, unchanged pairs only on request,
and for a draft its lint report. The JSON form is `Comparison.to_json()`.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

import click

from judge import paths
from judge.compare.comparison import Comparison, History, PairChange
from judge.compare.text import LEVEL_OCR, MEANING, SCAN, TERMINOLOGY, UNCHANGED, WORDING, Segment

HTML_TEMPLATE = "diff_report.html.j2"
_EXCERPT = 160  # characters of an added or removed paragraph shown in a list

_HEADINGS = {MEANING: "Meaning changes, most important first", WORDING: "Wording changes",
             TERMINOLOGY: "Terminology only", SCAN: "Scan damage only (the older book's OCR)", UNCHANGED: "Unchanged"}
_COMPACT = (TERMINOLOGY, SCAN, UNCHANGED)  # listed by their headings only
_EVENTS = {"created": "created", "unchanged": "unchanged", "edited": "edited", "moved": "moved",
           "moved+edited": "moved and edited", "removed": "removed", "absent": "not in this edition",
           "outside": "outside this edition (an excerpt that does not cover it)"}


def summary_line(comparison: Comparison) -> str:
    s = comparison.summary()
    parts = [f"{s[MEANING]} meaning", f"{s[WORDING]} wording", f"{s[TERMINOLOGY]} terminology",
             f"{s[SCAN]} scan damage only", f"{s[UNCHANGED]} unchanged", f"{s['added']} added", f"{s['removed']} removed",
             f"{s['moved']} moved ({s['pure_moves']} pure)"]
    if s["outside"]:
        parts.append(f"{s['outside']} beyond the excerpt")
    return " · ".join(parts)


def title_line(comparison: Comparison) -> str:
    old, new = comparison.old.meta, comparison.new.meta
    if comparison.draft:
        return f"Draft {comparison.draft} against {old.short} ({old.edition})"
    return f"{old.short} ({old.edition}) -> {new.short} ({new.edition})"


def _pair_heading(pair: PairChange) -> str:
    old = " + ".join(p.label for p in pair.old)
    new = " + ".join(p.label for p in pair.new)
    ids = f"{pair.old[0].id} -> {pair.new[0].id}"
    return f"{old} -> {new}  [{ids}]"


def _move_note(pair: PairChange) -> Optional[str]:
    if not pair.moved:
        return None
    if pair.moved.why == "order":
        return f"moved within {pair.moved.new_section} (order changed)"
    return f"moved from {pair.moved.old_section} to {pair.moved.new_section}"


def _kind_note(pair: PairChange) -> Optional[str]:
    old, new = pair.old[0].kind, pair.new[0].kind
    return f"kind: {old} -> {new}" if old != new else None


def _ocr_note(count: int) -> str:
    passages = "passage differs" if count == 1 else "passages differ"
    return f"{count} {passages} only by OCR damage, shown as the newer text"


def importance_note(pair: PairChange) -> Optional[str]:
    """What a meaning change changes, in words: "changes numbers and amounts: number: ... (1 -> 0.5)"."""
    found = pair.importance
    if found is None:
        return None
    said = found.to_json(pair.signals)
    return f"changes {said['label']}" + (f" ({said['why']})" if said["why"] and found.what != "rewording" else "")


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _EXCERPT else text[:_EXCERPT - 1].rstrip() + "…"


def _sections(comparison: Comparison, show_unchanged: bool) -> list[str]:
    wanted = [MEANING, WORDING, TERMINOLOGY] + ([SCAN, UNCHANGED] if show_unchanged else [])
    return [c for c in wanted if comparison.of(c)]


# -- terminal text ----------------------------------------------------------------------------
def _segment_text(seg: Segment, color: bool) -> str:
    """One run of the word diff: coloured, or in wdiff's [-deleted-]{+inserted+} marks."""
    if seg.op == "equal":
        return seg.new
    if seg.op == "term":
        return click.style(seg.new, fg="cyan") if color else seg.new
    if seg.level == LEVEL_OCR:  # damage, not an edit: the newer text, dimmed
        return click.style(seg.new, dim=True) if color else seg.new
    old_text, old_space = _split_space(seg.old)
    new_text, new_space = _split_space(seg.new)
    space = new_space or old_space
    if not color:
        out = (f"[-{old_text}-]" if old_text else "") + (f"{{+{new_text}+}}" if new_text else "")
        return out + space
    out = ""
    if old_text:
        out += click.style(old_text, fg="red", strikethrough=True)
        if new_text:
            out += " "
    if new_text:
        out += click.style(new_text, fg="green", bold=seg.level == MEANING)
    return out + space


def _split_space(text: str) -> tuple[str, str]:
    stripped = text.rstrip()
    return stripped, text[len(stripped):]


def diff_text(segments: Iterable[Segment], color: bool) -> str:
    return "".join(_segment_text(s, color) for s in segments).strip()


def render_text(comparison: Comparison, color: bool = False, show_unchanged: bool = False) -> str:
    def heading(text: str) -> str:
        return click.style(text.upper(), bold=True) if color else text.upper()

    lines = [click.style(title_line(comparison), bold=True) if color else title_line(comparison),
             "  " + summary_line(comparison)]
    for change in _sections(comparison, show_unchanged):
        pairs = comparison.of(change)
        lines += ["", heading(f"{_HEADINGS[change]} ({len(pairs)})")]
        for pair in pairs:
            if change in _COMPACT:
                terms = f"  ({', '.join(pair.text.terminology)})" if pair.text.terminology else ""
                move = f"  {_move_note(pair)}" if pair.moved else ""
                lines.append(f"  {_pair_heading(pair)}{terms}{move}")
                continue
            lines += ["", "  " + (click.style(_pair_heading(pair), bold=True) if color else _pair_heading(pair))]
            for note in filter(None, (importance_note(pair), _move_note(pair), _kind_note(pair))):
                lines.append(f"    {note}")
            for signal in pair.signals:
                text = signal.explain()
                lines.append("    " + (click.style(text, fg="yellow") if color else text))
            if pair.text.terminology:
                lines.append(f"    terminology: {', '.join(pair.text.terminology)}")
            if pair.text.ocr_noise:
                lines.append(f"    ({_ocr_note(pair.text.ocr_noise)})")
            lines.append("    " + diff_text(pair.text.segments, color))
    pure = [p for p in comparison.moved if p.pure_move]
    if pure:
        lines += ["", heading(f"Moved, text unchanged ({len(pure)})")]
        lines += [f"  {_pair_heading(p)}  {_move_note(p)}" for p in pure]
    for title, paragraphs, fg in (("Added", comparison.added, "green"), ("Removed", comparison.removed, "red")):
        if paragraphs:
            lines += ["", heading(f"{title} ({len(paragraphs)})")]
            for p in paragraphs:
                label = click.style(p.label, fg=fg) if color else p.label
                lines.append(f"  {label}  [{p.id}]  {_excerpt(p.text)}")
    if comparison.lint is not None:
        lines += ["", heading(f"Lint of the draft ({len(comparison.lint)} findings)")]
        for f in comparison.lint:
            where = f"line {f.line}" + (f", {f.paragraph}" if f.paragraph else "")
            lines.append(f"  {f.severity:<7} {f.code:<18} {where}: {f.message}")
    return "\n".join(lines)


# -- Markdown --------------------------------------------------------------------------------------
# Characters that format inline text; a line of ours never starts with the text itself.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_segment(seg: Segment) -> str:
    if seg.op == "equal":
        return md_escape(seg.new)
    if seg.op == "term":
        return f"*{md_escape(seg.new.rstrip())}*" + seg.new[len(seg.new.rstrip()):]
    if seg.level == LEVEL_OCR:
        return md_escape(seg.new)
    old_text, old_space = _split_space(seg.old)
    new_text, new_space = _split_space(seg.new)
    out = (f"~~{md_escape(old_text)}~~" if old_text else "")
    if new_text:
        out += (" " if old_text else "") + f"**{md_escape(new_text)}**"
    return out + (new_space or old_space)


def render_markdown(comparison: Comparison, show_unchanged: bool = False) -> str:
    out = [f"# {md_escape(title_line(comparison))}", "", summary_line(comparison), "",
           "Deleted words are ~~struck through~~, inserted words **bold**, terminology renames *in italics*."]
    for change in _sections(comparison, show_unchanged):
        pairs = comparison.of(change)
        out += ["", f"## {_HEADINGS[change]} ({len(pairs)})", ""]
        for pair in pairs:
            if change in _COMPACT:
                terms = f" ({', '.join(pair.text.terminology)})" if pair.text.terminology else ""
                out.append(f"- {md_escape(_pair_heading(pair))}{md_escape(terms)}")
                continue
            out += [f"### {md_escape(_pair_heading(pair))}", ""]
            notes = [n for n in (importance_note(pair), _move_note(pair), _kind_note(pair)) if n]
            notes += [s.explain() for s in pair.signals]
            if pair.text.terminology:
                notes.append(f"terminology: {', '.join(pair.text.terminology)}")
            if pair.text.ocr_noise:
                notes.append(_ocr_note(pair.text.ocr_noise))
            out += [f"- {md_escape(n)}" for n in notes]
            out += ["", "".join(_md_segment(s) for s in pair.text.segments).strip(), ""]
    pure = [p for p in comparison.moved if p.pure_move]
    if pure:
        out += ["", f"## Moved, text unchanged ({len(pure)})", ""]
        out += [f"- {md_escape(_pair_heading(p))}: {md_escape(_move_note(p) or '')}" for p in pure]
    for title, paragraphs in (("Added", comparison.added), ("Removed", comparison.removed)):
        if paragraphs:
            out += ["", f"## {title} ({len(paragraphs)})", ""]
            out += [f"- **{md_escape(p.label)}** `{p.id}`: {md_escape(_excerpt(p.text))}" for p in paragraphs]
    if comparison.lint is not None:
        out += ["", f"## Lint of the draft ({len(comparison.lint)} findings)", ""]
        out += [f"- {f.severity} `{f.code}` line {f.line}: {md_escape(f.message)}" for f in comparison.lint]
    return "\n".join(out) + "\n"


# -- HTML --------------------------------------------------------------------------------------------
def render_html(comparison: Comparison, show_unchanged: bool = False) -> str:
    """A standalone page (inline CSS, no external assets); Jinja2 escapes every text."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(paths.templates_dir())),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    try:
        template = env.get_template(HTML_TEMPLATE)
    except jinja2.TemplateNotFound:
        from judge.errors import OwnFileError
        raise OwnFileError(f"the HTML report template {HTML_TEMPLATE} is missing from "
                         f"{paths.templates_dir()}") from None
    groups = []
    for change in _sections(comparison, show_unchanged):
        groups.append({"change": change, "title": _HEADINGS[change], "pairs": [
            {"heading": _pair_heading(p), "old": p.old[0].id, "new": p.new[0].id,
             "notes": [n for n in (importance_note(p), _move_note(p), _kind_note(p)) if n],
             "signals": [s.explain() for s in p.signals], "terms": p.text.terminology,
             "ocr_note": _ocr_note(p.text.ocr_noise) if p.text.ocr_noise else "",
             "segments": [{"op": s.op, "old": s.old, "new": s.new, "level": s.level or ""} for s in p.text.segments]}
            for p in comparison.of(change)]})
    return template.render(
        title=title_line(comparison), summary=summary_line(comparison), groups=groups,
        compact=set(_COMPACT),
        pure_moves=[{"heading": _pair_heading(p), "note": _move_note(p)} for p in comparison.moved if p.pure_move],
        added=[{"id": p.id, "label": p.label, "text": p.text} for p in comparison.added],
        removed=[{"id": p.id, "label": p.label, "text": p.text} for p in comparison.removed],
        lint=[f.to_json() for f in comparison.lint] if comparison.lint is not None else None,
    )


# -- history ---------------------------------------------------------------------------------------
def render_history_text(found: History, color: bool = False) -> str:
    lines = [f"History of {found.label} ({found.id}), oldest edition first"]
    for n, e in enumerate(found.entries, 1):
        event = _EVENTS.get(e.event, e.event)
        if e.change and e.event in ("edited", "moved+edited"):
            event += f" ({e.change})"
        elif e.change == TERMINOLOGY:
            event += f" (terminology: {', '.join(e.text.terminology)})"
        where = f" as {' + '.join(p.label for p in e.paragraphs)} [{', '.join(p.id for p in e.paragraphs)}]" \
            if e.paragraphs else ""
        head = f"{n}. {e.doc.meta.short} ({e.doc.meta.edition}): {event}{where}"
        lines += ["", click.style(head, bold=True) if color else head]
        if e.moved:
            lines.append(f"   moved from {e.moved.old_section} to {e.moved.new_section}")
        if e.event == "created":
            lines.append("   " + _excerpt(" ".join(p.text for p in e.paragraphs)))
        if e.text and e.event in ("edited", "moved+edited"):
            for s in e.text.signals:
                lines.append("   " + (click.style(s.explain(), fg="yellow") if color else s.explain()))
            lines.append("   " + diff_text(e.text.segments, color))
    return "\n".join(lines)
