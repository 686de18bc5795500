"""Gaps in the terminal: the grid with its gaps, dead gaps marked, the cards in sequence from
the left of each row highlighted, and the redeals used; drawn from the observation only.
Cards that may move now are underlined (the redeal, when offered, is among the moves)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.core.cards import Card
from ludoteca.tui.base import append_outcome, register_renderer

OPEN_GAP = Text("  __", style="bold yellow")
DEAD_GAP = Text("   ✕", style="dim red")


IN_SEQUENCE = "bold on grey23"
"""The ground of a card in sequence. A card keeps its suit's colour there (red cards were
drawn green, like black ones, when the highlight was a colour of its own)."""


def card_text(notation: str, in_sequence: bool, movable: bool) -> Text:
    card = Card.parse(notation)
    if in_sequence:
        # Colours of their own on the dark ground, so a light terminal shows them too.
        style = f"{'indian_red1' if card.is_red else 'bright_white'} {IN_SEQUENCE}"
    else:
        style = "red" if card.is_red else ""
    if movable:
        style += " underline"
    return Text(f" {card.symbol:>3}", style=style.strip())


def _grid(observation: Mapping[str, Any]) -> Table:
    movable = {m.partition(">")[0] for m in observation["legal_moves"]}
    dead = {(r, c) for r, c in observation["dead"]}
    # No column rules and no padding: 13 columns fit an 80-column terminal.
    table = Table(box=box.SIMPLE, show_header=True, header_style="dim", padding=0)
    table.add_column("", style="dim")
    for col in range(observation["cols"]):
        table.add_column(str(col + 1), justify="right")
    for row, cards in enumerate(observation["grid"]):
        cells = [
            (DEAD_GAP if (row, col) in dead else OPEN_GAP)
            if card is None
            else card_text(card, col < observation["prefix"][row], card in movable)
            for col, card in enumerate(cards)
        ]
        table.add_row(f"r{row + 1}", *cells)
    return table


def _status(observation: Mapping[str, Any]) -> Text:
    full = observation["rows"] * (observation["cols"] - 1)
    status = Text(f"in sequence {observation['in_sequence']}/{full}", style="bold")
    status.append(
        f"   redeals {observation['redeals_used']}/{observation['redeals_allowed']}"
        f"   score {observation['score']:g}"
    )
    if "redeal" in observation["legal_moves"]:
        status.append("   no move left: redeal", style="bold yellow")
    return append_outcome(status, observation)


def render(observation: Mapping[str, Any]) -> RenderableType:
    return Group(Text("Gaps", style="bold"), _grid(observation), _status(observation))


register_renderer("gaps", render)
