"""Gaps rules, each test citing the seed rule (001_b4428e67d79caea8.txt, English; 000_… Italian)
or the RULES.md ruling it checks. Small boards (2 suits x ranks 2..4) keep positions readable."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.style import Style

from ludoteca.core.cards import Card
from ludoteca.core.errors import IllegalMoveError, NotationError, UnknownGameError
from ludoteca.core.game import TERMINAL, Variant
from ludoteca.core.registry import find_game
from ludoteca.core.rng import DealRng
from ludoteca.games.gaps import SPEC, GapsState, from_position
from ludoteca.tui.base import renderer_for
from ludoteca.tui.gaps import card_text

SMALL = SPEC.variant("no-redeal", {"suits": "2", "ranks": "4"})
SMALL_REDEAL = SPEC.variant("gaps", {"suits": "2", "ranks": "4", "redeals": "1"})


def small(text: str, variant: Variant = SMALL) -> GapsState:
    return from_position(text, variant)


def deal(variant: str = "gaps", seed: int = 7) -> GapsState:
    state = SPEC.new_game(variant, seed)
    assert isinstance(state, GapsState)
    return state


def cards(state: GapsState) -> list[Card]:
    return sorted(c for c in state.grid if c is not None)


def test_deal_is_four_rows_of_thirteen_without_aces() -> None:
    """Seed, Setup 3-4: 52 cards in 4 rows of 13, the 4 aces removed leave 4 gaps."""
    state = deal()
    assert len(state.grid) == 52
    assert state.grid.count(None) == 4
    assert cards(state) == sorted(Card(r, s) for s in range(4) for r in range(2, 14))


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    """RULES.md, shared notation: the same seed and variant give the same deal."""
    assert deal(seed=3).position() == deal(seed=3).position()
    assert deal(seed=3).position() != deal(seed=4).position()


def test_gap_takes_the_successor_of_its_left_neighbour() -> None:
    """Seed, Gameplay 1: only the card one rank higher, same suit, fills a gap."""
    state = small("2C 3C -- 4D / 2D 4C 3D --")
    assert sorted(state.legal_moves_text()) == ["4C", "4D"]
    state.apply("4C")
    assert state.position() == "2C 3C 4C 4D / 2D -- 3D --"


def test_illegal_fill_says_why() -> None:
    """Seed, Gameplay 1: a card whose predecessor has no gap on its right cannot move."""
    state = small("2C 3C -- 4D / 2D 4C 3D --")
    with pytest.raises(IllegalMoveError, match=r"3D: cannot fill r2c2 \(right of 2D\): 4C"):
        state.apply("3D")


def test_any_two_fills_column_zero_even_one_already_there() -> None:
    """Seed, Gameplay 2 and RULES.md: any 2 fills a column-0 gap, also one in column 0."""
    state = small("2C -- 4C 4D / -- 3C 3D 2D")
    assert sorted(state.legal_moves_text()) == ["2C>r2", "2D>r2", "3C"]


def test_gap_right_of_a_king_or_a_gap_is_dead() -> None:
    """Seed, Gameplay 3: gaps right of a King or of another gap are dead."""
    state = small("2C 3C 4C -- / 2D 4D -- 3D")
    # 4C and 4D are the Kings of this 4-rank board.
    assert state.is_dead(3) and state.is_dead(6) and not state.is_dead(5)
    assert state.legal_moves_text() == []
    obs = state.observation(0)
    assert sorted(obs["dead"]) == [[0, 3], [1, 2]]


def test_won_when_every_row_is_one_suit_in_order() -> None:
    """Seed, Scoring 1 (won when all four rows hold their suits from 2 to King) and RULES.md:
    columns 0..11, any suit in any row."""
    state = small("2D 3D 4D -- / 2C 3C 4C --")
    outcome = state.outcome()
    assert outcome is not None and outcome.won and outcome.scores == (6.0,)
    assert state.current_player == TERMINAL
    assert outcome.details["in_sequence"] == 6


def test_stuck_without_redeals_ends_with_cards_in_sequence() -> None:
    """Seed, Scoring 2; RULES.md: the score is the cards in sequence at the end."""
    state = small("2C 3C 4C -- / 2D 4D -- 3D")
    outcome = state.outcome()
    assert outcome is not None and not outcome.won
    assert outcome.scores == (4.0,) and outcome.termination == "stuck"


def test_redeal_only_when_no_other_move() -> None:
    """Seed, Gameplay 4; RULES.md: a redeal only when no move is possible."""
    state = small("2C 3C -- 4D / 2D 4C 3D --", SMALL_REDEAL)
    assert "redeal" not in state.legal_moves_text()
    with pytest.raises(IllegalMoveError, match="only when no other move"):
        state.apply("redeal")


def test_redeal_keeps_prefixes_and_deals_the_rest_row_by_row() -> None:
    """Seed, Gameplay 4; RULES.md: keep each row's correct prefix, gather the rest with the
    aces, shuffle (DealRng(seed, "gaps", "redeal", k)), deal row-major, remove the aces."""
    state = small("2C 3C 4D -- / 2D 4C -- 3D | seed 5", SMALL_REDEAL)
    assert state.legal_moves_text() == ["redeal"]
    gathered = [Card.parse(t) for t in ["4D", "4C", "3D", "AC", "AD"]]
    DealRng(5, "gaps", "redeal", 1).shuffle(gathered)
    state.apply("redeal")
    dealt = [None if c.rank == 1 else c for c in gathered]
    assert state.grid == [
        Card.parse("2C"),
        Card.parse("3C"),
        *dealt[:2],
        Card.parse("2D"),
        *dealt[2:],
    ]
    assert state.redeals_used == 1 and state.position().endswith("| redeals 1 seed 5")
    state.undo()
    assert state.position() == "2C 3C 4D -- / 2D 4C -- 3D | seed 5"
    # Each pair after a bar of its own reads the same (it was "after | come pairs").
    again = small("2C 3C 4D -- / 2D 4C -- 3D | redeals 1 | seed 5", SMALL_REDEAL)
    assert (
        again.position()
        == small("2C 3C 4D -- / 2D 4C -- 3D | redeals 1 seed 5", SMALL_REDEAL).position()
    )
    assert again.position().endswith("| redeals 1 seed 5")


def test_redeal_limit() -> None:
    """Seed, Gameplay 4 (a redeal when no move is left; "typically 1 or 2 are allowed") and
    RULES.md: redeals up to the variant's limit; then the game ends."""
    state = small("2C 3C 4D -- / 2D 4C -- 3D | redeals 1", SMALL_REDEAL)
    assert state.legal_moves_text() == [] and state.is_over
    assert state.why_illegal(state.parse_move("redeal")) == "no redeal left (1 allowed)"


