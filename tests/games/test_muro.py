"""Il Muro rules, one test per rule of the seed (004_e179c823a12ff168.txt, IL MURO) or ruling
(RULES.md "Il Muro", docs/rules/muro.md)."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from ludoteca.core import ALL_TILES, DealRng, IllegalMoveError, NotationError, Tile, find_game
from ludoteca.games.muro import MuroState
from ludoteca.tui.base import renderer_for

SPEC = find_game("muro")

# 14 tiles on the wall, the rest on foundations: M to 4, P to 5, C to 4, U to 4, F to 3, B to 2.
MIDGAME = (
    "(6M) 4F / 3B / 6U 5U / - / (5M) 6C 5F / (6P) 5C 6F 4B 5B 6B"
    " | 1M..4M 1P..5P 1C..4C 1U..4U 1F..3F 1B..2B | idle 0 best 22"
)
# Every top is a 6 and every foundation waits for a 5: no move at all.
STUCK = (
    "5M 6P / 5P 6C / 5C 6U / 5U 6F / 5F 6B / 5B 6M"
    " | 1M..4M 1P..4P 1C..4C 1U..4U 1F..4F 1B..4B | idle 0 best 24"
)
ONE_LEFT = "6B / - / - / - / - / - | 1M..6M 1P..6P 1C..6C 1U..6U 1F..6F 1B..5B | idle 0 best 35"


def load(text: str, variant: str = "muro", **params: str) -> MuroState:
    state = SPEC.from_position(text, SPEC.variant(variant, params))
    assert isinstance(state, MuroState)
    return state


def illegal(state: MuroState, move: str) -> str:
    with pytest.raises(IllegalMoveError) as err:
        state.apply(move)
    return str(err.value)


def test_deal_is_six_columns_of_six_with_the_top_layer_up() -> None:
    """Seed: "Formare un muretto di 6 colonne da 6 tessere ... Girare le tessere del primo
    strato." RULES.md: the top tile of each column is turned up."""
    state = SPEC.new_game("muro", 7)
    assert isinstance(state, MuroState)
    assert [len(column) for column in state.wall] == [6] * 6
    assert sorted(t for column in state.wall for t in column) == sorted(ALL_TILES)
    assert state.face_down == {t for column in state.wall for t in column[:-1]}
    assert SPEC.new_game("muro", 7).position() == state.position()
    assert SPEC.new_game("muro", 8).position() != state.position()


def test_a_tile_goes_onto_one_higher_of_another_fruit() -> None:
    """Seed: "il 3 banane sopra il 4 fragole, ma non il 5 uva sopra il 6 uva"."""
    state = load(MIDGAME)
    state.apply("4F c3")  # 4F onto 5U: one higher, another fruit
    state.apply("3B c3")  # 3B onto 4F
    assert [str(t) for t in state.wall[2]] == ["6U", "5U", "4F", "3B"]
    state = load(MIDGAME)
    state.apply("5U c4")
    assert "6U" in illegal(state, "5U c3")
    assert "needs a 5" in illegal(state, "4F c2")  # 3B is lower, not one higher


def test_any_tile_goes_onto_an_empty_column() -> None:
    """Seed: "oppure alla base di una colonna che sia rimasta senza tessere"."""
    state = load(MIDGAME)
    for move in ("6B c4", "3B c4", "4F c4", "5F c4"):
        assert move in state.legal_moves_text()


def test_any_tile_goes_onto_an_uncovered_face_down_tile() -> None:
    """Seed: "E' consentito anche spostare una tessera scoperta sopra un'altra ancora coperta"
    (RULES.md: onto a column whose top tile is face down)."""
    state = load(MIDGAME)
    state.apply("4F c3")  # uncovers the face-down 6M in c1
    state.apply("6B c1")
    assert state.wall[0][-1] == Tile.parse("6B")
    assert Tile.parse("6M") in state.face_down


def test_only_a_face_up_top_tile_moves() -> None:
    """RULES.md: only a column's top tile moves, one tile at a time; ruling: a face-down tile
    never moves before it is turned up."""
    state = load(MIDGAME)
    assert "only the top tile" in illegal(state, "5C c4")  # under 6F
    state.apply("4F c3")
    assert "only the top tile" in illegal(state, "6M c4")  # face down


