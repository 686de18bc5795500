"""Domino della Frutta rules, one test per rule of the seed (004, DOMINO DELLA FRUTTA) or ruling.

Quotes are from ``seeds/004_e179c823a12ff168.txt``; "RULES.md" means our rulings file and
"docs" means ``docs/rules/domino.md``.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core.errors import IllegalMoveError, NotationError
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, Tile
from ludoteca.games._domino_table import ANY_FRUIT, Table
from ludoteca.games.domino import SPEC, DominoParams, DominoState, from_position, parse_move


def make(
    table: str = "-",
    hands: tuple[str, ...] = ("", ""),
    aside: str = "",
    *,
    spare: int = -1,
    to: int = 0,
    turn: int = 1,
    special: str = "-",
    out: str = "-",
    opened: bool = False,
    drawn: str = "-",
    square_ban: bool = True,
) -> DominoState:
    """A position from the named tiles; every tile not named goes to hand ``spare``."""
    named = {w.rstrip("*").split("@")[0] for w in table.split() if w != "-"}
    named |= {w for text in (*hands, aside) for w in text.split()}
    filled = list(hands)
    filled[spare] += " " + " ".join(str(t) for t in ALL_TILES if str(t) not in named)
    if opened:  # (open play is declared from the second round on: turn >= players)
        turn = max(turn, len(hands))
    sections = [
        f"to {to}",
        f"turn {turn}",
        "hands " + " / ".join(h.strip() or "-" for h in filled),
        f"aside {aside or '-'}",
        f"table {table}",
        f"special {special}",
        f"out {out}",
        f"open {'yes' if opened else 'no'}",
        f"drawn {drawn}",
    ]
    variant = dataclasses.replace(SPEC.default_variant, params=DominoParams(square_ban))
    return from_position(" | ".join(sections), variant)


def placements(state: DominoState) -> set[str]:
    return {str(m) for m in state.placements()}


# --- setup ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_sets_aside_one_tile_per_player_and_deals_the_rest_evenly(players: int) -> None:
    """Seed: "Mettere da parte tante tessere (coperte) quanti sono i giocatori. Distribuire
    equamente tutte le altre tessere"."""
    state = SPEC.new_game(None, 11, players)
    assert len(state.aside) == players
    assert [len(h) for h in state.hands] == [(36 - players) // players] * players
    every = [t for h in state.hands for t in h] + state.aside
    assert sorted(every) == sorted(ALL_TILES)
    assert state.table.empty
    assert SPEC.new_game(None, 11, players).position() == state.position()


def test_the_first_player_and_the_deal_come_from_the_seed() -> None:
    """RULES.md: every deal comes from a seed; the seed also picks the first player."""
    firsts = {SPEC.new_game(None, seed, 3).to for seed in range(30)}
    deals = {SPEC.new_game(None, seed, 3).position() for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert len(deals) == 30


# --- placement geometry ---------------------------------------------------------------------
def test_the_first_tile_goes_anywhere_in_row_zero() -> None:
    """Seed: "Il primo di mano depone una tessera ... scegliendola a piacere"; RULES.md: the
    first tile fixes the columns (docs: its row is row 0)."""
    state = SPEC.new_game(None, 3, 2)
    assert set(state.legal_moves_text()) == {f"{t}@r0" for t in state.hands[state.to]}
    tile = state.hands[state.to][0]
    with pytest.raises(IllegalMoveError, match="row 0"):
        state.apply(f"{tile}@r1")


def test_same_numbers_stack_in_their_column_and_sequences_run_along_rows() -> None:
    """Seed: a tile goes next to one "che abbia lo stesso numero ovvero sia della stessa frutta
    in scala"; RULES.md geometry: column = number, same fruit side by side."""
    state = make("4B@r0", ("4M 4P 5B 5M 6B 3B", ""))
    assert placements(state) == {"4M@r-1", "4M@r1", "4P@r-1", "4P@r1", "5B@r0", "3B@r0"}


def test_a_row_neighbour_of_another_fruit_forbids_the_cell() -> None:
    """RULES.md: every horizontal neighbour must be face up and of the same fruit."""
    state = make("3M@r0 5P@r0 4B@r-1", ("4M 4P", ""))
    assert "4M@r0" not in placements(state) and "4P@r0" not in placements(state)
    with pytest.raises(IllegalMoveError, match="right of r0 of column 4 is 5P"):
        state.apply("4M@r0")


def test_a_tile_must_touch_the_table() -> None:
    """Seed: each tile goes "accanto ad una già sul tavolo"."""
    state = make("4B@r0", ("6B", ""))
    with pytest.raises(IllegalMoveError, match="touches no tile"):
        state.apply("6B@r0")


def test_no_two_by_two_square_may_form() -> None:
    """Seed: "nel tavolo non può mai essere formato un quadrato di 4 tessere"; RULES.md
    keeps the ban a parameter (the figure is lost)."""
    state = make("4B@r0 5B@r0 4M@r1", ("5M", ""))
    assert placements(state) == {"5M@r-1"}
    with pytest.raises(IllegalMoveError, match="2 x 2"):
        state.apply("5M@r1")
    loose = make("4B@r0 5B@r0 4M@r1", ("5M", ""), square_ban=False)
    assert placements(loose) == {"5M@r-1", "5M@r1"}


def test_a_blocked_tile_counts_in_the_square() -> None:
    """RULES.md: no 2 x 2 square of four tiles, blocked ones count."""
    state = make("4B@r0* 5B@r0 4M@r1", ("5M", ""))
    assert "5M@r1" not in placements(state)


def test_nothing_goes_next_to_a_blocked_tile_but_diagonally_is_fine() -> None:
    """Seed, Mossa speciale: "nessuna altra tessera potrà poi ... venire ad essa accostata";
    docs: "next to" means sharing a side."""
    state = make("4B@r0* 4M@r1", ("3B 4P 5M", ""))
    assert placements(state) == {"4P@r2", "5M@r1"}
    with pytest.raises(IllegalMoveError, match="next to the blocked tile 4B"):
        state.apply("3B@r0")


def test_a_tile_that_fits_nowhere_is_told_so_with_the_reason() -> None:
    """RULES.md geometry: a tile goes only into its number's column, next to a tile, beside
    tiles of its fruit. A tile that fits in no cell is told so whatever the row tried, with
    what stands beside the cells of its column; the player to move's observation carries
    the same reason for each such tile in their hand (the web page shows it on a click)."""
    state = make("4B@r0 4M@r1* 3P@r-1", ("6B 3M 5C 5B 4P", ""))
    assert state.observation(0)["unplaceable"] == {
        "6B": "6B fits nowhere now: every empty cell of column 6 touches no tile",
        "5C": "5C fits nowhere now: each empty cell of column 5 next to a tile lies beside"
        " another fruit (4B) or lies next to the blocked tile 4M",
    }
    assert state.observation(1)["unplaceable"] == {}
    with pytest.raises(IllegalMoveError, match="5C fits nowhere now: each empty cell"):
        state.apply("5C@r7")
    lone = make("4B@r0", ("3M", ""))
    assert lone.observation(0)["unplaceable"] == {
        "3M": "3M fits nowhere now: the one empty cell of column 3 next to a tile lies beside"
        " another fruit (4B)"
    }
    square = make("4B@r0 5B@r0 4M@r1 6B@r-1", ("5M", ""))
    assert square.observation(0)["unplaceable"] == {
        "5M": "5M fits nowhere now: each empty cell of column 5 next to a tile lies beside"
        " another fruit (6B) or would close a 2 x 2 square"
    }


def test_with_a_drawn_tile_to_place_the_others_say_it_comes_first() -> None:
    """Seed, Impossibilità di deporre: a drawn tile that fits is placed at once."""
    state = make("1M@r0", ("6B", ""), aside="2M 6C")
    state.apply("draw")
    assert state.observation(0)["unplaceable"] == {"6B": "the drawn tile 2M must be placed first"}


# --- being stuck ------------------------------------------------------------------------
def test_a_player_who_can_place_may_not_draw_or_go_out() -> None:
    """RULES.md: a player who can place must place (or use the special move)."""
    state = make("1M@r0", ("2M", ""), aside="6C 5C")
    assert "draw" not in state.legal_moves_text()
    with pytest.raises(IllegalMoveError, match="must"):
        state.apply("draw")


def test_a_drawn_tile_that_fits_must_be_placed_by_the_same_player() -> None:
    """Seed, Impossibilità di deporre: "se questa può essere deposta, il giocatore la depone"."""
    state = make("1M@r0", ("6B", ""), aside="2M 6C")
    assert set(state.legal_moves_text()) == {"draw", "block 1M"}
    state.apply("draw")
    assert state.to == 0 and state.legal_moves_text() == ["2M@r0"]
    with pytest.raises(IllegalMoveError, match="drawn tile 2M"):
        state.apply("block 1M")
    state.apply("2M@r0")
    assert state.to == 1 and state.hands[0] == [Tile.parse("6B")]


def test_a_drawn_tile_that_does_not_fit_is_kept_and_the_turn_passes() -> None:
    """Seed: "in caso contrario se la tiene in mano e passa comunque il turno"."""
    state = make("1M@r0", ("6B", ""), aside="6C 2M")
    state.apply("draw")
    assert state.to == 1 and state.drawn is None
    assert set(state.hands[0]) == {Tile.parse("6B"), Tile.parse("6C")}
    assert state.aside == [Tile.parse("2M")]


def test_with_no_set_aside_tile_a_stuck_player_is_eliminated_and_skipped() -> None:
    """Seed: "Quando le tessere accantonate sono finite, un giocatore che al suo turno non
    può deporre alcuna tessera viene eliminato dal gioco"."""
    state = make("1M@r0", ("6B", ""), special="0")
    assert state.legal_moves_text() == ["out"]
    state.apply("out")
    assert state.out == [True, False] and state.to == 1
    state.apply("1P@r1")
    assert state.to == 1, "the eliminated player is skipped"


# --- the special move -----------------------------------------------------------------------
def test_the_special_move_blocks_a_table_tile_once_per_player() -> None:
    """Seed, Mossa speciale: "ogni giocatore ha diritto di effettuare una e una sola mossa
    speciale ... ne può rovesciare una di quelle che già si trovano sul tavolo"."""
    state = make("1M@r0 2M@r0", ("3M 6B", ""))
    assert {"block 1M", "block 2M"} <= set(state.legal_moves_text())
    state.apply("block 2M")
    assert state.special == [True, False] and state.to == 1
    state.apply("1P@r1")
    assert not any(m.startswith("block") for m in state.legal_moves_text())
    with pytest.raises(IllegalMoveError, match="already used"):
        state.apply("block 1M")
    with pytest.raises(IllegalMoveError, match="blocked tile 2M"):
        state.apply("3M@r0")


def test_in_open_play_the_special_move_needs_a_placeable_tile() -> None:
    """Seed: "Quando si gioca a tessere scoperte, la mossa speciale non può essere effettuata
    se il giocatore non ha in quello stesso turno la possibilità di deporre una tessera"."""
    stuck = make("1M@r0", ("6B", ""), aside="5C", opened=True)
    assert stuck.legal_moves_text() == ["draw"]
    with pytest.raises(IllegalMoveError, match="open hands"):
        stuck.apply("block 1M")
    placing = make("1M@r0", ("2M", ""), aside="5C", opened=True)
    assert "block 1M" in placing.legal_moves_text()


def test_with_hidden_hands_a_stuck_player_may_block_instead_of_drawing() -> None:
    """Docs ruling: the seed forbids the special move without a placeable tile only in open
    play, so with hidden hands a stuck player may use it instead of drawing or going out."""
    state = make("1M@r0", ("6B", ""))
    assert set(state.legal_moves_text()) == {"out", "block 1M"}
    state.apply("block 1M")
    assert state.out == [False, False] and state.to == 1


# --- open hands -------------------------------------------------------------------------
def test_open_play_can_be_declared_from_the_second_round_and_shows_every_hand() -> None:
    """Seed, Tessere scoperte: "Dal secondo giro in poi al proprio turno uno qualunque dei
    giocatori può richiedere che tutte le tessere vengano scoperte"."""
    state = SPEC.new_game(None, 8, 3)
    for _ in range(3):
        assert "open" not in state.legal_moves_text()
        state.apply(state.placements()[0])
    assert state.turn == 3 and "open" in state.legal_moves_text()
    mover = state.to
    other = (mover + 1) % 3
    assert state.observation(other)["hands"] is None
    state.apply("open")
    assert state.to == mover, "declaring open play does not end the turn"
    assert "open" not in state.legal_moves_text()
    shown = state.observation(other)["hands"]
    assert shown == [[str(t) for t in h] for h in state.hands]


# --- the end ----------------------------------------------------------------------------
def test_placing_the_last_tile_wins() -> None:
    """Seed, Fine della partita: "La partita finisce quando un giocatore riesce a deporre
    tutte le sue tessere"."""
    state = make("1M@r0", ("2M", ""))
    state.apply("2M@r0")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.termination == "domino"
    assert state.legal_moves() == []
    # Minus the tiles left: the winner's 0 is a plain 0 (the terminal showed "-0").
    assert outcome.scores == (0.0, -float(len(state.hands[1])))
    assert f"{outcome.scores[0]:g}" == "0"


def test_when_nobody_can_go_on_the_fewest_tiles_win_and_ties_share() -> None:
    """Seed: "Se nessuno vi riesce, vince comunque chi è rimasto con meno tessere in mano";
    RULES.md: ties share."""
    state = make("1M@r0*", ("6B 5B", "6C 6P", ""), special="0 1 2", opened=True)
    for _ in range(3):
        assert state.legal_moves_text() == ["out"]
        state.apply("out")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.termination == "nobody can go on"
    assert outcome.details["tiles_left"] == [2, 2, 31]


# --- notation -------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["4B@r-1", "1M@r0", "6U@r12", "draw", "block 3P", "open", "out"])
def test_moves_round_trip(text: str) -> None:
    """Docs: move notation."""
    assert str(parse_move(text)) == text


def test_lenient_move_spellings_read_as_the_canonical_form() -> None:
    """Docs: tiles in any case, the ``r`` before the row optional."""
    assert str(parse_move("4b@-1")) == "4B@r-1"
    assert str(parse_move(" BLOCK 3p ")) == "block 3P"


def test_a_refused_placement_names_its_cell_as_the_notation_does() -> None:
    """Docs (Geometry): a cell is written ``r-1 of column 4``, in the notation's words (a move
    is ``4B@r-1``). Each reason a cell is refused named it ``c4r-1``, which nothing typed
    reads."""
    for table, tile, move, why in [
        ("4B@r0 5B@r0", "6B", "6B@r1", "r1 of column 6 touches no tile"),
        ("4B@r0 5B@r0", "4M", "4M@r0", "r0 of column 4 already holds 4B"),
        ("4B@r0* 4M@r1", "4P", "4P@r-1", "r-1 of column 4 is next to the blocked tile 4B"),
        ("4B@r0 5B@r0 4M@r1", "5M", "5M@r1", "r1 of column 5 would close a 2 x 2 square"),
    ]:
        with pytest.raises(IllegalMoveError) as refused:
            make(table, (f"{tile} 1M", "")).apply(move)
        assert str(refused.value) == f"{move}: {why}"
    with pytest.raises(IllegalMoveError, match=r"^4M@r0: right of r0 of column 4 is 5P, not M"):
        make("3M@r0 5P@r0 4B@r-1", ("4M 1M", "")).apply("4M@r0")
    good = make("1M@r0", ("2M", "")).position()
    with pytest.raises(NotationError, match="r0 of column 1 already holds 1M"):
        from_position(good.replace("table 1M@r0", "table 1M@r0 1P@r0"), SPEC.default_variant)


@pytest.mark.parametrize("text", ["4X@r1", "block", "4B@rx", "jump", "4B", "block 7P"])
def test_malformed_moves_raise_notation_errors(text: str) -> None:
    """Docs: malformed notation raises NotationError with one line."""
    with pytest.raises(NotationError):
        parse_move(text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.replace("aside -", "aside 1M"), "twice"),
        (lambda p: p.replace("table 1M@r0", "table -"), "missing"),
        (lambda p: p.replace("table 1M@r0", "table 1M@r0 1P@r0"), "already holds"),
        (lambda p: p.replace("turn 1", "tour 1"), "turn"),
        (lambda p: p.replace(" / 1P", " 1P"), "1 hands"),
        (lambda p: p.replace("drawn -", "drawn 1P"), "drawn tile"),
        (lambda p: p.replace("out -", "out 7"), "not a player"),
    ],
)
def test_malformed_positions_raise_notation_errors(change: object, message: str) -> None:
    """Docs: position notation; every tile once, one tile per cell, 2-4 hands."""
    good = make("1M@r0", ("2M", "")).position()
    assert callable(change)
    with pytest.raises(NotationError, match=message):
        from_position(change(good), SPEC.default_variant)


