"""Scalafrutta in the terminal: the 3 x 3 square with its 12 insertion points, the drawn
tile (for its drawer only), every player's captured tiles (counts under coperte), the
combinations shown at the last split, and the scores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.tui._fruit import legend, seat_label, tile_text, tiles_text
from ludoteca.tui.base import register_renderer


def _square(observation: Mapping[str, Any]) -> RenderableType:
    """The square framed by the insertion points: L/R label rows, T/B label columns."""
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    for _ in range(5):
        grid.add_column(justify="center")
    label = "dim cyan"
    grid.add_row(Text(""), *[Text(f"T{k}", style=label) for k in (1, 2, 3)], Text(""))
    for r, row in enumerate(observation["square"], start=1):
        cells = [tile_text(t) for t in row]
        grid.add_row(Text(f"L{r}", style=label), *cells, Text(f"R{r}", style=label))
    grid.add_row(Text(""), *[Text(f"B{k}", style=label) for k in (1, 2, 3)], Text(""))
    return grid


def _players(observation: Mapping[str, Any]) -> RenderableType:
    """A line for each player: who, their total, then their captures and their last split in
    a column of their own, so that a long list wraps under itself, not under the names."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for seat in range(observation["players"]):
        who = Text("▶ " if seat == observation["to_move"] else "  ")
        you = seat == observation["seat"]
        # "seat 2 (strong)", as the narration and the other games say it ("P2" is the
        # notation's, in moves such as L1>P2)
        who.append(seat_label(observation, seat, "seat "), style="bold" if you else "")
        captured = observation["captured"][seat]
        tiles = Text(f"captured {observation['captured_count'][seat]}: ")
        if captured is None:
            tiles.append("hidden", style="dim")
        else:
            tiles.append_text(tiles_text(captured))
        if observation["shown"][seat]:
            tiles.append(f"\nshown ({observation['shown_points'][seat]} points): ")
            tiles.append_text(
                Text("  ").join(tiles_text(combo) for combo in observation["shown"][seat])
            )
        grid.add_row(who, Text(f"total {observation['totals'][seat]}"), tiles)
    return grid


def _status(observation: Mapping[str, Any]) -> RenderableType:
    """The hand, the target, the combination phases, the draw pile, the tiles going back in
    a split and the last move, each phrase whole on its line (at 80 columns it broke
    "combinations: 0 tiles" / "going back"). The phases are counted out of the most a hand
    may have (rules, End of a hand): "phase 0" alone told nothing."""
    stage = observation["stage"]
    params = observation["params"]
    target = params["target"]
    hand = Text(f"Hand {observation['hand']}", style="bold")
    hand.append("  (single hand)" if target == 0 else f"  (to {target})")
    phrases = [
        hand,
        Text(f"combination phases {observation['phase']} of {params['max_phases']}"),
        Text(f"draw pile: {observation['pile_count']} face down"),
    ]
    if stage == "split":
        phrases.append(Text(f"combinations: {observation['returned_count']} tiles going back"))
    if observation["last_move"]:
        phrases.append(Text(f"last move: {observation['last_move']}", style="dim"))
    return Columns(phrases, padding=(0, 3))


def _prompt(observation: Mapping[str, Any]) -> RenderableType | None:
    legal = observation["legal_moves"]
    if observation["stage"] == "split" and legal:
        if legal == ["split none"]:
            # The best split is no split: there is no 'split best' to offer, nor any list.
            return Text(
                "Your combinations: your tiles make none, so 'split none' (offered below) sends "
                "them all back.",
                style="bold",
            )
        return Text(
            "Your combinations: 'split best' (offered below), 'split none', or your own "
            "list such as 'split 3M-4M-5M 2P-2C-2U'.",
            style="bold",
        )
    if observation["drawn"] is None:
        return None
    prompt = Text("You drew ", style="bold").append_text(tile_text(observation["drawn"]))
    # The example is a move the player may make (a fixed "L1 or T3" was often refused).
    example = f", e.g. {legal[0]}" if legal else ""
    receivers = sorted({move.partition(">")[2] for move in legal if ">" in move})
    if len(receivers) == 1:
        # One opponent: the engine reads `L1` alone as `L1>P2`.
        example += (
            f" (or just {legal[0].partition('>')[0]}: {_seat(receivers[0])} is your one opponent)"
        )
    if receivers:
        # The move names the seat as the notation writes it: P2 is seat 2.
        named = legal[0].partition(">")[2] if ">" in legal[0] else receivers[0]
        prompt.append(
            f" ({observation['drawn']}): nothing matches, so push it in at an edge and name "
            f"the seat that gets the tile pushed out ({named} for {_seat(named)}){example}"
        )
    else:
        prompt.append(f" ({observation['drawn']}): push it in at an edge{example}")
    return prompt


def _seat(receiver: str) -> str:
    """A receiver as the notation writes it (``P2``), in words: ``seat 2``."""
    return f"seat {receiver.removeprefix('P')}"


def _hands(observation: Mapping[str, Any]) -> Text | None:
    if not observation["hands"]:
        return None
    text = Text("Hands so far: ", style="dim")
    for number, (scores, ending) in enumerate(
        zip(observation["hands"], observation["hand_endings"], strict=True), start=1
    ):
        text.append(f"{number}: {'/'.join(map(str, scores))} ({ending})  ", style="dim")
    return text


def render(observation: Mapping[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [
        _status(observation),
        _square(observation),
        _players(observation),
    ]
    for extra in (_hands(observation), _prompt(observation)):
        if extra is not None:
            parts.append(extra)
    outcome = observation["outcome"]
    if outcome is not None:
        winners = ", ".join(seat_label(observation, w, "seat ") for w in outcome["winners"])
        parts.append(Text(f"Game over ({outcome['termination']}): {winners} won.", style="bold"))
    parts.append(legend())
    return Group(*parts)


register_renderer("scalafrutta", render)
