"""Mosaico rules, one test per rule of the seed (004_e179c823a12ff168.txt, MOSAICO) or ruling
(RULES.md "Mosaico", docs/rules/mosaico.md)."""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from ludoteca.core import ALL_TILES, DealRng, IllegalMoveError, NotationError, Tile, find_game
from ludoteca.games.mosaico import (
    Cell,
    MosaicMove,
    MosaicoState,
    bounds,
    placement_ok,
)
from ludoteca.tui.base import renderer_for

SPEC = find_game("mosaico")
ROW = "0,0: 1M 2P 3C 4U 5F 6B"


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def with_row(draw: str, aside_top_first: str = "-", variant: str = "mosaico") -> MosaicoState:
    """The starting row 1M 2P 3C 4U 5F 6B, the given piles, the other tiles drawn last."""
    named = set(tiles(ROW[5:])) | set(tiles(draw)) | set(tiles(aside_top_first.strip("-")))
    rest = " ".join(str(t) for t in ALL_TILES if t not in named)
    state = SPEC.from_position(f"{ROW} | {aside_top_first} | {draw} {rest}", SPEC.variant(variant))
    assert isinstance(state, MosaicoState)
    return state


def square(holes: list[Cell], swaps: list[tuple[Cell, Cell]]) -> dict[Cell, Tile]:
    """A 6 x 6 mosaic, row r holding fruit r from 1 to 6, with swaps made and holes left."""
    mosaic = {(r, c): Tile(c + 1, r) for r in range(6) for c in range(6)}
    for a, b in swaps:
        mosaic[a], mosaic[b] = mosaic[b], mosaic[a]
    for cell in holes:
        del mosaic[cell]
    return mosaic


def endgame(aside_bottom_first: str, draw: str) -> MosaicoState:
    """Holes at 0,0 (under 5U), 0,1 (over 2P, beside 3M) and 5,5 (by 6F and 5B), for the
    tiles 1M, 2M and 6B: 1M fits only once 2M is in, 2M fits only at 0,1, 6B only at 5,5."""
    mosaic = square([(0, 0), (0, 1), (5, 5)], [((1, 0), (3, 4))])
    return MosaicoState(SPEC.variant(), None, mosaic, tiles(aside_bottom_first), tiles(draw))


def illegal(state: MosaicoState, move: str) -> str:
    with pytest.raises(IllegalMoveError) as err:
        state.apply(move)
    return str(err.value)


def test_six_tiles_start_face_up_in_a_row() -> None:
    """Seed: "Prendere 6 tessere e disporle scoperte"; RULES.md assumption: in a row, the
    other 30 drawn one by one in a seeded order."""
    state = SPEC.new_game("mosaico", 5)
    assert isinstance(state, MosaicoState)
    assert sorted(state.mosaic) == [(0, c) for c in range(6)]
    assert len(state.draw) == 30 and not state.aside
    assert sorted([*state.mosaic.values(), *state.draw]) == sorted(ALL_TILES)
    assert SPEC.new_game("mosaico", 5).position() == state.position()
    assert SPEC.new_game("mosaico", 6).position() != state.position()


def test_the_starting_row_length_is_a_parameter() -> None:
    """RULES.md: an assumption stays a parameter with its default (start_tiles=6)."""
    state = SPEC.new_game(SPEC.variant("mosaico", {"start_tiles": "1"}), 5)
    assert isinstance(state, MosaicoState)
    assert list(state.mosaic) == [(0, 0)] and len(state.draw) == 35
    with pytest.raises(NotationError):
        SPEC.variant("mosaico", {"start_tiles": "7"})


def test_a_tile_goes_beside_a_tile_of_its_number_or_in_sequence() -> None:
    """Seed: "accanto sopra o sotto ad almeno un'altra tessera che abbia lo stesso numero o lo
    stesso seme in scala". 1P: same number as 1M (column 0), in sequence with 2P (column 1)."""
    state = with_row("1P")
    assert state.legal_moves_text() == ["1P@-1,0", "1P@-1,1", "1P@1,0", "1P@1,1"]
    assert "none has its number" in illegal(state, "1P@1,3")
    assert "touches no tile" in illegal(state, "1P@-2,0")


