"""The Domino della Frutta terminal board shows a seat's view and nothing hidden from it
(seed 004: hands "visibili a lui stesso, ma non agli avversari"; set-aside tiles face down)."""

from __future__ import annotations

import re

from rich.console import Console

from ludoteca.core.rng import DealRng
from ludoteca.games.domino import SPEC, DominoState
from ludoteca.tui.domino import render


def _text(state: DominoState, seat: int) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(render(state.observation(seat)))
    return console.export_text()


def test_the_board_shows_the_table_the_own_hand_and_the_counts() -> None:
    """Seed: the table and one's own hand are visible; others show only their sizes."""
    state = SPEC.new_game(None, 4, 3)
    rng = DealRng(4, "tui")
    for _ in range(10):
        state.apply(rng.choice([m for m in state.legal_moves() if m.kind == "place"]))
    seat = state.to
    text = _text(state, seat)
    for (col, row), tile, _ in state.table.tiles():
        line = next(line for line in text.splitlines() if line.strip().startswith(f"r{row} "))
        assert str(tile) in line, (col, row)
    assert " ".join(str(t) for t in state.hands[seat]) in text
    assert f"Set-aside tiles: {len(state.aside)}" in text
    for player, hand in enumerate(state.hands):
        assert re.search(rf"seat {player + 1}\b.*: {len(hand)} tiles", text)


def test_the_board_never_shows_a_hidden_tile() -> None:
    """Seed: other hands and set-aside tiles stay hidden until open play (then hands show)."""
    for seed in range(3):
        state = SPEC.new_game(None, seed, 2 + seed)
        rng = DealRng(seed, "tui-leak")
        while not state.is_over:
            for seat in range(state.players) if len(state.history) % 3 == 0 else ():
                text = _text(state, seat)
                shown = set(re.findall(r"[1-6][MPCUFB]", text))
                assert not shown & state.hidden_from(seat), state.position()
            state.apply(rng.choice(state.legal_moves()))


def test_blocked_tiles_are_marked() -> None:
    """Seed, Mossa speciale: a turned tile stays on the table face down (docs: still named)."""
    state = SPEC.new_game(None, 2, 2)
    state.apply(state.placements()[0])
    tile = next(t for _, t, _ in state.table.tiles())
    state.apply(f"block {tile}")
    assert f"[{tile}]" in _text(state, 0)


def test_a_blocked_tile_keeps_its_column_s_width() -> None:
    """Seed, Mossa speciale: a table tile is turned face down (shown as ``[1C]``). Each column
    was as wide as its contents, so the turned tile's column widened by two and the columns
    to its right moved; every column is now as wide as a turned tile."""
    state = SPEC.new_game(None, 2, 2)
    for move in ("1U@r0", "1M@r-1", "1B@r-2", "1P@r-3", "2B@r-2", "1C@r-4"):
        state.apply(move)
    before = _text(state, 0).splitlines()
    state.apply("block 1C")
    after = _text(state, 0).splitlines()
    assert before[0].split() == ["row", "1", "2", "3", "4", "5", "6"]
    # The header, and the rows below r-4 (1C's), which hold the same as before.
    assert after[0] == before[0]
    assert _rows(after, "r-3", "r1") == _rows(before, "r-3", "r1")


def _rows(lines: list[str], first: str, last: str) -> list[str]:
    labels = [line.split()[0] if line.strip() else "" for line in lines]
    return lines[labels.index(first) : labels.index(last) + 1]


def test_a_hand_of_one_tile_says_one_tile() -> None:
    """Seed: the others' hands show only their sizes; a hand of one said "1 tiles"."""
    from .test_domino_rules import make

    text = _text(make("1M@r0", ("2M", "")), 1)
    assert re.search(r"seat 1\b.*: 1 tile\b", text) and "1 tiles" not in text


def test_the_last_board_shows_every_hand() -> None:
    """Docs ruling (docs/rules/domino.md, "Hands at the end"): the terminal's last board said
    "hands hidden" and showed only the seat's own hand; once the game is over it shows them all."""
    state = SPEC.new_game(None, 2, 3)
    rng = DealRng(2, "tui-end")
    while not state.is_over:
        state.apply(rng.choice([m for m in state.legal_moves() if str(m) != "open"]))
    assert not state.opened
    text = _text(state, 0)
    assert "hands shown: the game is over" in text and "hands hidden" not in text
    for hand in state.hands[1:]:
        if hand:
            assert " ".join(str(t) for t in hand) in text


def test_the_last_board_says_how_the_game_ended_in_words() -> None:
    """Rules, End: a player wins by placing their last tile, else, once nobody can go on, the
    fewest tiles in hand win. The last line said "Over (domino): seat 2 won." (the ending's
    code name); it now says which of the two happened, and the tiles left in each hand."""
    endings: dict[str, str] = {}
    for seed in range(40):
        state = SPEC.new_game(None, seed, 3)
        rng = DealRng(seed, "tui-ending")
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
        outcome = state.outcome()
        assert outcome is not None
        left = " · ".join(str(len(hand)) for hand in state.hands)
        text = " ".join(_text(state, 0).split())
        last = text[text.index("Over: ") :]
        assert last.endswith(f"(tiles left: {left}).") and "(domino)" not in last
        winners = [f"seat {p + 1}" for p in outcome.winners]
        assert all(winner in last for winner in winners), last
        endings.setdefault(outcome.termination, last)
    assert "placed their last tile and won" in endings["domino"]
    assert "Over: nobody can go on; " in endings["nobody can go on"]
