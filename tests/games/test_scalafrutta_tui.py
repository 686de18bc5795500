"""The Scalafrutta terminal board shows what the observation holds, and nothing hidden."""

from __future__ import annotations

from rich.console import Console

from ludoteca.core.registry import find_game
from ludoteca.core.tiles import Tile
from ludoteca.games.scalafrutta import ScalafruttaState, mask_tiles
from ludoteca.tui.base import renderer_for


def draw(state: ScalafruttaState, seat: int) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderer_for("scalafrutta")(state.observation(seat)))
    return console.export_text()


def test_board_shows_square_drawn_tile_and_hides_coperte_captures() -> None:
    state = find_game("scalafrutta").new_game("coperte", 3, 2)
    assert isinstance(state, ScalafruttaState)
    for _ in range(10):
        state.apply(state.legal_moves()[0])
    mover = state.current_player
    text = draw(state, mover)
    for tile in state.square:
        assert Tile.from_index(tile).symbol in text
    drawn = Tile.from_index(state.pile[-1])
    assert f"You drew {drawn.symbol} ({drawn})" in text
    assert "L1" in text and "B3" in text and "hidden" in text
    other = draw(state, 1 - mover)
    assert "You drew" not in other
    line = next(row for row in other.splitlines() if row[2:].startswith(f"P{mover + 1} "))
    assert line.endswith("hidden")
    assert not any(Tile.from_index(t).symbol in line for t in mask_tiles(state.held[mover]))


def test_board_shows_the_outcome() -> None:
    state = find_game("scalafrutta").new_game("mano", 2, 2)
    assert isinstance(state, ScalafruttaState)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert "Game over (single hand)" in draw(state, 0)


def test_the_prompt_s_example_is_a_move_the_player_may_make() -> None:
    """Seed, Scalafrutta: the drawn tile must match the tile it pushes (RULES.md: the one
    directly pushed). The prompt's example was always "L1 or T3", often refused; on deals
    0-19 after 0-5 moves it is always one of the legal moves."""
    checked = 0
    for seed in range(20):
        state = find_game("scalafrutta").new_game("mano", seed, 2)
        assert isinstance(state, ScalafruttaState)
        for _ in range(seed % 6):
            state.apply(state.legal_moves()[0])
        mover = state.current_player
        text = " ".join(draw(state, mover).split())
        example = text.split("e.g. ", 1)[1].split(" ")[0]
        assert example in state.legal_moves_text(), (seed, example)
        checked += 1
    assert checked == 20
