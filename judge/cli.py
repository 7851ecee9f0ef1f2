"""The `judge` command line. Every command has `--json`; those shapes are a
contract other tools rely on (docs/cli.md)."""
from __future__ import annotations

import importlib
import json
import logging
import sys
from typing import Optional

import click

from judge.errors import JudgeError, UnknownIdError


def emit_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, dict) and
                          len(json.dumps(data)) > 2000 else 2))


class _LogToStderr(logging.Handler):
    """judge's log lines on stderr as the CLI's own (`warning: ...`), written to
    whatever stderr is when they come (click's test runner swaps it)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            level = "warning" if record.levelno < logging.ERROR else "error"
            if record.levelno < logging.WARNING:
                level = "judge"
            click.echo(f"{level}: {self.format(record)}", err=True)
        except Exception:  # a log line must never break the command
            self.handleError(record)


def log_to_stderr(level: int = logging.WARNING) -> None:
    """Show judge's log on stderr, from `level` up: warnings (a cache or an index
    found damaged and rebuilt, a data file kept at its last good copy) for a
    command; a server's log (judge serve) adds what it did (an index rebuilt)."""
    logger = logging.getLogger("judge")
    handler = next((h for h in logger.handlers if isinstance(h, _LogToStderr)), None)
    if handler is None:
        handler = _LogToStderr()
        logger.addHandler(handler)
    handler.setLevel(min(level, handler.level or level))
    logger.setLevel(min(handler.level, logger.level or handler.level))


def load():
    """The corpus, warning once on stderr about documents that failed to load; a
    SourceError naming the manifest when none did."""
    from judge.corpus import get_corpus
    from judge.errors import SourceError

    corpus = get_corpus()
    for err in corpus.errors:
        click.echo(f"warning: {err} (document skipped)", err=True)
    for doc in corpus.documents.values():
        for d in doc.diagnostics:
            if d.code == "truncated":  # what loaded is served, but it is not the whole book
                click.echo(f"warning: {doc.meta.source}:{d.line}: {d.message}", err=True)
    if not corpus.documents:
        raise SourceError("manifest.yaml", 0, "no document could be loaded: " + (
            f"each of the {len(corpus.errors)} it lists failed (see the warnings above)" if corpus.errors
            else "it lists none under 'documents:'"))
    return corpus


def _doc_or_fail(corpus, doc_id: str):
    doc = corpus.documents.get(doc_id)
    if doc is None:
        raise click.BadParameter(f"no document {doc_id!r}; known: {', '.join(corpus.documents)}",
                                 param_hint="DOC")
    return doc


class UserError(click.ClickException):
    """A JudgeError shown as `error: ...` with its own exit code, never a traceback."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code

    def format_message(self) -> str:
        return self.message


class JudgeGroup(click.Group):
    """The `judge` group: user errors become messages, and the commands of the
    other parts load only when called (so `judge docs` never imports the engine,
    the search index or numpy)."""

    LAZY = {
        "search": "judge.commands.search:search",
        "graph": "judge.commands.graph:graph",
        "diff": "judge.commands.diff:diff",
        "history": "judge.commands.diff:history",
        "check": "judge.commands.check:check",
        "serve": "judge.commands.serve:serve",
    }

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            module, _, attr = self.LAZY[name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UnknownIdError as exc:
            raise UserError(str(exc), 1) from None
        except JudgeError as exc:
            raise UserError(str(exc), 2) from None


@click.group(cls=JudgeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="judge")
def cli() -> None:
    """Rules judge and reference browser for V:TES and VTM Rivals."""
    log_to_stderr()


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def docs(as_json: bool) -> None:
    """List the documents of the corpus."""
    corpus = load()
    rows = [d.to_json() for d in corpus.documents.values()]
    if as_json:
        emit_json([{k: r[k] for k in ("id", "title", "game", "edition", "source", "sections", "paragraphs")}
                   for r in rows])
        return
    for r in rows:
        click.echo(f"{r['id']:<8} {r['game']:<7} {r['sections']:>4} sections {r['paragraphs']:>5} paragraphs  "
                   f"{r['title']} [{r['edition']}]")


def _toc_tree(corpus, section_ids: list[str]) -> list[dict]:
    out = []
    for sid in section_ids:
        sec = corpus.sections[sid]
        out.append({"id": sec.id, "number": sec.number, "title": sec.title, "label": sec.label,
                    "paragraphs": len(sec.paragraphs), "children": _toc_tree(corpus, sec.children)})
    return out


@cli.command()
@click.argument("doc")
@click.option("--json", "as_json", is_flag=True)
def toc(doc: str, as_json: bool) -> None:
    """Show a document's table of contents."""
    corpus = load()
    document = _doc_or_fail(corpus, doc)
    tree = _toc_tree(corpus, [s.id for s in document.sections if s.parent is None])
    if as_json:
        emit_json(tree)
        return

    def walk(nodes, depth):
        for n in nodes:
            number = f"{n['number']} " if n["number"] else ""
            click.echo(f"{'  ' * depth}{number}{n['title']}  [{n['id']}]")
            walk(n["children"], depth + 1)
    walk(tree, 0)