def test_penalty_per_redeal() -> None:
    """Seed, Scoring 2-3 (cards in sequence; each redeal can reduce the score) and RULES.md:
    score = cards in sequence minus a per-redeal penalty (a parameter)."""
    variant = SPEC.variant("gaps", {"suits": "2", "ranks": "4", "redeals": "1", "penalty": "2"})
    state = small("2C 3C 4D -- / 2D 4C -- 3D | redeals 1", variant)
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (3 - 2.0,)
    assert outcome.details["redeals_used"] == 1


PENALTY = SPEC.variant("gaps", {"suits": "2", "ranks": "4", "redeals": "1", "penalty": "2"})


def test_a_redeal_that_costs_points_may_be_declined() -> None:
    """Seed, Gameplay 4: "a redeal is allowed" (it.: "è consentita"), not required, and Scoring
    3: each redeal "can reduce" the score. Where it costs points (penalty above 0) the player
    stuck may stop and keep the score (docs/rules/gaps.md, End); a forced redeal took 3
    cards in sequence down to 3 - 2 = 1 at best here."""
    state = small("2C 3C 4D -- / 2D 4C -- 3D | seed 5", PENALTY)
    assert state.legal_moves_text() == ["redeal", "stop"]
    state.apply("stop")
    outcome = state.outcome()
    assert outcome is not None and not outcome.won and outcome.termination == "stopped"
    assert outcome.scores == (3.0,) and outcome.details["redeals_used"] == 0
    assert state.legal_moves_text() == [] and state.current_player == TERMINAL
    # The stop is part of the position, and round-trips; undo takes it back.
    assert state.position() == "2C 3C 4D -- / 2D 4C -- 3D | seed 5 stopped 1"
    again = small(state.position(), PENALTY)
    assert again.is_over and again.position() == state.position()
    state.undo()
    assert state.legal_moves_text() == ["redeal", "stop"] and not state.is_over
    # The terminal board says both ways on.
    console = Console(width=100, record=True, color_system=None)
    console.print(renderer_for("gaps")(state.observation(0)))
    assert "no move left: redeal or stop" in console.export_text()