def test_positions_the_rules_cannot_reach_are_refused() -> None:
    """Seed, Impossibilità di deporre: an eliminated player "viene eliminato dal gioco", and
    a drawn tile is still to place only when it fits ("in caso contrario se la tiene in mano
    e passa comunque il turno"). A position with an eliminated player to move was read, and
    that player went on placing tiles; one with a drawn tile that fits nowhere was read as a
    game still going on with no legal move at all."""
    eliminated = make("1M@r0", ("2M 6B", "")).position().replace("out -", "out 0")
    with pytest.raises(NotationError, match="eliminated"):
        from_position(eliminated, SPEC.default_variant)
    unfit = make("1M@r0", ("6B 5C", "")).position().replace("drawn -", "drawn 6B")
    with pytest.raises(NotationError, match="fits nowhere"):
        from_position(unfit, SPEC.default_variant)
    # Open play is declared from the second round on (docs/rules/domino.md, 5), so a
    # position of the first round cannot have it.
    early = make("1M@r0", ("2M 6B", "5C")).position().replace("open no", "open yes")
    with pytest.raises(NotationError, match="second round"):
        from_position(early, SPEC.default_variant)
    # When everyone is out, the last to go out is still the one "to move": a finished game.
    over = make("1M@r0*", ("6B", "6C", ""), out="0 1 2", special="0 1 2").position()
    assert from_position(over, SPEC.default_variant).is_over
    # Nor does an eliminated player come to move once the game ends by a domino: the one
    # who placed the last tile stays to move (a position with player 0 out and to move
    # beside an empty hand was read).
    domino = make("1M@r0", ("6B", "", ""), spare=1).position().replace("out -", "out 0")
    assert from_position(domino.replace("to 0", "to 2"), SPEC.default_variant).is_over
    with pytest.raises(NotationError, match="eliminated"):
        from_position(domino, SPEC.default_variant)


