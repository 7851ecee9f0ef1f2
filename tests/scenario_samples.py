"""Scenarios at the replay's limits (judge/engine/limits.py), for the tests of the engine, the CLI and the web.

`at_limits()` is a legal game at a table of 10 Methuselahs and 60 vampires, 100 events (bleeds that are
blocked and fought, hunts, referendums, turn after turn, one of them "next turn" around the table: 15 turns,
271 steps) and 100 expectations, all met: every count at its limit but the turns and steps, which `fights()`
(about 13 steps an event: 39 events make 496) and `turns()` reach. `crafted()` is the input issue 18 measured: 1,000 players and 400 "next turn" events.
"""
from __future__ import annotations

from judge.engine.limits import DEFAULT

PLAYERS = [f"Methuselah {chr(65 + i)}" for i in range(DEFAULT.players)]
PER_PLAYER = DEFAULT.minions // DEFAULT.players
VAMPIRES = {p: [f"{p.split()[1]}{k} the Vampire" for k in range(PER_PLAYER)] for p in PLAYERS}


def _table(phase: str, extra: str = "") -> list[str]:
    minions = [f"  - {{name: {v}, controller: {p}, capacity: 11, blood: 11, title: Prince of City {v[:2]}{extra}}}"
               for p in PLAYERS for v in VAMPIRES[p]]
    return [f"players: [{', '.join(PLAYERS)}]", f"turn: {PLAYERS[0]}", f"phase: {phase}", "minions:", *minions]


def at_limits(events: int = DEFAULT.events, expectations: int = DEFAULT.expectations) -> str:
    out, t, cycle = [], 0, 0
    while len(out) < events:
        p, prey = PLAYERS[t % len(PLAYERS)], PLAYERS[(t + 1) % len(PLAYERS)]
        a, b = VAMPIRES[p], VAMPIRES[prey]
        out += ["minion phase", f"{a[0]} bleeds {prey}", f"{b[3]} attempts to block", f"{p} passes",
                f"{a[0]} uses its hand strike", f"{b[3]} uses its hand strike", "nobody presses",
                f"{a[1]} hunts", "nobody blocks", f"{a[2]} plays Parity Shift {len(out)}, a political action",
                "nobody blocks", f"{a[2]} votes for", f"{b[1]} votes against", "the polling closes"]
        if cycle == 3:
            out.append(f"{p}'s next turn")  # once around the table: 10 turns
        else:
            out.append("end of turn")
            t += 1
        cycle += 1
    expect = [f"  in_play.{v}: true" for p in PLAYERS for v in VAMPIRES[p]]
    expect += [f"  controller.{v}: {p}" for p in PLAYERS for v in VAMPIRES[p]]
    expect += [f"  type.{v}: vampire" for p in PLAYERS for v in VAMPIRES[p]]
    expect += [f"  ousted.{p}: false" for p in PLAYERS] + [f"  withdrawn.{p}: false" for p in PLAYERS]
    return "\n".join(["title: every count at its limit", *_table("master"), "events:" if events else "events: []",
                      *[f"  - {e}" for e in out[:events]], "expect:", *expect[:expectations]]) + "\n"


def fights(events: int) -> str:
    """Combats made by card effects one after the other: about 13 steps an event."""
    out = []
    for i in range(events):
        a = VAMPIRES[PLAYERS[i % len(PLAYERS)]][(i // len(PLAYERS)) % PER_PLAYER]
        b = VAMPIRES[PLAYERS[(i + 1) % len(PLAYERS)]][(i // len(PLAYERS) + 1) % PER_PLAYER]
        out.append(f"  - {a} enters combat with {b} through Bum's Rush {i}")
    return "\n".join([*_table("minion"), "events:", *out]) + "\n"


def turns(rounds: int) -> str:
    """`rounds` times "next turn" at the table of 10: ten turns each."""
    return "\n".join([*_table("minion"), "events:", *[f"  - {PLAYERS[0]}'s next turn"] * rounds]) + "\n"


def crafted(players: int = 1000, events: int = 400) -> str:
    """The 13.5 KB denial of service of issue 18: each event a round of the table, 1,000 turns. Before the
    limits /api/check took 34.8 s on it, answered 307 MB and grew to 2.05 GB (measured here on the code of
    main, as the issue did: 35.6 s, 307 MB, 2.2 GB)."""
    names = [f"P{i}" for i in range(players)]
    return f"players: [{', '.join(names)}]\nturn: P0\nphase: minion\nevents:\n" + "  - P0's next turn\n" * events