def test_stop_is_offered_only_stuck_with_a_redeal_that_costs_points() -> None:
    """Seed, Gameplay 4 (a redeal when no move is possible): stop stands in for that redeal
    alone. With no penalty a redeal can only keep or raise the score (it keeps every card
    in sequence), so stop is not offered; nor with no redeal left, nor with a move left."""
    stuck = "2C 3C 4D -- / 2D 4C -- 3D"
    free = small(stuck, SMALL_REDEAL)
    assert free.legal_moves_text() == ["redeal"]
    assert free.why_illegal(free.parse_move("stop")) == (
        "stop is offered only where a redeal costs points (penalty above 0)"
    )
    spent = small(f"{stuck} | redeals 1", PENALTY)
    assert spent.is_over and spent.outcome().termination == "stuck"  # type: ignore[union-attr]
    assert spent.why_illegal(spent.parse_move("stop")) is not None
    moving = small("2C 3C -- 4D / 2D 4C 3D --", PENALTY)
    assert "stop" not in moving.legal_moves_text()
    with pytest.raises(IllegalMoveError, match="only when no move is left but a redeal"):
        moving.apply("stop")
    # A position can say stopped only where stop could have been played.
    with pytest.raises(NotationError, match="can be stopped"):
        small("2C 3C -- 4D / 2D 4C 3D -- | stopped 1", PENALTY)
    with pytest.raises(NotationError, match="can be stopped"):
        small(f"{stuck} | stopped 1", SMALL_REDEAL)
    with pytest.raises(NotationError, match="stopped is 0 or 1"):
        small(f"{stuck} | stopped 2", PENALTY)


def test_montana_places_the_twos_in_column_zero() -> None:
    """Seed, Variations (Montana); RULES.md: the 2s start in column 0, suits seeded."""
    orders = set()
    for seed in range(8):
        state = deal("montana", seed)
        column = [state.grid[r * 13] for r in range(4)]
        assert all(c is not None and c.rank == 2 for c in column)
        orders.add(tuple(column))
        assert state.grid.count(None) == 4
    assert len(orders) > 1


def test_variants_and_aliases() -> None:
    """Seed, Variations; RULES.md: gaps (2 redeals), no-redeal, addiction (3), montana."""
    assert [v.name for v in SPEC.variants] == ["gaps", "no-redeal", "addiction", "montana"]
    assert [v.params.redeals for v in SPEC.variants] == [2, 0, 3, 2]
    for name in ("montana", "addiction", "spaces", "gaps"):
        assert find_game(name) is SPEC
    assert SPEC.variant("montana", {"redeals": "3"}).params.redeals == 3
    with pytest.raises(NotationError, match=r"redeals must be 0\.\.3"):
        SPEC.variant("gaps", {"redeals": "4"})
    with pytest.raises(UnknownGameError):
        SPEC.variant("gaps", {"jokers": "1"})


def test_moves_that_bring_back_a_position_are_refused() -> None:
    """Ruling (docs/rules/gaps.md, Repetition): no move may repeat a position of the deal."""
    state = small("2C -- 4C 4D / -- 3C 3D 2D")
    state.apply("2C>r2")
    assert state.legal_moves_text() == ["2D>r1"]
    with pytest.raises(IllegalMoveError, match="earlier position"):
        state.apply("2C>r1")


def test_move_notation() -> None:
    """Notation (docs/rules/gaps.md): a card; a 2 names its row unless one gap is open."""
    state = small("2C -- 4C 4D / -- 3C 3D 2D")
    assert str(state.parse_move("2d>r2")) == "2D>r2"
    assert str(state.parse_move("2D")) == "2D>r2"
    assert str(state.parse_move(" redeal ")) == "redeal"
    for bad, why in [
        ("AH", "aces are out of play"),
        ("5C", "not in this game"),
        ("3C>r1", "only a 2 names a row"),
        ("2C>x1", "written r1..r4"),
        ("2C>r9", "no row 9"),
        ("zz", "a move is a card"),
    ]:
        with pytest.raises(NotationError, match=why):
            state.parse_move(bad)
    two_gaps = small("-- 2C 4C 4D / -- 3C 3D 2D")
    with pytest.raises(NotationError, match="which row"):
        two_gaps.parse_move("2D")