def test_uncovered_face_down_tiles_may_be_turned() -> None:
    """Seed: "Mano a mano che si liberano tessere coperte, queste possono essere scoperte"."""
    state = load(MIDGAME)
    assert "is up" in illegal(state, "turn c1")
    state.apply("4F c3")
    assert "turn c1" in state.legal_moves_text()
    state.apply("turn c1")
    assert Tile.parse("6M") not in state.face_down
    assert "6M c4" in state.legal_moves_text()
    assert "empty" in illegal(state, "turn c4")


def test_foundations_start_with_the_one_and_build_up_by_fruit() -> None:
    """Seed: "I numeri uno ... iniziano a formare ciascuno una nuova colonna"; a tile follows
    "la tessera immediatamente inferiore e della stessa frutta"."""
    state = SPEC.new_game("muro", 0)
    assert isinstance(state, MuroState)
    tops = [column[-1] for column in state.wall]
    for tile in tops:
        assert (f"{tile} F" in state.legal_moves_text()) == (tile.number == 1)
    state = load(MIDGAME)
    assert "needs 4F" in illegal(state, "5F F")
    state.apply("4F F")
    assert [str(t) for t in state.foundations[4]] == ["1F", "2F", "3F", "4F"]


def test_a_foundation_top_may_go_back_to_the_wall() -> None:
    """Seed: "E' consentito anche trasferire tessere dal nuovo al vecchio muro, rispettando le
    condizioni indicate": the top only, onto one higher of another fruit, an empty column
    or a face-down tile."""
    state = load(MIDGAME)
    state.apply("4M c3")  # onto 5U
    assert state.foundations[0][-1] == Tile.parse("3M")
    assert "5P c6" in state.legal_moves_text()  # onto 6B
    assert "2B c2" not in state.legal_moves_text()  # 3B is the same fruit
    assert "only the top tile" in illegal(state, "1M c4")


def test_the_six_starts_a_foundation_only_in_facile() -> None:
    """Seed, "Per rendere il solitario più semplice": for each fruit the 6 may start the new
    column, built down; "va comunque formata una sola nuova colonna" per fruit."""
    text = "6C / 1C / 2C / 3C / 4C / 5C | 1M..6M 1P..6P -- 1U..6U 1F..6F 1B..6B | idle 0 best 30"
    state = load(text)
    assert "starts with the 1" in illegal(state, "6C F")
    easy = load(text, "facile")
    easy.apply("6C F")
    assert "needs 5C" in illegal(easy, "1C F")
    easy.undo()
    easy.apply("1C F")
    assert "needs 2C" in illegal(easy, "6C F")


def test_a_descending_foundation_builds_down_to_the_one() -> None:
    """Seed, variant: "dalla tessera con il 6 (e svilupparla in ordine decrescente)"."""
    text = "1M / 2M / - / - / - / - | 6M..3M 1P..6P 1C..6C 1U..6U 1F..6F 1B..6B | idle 0 best 34"
    state = load(text, "facile")
    assert "needs 2M" in illegal(state, "1M F")
    state.apply("2M F")
    state.apply("1M F")
    outcome = state.outcome()
    assert outcome is not None and outcome.won


def test_an_emptied_foundation_may_start_again_either_way() -> None:
    """Ruling (docs/rules/muro.md): when every tile of a foundation has gone back to the
    wall, that fruit has no foundation until a 1 (facile: or a 6) starts it again."""
    text = "6C / 2C / 3C / 4C / 5C / - | 1M..6M 1P..6P 1C 1U..6U 1F..6F 1B..6B | idle 0 best 31"
    state = load(text, "facile")
    state.apply("1C c6")
    state.apply("6C F")
    assert [str(t) for t in state.foundations[2]] == ["6C"]


def test_won_when_all_six_foundations_hold_one_to_six() -> None:
    """Seed: "Il solitario riesce se si forma un nuovo muro composto da sei pile ... (1, 2, 3,
    4, 5, 6)"."""
    state = load(ONE_LEFT)
    assert state.outcome() is None
    state.apply("6B F")
    outcome = state.outcome()
    assert outcome is not None and outcome.won and outcome.termination == "won"
    assert outcome.scores == (36.0,)
    assert state.legal_moves() == []


def test_no_move_left_loses() -> None:
    """Ruling (docs/rules/muro.md): the game is lost when no move other than resigning
    remains."""
    outcome = load(STUCK).outcome()
    assert outcome is not None and not outcome.won and outcome.termination == "stuck"


