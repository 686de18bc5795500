"""Domino della Frutta in the terminal: the table grid (columns 1..6), hands and counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from ludoteca.core.tiles import FRUITS
from ludoteca.games.domino import observed_table
from ludoteca.tui._fruit import seat_label
from ludoteca.tui.base import register_renderer

FRUIT_STYLES = ("red", "green", "bright_green", "magenta", "bright_red", "yellow")


def _tile(text: str, blocked: bool = False) -> Text:
    if blocked:
        return Text(f"[{text}]", style="dim strike")
    return Text(text, style=f"bold {FRUIT_STYLES[FRUITS.index(text[1])]}")


def _tiles(texts: list[str]) -> Text:
    return Text(" ").join(_tile(t) for t in texts) if texts else Text("-", style="dim")


def _grid(observation: Mapping[str, Any]) -> RenderableType:
    entries = observation["table"]
    if not entries:
        return Text("The table is empty: the first tile goes anywhere (row 0).", style="dim")
    cells = {(e["col"], e["row"]): e for e in entries}
    placeable = observed_table(observation).open_cells()
    rows = [r for _, r in cells] + [r for _, r in placeable]
    # Every column as wide whatever it holds: a tile (4B), a blocked one ([4B]), an open
    # cell or nothing. Sized by their contents, a column widened by 2 when a tile in it was
    # blocked, and the columns right of it moved.
    grid = RichTable(show_lines=False, pad_edge=False, box=None, padding=(0, 0, 0, 1))
    grid.add_column("row", justify="right", style="dim", min_width=3)
    for col in range(1, 7):
        grid.add_column(str(col), justify="center", width=4)
    for row in range(min(rows), max(rows) + 1):
        shown: list[Text] = [Text(f"r{row}")]
        for col in range(1, 7):
            entry = cells.get((col, row))
            if entry is not None:
                shown.append(_tile(entry["tile"], entry["blocked"]))
            elif (col, row) in placeable:
                shown.append(Text("·", style="cyan"))
            else:
                shown.append(Text(""))
        grid.add_row(*shown)
    return grid


def _players(observation: Mapping[str, Any]) -> RenderableType:
    lines = []
    hands = observation["hands"]
    for player, size in enumerate(observation["hand_sizes"]):
        line = Text("▶ " if player == observation["to_move"] else "  ")
        # Seats count from 1 on screen, as the command line names them.
        line.append(seat_label(observation, player, "seat "))
        line.append(f": {size} tile" + ("" if size == 1 else "s"))
        if hands is not None:
            line.append("  ").append_text(_tiles(hands[player]))
        if observation["special_used"][player]:
            line.append("  special used", style="dim")
        if observation["eliminated"][player]:
            line.append("  eliminated", style="red")
        lines.append(line)
    return Group(*lines)


def render(observation: Mapping[str, Any]) -> RenderableType:
    status = Text(f"Set-aside tiles: {observation['aside_count']}   ")
    if observation["open"]:
        status.append("open play")
    else:
        status.append("hands shown: the game is over" if observation["outcome"] else "hands hidden")
    parts: list[RenderableType] = [_grid(observation), status, _players(observation)]
    if observation["you"] is not None:
        parts.append(Text("Your hand: ").append_text(_tiles(observation["hand"])))
    if observation["drawn"]:
        parts.append(Text(f"You drew {observation['drawn']}: place it.", style="bold"))
    outcome = observation["outcome"]
    if outcome:
        parts.append(Text(_ending(observation, outcome), style="bold"))
    return Group(*parts)


def _ending(observation: Mapping[str, Any], outcome: Mapping[str, Any]) -> str:
    """How the game ended, in words: it said "Over (domino): seat 2 won." (rules, End: a win
    by placing the last tile, else the fewest tiles in hand once nobody can go on)."""
    names = [seat_label(observation, p, "seat ") for p in outcome["winners"]]
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    left = " · ".join(str(n) for n in outcome["details"]["tiles_left"])
    if outcome["termination"] == "domino":
        return f"Over: {who} placed their last tile and won (tiles left: {left})."
    won = "shared the win" if len(names) > 1 else "won"
    return (
        f"Over: nobody can go on; {who}, with the fewest tiles in hand, {won} (tiles left: {left})."
    )


register_renderer("domino", render)
