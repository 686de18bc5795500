"""``ludoteca replay``: a saved game shown move by move."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel

from ludoteca.cli.app import app, console, fail
from ludoteca.cli.play import HUMAN, ask, final_figures
from ludoteca.core.game import State
from ludoteca.core.practice import PRACTICE
from ludoteca.core.saves import loads, restore
from ludoteca.store.files import read_text
from ludoteca.tui.base import renderer_for
from ludoteca.tui.narrate import NO_ONE, narration


def _views(state: State[Any], seats: list[int], names: list[str]) -> None:
    """Each seat's view in a panel of its own. With every seat's view (a finished game), a
    person's seat is "you" only in their own panel: in a bot's, the one person at the table
    read "seat 1 (you)" above the bot's own "Your hand" (a terminal review)."""
    render = renderer_for(state.spec.name)
    for seat in seats:
        title = "" if state.spec.is_solitaire else f"seat {seat + 1}'s view"
        observation = state.observation(seat)
        if not state.spec.is_solitaire and len(names) == state.players:
            shown = names
            if len(seats) > 1:
                shown = [
                    name if name != HUMAN or i == seat else "person" for i, name in enumerate(names)
                ]
            observation = {**observation, "seat_names": shown}
        console.print(Panel(render(observation), title=title, expand=False))


def _seat(seat: int, names: list[str], you: int | None) -> str:
    """A seat as play's narration names it: "seat 2 (greedy)", "seat 1 (you)" in that
    person's own view, "seat 1 (person)" in another's, "seat 2" where the save names none."""
    if seat >= len(names):
        return f"seat {seat + 1}"
    name = names[seat]
    if name == HUMAN and seat != you:
        name = "person"
    return f"seat {seat + 1} ({escape(name)})"


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game saved with 'save FILE'.")],
    as_player: Annotated[
        int | None, typer.Option("--as-player", help="Show only what this seat (1..n) saw.")
    ] = None,
    step: Annotated[bool, typer.Option(help="Wait for Enter between moves.")] = False,
) -> None:
    """Show a saved game move by move (hidden cards stay hidden unless the game is over)."""
    saved, final = loads(read_text(file), str(file))
    spec = final.spec
    if as_player is not None and not 1 <= as_player <= final.players:
        if spec.is_solitaire:
            raise fail(f"{spec.name} is a solitaire: --as-player can only be 1")
        raise fail(f"--as-player must be between 1 and {final.players}")
    secret = spec.deal_is_secret and not final.is_over
    if secret and saved.seats.count(HUMAN) > 1:
        # Each person's view shows their hand: a seat's view, asked for by whoever runs this
        # (the seat who saved, say), undid the hand-over's gate and the refusal of --seed.
        raise fail(
            f"{file}: several people play this game at one screen and it is not over: a seat's "
            f"view would show that seat's hand to whoever runs replay (play --load {file} goes "
            "on with it; replay it once it is over)"
        )
    if secret and not saved.seats:
        raise fail(
            f"{file}: the save names no seats and the game is not over: a seat's view might show "
            "another person's hand; replay it once it is over"
        )
    if as_player is not None:
        if secret and len(saved.seats) >= as_player and saved.seats[as_player - 1] != HUMAN:
            # A bot's hand is no one's to see before the end (the audit replayed seat 2's).
            raise fail(
                f"seat {as_player} is a bot's ({saved.seats[as_player - 1]}): its view stays "
                "hidden until the game is over; replay a person's seat"
            )
        seats = [as_player - 1]
    elif spec.is_solitaire or final.is_over:
        seats = list(range(final.players))
    else:
        raise fail("this game is not over: choose whose view to replay with --as-player N")
    # "you" in what a move did (Scalafrutta: "gives it to you"): the one person's view alone.
    you = NO_ONE
    if len(seats) == 1 and len(saved.seats) == final.players and saved.seats[seats[0]] == HUMAN:
        you = seats[0]
    moves, saved.moves = saved.moves, []
    state = restore(saved, str(file))
    # The variant as play names it (gaps[redeals=1]: text, not markup); a game begun from
    # a position has no deal number.
    start = "from a position" if saved.seed is None else f"deal {saved.seed}"
    if secret and saved.seed is not None:
        start = "deal shown once the game is over"  # (the number would tell every hand)
    label = escape(spec.variant_shown(final.variant))
    count = f"{len(moves)} move{'' if len(moves) == 1 else 's'}"
    # (A practice game is one taken back past a move that showed hidden tiles.)
    practice = f" · {PRACTICE}" if saved.practice else ""
    console.print(f"[bold]{spec.title}[/] · {label} · {start} · {count}{practice}")
    _views(state, seats, saved.seats)
    for number, move in enumerate(moves, start=1):
        if step:
            try:
                ask("[dim]Enter for the next move[/]")
            except EOFError:
                # The end of input (Ctrl-D, or a pipe run dry) ends the stepping, not in error.
                # (On a new line: the prompt's line was left open when input ended.)
                console.print(
                    f"\nreplay stopped before move {number} of {len(moves)}: end of input"
                )
                return
        mover = state.current_player
        seen = [state.observation(seat) for seat in seats]
        state.apply(move)
        who = "" if spec.is_solitaire else f" (seat {mover + 1})"
        console.rule(f"move {number}{who}: {move}")
        # What the move did, told as play tells it ("draws 4M, pushes out 2B and captures
        # it"), from the views shown only: it read the move's notation alone.
        after = [state.observation(seat) for seat in seats]
        told = narration(spec.name, list(zip(seen, after, strict=True)), mover, you)
        if told:
            console.print(f"{_seat(mover, saved.seats, you)} {escape(told)}", soft_wrap=True)
        _views(state, seats, saved.seats)
    outcome = state.outcome()
    if outcome is not None:
        console.print(f"[bold]result:[/] {escape(final_figures(outcome))}")