def show_data(corpus, ident: str) -> dict:
    """The JSON shape of `judge show` (also served by the web API)."""
    from judge.lookup import resolve
    from judge.model import Paragraph

    match = resolve(corpus, ident)
    item = corpus.get(match.id)
    breadcrumb = [{"id": s.id, "title": s.title, "label": s.label} for s in corpus.section_path(match.id)]
    if isinstance(item, Paragraph):
        refs_out = item.refs
        data = {"id": item.id, "doc": item.doc, "label": item.label, "kind": item.kind, "text": item.text}
    else:
        paras = corpus.paragraphs_of(item.id, deep=False)
        refs_out = [r for p in paras for r in p.refs]
        data = {"id": item.id, "doc": item.doc, "label": item.label, "kind": "section", "title": item.title,
                "text": "\n\n".join(p.text for p in paras), "paragraphs": [p.id for p in paras],
                "subsections": list(item.children)}
    data["section"] = breadcrumb
    data["refs_out"] = [{"raw": r.raw, "status": r.status, "target": r.target, "reason": r.reason}
                        for r in refs_out]
    data["refs_in"] = [{"source": r.source, "raw": r.raw, "status": r.status}
                       for r in corpus.refs_in(item.id)]
    data["resolved_from"] = {"query": ident, "how": match.how, "note": match.note, "also": list(match.also)}
    return data


@cli.command()
@click.argument("ident", metavar="ID")
@click.option("--json", "as_json", is_flag=True)
def show(ident: str, as_json: bool) -> None:
    """Show a paragraph or section: by ID, label, vekn.net URL, section or outline number."""
    corpus = load()
    data = show_data(corpus, ident)
    if as_json:
        emit_json(data)
        return
    how = data["resolved_from"]
    if how["how"] != "id":
        click.echo(f"{ident!r} → {data['id']}" + (f" ({how['note']})" if how["note"] else ""))
    if how["also"]:
        click.echo(f"also: {', '.join(how['also'])}")
    click.echo(" › ".join(s["title"] for s in data["section"]))
    click.echo(f"{data['label']}  [{data['id']}]  ({data['kind']})\n")
    click.echo(data["text"])
    if data["refs_out"]:
        click.echo("\nReferences:")
        for r in data["refs_out"]:
            click.echo(f"  {r['raw']} → {r['target'] or r['status']}" + (f"  ({r['reason']})" if r["reason"] else ""))
    if data["refs_in"]:
        click.echo("\nCited by:")
        for r in data["refs_in"]:
            click.echo(f"  {r['source']}  ({r['raw']})")


@cli.command()
@click.option("--status", type=click.Choice(["resolved", "external", "broken"]), help="Only this status.")
@click.option("--doc", help="Only references written in this document.")
@click.option("--json", "as_json", is_flag=True)
def refs(status: Optional[str], doc: Optional[str], as_json: bool) -> None:
    """List the references found in the texts and how each was resolved."""
    corpus = load()
    if doc:
        _doc_or_fail(corpus, doc)
    rows = [r for r in corpus.references()
            if (not status or r.status == status) and (not doc or r.source.startswith(doc + ":"))]
    if as_json:
        emit_json([{"source": r.source, "raw": r.raw, "kind": r.kind, "status": r.status, "target": r.target,
                    "reason": r.reason} for r in rows])
        return
    for r in rows:
        click.echo(f"{r.status:<8} {r.source:<28} {r.raw[:50]:<50} → {r.target or ''}"
                   + (f"  ({r.reason})" if r.reason else ""))
    counts = {s: sum(1 for r in rows if r.status == s) for s in ("resolved", "external", "broken")}
    click.echo(f"{len(rows)} references: " + ", ".join(f"{n} {s}" for s, n in counts.items()), err=True)


@cli.command(name="lint")
@click.argument("docs_", metavar="[DOC]...", nargs=-1)
@click.option("--json", "as_json", is_flag=True)
def lint_cmd(docs_: tuple[str, ...], as_json: bool) -> None:
    """The editor's report: broken references, placeholders, empty citations, duplicates, gaps."""
    from judge.lint import lint

    corpus = load()
    for d in docs_:
        _doc_or_fail(corpus, d)
    findings = lint(corpus, docs_ or None)
    if as_json:
        emit_json([f.to_json() for f in findings])
        return
    for f in findings:
        where = f"{f.doc}:{f.line}"
        click.echo(f"{where:<12} {f.severity:<7} {f.code:<17} {f.message}" + (f"  [{f.paragraph}]" if f.paragraph else ""))
    click.echo(f"{len(findings)} findings", err=True)


@cli.command()
@click.option("--doc", help="Only this document.")
def export(doc: Optional[str]) -> None:
    """Every paragraph as JSON lines: {id, doc, label, kind, section, text}."""
    corpus = load()
    if doc:
        _doc_or_fail(corpus, doc)
    for d in corpus.documents.values():
        if doc and d.id != doc:
            continue
        for p in d.paragraphs:
            click.echo(json.dumps({"id": p.id, "doc": p.doc, "label": p.label, "kind": p.kind,
                                   "section": p.section, "text": p.text}, ensure_ascii=False))


def main() -> None:
    try:
        cli()
    except BrokenPipeError:  # `judge export | head`
        sys.exit(0)


if __name__ == "__main__":
    main()