# --- properties over random games -------------------------------------------------------
def _random_game(seed: int, players: int) -> list[DominoState]:
    state = SPEC.new_game(None, seed, players)
    rng = DealRng(seed, "test-domino")
    seen = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
        seen.append(state.clone())
    return seen


def _reference_fits(table: Table, tile: Tile, row: int) -> bool:
    """The placement rule written plainly from RULES.md, for the differential test."""
    col = tile.number
    taken = set(table.face_up) | set(table.blocked)
    sides = [(col - 1, row), (col + 1, row)]
    near = [(col, row - 1), (col, row + 1), *sides]
    squares = [
        {(col + dc, row), (col, row + dr), (col + dc, row + dr)} for dc in (-1, 1) for dr in (-1, 1)
    ]
    return (
        (col, row) not in taken
        and any(c in table.face_up for c in near)
        and not any(c in table.blocked for c in near)
        and all(table.face_up[c].fruit == tile.fruit for c in sides if c in table.face_up)
        and not any(square <= taken for square in squares)
    )


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_tiles_are_conserved_and_positions_round_trip(seed: int, players: int) -> None:
    """Seed: 36 tiles in all; docs: the position notation round-trips."""
    for state in _random_game(seed, players):
        every = [t for h in state.hands for t in h] + state.aside
        every += [t for _, t, _ in state.table.tiles()]
        assert sorted(every) == sorted(ALL_TILES)
        text = state.position()
        assert from_position(text, state.variant).position() == text


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_incremental_open_cells_match_the_plain_rule(seed: int, players: int) -> None:
    """Differential: the table's incremental open cells, its direct ``why_not`` check and a
    plain reference of the RULES.md placement rule agree on every cell and tile."""
    for state in _random_game(seed, players):
        table = state.table
        if table.empty:
            continue
        rows = [r for (_, r), _, _ in table.tiles()]
        opened = table.open_cells()
        for tile in ALL_TILES:
            for row in range(min(rows) - 2, max(rows) + 3):
                fits = _reference_fits(table, tile, row)
                assert (table.why_not(tile, row) is None) == fits, (state.position(), tile, row)
                need = opened.get((tile.number, row))
                assert (need is not None and need in (ANY_FRUIT, tile.fruit)) == fits


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_undo_restores_every_position(seed: int, players: int) -> None:
    """Contract: undo takes a move back exactly."""
    state = SPEC.new_game(None, seed, players)
    rng = DealRng(seed, "undo")
    before = []
    while not state.is_over:
        before.append(state.position())
        state.apply(rng.choice(state.legal_moves()))
    while before:
        state.undo()
        assert state.position() == before.pop()


def test_games_end_within_the_declared_bound() -> None:
    """Docs: every turn uses up a tile, a set-aside tile, a special move or a player, so a
    game has at most 36 + 3 x 4 + 1 moves."""
    longest = max(len(_random_game(seed, p)) - 1 for seed in range(40) for p in (2, 3, 4))
    assert longest <= SPEC.max_game_length
