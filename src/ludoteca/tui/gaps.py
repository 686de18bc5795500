"""Gaps in the terminal: the grid with its gaps, dead gaps marked, the cards in sequence from
the left of each row highlighted, and the redeals used; drawn from the observation only.
Cards that may move now are underlined (the redeal, when offered, is among the moves)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ludoteca.core.cards import Card
from ludoteca.tui.base import append_outcome, register_renderer

IN_SEQUENCE = "bold on grey23"
"""The ground of a card in sequence. A card keeps its suit's colour there (red cards were
drawn green, like black ones, when the highlight was a colour of its own)."""


def card_text(notation: str, in_sequence: bool, movable: bool, width: int = 4) -> Text:
    card = Card.parse(notation)
    if in_sequence:
        # Colours of their own on the dark ground, so a light terminal shows them too.
        style = f"{'indian_red1' if card.is_red else 'bright_white'} {IN_SEQUENCE}"
    else:
        style = "red" if card.is_red else ""
    if movable:
        style += " underline"
    # The card right-aligned in its cell: the cell's blank left is the space between cards
    # (a narrow cell shows the ten as T, as the notation does: "10♥" would touch its left).
    symbol = card.symbol if width > NARROW else card.symbol.replace("10", "T")
    return Text(f"{symbol:>{width}}", style=style.strip())


WIDE = 4
"""A cell's width where the board has the room: " 10♣", a blank before each card."""
NARROW = 3
"""Where it has not ("10♣"): the board fits 45 columns instead of 58 (with the panel)."""


def _grid(observation: Mapping[str, Any], width: int, columns: range | None = None) -> Table:
    """The grid's ``columns`` (all of them by default), ``width`` characters a cell."""
    movable = {m.partition(">")[0] for m in observation["legal_moves"]}
    dead = {(r, c) for r, c in observation["dead"]}
    shown = range(observation["cols"]) if columns is None else columns
    # No rules between columns and no padding: each cell's own blank left parts the cards,
    # so 13 columns fit where the terminal has 4 characters a card, or 3 (a ruled table
    # cut the cards to "…" below 73 columns).
    table = Table(box=None, show_header=True, header_style="dim", padding=0)
    table.add_column("", style="dim")
    for col in shown:
        table.add_column(str(col + 1), justify="right", min_width=width)
    for row, cards in enumerate(observation["grid"]):
        cells = [
            _gap((row, col) in dead, width)
            if cards[col] is None
            else card_text(
                cards[col], col < observation["prefix"][row], cards[col] in movable, width
            )
            for col in shown
        ]
        table.add_row(f"r{row + 1}", *cells)
    return table


def _gap(dead: bool, width: int) -> Text:
    """A dead gap (``✕``: right of a King or of another gap, nothing can fill it while that
    lasts; seed, Gameplay 3) or an open one (``__``)."""
    return Text(f"{'✕' if dead else '__':>{width}}", style="dim red" if dead else "bold yellow")


class _Board:
    """The grid, drawn with wide cells where the console has the room, else narrow; where
    even narrow cells do not fit (below 45 columns with the panel), in two halves, one above
    the other (Rich dropped the columns that did not fit, and moves into them were still
    listed)."""

    def __init__(self, observation: Mapping[str, Any]) -> None:
        self.observation = observation

    def _tables(self, options: ConsoleOptions) -> list[Table]:
        label = len(f"r{self.observation['rows']}")
        cols = self.observation["cols"]
        if options.max_width >= label + WIDE * cols:
            return [_grid(self.observation, WIDE)]
        if options.max_width >= label + NARROW * cols:
            return [_grid(self.observation, NARROW)]
        half = (cols + 1) // 2
        return [
            _grid(self.observation, NARROW, range(half)),
            _grid(self.observation, NARROW, range(half, cols)),
        ]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self._tables(options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        sizes = [Measurement.get(console, options, t) for t in self._tables(options)]
        return Measurement(max(m.minimum for m in sizes), max(m.maximum for m in sizes))


def _status(observation: Mapping[str, Any]) -> Text:
    full = observation["rows"] * (observation["cols"] - 1)
    status = Text(f"in sequence {observation['in_sequence']}/{full}", style="bold")
    status.append(
        f"   redeals {observation['redeals_used']}/{observation['redeals_allowed']}"
        f"   score {observation['score']:g}"
    )
    if "stop" in observation["legal_moves"]:
        # Seed, Redeals: a redeal "is allowed"; where it costs points the player may stop.
        status.append("   no move left: redeal or stop", style="bold yellow")
    elif "redeal" in observation["legal_moves"]:
        status.append("   no move left: redeal", style="bold yellow")
    return append_outcome(status, observation)


DEAD_LEGEND = "✕ a dead gap: right of a King or of another gap, nothing can fill it"
"""Under the board while a dead gap is on it (in play: at the end every gap left is one):
the ``✕`` was explained only by ``rules``, where the web page names each gap "dead"."""


def render(observation: Mapping[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [Text("Gaps", style="bold"), _Board(observation)]
    if observation["dead"] and not observation.get("outcome"):
        parts.append(Text(DEAD_LEGEND, style="dim"))
    return Group(*parts, _status(observation))


register_renderer("gaps", render)