def test_one_matching_neighbour_is_enough() -> None:
    """Seed: "ad almeno un'altra tessera": other neighbours need not match (basic game)."""
    mosaic = {(0, 0): Tile.parse("2M"), (0, 2): Tile.parse("6C"), (1, 1): Tile.parse("5U")}
    assert placement_ok(mosaic, Tile.parse("3M"), (0, 1), difficile=False)
    assert not placement_ok(mosaic, Tile.parse("4P"), (0, 1), difficile=False)


def test_no_row_or_column_may_reach_seven() -> None:
    """Seed: "non è dunque consentito formare una riga o una colonna con 7 o più tessere".
    The starting row already spans 6 columns, so 1P may not go left of 1M; right of 6B is
    beyond every frame that holds 0,0, so the notation itself refuses it."""
    state = with_row("1P")
    assert "1P@0,-1" not in state.legal_moves_text()
    assert "row or column of 7" in illegal(state, "1P@0,-1")
    with pytest.raises(NotationError, match="outside every frame") as refused:
        state.parse_move("6M@0,6")
    # Well written, only out of reach: no reminder of how a move is written (it read as if
    # the move were malformed).
    assert "a move is" not in str(refused.value) and "-5..5" in str(refused.value)


def test_the_frame_floats_until_six_rows_fix_it() -> None:
    """RULES.md: the frame floats until the tiles fix it. With rows 0..5 filled in column 0,
    row -1 is outside the frame; before that, a tile may go above or below the row."""
    state = with_row("1P")
    assert {"1P@-1,0", "1P@1,0"} <= set(state.legal_moves_text())
    column = {(r, 0): Tile(1, r) for r in range(6)}
    assert placement_ok(column, Tile(2, 0), (0, 1), difficile=False)
    assert not placement_ok(column, Tile(2, 0), (-1, 0), difficile=False)  # 7 rows


def test_a_tile_that_fits_nowhere_is_set_aside_and_only_then() -> None:
    """Seed: "Quando non vi è alcuna possibilità di deporre una tessera, questa va
    accantonata." Ruling (docs): setting aside is the only move then, and illegal otherwise."""
    state = endgame("", "1M 2M 6B")
    assert state.legal_moves_text() == ["1M@aside"]
    state.apply("1M@aside")
    assert state.aside == tiles("1M")
    assert state.legal_moves_text() == ["2M@0,1"]
    assert "only when it fits nowhere" in illegal(state, "aside")


def test_the_set_aside_pile_comes_back_before_the_next_draw() -> None:
    """Seed: "Le tessere accantonate vanno obbligatoriamente rimesse in gioco appena
    possibile"; RULES.md: before each new draw the pile's top is placed if it can be."""
    state = endgame("", "1M 2M 6B")
    state.apply("1M@aside")
    state.apply("2M@0,1")
    turn = state.turn()
    assert turn is not None and turn.tile == Tile.parse("1M") and turn.from_aside
    assert state.legal_moves_text() == ["1M@0,0"]
    assert "the tile to play is 1M" in illegal(state, "6B@5,5")


def test_the_last_tile_set_aside_comes_back_first() -> None:
    """Seed: "a partire dall'ultima che è stata accantonata". 2M fits, but it lies under 1M,
    which does not: the next tile is drawn instead."""
    blocked = endgame("2M 1M", "6B")
    assert blocked.legal_moves_text() == ["6B@5,5"]
    free = endgame("1M 2M", "6B")
    assert free.legal_moves_text() == ["2M@0,1"]
    free.apply("2M@0,1")
    assert free.legal_moves_text() == ["1M@0,0"]