def test_resigning_ends_the_game_lost() -> None:
    """Ruling (docs/rules/muro.md): the player may give up at any time (``resign``)."""
    state = load(MIDGAME)
    assert "resign" in state.legal_moves_text()
    state.apply("resign")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "resigned"
    assert outcome.scores == (22.0,)
    assert state.position().endswith("resigned")
    state.undo()
    assert state.outcome() is None


def test_moves_without_progress_end_the_game() -> None:
    """Ruling (docs/rules/muro.md, no progress): only turning a tile or a new record of
    tiles on the foundations is progress; after ``idle_limit`` moves without it the game is
    lost."""
    state = load(MIDGAME, idle_limit="3")
    state.apply("4F F")  # 23 on foundations: a record
    assert state.idle == 0 and state.best == 23
    state.apply("4F c3")  # back to the wall
    state.apply("4F F")  # 23 again: no record
    assert state.idle == 2 and state.outcome() is None
    state.apply("5U c4")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "no progress"
    state.undo()
    state.apply("turn c1")  # turning is progress
    assert state.idle == 0


def test_the_no_progress_limit_cannot_exceed_the_bound_of_the_game_length() -> None:
    """Ruling: idle_limit is 1..100, so that max_game_length bounds every game."""
    with pytest.raises(NotationError):
        SPEC.variant("muro", {"idle_limit": "101"})
    assert SPEC.max_game_length >= (30 + 36 + 1) * 100


def test_observation_shows_face_down_tiles_as_backs_only() -> None:
    """RULES.md: face-down tiles are hidden; the observation carries only what a player
    sees."""
    state = SPEC.new_game("facile", 3)
    obs = state.observation(0)
    text = json.dumps(obs)
    assert state.hidden_from(0) and len(state.hidden_from(0)) == 30
    for token in state.hidden_from(0):
        assert token not in text
    assert [column.count(None) for column in obs["wall"]] == [5] * 6


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (MIDGAME.replace("3B", "4F"), "twice"),
        (MIDGAME.replace("3B /", "/"), "missing"),
        (MIDGAME.replace(" / -", ""), "6 columns"),
        (MIDGAME.replace("1M..4M", "2M..4M"), "starts with the 1"),
        (MIDGAME.replace("idle 0 best 22", "idle 0 best 2"), "best"),
        (MIDGAME.replace("idle 0", "idle x"), "whole numbers"),
        (MIDGAME.replace("1P..5P", "1M..5M"), "for P"),
        ("(6M) 4F / 3B", "WALL | FOUNDATIONS"),
    ],
)
def test_malformed_positions_say_what_is_wrong(text: str, problem: str) -> None:
    """Contract: malformed notation raises NotationError naming the problem."""
    with pytest.raises(NotationError, match=problem):
        load(text)


def test_no_more_face_down_tiles_than_were_dealt() -> None:
    """Ruling: at most the 30 tiles dealt face down can be face down (turned tiles never go
    back down), which keeps max_game_length a bound for loaded positions too."""
    wall, rest = SPEC.new_game("muro", 0).position().split("|", 1)
    hidden = " / ".join(
        " ".join(t if t.startswith("(") else f"({t})" for t in column.split())
        for column in wall.split("/")
    )
    with pytest.raises(NotationError, match="at most 30 face down"):
        load(f"{hidden} |{rest}")


@pytest.mark.parametrize(
    ("tail", "params", "problem"),
    [
        ("idle 500 best 22", {}, r"idle is 0\.\.100"),
        ("idle 60 best 22", {"idle_limit": "50"}, r"idle is 0\.\.50"),
        ("idle -1 best 22", {}, r"idle is 0\.\.100"),
        ("idle 0 best 99", {}, r"best is 0\.\.36"),
    ],
)
def test_counts_no_game_reaches_are_refused(
    tail: str, params: dict[str, str], problem: str
) -> None:
    """Ruling (docs/rules/muro.md, no progress): the game ends when ``idle`` reaches
    ``idle_limit``, and 36 tiles is the most the foundations hold. A position with an idle
    count above the limit, or a best above 36, was taken as it came."""
    with pytest.raises(NotationError, match=problem):
        load(MIDGAME.replace("idle 0 best 22", tail), **params)
    assert load(MIDGAME.replace("idle 0 best 22", "idle 50 best 36"), idle_limit="50")


