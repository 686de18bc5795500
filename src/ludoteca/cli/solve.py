"""``ludoteca solve``: can this solitaire position be won, and how?"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ludoteca.cli.app import app, console, err_console, fail, json_line
from ludoteca.cli.common import JsonOpt, ParamOpt, VariantOpt, asks_no_limit, resolve
from ludoteca.cli.interrupt import stop_at_once_on_ctrl_c
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import GameSpec, State, Variant
from ludoteca.core.registry import find_game
from ludoteca.core.rng import check_deal_numbers
from ludoteca.solvers.base import SolveResult, find_solver, no_unlimited_search
from ludoteca.store.files import read_text


def _positions(
    spec: GameSpec, variant: Variant, seed: int | None, position: str | None, file: Path | None
) -> Iterator[tuple[dict[str, Any], State[Any] | LudotecaError]]:
    """Each position to solve, with how the user named it, or the error reading it. The
    file is read and ``position`` parsed before anything is solved: a missing file or a
    malformed position came as an error only after another position was solved."""
    text = None if file is None else read_text(file, "a file of positions")
    given = None if position is None else spec.from_position(position, variant)
    if seed is not None:
        yield {"seed": seed}, spec.new_game(variant, seed)
    if position is not None and given is not None:
        yield {"position": position}, given
    if file is not None and text is not None:
        for number, line in enumerate(text.splitlines(), start=1):
            entry = line.strip()
            if not entry or entry.startswith("#"):
                continue
            label = {"line": number, "position": entry}
            try:
                yield label, spec.from_position(entry, variant)
            except LudotecaError as err:
                yield label, LudotecaError(f"{file} line {number}: {err}")


STOPPED = {
    "time": "out of time",
    "states": "state limit reached",
    "room": "the table is full: more time will not help, more --memory may",
    "repetition": "winnable as dealt, but no winning line found that avoids this game's "
    "earlier positions",
}
"""What an undecided answer ran out of (``extra["stopped"]``), in words."""


def _value(key: str, value: object) -> str:
    """A figure of an answer for people: yes/no, "unknown" for none (no limit: "none"),
    20,000,000."""
    if value is None:
        return "none" if key == "max_states" else "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _show(label: dict[str, Any], result: SolveResult) -> None:
    name = ", ".join(f"{k} {v}" for k, v in label.items() if k != "position") or "position"
    why = STOPPED.get(str(result.extra.get("stopped")), "limit reached")
    verdict = {
        True: "[bold green]winnable[/]",
        False: "[bold red]not winnable[/]",
        None: f"[yellow]unknown ({why})[/]",
    }[result.winnable]
    # The solver's label says what the verdict was judged on ("winnable (with all cards
    # known)"), not an unknown. After a dash, "not winnable — winnable with all cards known"
    # read as a contradiction.
    kind = f" ({result.label})" if result.winnable is not None else ""
    # One line each, however narrow the terminal (the terminal wraps it): in a pipe, cut at
    # 80 columns, a script's line "seed 1: winnable ... 49" had its states on the next.
    console.print(
        f"{name}: {verdict}{kind}; {result.states:,} states in {result.seconds:.3f} s",
        soft_wrap=True,
    )
    for key, value in result.extra.items():
        console.print(f"  {key.replace('_', ' ')}: {_value(key, value)}", soft_wrap=True)
    if result.moves:
        console.print("  line: " + " ".join(result.moves), soft_wrap=True)


@app.command("solve")
def solve_command(
    game: Annotated[str, typer.Argument(help="A solitaire (see 'ludoteca games').")],
    variant: VariantOpt = None,
    param: ParamOpt = None,
    seed: Annotated[int | None, typer.Option(help="Solve this deal number.")] = None,
    position: Annotated[str | None, typer.Option(help="Solve a position in notation.")] = None,
    positions: Annotated[
        Path | None, typer.Option(help="Solve every position in a file, one per line.")
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option(
            help="Stop each search after this many states; the answer is then null (default: "
            "the solver's own, 20,000,000 for gaps; 0: no limit, gaps only)."
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            help="Time budget per position instead of the default state limit (gaps: two "
            "threads once a search runs long); the answer is null when it runs out."
        ),
    ] = None,
    memory: Annotated[
        float | None,
        typer.Option(
            help="With --seconds: the most memory in GiB for the solver's table (gaps: "
            "default 2, at least 1/64); a long budget needs more."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Decide whether a position can be won, with a winning line (with --json, a JSON line each)."""
    # The game first, then what goes with what, then the values, as `play` checks them:
    # `solve chess` was told to say what to solve, and `--seed 1 --position x` that the
    # position was bad.
    entry = find_solver(find_game(game).name)
    if [seed, position, positions].count(None) == 3:
        raise fail("say what to solve: --seed N, --position TEXT or --positions FILE")
    if seed is not None and (position is not None or positions is not None):
        given = "--position" if position is not None else "--positions"
        raise fail(
            f"--seed does not go with {given}: a position carries its own deal number, "
            "if any (gaps: '... | seed N')"
        )
    if position is not None and positions is not None:
        # (both were solved, the --position first, which no help or README said)
        raise fail(
            "--position does not go with --positions: one position, or a file of them "
            "(the position can be a line of the file)"
        )
    if seed is not None:
        check_deal_numbers(seed)
    spec, chosen = resolve(game, variant, param)
    if max_states is not None and not entry.limited:
        raise fail(f"the {spec.name} solver takes no --max-states (it searches nothing)")
    if asks_no_limit(max_states) and entry.limited and not entry.searches_without_limit:
        raise fail(no_unlimited_search(spec.name))
    # 0 is no limit, as `study` takes it: the search runs to its end (Ctrl-C stops it).
    limit = max_states if max_states is not None else entry.default_max_states
    if limit == 0:
        limit = None
    timed = entry.solve_timed
    if seconds is not None:
        if timed is None:
            # Pointing only to what this solver takes: Tappeto's refuses --max-states too.
            instead = "; give --max-states" if entry.limited else " (it searches nothing)"
            raise fail(f"the {spec.name} solver takes no --seconds{instead}")
        if not (math.isfinite(seconds) and seconds > 0):
            raise fail(f"--seconds must be positive and finite, not {seconds:g}")
        limit = max_states or None  # the clock replaces the default state limit
    room = None if memory is None else _memory_bytes(memory, seconds, spec.name, timed is not None)
    stop_at_once_on_ctrl_c(lambda: "no answer for the position being solved")
    errors = solved = 0
    for label, state in _positions(spec, chosen, seed, position, positions):
        # Every JSON line names the game and variant, an answer's and an error's alike.
        record = {"game": spec.name, "variant": spec.variant_label(chosen), **label}
        if isinstance(state, LudotecaError):
            errors += 1
            if as_json:
                print(json_line({**record, "error": str(state)}), flush=True)
            err_console.print(f"[bold red]error:[/] {escape(str(state))}", soft_wrap=True)
            continue
        solved += 1
        if timed is not None and seconds is not None:
            result = timed(state, limit, seconds, room)
        else:
            result = entry.solve(state, limit)
        if as_json:
            print(json_line({**record, **result.as_json()}), flush=True)
        else:
            _show(label, result)
    if errors:
        raise typer.Exit(2)
    if not solved:  # only a file can hold nothing to solve
        raise fail(f"{positions}: no position in it (one per line; a line starting # is a note)")


LEAST_MEMORY_GIB = 1 / 64
"""The smallest table a timed search makes (2**20 slots of 16 bytes): less was raised to it
without a word."""


def _memory_bytes(gib: float, seconds: float | None, game: str, timed: bool) -> int:
    """``--memory`` in bytes, checked: it goes with ``--seconds`` and must fit the machine.
    A solver without a timed search takes neither (it was told to give --seconds, which it
    refuses)."""
    if not timed:
        raise fail(f"the {game} solver takes no --memory (it has no timed search)")
    if seconds is None:
        raise fail("--memory goes with --seconds (the table of a timed search)")
    if not gib > 0:
        raise fail(f"--memory must be positive, not {gib:g}")  # (0, as typed: not 0.0)
    if gib < LEAST_MEMORY_GIB:
        raise fail(f"--memory must be at least 1/64 (GiB, the smallest table), not {gib:g}")
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    if gib > total:
        raise fail(f"--memory {gib:g} GiB is more than this machine has ({total:.1f} GiB)")
    return int(gib * 2**30)
