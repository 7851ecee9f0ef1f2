"""`judge check FILE|DIR [--rules ED] [--compare A,B] [--json]`: replay scenarios.

A standalone click command; the main `judge` group registers it with
`cli.add_command(check)`. Exit code 0 when every scenario passes, 1 when any
expectation fails, a move is refused or not modelled without being expected,
or a scenario is malformed.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import click

from judge.engine import citations as R
from judge.engine.errors import ScenarioError


def _edition_option(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    try:
        return R.edition(value)
    except KeyError:
        raise click.BadParameter(f"unknown edition {value!r}; known: {', '.join(list(R.EDITIONS) + list(R.ALIASES))}")


def _resolver():
    """Cites are shown with the paragraphs' labels and IDs; without a corpus, by section and quote."""
    try:
        from judge.corpus import get_corpus

        corpus = get_corpus()
    except Exception as exc:  # the engine works without the books; only the labels are lost
        click.echo(f"warning: the rulebooks could not be loaded ({exc}); citations are shown by section and quote",
                   err=True)
        return R.OfflineResolver()
    return R.Resolver(corpus)


@click.command("check")
@click.argument("targets", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--rules", "rules", metavar="ED", help="Edition to replay under (current, older); default: the file's.")
@click.option("--compare", "compare", metavar="A,B", help="Replay under two editions and show the steps that differ.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per scenario file, one per line.")
def check(targets: tuple[Path, ...], rules: Optional[str], compare: Optional[str], as_json: bool) -> None:
    """Replay scenario files (or every *.yaml under a directory) and check their expectations."""
    from judge.engine import scenario as sc
    from judge.engine import trace

    edition = _edition_option(rules)
    pair = None
    if compare:
        if rules:
            raise click.BadParameter("use either --rules or --compare", param_hint="--compare")
        parts = [p.strip() for p in compare.split(",") if p.strip()]
        if len(parts) != 2:
            raise click.BadParameter("give two editions, e.g. --compare current,older", param_hint="--compare")
        pair = tuple(_edition_option(p) for p in parts)
    files = [f for t in targets for f in sc.find_scenarios(t)]
    if not files:
        raise click.UsageError("no scenario files (*.yaml) found")
    resolver = _resolver()
    failures = 0
    for i, path in enumerate(files):
        try:
            scenario = sc.load(path)
        except ScenarioError as exc:
            failures += 1
            if as_json:
                click.echo(trace.dumps(trace.scenario_error_json(str(path), edition, exc)))
            else:
                click.echo(f"{exc}\nresult: FAILED (malformed scenario)\n")
            continue
        if pair:
            a, b = sc.run(scenario, pair[0], resolver), sc.run(scenario, pair[1], resolver)
            ok = a.ok and b.ok
            click.echo(trace.dumps(trace.compare_json(a, b, resolver)) if as_json else trace.compare_text(a, b, resolver))
        else:
            result = sc.run(scenario, edition, resolver)
            ok = result.ok
            click.echo(trace.dumps(trace.run_json(result, resolver)) if as_json else trace.run_text(result, resolver))
        if not as_json and i < len(files) - 1:
            click.echo("")
        failures += 0 if ok else 1
    if not as_json and len(files) > 1:
        click.echo(f"{len(files) - failures} of {len(files)} scenarios passed", err=True)
    sys.exit(1 if failures else 0)


def main() -> None:  # for `python -m judge.engine.cli`
    check()


if __name__ == "__main__":
    main()