@pytest.mark.parametrize("text", ["4B", "4B c7", "9B c1", "turn 3", "4B x", "resign now"])
def test_malformed_moves_say_what_is_wrong(text: str) -> None:
    """Contract: a malformed move raises NotationError."""
    with pytest.raises(NotationError):
        load(MIDGAME).parse_move(text)


def tiles_of(state: MuroState) -> Counter[Tile]:
    return Counter(
        [t for column in state.wall for t in column] + [t for b in state.foundations for t in b]
    )


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["muro", "facile"]),
    st.integers(0, 2**32),
    st.integers(3, 25),
)
def test_random_play_keeps_every_rule_invariant(
    seed: int, variant: str, walk: int, idle_limit: int
) -> None:
    """Properties: tiles are conserved, notation round-trips, undo restores the position and
    the observation never shows a face-down tile, along random games (resigning left out;
    a short no-progress limit keeps them quick)."""
    state = SPEC.new_game(SPEC.variant(variant, {"idle_limit": str(idle_limit)}), seed)
    assert isinstance(state, MuroState)
    rng = DealRng(walk, "test")
    positions = [state.position()]
    while not state.is_over:
        moves = [m for m in state.legal_moves() if m.kind != "resign"]
        move = rng.choice(moves)
        assert state.parse_move(state.move_text(move)) == move
        state.apply(move)
        positions.append(state.position())
        assert tiles_of(state) == Counter(ALL_TILES)
        again = SPEC.from_position(state.position(), state.variant)
        assert again.position() == state.position()
        text = json.dumps(state.observation(0))
        assert not any(token in text for token in state.hidden_from(0))
    assert len(state.history) <= SPEC.max_game_length
    while state.history:
        state.undo()
        positions.pop()
        assert state.position() == positions[-1]


def test_the_terminal_board_shows_backs_tops_and_foundations() -> None:
    """RULES.md: face-down tiles are hidden; the board is drawn from the observation only,
    face-down tiles as backs, face-up tiles as coloured fruit symbols with their number."""
    state = load(MIDGAME)
    state.apply("4F c3")
    console = Console(width=100, record=True, color_system=None)
    console.print(renderer_for("muro")(state.observation(0)))
    text = console.export_text()
    assert text.count("▒▒▒") == 3  # 6M, 5M and 6P are face down
    assert "🍓4" in text and "🍌6" in text  # 4F and 6B face up
    assert "🍎4 4↑" in text  # the apples foundation: top 4M, four tiles, building up
    assert "22/36" in text


def test_a_refused_foundation_move_names_the_fruit_in_words() -> None:
    """Seed: each fruit's foundation starts with its 1 and builds up. The refusal named the
    foundation by its notation letter alone ("the U foundation"); it now says the fruit."""
    state = SPEC.new_game("muro", 1)
    assert isinstance(state, MuroState)
    assert illegal(state, "4M F").endswith("the apples (M) foundation starts with the 1")
    assert illegal(state, "3F F").endswith("the strawberries (F) foundation starts with the 1")


def _board(state: MuroState) -> list[str]:
    console = Console(width=100, record=True, color_system=None, file=io.StringIO())
    console.print(renderer_for("muro")(state.observation(0)))
    return console.export_text().splitlines()


def test_the_board_s_columns_keep_their_places_whatever_they_hold() -> None:
    """RULES.md: a column's top tile moves away, and an uncovered face-down tile may be
    turned up. The board made each column as wide as its contents in characters, and a
    fruit symbol is two cells wide: on deal 3, ``2P c2`` left c1 without a face-up tile, and
    the header and every row of backs moved one cell left (back after ``turn c1``). Now
    every column keeps its width, and the foundations' letters stay as a 1 goes up."""
    state = SPEC.new_game("muro", 3)
    assert isinstance(state, MuroState)
    start = _board(state)
    header = start.index(next(line for line in start if "c1" in line))
    for move in ("2P c2", "turn c1"):
        state.apply(move)
        # The header, its rule and four rows of backs (in every column all along).
        assert _board(state)[header : header + 6] == start[header : header + 6], move
    state = SPEC.new_game("muro", 0)
    assert isinstance(state, MuroState)
    letters = next(line for line in _board(state) if line.split() == list("MPCUFB"))
    state.apply("1C F")
    assert letters in _board(state)