def test_move_notation_as_typed_at_the_prompt() -> None:
    """Notation (docs/rules/gaps.md): a 2 names its row, ``2S>r3``; spaces around ``>`` are
    read as typed; a plain 2 with no first-column gap open, or a card already in its place,
    gets an error that says so (not "say which row", not "KC is there")."""
    state = small("2C -- 4C 4D / -- 3C 3D 2D")
    assert str(state.parse_move("2D > r2")) == "2D>r2"
    full = small("2C 3C -- 4D / 2D 4C 3D --")
    with pytest.raises(NotationError, match="no gap is open there"):
        full.parse_move("2D")
    with pytest.raises(IllegalMoveError, match=r"3C: it is already there \(r1c2\)"):
        full.apply("3C")
    with pytest.raises(IllegalMoveError, match=r"2C>r1: it is already there \(r1c1\)"):
        small("2C 3C -- 4D / -- 4C 3D 2D").apply("2C>r1")
    # An arrow with no row after it was read as if it were not there: 'KC>' played KC.
    for typed in ("3D>", "2D>", "2D >  "):
        with pytest.raises(NotationError, match="a row comes after '>'"):
            state.parse_move(typed)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2C 3C 4C -- / 2D 3D 4D", "needs 2 rows of 4"),
        ("2C 3C 4C -- / 2D 3D 4D -- --", "needs 2 rows of 4"),
        ("2C 3C 4C -- / 2D 3D 3D --", "twice: 3D"),
        ("2C 3C 4C -- / 2D 3D -- --", "missing: 4D"),
        ("2C 3C 4C AC / 2D 3D 4D --", "aces are out of play: AC"),
        ("2C 3C 4C 5C / 2D 3D 4D --", "not in this game: 5C"),
        ("2C 3C 4C -- / 2D 3D 4D -- | redeals 2", "2 redeals used, 0 allowed"),
        ("2C 3C 4C -- / 2D 3D 4D -- | colour red", "unknown bookkeeping"),
        # A deal number is 0..2**63-1 wherever one is typed (it was taken as it came here).
        ("2C 3C 4C -- / 2D 3D 4D -- | seed -3", r"a deal number is 0\.\.9223372036854775807"),
        ("2C 3C 4C -- / 2D 3D 4D -- | seed 9223372036854775808", "a deal number is 0"),
        # The last of two seeds was taken; a bad value was "unknown bookkeeping".
        ("2C 3C 4C -- / 2D 3D 4D -- | seed 1 seed 2", "seed is given twice"),
        ("2C 3C 4C -- / 2D 3D 4D -- | seed abc", "seed takes a whole number, not 'abc'"),
    ],
)
def test_malformed_positions_name_the_problem(text: str, why: str) -> None:
    """Notation: a malformed position raises a one-line error naming the problem."""
    with pytest.raises(NotationError, match=why):
        from_position(text, SMALL)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2C 3C 4C -- / 2D 3D 3D --", "cards appear twice: 3D; cards missing: 4D$"),
        ("2C 3C 4C -- / 2D XX 4D --", "r2c2: 'XX' is not a card"),
        ("2C 3C 4C -- 2D 3D 4D --", r"separated by ' / ' \(got 1 row of 8\)$"),
        ("2C 3C 4C / 2D 3D 4D -- --", r"\(got 2 rows of 3, 5\)$"),
    ],
)
def test_malformed_positions_say_where_and_what_else(text: str, why: str) -> None:
    """Notation (docs/rules/gaps.md): a position is rows of cards separated by `` / ``; a bad
    card is named with its place (it was "'XX' is not a card", with no position), a card
    typed twice comes with the card it displaced, and one row is "1 row", not "1 rows"."""
    with pytest.raises(NotationError, match=why) as raised:
        from_position(text, SMALL)
    assert str(raised.value).startswith("bad position '2C 3C 4C")


def test_plain_rows_are_a_position_and_round_trip() -> None:
    """Notation: the four rows alone are a full position; position() round-trips."""
    state = deal("addiction", 11)
    rows = state.position().split(" | ")[0]
    assert from_position(rows, state.variant).position() == rows
    assert from_position(state.position(), state.variant).position() == state.position()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["gaps", "addiction", "montana", "no-redeal"]))
