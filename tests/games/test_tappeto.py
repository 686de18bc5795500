"""Tappeto rules, one test per rule of the seed (002_2781edcd7553a594.txt) or RULES.md ruling."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from ludoteca.core.cards import FULL_DECK, Card
from ludoteca.core.errors import IllegalMoveError, NotationError, UnknownGameError
from ludoteca.core.game import TERMINAL
from ludoteca.core.rng import DealRng
from ludoteca.games.tappeto import SPEC, TappetoState, from_position
from ludoteca.tui.base import renderer_for

TAPPETO = SPEC.variant("tappeto")
CON_SCARTI = SPEC.variant("con-scarti")
GRANDE = SPEC.variant("grande")
TINY = SPEC.variant("tappeto", {"rows": "1", "cols": "3"})


def deal(variant_name: str = "tappeto", seed: int = 7) -> TappetoState:
    state = SPEC.new_game(variant_name, seed)
    assert isinstance(state, TappetoState)
    return state


def cards_of(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def all_cards(state: TappetoState) -> list[Card]:
    up = [Card(r, s) for s, top in enumerate(state.foundations) for r in range(1, top + 1)]
    return [c for c in state.carpet if c is not None] + state.reserve + up


def position(carpet: str, foundations: str, reserve: str = "-") -> TappetoState:
    """A 1 x 3 position (``TINY``); the cards not named are already on the foundations."""
    return from_position(f"{carpet} | {foundations} | {reserve}", TINY)


# --- setup ---------------------------------------------------------------------------------


def test_setup_aces_start_the_foundations_and_20_cards_form_a_4x5_carpet() -> None:
    """Seed, Preparazione 3-5: aces to the foundations, 20 face-up cards 4 x 5, 28 reserve."""
    state = deal()
    assert state.foundations == [1, 1, 1, 1]
    assert len(state.carpet) == 20 and None not in state.carpet
    assert len(state.reserve) == 28
    assert all(c is not None and c.rank != 1 for c in state.carpet + state.reserve)
    assert sorted(all_cards(state)) == sorted(FULL_DECK)
    assert state.position().split("|")[0].count("/") == 3


def test_con_scarti_deals_the_aces_with_the_rest() -> None:
    """Seed, Varianti "con scarti" and RULES.md: 20 + 32 cards, foundations start empty."""
    state = deal("con-scarti")
    assert state.foundations == [0, 0, 0, 0]
    assert len(state.carpet) == 20 and len(state.reserve) == 32
    assert sorted(all_cards(state)) == sorted(FULL_DECK)


def test_grande_has_a_5x6_carpet_and_18_in_the_reserve() -> None:
    """Seed, Varianti "Tappeto più grande": a 5 x 6 carpet leaves 18 cards in the reserve."""
    state = deal("grande")
    assert len(state.carpet) == 30 and len(state.reserve) == 18
    assert state.position().split("|")[0].count("/") == 4


def test_the_same_seed_deals_the_same_cards() -> None:
    """RULES.md: the same seed and variant give the same deal; another seed another deal."""
    assert deal(seed=11).position() == deal(seed=11).position()
    assert deal(seed=11).position() != deal(seed=12).position()


def test_the_deal_is_the_seeded_shuffle_of_the_deck_in_order() -> None:
    """RULES.md (seeded deals): carpet row by row, then the reserve, from DealRng's shuffle."""
    deck = list(FULL_DECK)
    DealRng(5, "tappeto").shuffle(deck)
    state = deal("con-scarti", 5)
    assert state.carpet + state.reserve == deck
    aces_out = [c for c in deck if c.rank != 1]
    assert deal("tappeto", 5).carpet == aces_out[:20]


def test_a_carpet_too_big_for_the_deck_is_refused() -> None:
    """RULES.md (variants are parameters): a carpet must fit in one deck."""
    with pytest.raises(NotationError, match="does not fit"):
        SPEC.variant("tappeto", {"rows": "7", "cols": "7"})
    with pytest.raises(UnknownGameError):
        SPEC.variant("tappeto", {"rows": "many"})


def test_an_empty_carpet_is_refused_as_such() -> None:
    """RULES.md (variants are parameters): a carpet has at least one row and one column.
    rows=0 was told that "a 0 x 5 carpet does not fit in one deck"."""
    with pytest.raises(NotationError, match="rows and cols must be at least 1, not 0 and 5"):
        SPEC.variant("tappeto", {"rows": "0"})


# --- play ----------------------------------------------------------------------------------