def test_all_36_tiles_placed_win() -> None:
    """Seed: "Il gioco riesce quando si collocano tutte le 36 tessere"."""
    state = endgame("", "1M 2M 6B")
    for move in ["1M@aside", "2M@0,1", "1M@0,0", "6B@5,5"]:
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.won and outcome.termination == "won"
    assert outcome.scores == (36.0,)
    assert bounds(state.mosaic) == (0, 5, 0, 5)


def test_an_empty_draw_pile_and_a_stuck_pile_top_lose() -> None:
    """RULES.md: lost when the draw pile is empty and the top set-aside tile cannot be placed."""
    state = endgame("2M 1M", "6B")
    state.apply("6B@5,5")
    outcome = state.outcome()
    assert outcome is not None and not outcome.won and outcome.termination == "stuck"
    assert outcome.scores == (34.0,) and outcome.details == {"placed": 34, "set_aside": 2}
    assert state.legal_moves() == []
    assert "the game is over" in illegal(state, "1M@0,0")


def test_difficile_needs_two_matches_among_three_or_four_neighbours() -> None:
    """Seed, "Per rendere il solitario più complesso": touching 3 or 4 tiles, a tile must
    share a feature with at least 2 of them; touching 1 or 2, "si procede regolarmente"."""
    mosaic = {
        (0, 0): Tile.parse("2M"),
        (0, 2): Tile.parse("4M"),
        (1, 1): Tile.parse("3P"),
    }
    three_around = (0, 1)
    assert placement_ok(mosaic, Tile.parse("2P"), three_around, difficile=True)  # 2M and 3P
    assert placement_ok(mosaic, Tile.parse("3C"), three_around, difficile=False)
    assert not placement_ok(mosaic, Tile.parse("3C"), three_around, difficile=True)  # 3P only
    assert placement_ok(mosaic, Tile.parse("5M"), (1, 2), difficile=True)  # 2 around, 4M only


def test_difficile_says_why_a_cell_is_refused() -> None:
    """Seed, difficile rule; the message names the neighbours and the rule."""
    mosaic = square([(2, 2), (2, 4)], [])
    state = MosaicoState(SPEC.variant("difficile"), None, mosaic, [], tiles("5C 3C"))
    assert state.legal_moves_text() == ["5C@2,4"]
    assert "must match 2 of them (difficile)" in illegal(state, "5C@2,2")
    easy = MosaicoState(SPEC.variant(), None, dict(mosaic), [], tiles("5C 3C"))
    assert easy.legal_moves_text() == ["5C@2,2", "5C@2,4"]


def test_moves_read_and_print_alike() -> None:
    """Docs, notation: TILE@ROW,COL or TILE@aside; ROW,COL or aside alone mean the tile to play."""
    state = with_row("1P")
    assert state.parse_move("1p@-1,0") == MosaicMove(Tile.parse("1P"), (-1, 0))
    assert state.parse_move(" -1,0 ") == MosaicMove(Tile.parse("1P"), (-1, 0))
    assert state.parse_move("aside") == MosaicMove(Tile.parse("1P"), None)
    assert str(MosaicMove(Tile.parse("1P"), None)) == "1P@aside"
    for bad in ["1P@", "1P@1", "1P@x,2", "9Z@1,1", "1P@9,0"]:
        with pytest.raises(NotationError, match="bad move"):
            state.parse_move(bad)


def test_positions_name_their_problem() -> None:
    """Docs, notation: MOSAIC | ASIDE | DRAW with every tile exactly once."""
    good = with_row("1P").position()
    assert SPEC.from_position(good, SPEC.variant()).position() == good
    cases = {
        good.replace(" | ", " ; ", 1): "needs MOSAIC | ASIDE | DRAW",
        good.replace("1P ", "1M ", 1): "tiles appear twice: 1M",
        good.replace(" 1P", "", 1): "tiles missing: 1P",
        good.replace("0,0: 1M", "0,0: --", 1): "cell 0,0",
        good.replace("6B |", "6B / 1P |", 1): "rows differ in length",
        good.replace("0,0:", "0,0", 1): "top-left cell",
    }
    for text, message in cases.items():
        with pytest.raises(NotationError, match=message):
            SPEC.from_position(text, SPEC.variant())


