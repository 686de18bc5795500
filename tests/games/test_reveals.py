"""Which moves bring hidden information to light (``State.reveals_to``), game by game: the
moves that undo and restart must not take back unnoticed (docs/architecture.md, *Practice*;
each game's ruling *Practice* in docs/rules/<game>.md)."""

from __future__ import annotations

from typing import Any

from ludoteca.core.game import State
from ludoteca.core.registry import find_game


def first_moves(state: State[Any], count: int) -> State[Any]:
    for _ in range(count):
        state.apply(state.legal_moves()[0])
    return state


def until_legal(state: State[Any], wanted: str, avoid: tuple[str, ...] = ()) -> State[Any]:
    """Play the first legal moves (not those starting with ``avoid``) until ``wanted`` is
    legal."""
    while wanted not in state.legal_moves_text():
        moves = [m for m in state.legal_moves_text() if not m.startswith(avoid)]
        state.apply(moves[0])
    return state


def test_gaps_a_redeal_shows_a_new_layout_and_a_card_move_nothing() -> None:
    """docs/rules/gaps.md, ruling *Practice*: the redeal's shuffle is news; moving a card is
    not."""
    state = find_game("gaps").new_game("gaps", 12)
    assert all(not state.reveals_to(move) for move in state.legal_moves())
    until_legal(state, "redeal")
    assert state.reveals_to(state.parse_move("redeal")) == {0}


def test_tappeto_a_play_shows_the_reserve_top_unless_it_is_the_last_card() -> None:
    """docs/rules/tappeto.md, ruling 8: the refill turns up the reserve's top card; the
    reserve's last card is the one card not in sight."""
    state = find_game("tappeto").new_game("con-scarti", 1)
    assert all(state.reveals_to(move) == {0} for move in state.legal_moves())
    while len(state.reserve) > 1:  # type: ignore[attr-defined]
        state.apply(state.legal_moves()[0])
    assert all(not state.reveals_to(move) for move in state.legal_moves())


def test_acme_the_first_pass_of_the_stock_and_the_reserve_show_cards() -> None:
    """docs/rules/acme.md, ruling *Practice*: a draw before the waste is first turned over
    and a move of the reserve's top turn up unseen cards; a draw after it shows only cards
    seen in that order, and a column's card shows nothing."""
    state = find_game("acme").new_game(None, 1)
    assert state.reveals_to(state.parse_move("draw")) == {0}
    until_legal(state, "turn", avoid=("turn",))
    state.apply("turn")
    assert not state.reveals_to(state.parse_move("draw"))
    state = find_game("acme").new_game(None, 1)
    reserve_top = str(state.reserve[-1])  # type: ignore[attr-defined]
    for move in state.legal_moves():
        text = state.move_text(move)
        expected = {0} if text.startswith(reserve_top) or text == "draw" else set()
        assert state.reveals_to(move) == expected, text


def test_muro_turning_a_tile_shows_it_and_moving_one_does_not() -> None:
    """docs/rules/muro.md, ruling 6: `turn` shows a face-down tile (unless it is the last
    one, known without turning it); a move of a face-up tile shows nothing."""
    state = find_game("muro").new_game(None, 1)
    assert all(not state.reveals_to(m) for m in state.legal_moves())
    while not any(t.startswith("turn") for t in state.legal_moves_text()):
        state.apply(state.legal_moves()[0])
    turn = next(m for m in state.legal_moves() if state.move_text(m).startswith("turn"))
    assert state.reveals_to(turn) == {0}
    state.face_down = {state.wall[turn.column][-1]}  # type: ignore[attr-defined]
    assert not state.reveals_to(turn)


def test_mosaico_a_move_that_leads_to_a_draw_shows_the_next_tile() -> None:
    """docs/rules/mosaico.md, ruling *Practice*: placing or setting aside the drawn tile
    draws the next one, face down until then."""
    state = find_game("mosaico").new_game(None, 3)
    for move in state.legal_moves():
        assert state.reveals_to(move) == {0}


def test_domino_open_hands_show_every_hand_to_every_seat() -> None:
    """docs/rules/domino.md, ruling *Practice*: declaring open hands shows each seat the
    others' hands."""
    state = first_moves(find_game("domino").new_game(None, 0, 3), 3)
    assert state.current_player == 0
    assert state.reveals_to(state.parse_move("open")) == {0, 1, 2}


def test_domino_a_draw_shows_its_drawer_the_tile_and_a_placement_shows_the_others() -> None:
    """docs/rules/domino.md, ruling *Practice*: the drawn tile is its drawer's to see; a tile
    placed leaves its player's hidden hand, news to the other seats, not to its player."""
    state = first_moves(find_game("domino").new_game(None, 0, 3), 6)
    assert state.current_player == 0 and "draw" in state.legal_moves_text()
    assert state.reveals_to(state.parse_move("draw")) == {0}
    state = find_game("domino").new_game(None, 0, 3)
    mover = state.current_player
    placed = state.legal_moves()[0]
    assert state.reveals_to(placed) == {0, 1, 2} - {mover}


def test_scalafrutta_an_insertion_shows_the_others_its_tile_and_the_next_its_draw() -> None:
    """docs/rules/scalafrutta.md, ruling *Practice*: the drawn tile is its player's alone
    until it goes in; then every other seat sees it, and the next player draws."""
    state = find_game("scalafrutta").new_game(None, 2, 3)
    mover = state.current_player
    assert state.reveals_to(state.legal_moves()[0]) == {0, 1, 2} - {mover}


def test_asking_leaves_the_game_as_it_was() -> None:
    """docs/architecture.md, *Practice*: `revealed_in_last` takes the moves back to ask each
    where it was played, then plays them again."""
    state = first_moves(find_game("acme").new_game(None, 1), 5)
    before, history = state.position(), state.history_text()
    replayed, told = find_game("acme").new_game(None, 1), []
    for text in history:
        move = replayed.parse_move(text)
        told.append(0 in replayed.reveals_to(move))
        replayed.apply(move)
    assert state.revealed_in_last(0) == any(told)
    assert state.revealed_in_last(0, 2) == any(told[-2:])
    assert state.position() == before and state.history_text() == history