def test_random_play_conserves_cards_undoes_and_round_trips(seed: int, variant: str) -> None:
    """Properties: cards are conserved, undo restores the position, notation round-trips.
    Seed, Gameplay 4 and RULES.md (a redeal gathers the cards out of sequence and deals
    them again): a redeal too keeps the 48 cards (the check was skipped after one, and a
    redeal that changed a card passed)."""
    state = deal(variant, seed)
    rng = DealRng(seed, "test")
    start = state.position()
    deck = cards(state)
    while not state.is_over:
        moves = state.legal_moves()
        move = rng.choice(moves)
        assert state.parse_move(state.move_text(move)) == move
        state.apply(move)
        assert cards(state) == deck
        assert len([c for c in state.grid if c is not None]) == 48
        again = from_position(state.position(), state.variant)
        assert again.position() == state.position()
    assert "redeal" in state.history_text() or variant == "no-redeal" or state.won
    assert len(state.history) <= SPEC.max_game_length
    while state.history:
        state.undo()
    assert state.position() == start


def test_outcome_details_for_the_statistics() -> None:
    """Issue: the store keeps Outcome.details, so completion statistics live there."""
    state = small("2C 3C 4C -- / 2D 4D -- 3D")
    outcome = state.outcome()
    assert outcome is not None
    assert set(outcome.details) >= {"in_sequence", "redeals_used", "redeals_allowed", "won"}


def test_renderer_marks_dead_gaps_and_sequences() -> None:
    """Terminal board: gaps shown, dead ones marked, cards in sequence highlighted."""
    state = small("2C 3C 4C -- / 2D -- 4D 3D")
    console = Console(width=100, record=True, color_system=None)
    console.print(renderer_for("gaps")(state.observation(0)))
    text = console.export_text()
    assert "✕" in text and "__" in text and "in sequence 4/6" in text
    assert "2♣" in text and "3♦" in text


def test_a_dead_gap_on_the_board_is_explained_under_it() -> None:
    """Terminal board (docs/rules/gaps.md, *Terminal board*): a dead gap is drawn ``✕``, and
    nothing on the board said what that meant (only ``rules`` did). A line under the board
    says it while one is shown in play; none without a dead gap, nor once the game is over
    (every gap left is dead then)."""

    def drawn(position: str) -> str:
        console = Console(width=100, record=True, color_system=None)
        console.print(renderer_for("gaps")(small(position).observation(0)))
        return console.export_text()

    legend = "✕ a dead gap: right of a King or of another gap, nothing can fill it"
    assert legend in drawn("2C 3C 4C -- / 2D -- 4D 3D")  # (r1's gap: right of the King)
    open_gaps_only = drawn("2C -- 3C 4C / 2D 3D -- 4D")
    assert "✕" not in open_gaps_only and "dead gap" not in open_gaps_only
    assert "dead gap" not in drawn("2C 3C 4C -- / 2D 3D 4D --")  # won


def test_cards_in_sequence_keep_their_suits_colour() -> None:
    """Terminal board (docs/rules/gaps.md, *Terminal board*): the cards in sequence are
    highlighted, and a red card there is still drawn red, not in the highlight's colour like
    a black one."""
    red, black = card_text("3D", True, False), card_text("3C", True, False)
    assert red.style != black.style
    assert Style.parse(str(red.style)).color != Style.parse(str(black.style)).color
    colour = Style.parse(str(red.style)).color
    assert colour is not None and colour.name == "indian_red1"
    plain = Style.parse(str(card_text("3D", False, False).style))
    highlighted = Style.parse(str(red.style))
    assert highlighted.bgcolor is not None and plain.bgcolor is None and highlighted.bold