def test_a_carpet_card_goes_up_on_the_next_rank_of_its_suit() -> None:
    """Seed, Svolgimento 1: same suit, one rank higher; nothing else moves."""
    state = position("QC KC KD", "JC QD KH KS", "-")
    assert state.legal_moves_text() == ["QC", "KD"]
    with pytest.raises(IllegalMoveError, match="clubs foundation needs QC"):
        state.apply("KC")
    state.apply("QC")
    assert state.foundations[0] == 12


def test_a_gap_is_filled_at_once_from_the_top_of_the_reserve() -> None:
    """Seed, Svolgimento 2: the gap takes the reserve's top card, in the same cell."""
    state = position("QC 4D 5D", "JC 3D KH KS", "KC 6D QD JD TD 9D 8D 7D KD")
    state.apply("4D")
    assert state.carpet == cards_of("QC KC 5D")
    assert state.reserve[0] == Card.parse("6D")
    state.undo()
    assert state.position() == "QC 4D 5D | JC 3D KH KS | KC 6D QD JD TD 9D 8D 7D KD"


def test_with_the_reserve_empty_gaps_stay_open() -> None:
    """Seed, Svolgimento 3: when the reserve is empty, the carpet's gaps stay open."""
    state = position("QC KC KD", "JC QD KH KS", "-")
    for move in ("QC", "KC"):
        state.apply(move)
    assert state.carpet == [None, None, Card.parse("KD")]
    assert state.position().startswith("-- -- KD |")


def test_carpet_cards_never_build_on_each_other() -> None:
    """Seed, Svolgimento 4: the only moves are to the foundations (a 5D cannot take the 4D)."""
    reserve = "5C 6C 7C 8C 9C TC JC QC KC 4D 7D 8D 9D TD JD QD KD"
    state = position("5D 4C 6D", "3C 3D KH KS", reserve)
    assert state.legal_moves_text() == ["4C"]
    assert all(state.foundations[m.suit] == m.rank - 1 for m in state.legal_moves())


def test_con_scarti_aces_play_from_the_carpet() -> None:
    """Seed, Varianti "con scarti": the aces go to the foundations as they appear."""
    state = deal("con-scarti", 0)
    aces = [c for c in state.carpet if c is not None and c.rank == 1]
    assert aces and state.legal_moves() == aces
    state.apply(aces[0])
    assert state.foundations[aces[0].suit] == 1


def test_won_when_all_four_foundations_reach_the_king() -> None:
    """Seed, Punteggio 1-2: all four Kings up wins, and the score counts 52 cards."""
    state = position("KC KD KH", "QC QD QH KS", "-")
    for move in ("KC", "KD", "KH"):
        assert state.current_player == 0
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.won and outcome.scores == (52.0,)
    assert outcome.termination == "won" and state.current_player == TERMINAL


def test_stuck_when_no_card_can_go_up_and_the_score_counts_the_foundations() -> None:
    """Seed, Punteggio 2: a stalled game scores the cards on the foundations."""
    state = position("5D 6D 7D", "KC 3D KH KS", "8D 9D TD JD QD KD 4D")
    outcome = state.outcome()
    assert outcome is not None and not outcome.won
    assert outcome.termination == "stuck" and outcome.scores == (42.0,)
    assert outcome.details == {"cards_on_foundations": 42, "reserve_left": 7}
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply("5D")


def test_illegal_moves_say_why_without_telling_where_a_hidden_card_is() -> None:
    """RULES.md (hidden reserve) and the contract's errors: one line, nothing hidden."""
    state = position("QC 4D 5D", "JC 3D KH KS", "KC 6D QD JD TD 9D 8D 7D KD")
    with pytest.raises(IllegalMoveError, match="not in the carpet") as err:
        state.apply("KC")
    assert "reserve" not in str(err.value)
    with pytest.raises(IllegalMoveError, match="already on the hearts foundation"):
        state.apply("9H")
    with pytest.raises(NotationError, match="bad move"):
        state.apply("11H")


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("QC KC | JC KD KH KS | -", "1 rows of 3"),
        ("QC KC 4D | JC KD KH | -", "four foundation tops"),
        ("QC KC 4D | KD JC KH KS | -", "is for C"),
        ("QC KC 4D | JC 3D KH KS | 4D", "cards appear twice: 4D"),
        ("QC KC -- | JC 3D KH KS | -", "cards missing: 4D"),
        ("QC KC -- | JC QD KH KS | KD", "gap is open while the reserve has cards"),
        ("QC KC 4X | JC 3D KH KS | -", "not a card"),
        ("QC KC 4D | JC 3D KH KS", "CARPET | FOUNDATIONS | RESERVE"),
    ],
)
def test_malformed_positions_name_the_problem(text: str, problem: str) -> None:
    """Contract: a bad position raises NotationError in one line naming what is wrong."""
    with pytest.raises(NotationError, match=problem.replace("|", r"\|")) as err:
        from_position(text, TINY)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", ["tappeto", "con-scarti", "grande"])
