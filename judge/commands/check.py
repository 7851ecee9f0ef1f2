"""`judge check FILE|DIR [--rules ED] [--compare A,B] [--json]`: replay scenarios (judge.engine; docs/scenarios.md).

The command is where the engine meets the books: it loads the corpus and gives the engine a citation
locator built on it (the engine itself never reads the corpus), so that every step shows its
paragraphs' labels and IDs. Exit code 0 when every scenario passes, 1 when any expectation fails, a
move is refused or not modelled without being expected, or a scenario is malformed or over one of the
replay's limits (judge/engine/limits.py, raised with `--limit NAME=N`). A file that fails never stops
the files after it from being checked.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import click

from judge.engine import limits as L
from judge.engine.citations import ALIASES, RIVALS, RULES_EDITIONS, CiteLocator, OfflineCiteLocator, rules_edition
from judge.engine.errors import ScenarioError


def _edition_option(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    try:
        return rules_edition(value)
    except KeyError:
        raise click.BadParameter(f"unknown edition {value!r}; known: {', '.join(list(RULES_EDITIONS) + list(ALIASES))}")


def _books():
    """The engine's citation locator on the corpus (cites are shown with the paragraphs' labels and IDs; without
    the books, by section and quote), and the card catalog the scenarios' named cards are read with (loaded once;
    None without the books or the card data: a scenario naming a card is then refused, saying why)."""
    from judge.corpus import get_corpus  # here and below: what only a check needs (`judge --help` loads this module)

    try:
        corpus = get_corpus()
    except Exception as exc:  # the engine works without the books; only the labels are lost
        click.echo(f"warning: the rulebooks could not be loaded ({exc}); citations are shown by section and quote",
                   err=True)
        return OfflineCiteLocator(), None
    return CiteLocator(corpus), _catalog(corpus)


def _catalog(corpus):
    from judge.cards import get_cards
    from judge.engine.vtes.cards import Catalog

    try:
        return Catalog(get_cards(corpus))
    except Exception as exc:  # scenarios that name no card are checked all the same
        click.echo(f"warning: the card base could not be loaded ({exc}); scenarios naming a card are refused",
                   err=True)
        return None


def _limits_option(ctx, param, values: tuple[str, ...]) -> L.Limits:
    limits = L.DEFAULT
    for setting in values:
        try:
            limits = limits.with_override(setting)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    return limits


@click.command("check")
@click.argument("targets", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--rules", "rules", metavar="ED", help="Edition to replay under (current, older); default: the file's.")
@click.option("--compare", "compare", metavar="A,B", help="Replay under two editions and show the steps that differ.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per scenario file, one per line.")
@click.option("--limit", "limits", metavar="NAME=N", multiple=True, callback=_limits_option,
              help=f"Raise (or lower) one of the replay's limits, e.g. --limit events=1000 (repeatable). "
                   f"Limits: {', '.join(f'{n}={getattr(L.DEFAULT, n)}' for n in L.Limits.names())} "
                   f"(docs/scenarios.md).")
def check(targets: tuple[Path, ...], rules: Optional[str], compare: Optional[str], as_json: bool,
          limits: L.Limits) -> None:
    """Replay scenario files (or every *.yaml under a directory) and check their expectations."""
    from judge.engine import scenario as sc

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
    locator, cards = _books()
    failures = 0
    for i, path in enumerate(files):
        # Whatever goes wrong with one file is reported with it, and the files after it are checked.
        ok = _check_file(path, edition, pair, as_json, locator, limits, cards)
        if not as_json and i < len(files) - 1:
            click.echo("")
        failures += 0 if ok else 1
    if not as_json and len(files) > 1:
        click.echo(f"{len(files) - failures} of {len(files)} scenarios passed", err=True)
    sys.exit(1 if failures else 0)


def _check_file(path: Path, edition: Optional[str], pair: Optional[tuple], as_json: bool, locator,
                limits: L.Limits, cards=None) -> bool:
    """Replay one file and print its report; whether it passed."""
    from judge.engine import scenario as sc
    from judge.engine import trace

    try:
        scenario = sc.load(path, limits, cards)
        if scenario.game == RIVALS and (pair or edition):
            # --rules and --compare name V:TES editions: a Rivals scenario (of a directory, say) is replayed
            # under its own rulebook, and says so.
            note = (f"{path}: a Rivals scenario, replayed under its own rules (rivals); --rules and --compare "
                    f"name V:TES editions")
            click.echo(note, err=True)
            pair, edition = None, None
        if pair:
            a, b = sc.run(scenario, pair[0], locator, limits), sc.run(scenario, pair[1], locator, limits)
            reports = [trace.checked_json(run, locator, limits) for run in (a, b)]
            if as_json:
                obj = trace.compare_json(a, b, locator)
                obj["runs"] = {run.edition: report for run, (report, _) in zip((a, b), reports)}
                click.echo(trace.dumps(obj))
            else:
                click.echo(trace.compare_text(a, b, locator))
            return a.ok and b.ok
        result = sc.run(scenario, edition, locator, limits)
        _, text = trace.checked_json(result, locator, limits)
        click.echo(text if as_json else trace.run_text(result, locator))
        return result.ok
    except ScenarioError as exc:
        exc = exc if exc.file else exc.at(str(path))
        if as_json:
            click.echo(trace.dumps(trace.scenario_error_json(str(path), edition, exc)))
        else:
            what = "over a limit: see docs/scenarios.md, Limits" if isinstance(exc, L.OverLimit) else "malformed scenario"
            click.echo(f"{exc}\nresult: FAILED ({what})")
    except Exception as exc:  # a fault of judge's own: said, and the next file is checked all the same
        message = f"judge failed on this file ({type(exc).__name__}: {exc}); this is a bug in judge, please report it"
        if as_json:
            click.echo(trace.dumps(trace.scenario_error_json(str(path), edition, InternalError(message))))
        else:
            click.echo(f"{path}: {message}\nresult: FAILED (internal error)")
    return False


class InternalError(ScenarioError):
    """A fault of judge's own on one file: reported with that file (`kind: "internal-error"`), never a
    traceback, and the files after it are checked all the same."""

    kind = "internal-error"