def test_the_status_line_says_won_once() -> None:
    """Terminal board: a won deal's status line ended "won (won)"; a lost one keeps why it
    ended (seed, Scoring 1: won when all four rows are complete)."""
    console = Console(width=100, record=True, color_system=None)
    console.print(renderer_for("gaps")(small("2C 3C 4C -- / 2D 3D 4D --").observation(0)))
    text = console.export_text()
    assert "won" in text and "(won)" not in text
    console.print(renderer_for("gaps")(small("2C 3C 4C -- / 2D 4D -- 3D").observation(0)))
    assert "lost (stuck)" in console.export_text()


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("redeals", "two", "parameter 'redeals' needs a whole number, not 'two'"),
        ("penalty", "high", "parameter 'penalty' needs a finite number, not 'high'"),
        # nan and inf parsed as numbers: a score of nan then failed the results database's
        # NOT NULL at the first deal stored, with a traceback.
        ("penalty", "nan", "parameter 'penalty' needs a finite number, not 'nan'"),
        ("penalty", "inf", "parameter 'penalty' needs a finite number, not 'inf'"),
        ("penalty", "-Infinity", "parameter 'penalty' needs a finite number, not '-Infinity'"),
        ("twos_first", "maybe", "parameter 'twos_first' needs a yes or no, not 'maybe'"),
    ],
)
def test_a_parameter_of_the_wrong_kind_is_named_in_words(key: str, text: str, message: str) -> None:
    """Non-negotiable: wrong options get a one-line message that says what was wrong (the
    variants' parameters, docs/rules/gaps.md, Variants and parameters)."""
    with pytest.raises(UnknownGameError) as error:
        find_game("gaps").variant("gaps", {key: text})
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"suits": "9"}, "suits must be 1..4, not 9"),
        ({"suits": "0", "ranks": "2"}, "suits must be 1..4, not 0"),
        ({"ranks": "2"}, "ranks must be 3..13, not 2"),
        ({"suits": "2", "ranks": "14"}, "ranks must be 3..13, not 14"),
    ],
)
def test_a_board_size_out_of_range_names_its_parameter(
    params: dict[str, str], message: str
) -> None:
    """docs/rules/gaps.md (Smaller boards): 1 to 4 suits, 3 to 13 ranks. ``-p
    suits=9`` said "a 9 x 13 board needs 1-4 suits, 3-13 ranks", of a board no one asked
    for; the parameter out of range is named with what it takes, as redeals' is."""
    with pytest.raises(NotationError) as error:
        SPEC.variant("gaps", params)
    assert str(error.value) == message


@pytest.mark.parametrize("penalty", ["-1", "1000.5", "1e308"])
def test_the_redeal_penalty_stays_within_what_a_score_can_hold(penalty: str) -> None:
    """RULES.md (a per-redeal penalty, a parameter) and docs/rules/gaps.md, Variants: 0 to
    1,000. A finite 1e308 passed the check, and two redeals made the score -inf, which the
    web page's JSON reader refuses and the results database stored as null."""
    with pytest.raises(NotationError, match=r"the redeal penalty must be 0\.\.1000, not "):
        find_game("gaps").variant("gaps", {"penalty": penalty})
    assert find_game("gaps").variant("gaps", {"penalty": "1000"}).params.penalty == 1000


def test_a_montana_position_keeps_its_2s_in_the_first_column() -> None:
    """Seed, Variations (Montana: the 2s go to the first column at setup) and Gameplay 1-2
    (a 2 moves only into a gap of the first column): a 2 elsewhere cannot happen in
    montana, and such a position was solved without a word."""
    montana = SPEC.variant("montana", {"suits": "2", "ranks": "4"})
    assert from_position("2C 3C 4C -- / 2D 3D 4D --", montana).in_sequence == 6
    with pytest.raises(NotationError, match=r"2s never leave the first column: 2D at r2c3$"):
        from_position("2C 3C 4C -- / 3D -- 2D 4D", montana)


def test_a_score_with_a_penalty_is_the_number_typed() -> None:
    """Seed, Scoring 2-3: cards in sequence less the penalty for each redeal used; 8 less
    2 x 2.2 was 3.5999999999999996 in the statistics."""
    state = from_position(
        "2C 3C 4C 5C 6C 7C 8C 9C -- TC / 3D 2D 4D 5D 6D 7D 8D 9D TD -- | redeals 2",
        SPEC.variant("gaps", {"suits": "2", "ranks": "10", "penalty": "2.2", "redeals": "2"}),
    )
    assert state.in_sequence == 8 and state.running_score == 3.6


@pytest.mark.parametrize("width", [80, 60, 48, 40, 30])
def test_the_board_shows_every_card_in_a_narrow_terminal(width: int) -> None:
    """Terminal board (docs/rules/gaps.md): below 73 columns the ruled board cut cards to
    "…", and at 60 every card. Each card takes 4 characters where there is the room, else 3
    (the ten as T, as in the notation), inside the game's panel; below 45 columns the last
    columns were dropped without a word, and the board now comes in two halves."""
    from rich.panel import Panel

    state = deal(seed=7)
    console = Console(width=width, record=True, color_system=None)
    console.print(Panel(renderer_for("gaps")(state.observation(0)), expand=False))
    text = console.export_text()
    assert "…" not in text, text
    wide = width >= 60
    for card in state.grid:
        if card is not None:
            shown = card.symbol if wide else card.symbol.replace("10", "T")
            assert shown in text, (card, text)
    assert max(len(line) for line in text.splitlines()) <= width