def test_a_bad_cell_or_tile_in_a_position_is_a_bad_position() -> None:
    """Docs, notation: a position names its top-left cell and its tiles. A cell outside
    every frame, or a bad tile, was told without the "bad position" every other mistake in a
    position gets."""
    good = with_row("1P").position()
    cases = {
        good.replace("0,0:", "9,9:", 1): "bad position '9,9': cell 9,9 is outside every frame",
        good.replace("1P ", "1Z ", 1): "bad position '1Z': '1Z' is not a tile",
        good.replace(" 6B", " 6Z", 1): "bad position '6Z'",
    }
    for text, message in cases.items():
        with pytest.raises(NotationError, match=re.escape(message)):
            SPEC.from_position(text, SPEC.variant())


def test_the_draw_pile_stays_hidden_and_the_set_aside_pile_is_open() -> None:
    """RULES.md: the other tiles are drawn face down; ruling (docs): set-aside tiles were seen,
    so they stay visible, top first; only the drawn tile of the pile is shown."""
    state = endgame("", "1M 2M 6B")
    state.apply("1M@aside")
    seen = json.dumps(state.observation(0))
    assert state.hidden_from(0) == {"6B"}
    assert "6B" not in seen and '"current": "2M"' in seen and '"aside": ["1M"]' in seen
    assert state.observation(0)["draw_count"] == 1


def test_the_draw_count_is_of_the_face_down_tiles_only() -> None:
    """Ruling (docs/rules/mosaico.md, the draw pile): hidden, only its size shown; the drawn
    tile is shown. The count took in the drawn tile: "Draw pile: 1 face down" at the last
    draw, the pile empty."""
    state = endgame("", "2M")
    assert state.observation(0)["current"] == "2M"
    assert state.observation(0)["draw_count"] == 0
    shown = Console(width=80, record=True)
    shown.print(renderer_for("mosaico")(state.observation(0)))
    assert "Draw pile: 0 face down" in shown.export_text()


def test_the_terminal_mosaic_s_columns_are_equally_wide() -> None:
    """RULES.md: the frame floats until the tiles fix it (the board shows one more ring where
    it may still grow), and the starting row's length is a parameter. Each column was as wide
    as its contents: with one starting tile, the ring's columns (a "·" under "-1" or "1")
    were narrower than the tile's (a fruit symbol is two cells wide), and the dots of a row
    stood 6 and 5 cells apart. Every column is now as wide as a tile."""
    state = SPEC.new_game(SPEC.variant("mosaico", {"start_tiles": "1"}), 5)
    shown = Console(width=80, record=True, color_system=None, file=io.StringIO())
    shown.print(renderer_for("mosaico")(state.observation(0)))
    rows = [line for line in shown.export_text().splitlines() if line.strip().startswith("1 ")]
    assert len(rows) == 1
    dots = [i for i, c in enumerate(rows[0]) if c == "·"]
    assert len(dots) == 3 and dots[1] - dots[0] == dots[2] - dots[1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["mosaico", "difficile"]))
def test_random_play_keeps_tiles_frame_and_undo(seed: int, variant: str) -> None:
    """Seed: 36 tiles, a 6 x 6 frame at most; docs: undo and notation round-trip."""
    state = SPEC.new_game(variant, seed)
    assert isinstance(state, MosaicoState)
    rng = DealRng(seed, "test")
    while not state.is_over:
        before = state.position()
        move = rng.choice(state.legal_moves())
        assert state.parse_move(state.move_text(move)) == move
        state.apply(move)
        every = [*state.mosaic.values(), *state.aside, *state.draw]
        assert sorted(every) == sorted(ALL_TILES)
        top, bottom, left, right = bounds(state.mosaic)
        assert bottom - top < 6 and right - left < 6
        state.undo()
        assert state.position() == before
        state.apply(move)
    assert SPEC.from_position(state.position(), state.variant).position() == state.position()
    assert len(state.history) <= SPEC.max_game_length