def test_positions_round_trip_for_every_variant(name: str) -> None:
    """Contract: ``from_position(position())`` gives the same position back."""
    state = deal(name, 3)
    variant = SPEC.variant(name)
    assert from_position(state.position(), variant).position() == state.position()


def test_the_observation_shows_the_carpet_and_only_the_size_of_the_reserve() -> None:
    """Seed, Preparazione 4 (carpet face up) and RULES.md: the reserve is face down."""
    state = deal()
    seen = state.observation(0)
    assert seen["carpet"] == [str(c) for c in state.carpet]
    assert seen["reserve_count"] == 28 and seen["foundations"] == ["AC", "AD", "AH", "AS"]
    text = repr(seen)
    assert not any(f"'{c}'" in text for c in state.reserve)
    assert state.hidden_from(0) == frozenset(str(c) for c in state.reserve)


# --- properties ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["tappeto", "con-scarti", "grande"]),
    seed=st.integers(0, 10**9),
    picks=st.lists(st.integers(0, 29), max_size=52),
)
def test_play_conserves_cards_and_undo_restores(name: str, seed: int, picks: list[int]) -> None:
    """Seed, Svolgimento 1-3: every card stays in the carpet, reserve or foundations; the
    reserve only shrinks by refills; undo takes every step back exactly."""
    state = deal(name, seed)
    variant = SPEC.variant(name)
    trail = [state.position()]
    for pick in picks:
        moves = state.legal_moves()
        if not moves:
            break
        before = len(state.reserve)
        state.apply(moves[pick % len(moves)])
        assert sorted(all_cards(state)) == sorted(FULL_DECK)
        assert len(state.reserve) == max(0, before - 1)
        assert from_position(state.position(), variant).position() == state.position()
        trail.append(state.position())
    while trail:
        assert state.position() == trail.pop()
        if trail:
            state.undo()


def test_the_terminal_board_shows_the_carpet_foundations_and_reserve_count() -> None:
    """Seed, Preparazione 3-5 as drawn for a player: the face-up carpet and foundations, the
    reserve only as a count (its cards never reach the screen)."""
    state = deal("tappeto", 2)
    state.apply(state.legal_moves()[0])
    console = Console(width=100, record=True, color_system=None)
    console.print(renderer_for("tappeto")(state.observation(0)))
    text = console.export_text()
    assert "reserve 27 face down" in text and "on foundations 5/52" in text
    shown = {c.symbol for c in state.carpet if c is not None}
    assert all(symbol in text for symbol in shown)
    hidden = {c.symbol for c in state.reserve}
    assert not any(f" {symbol} " in text for symbol in hidden)


EDITS = st.lists(
    st.tuples(
        st.integers(0, 20),
        st.sampled_from(["KC", "QC", "KD", "QD", "JD", "--", "-", "|", "/", "1X", "13C", ""]),
    ),
    max_size=3,
)


@settings(max_examples=200, deadline=None)
@given(EDITS)
def test_any_text_parses_or_raises_a_notation_error(edits: list[tuple[int, str]]) -> None:
    """Contract: a valid position edited at random either still parses, and round-trips, or
    raises NotationError, never another error."""
    tokens = ["KC", "KD", "|", "QC", "QD", "KH", "KS", "|", "-"]
    for where, token in edits:
        tokens[where % len(tokens)] = token
    variant = SPEC.variant("tappeto", {"rows": "1", "cols": "2"})
    try:
        state = from_position(" ".join(tokens), variant)
    except NotationError:
        return
    assert from_position(state.position(), variant).position() == state.position()


def test_the_deal_format_is_pinned() -> None:
    """RULES.md: the same seed gives the same deal in every version keeping the deal format
    (a golden position: a change here breaks every saved game and published figure)."""
    assert deal("tappeto", 1).position() == (
        "2H 3C 3S 5H 3H / 7D 4C 5S 6C JD / 8S 2D 5C 4D 7H / 2C 5D 8D 2S 7C | AC AD AH AS | "
        "3D KC QC TD 9H 4H 9S TS 6D KD QD QH JS JC 7S 9D 8C KH KS 6S TC 6H 8H 9C 4S JH QS TH"
    )
