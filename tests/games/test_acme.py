"""Acme rules as the seed (``003_374ffad95808c08d.txt``) and RULES.md state them, one test per
rule, plus notation, observation and property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core.cards import FULL_DECK, Card
from ludoteca.core.errors import IllegalMoveError, NotationError, UnknownGameError
from ludoteca.core.rng import DealRng
from ludoteca.games.acme import REARRANGE_LIMIT, SPEC, AcmeParams, AcmeState, from_position

C = Card.parse


def state_from(text: str, **params: str) -> AcmeState:
    state = from_position(text, SPEC.variant().with_params(params))
    assert isinstance(state, AcmeState)
    return state


def deal(seed: int = 0, variant: str = "acme") -> AcmeState:
    state = SPEC.new_game(variant, seed)
    assert isinstance(state, AcmeState)
    return state


# A late position: 9H waits in the reserve under the face-up QS; 8H is home.
LATE = (
    "9H QS | KH QH JH TH / KS / KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD / - | "
    "KC -- 8H -- | JS TS | 9S 8S 7S 6S 5S 4S 3S 2S AS | 2 | progress 1 moved 0"
)


def test_setup_reserve_columns_and_stock() -> None:
    """Seed, "Disposizione": a 15-card reserve with only its top face up, four face-up column
    cards, the other 33 cards the stock; RULES.md: foundations and waste start empty."""
    state = deal(7)
    assert len(state.reserve) == 15
    assert [len(col) for col in state.columns] == [1, 1, 1, 1]
    assert len(state.stock) == 33 and state.waste == []
    assert state.foundations == [0, 0, 0, 0]
    assert sorted(state.reserve + state.stock + [c[0] for c in state.columns]) == sorted(FULL_DECK)
    observation = state.observation(0)
    assert observation["reserve_top"] == str(state.reserve[-1])
    assert str(state.reserve[0]) in state.hidden_from(0)


@pytest.mark.parametrize(
    ("variant", "size"), [("acme", 15), ("reserve-13", 13), ("reserve-20", 20)]
)
def test_reserve_size_variants(variant: str, size: int) -> None:
    """Seed, "Varianti": the reserve may hold 13 or 20 cards instead of 15."""
    state = deal(3, variant)
    assert len(state.reserve) == size and len(state.stock) == 52 - 4 - size


def test_reserve_size_and_redeals_are_parameters() -> None:
    """Seed, "Varianti": the reserve size and the limit on turning the waste are parameters."""
    variant = SPEC.variant("acme", {"reserve": "17", "redeals": "2"})
    assert variant.params == AcmeParams(reserve=17, redeals=2)
    assert len(SPEC.new_game(variant, 1).reserve) == 17  # type: ignore[attr-defined]
    with pytest.raises(NotationError):
        SPEC.variant("acme", {"reserve": "49"})
    with pytest.raises(UnknownGameError):
        SPEC.variant("acme", {"jokers": "1"})


def test_deals_are_reproducible() -> None:
    """RULES.md: the same seed and variant give the same deal."""
    assert deal(11).position() == deal(11).position() != deal(12).position()


def test_only_free_cards_move() -> None:
    """Seed, "Carte libere": the reserve's top, each column's last card and the waste's top
    are free; a face-down reserve card is not."""
    state = state_from(LATE)
    assert state.why_illegal(state.parse_move("9H c2")) is not None  # under QS
    assert "not free" in (state.why_illegal(state.parse_move("JH c2")) or "")
    assert state.why_illegal(state.parse_move("QS c2")) is None  # reserve top onto KS
    assert state.why_illegal(state.parse_move("AS f")) is None  # waste top home


def test_foundations_build_up_by_suit_from_the_ace() -> None:
    """Seed, "Scopo": foundations build Ace to King by suit."""
    state = state_from(LATE)
    assert "spades foundation needs AS" in (state.why_illegal(state.parse_move("QS f")) or "")
    state.apply("AS f")
    assert state.foundations[3] == 1
    with pytest.raises(IllegalMoveError, match="hearts foundation needs 9H"):
        state.apply("TH f")
    state.apply("2S f")  # the next of its suit, from the waste's new top
    assert state.foundations[3] == 2


def test_columns_build_down_by_suit_one_card_at_a_time() -> None:
    """Seed, "Svolgimento": columns build down by suit; one card moves at a time."""
    state = state_from(LATE)
    assert state.why_illegal(state.parse_move("QS c2")) is None  # QS on KS
    assert "only one lower of its suit" in (state.why_illegal(state.parse_move("QS c1")) or "")
    state.apply("QS c2")
    state.apply("9H c1")  # 9H on TH, same suit one lower
    assert [str(c) for c in state.columns[0]][-2:] == ["TH", "9H"]
    assert "only one lower" in (state.why_illegal(state.parse_move("AS c1")) or "")


def test_empty_column_takes_any_free_card_but_is_not_forced() -> None:
    """Seed, "Quando una colonna viene usata e rimane il buco": any free card may fill it;
    RULES.md: the player's choice, not forced."""
    state = state_from(LATE)
    moves = state.legal_moves_text()
    assert {"QS c4", "AS c4", "AD c4", "TH c4"} <= set(moves)  # reserve, waste, columns
    assert "draw" in moves  # filling the gap is not forced
    state.apply("draw")
    assert state.columns[3] == []


def test_a_lone_card_to_an_empty_column_is_refused() -> None:
    """Ruling (docs/rules/acme.md): moving a column's only card to an empty column changes
    nothing, so it is not offered; it would let a game shuffle forever."""
    state = state_from(LATE)
    assert "changes nothing" in (state.why_illegal(state.parse_move("KS c4")) or "")
    assert "KS c4" not in state.legal_moves_text()


def test_draw_and_turn_over_keep_the_order() -> None:
    """Seed: draw one card at a time to the waste; when the stock is empty the waste, turned
    over, is the new stock (the first card drawn comes first again)."""
    state = deal(2)
    order = list(reversed(state.stock))
    with pytest.raises(IllegalMoveError, match="stock is not empty"):
        state.apply("turn")
    for card in order:
        state.apply("draw")
        assert state.waste[-1] == card
    assert "draw" not in state.legal_moves_text()
    moved = state_from(state.position().replace("progress 0", "progress 1"))
    moved.apply("turn")
    assert list(reversed(moved.stock)) == order and moved.waste == [] and moved.turns == 1


# The waste holds JS TS and the spades from 9S down, AS on top; the stock is empty.
TURNABLE = LATE.replace("| JS TS | 9S", "| - | JS TS 9S")


@pytest.mark.parametrize(("limit", "used"), [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)])
def test_turn_limit(limit: int, used: int) -> None:
    """Seed, "Varianti": a limit on how often the waste may be turned over."""
    state = state_from(TURNABLE.replace("| 2 |", f"| {used} |"), redeals=str(limit))
    if used < limit:
        assert "turn" in state.legal_moves_text()
    else:
        reason = state.why_illegal(state.parse_move("turn")) or ""
        assert f"turned over {limit} times only" in reason


def test_counters_no_game_reaches_are_refused() -> None:
    """Seed, "Varianti" (the turn limit) and ruling 5 (at most 250 column moves in a row): a
    position with more turns than the variant allows, or ``moved`` above 250, was taken as
    it came."""
    with pytest.raises(NotationError, match="5 turns used, 0 allowed"):
        state_from(TURNABLE.replace("| 2 |", "| 5 |"), redeals="0")
    with pytest.raises(NotationError, match=r"moved is 0\.\.250"):
        state_from(TURNABLE.replace("moved 0", "moved 999"))
    assert state_from(TURNABLE.replace("moved 0", f"moved {REARRANGE_LIMIT}")).moved == 250


def test_unlimited_turns_by_default() -> None:
    """RULES.md: without a limit the waste may be turned over again and again."""
    state = state_from(TURNABLE.replace("| 2 |", "| 40 |"))
    assert "turn" in state.legal_moves_text()


def test_a_pass_without_progress_ends_the_game() -> None:
    """RULES.md: a whole pass through stock and waste that brought no other move ends the
    game (the engine reports it stuck); a reserve card left over loses."""
    # The aces lie in the reserve under KC, the columns hold the 2s: nothing ever fits.
    talon = [c for c in FULL_DECK if c.rank >= 3 and c != C("KC")]
    text = f"AH AS AD AC KC | 2C / 2D / 2H / 2S | -- -- -- -- | {' '.join(map(str, talon))} | - "
    state = state_from(text + "| 0 | progress 0 moved 0")
    for _ in talon:
        assert state.legal_moves_text() == ["draw"]
        state.apply("draw")
    assert state.legal_moves_text() == []
    reason = state.why_illegal(state.parse_move("turn"))
    assert reason == "no card came into play or home on this pass: the game is stuck"
    outcome = state.outcome()
    assert outcome is not None and not outcome.won and outcome.termination == "stuck"
    assert outcome.details["reserve_left"] == 5 and state.current_player == -1
    again = state_from(state.position().replace("progress 0", "progress 1"))
    assert again.legal_moves_text() == ["turn"]


def test_a_turn_refused_while_moves_remain_does_not_say_the_game_is_stuck() -> None:
    """Ruling 2 (the stuck rule): ``turn`` needs a card brought into play or home on this
    pass, but the game is over only when no move is left. Deal 5, its whole stock drawn
    with nothing played: the columns can still merge (7C onto 8C frees a column for the
    waste's top card), so the refusal said "the game is stuck" while ``moves`` listed
    moves; it now says what to do."""
    state = deal(5)
    while state.stock:
        state.apply("draw")
    assert not state.progress and state.legal_moves_text() == ["7C c2", "TS c3"]
    with pytest.raises(IllegalMoveError) as refused:
        state.apply("turn")
    said = str(refused.value)
    assert (
        said
        == "turn: no card came into play or home on this pass: bring one into play or home first"
    )
    assert "stuck" not in said and state.outcome() is None
    state.apply("7C c2")
    state.apply(f"{state.waste[-1]} c1")  # a card into play: the waste may be turned over
    assert "turn" in state.legal_moves_text()


def test_column_moves_do_not_count_as_progress_and_are_bounded() -> None:
    """Ruling: column-to-column moves bring no card into play or home; after
    REARRANGE_LIMIT of them in a row they stop, so no game can shuffle forever."""
    text = LATE.replace("KS / KD QD", "KS QS / KD QD").replace("9H QS", "9H")
    text = text.replace("progress 1", "progress 0")
    state = state_from(text.replace("moved 0", f"moved {REARRANGE_LIMIT - 1}"))
    state.apply("QS c4")  # a split into the empty column: allowed, the last one
    assert state.moved == REARRANGE_LIMIT and not state.progress
    assert "column moves in a row" in (state.why_illegal(state.parse_move("QS c2")) or "")
    state.apply("AS f")  # a card home resets the count
    assert state.moved == 0 and state.progress


def test_won_only_with_every_card_home() -> None:
    """Seed, "Scopo": the game is won when all four foundations reach the King."""
    text = "- | - / - / KS / - | KC KD KH QS | - | - | 0 | progress 1 moved 0"
    state = state_from(text)
    assert state.outcome() is None
    state.apply("KS f")
    outcome = state.outcome()
    assert outcome is not None and outcome.won and outcome.scores == (52.0,)
    assert state.legal_moves() == []


def test_notation_round_trips_and_errors() -> None:
    """Notation (docs/rules/acme.md): positions and moves round-trip; a malformed move or a
    position with a card twice or missing, a column that is not a suited run (RULES.md:
    columns build down by suit) or not four columns raises a NotationError naming it."""
    state = deal(4)
    assert from_position(state.position(), state.variant).position() == state.position()
    for text in state.legal_moves_text():
        assert str(state.parse_move(text)) == text
    bad = {
        "draw 2": "nothing after it",
        "ZZ f": "not a card",
        "7H c5": "destination",
    }
    for text, why in bad.items():
        with pytest.raises(NotationError, match=why):
            state.parse_move(text)
    with pytest.raises(NotationError, match="appear twice"):
        from_position(LATE.replace("JS TS", "JS JS"), state.variant)
    with pytest.raises(NotationError, match="missing"):
        from_position(LATE.replace("JS TS", "JS"), state.variant)
    with pytest.raises(NotationError, match="cannot lie on"):
        from_position(LATE.replace("KH QH JH TH", "KH JH QH TH"), state.variant)
    with pytest.raises(NotationError, match="needs 4 columns"):
        from_position(LATE.replace("KS / KD", "KS KD"), state.variant)


def test_observation_hides_the_stock_and_face_down_reserve() -> None:
    """The face-down reserve and the stock are hidden; the waste (face up, every card seen
    when drawn) is shown, as the ruling in docs/rules/acme.md says."""
    state = deal(9)
    for _ in range(5):
        state.apply("draw")
    observation = state.observation(0)
    hidden = state.hidden_from(0)
    assert hidden == {str(c) for c in state.reserve[:-1] + state.stock}
    assert observation["waste"] == [str(c) for c in state.waste]
    assert observation["stock_count"] == 28 and observation["reserve_count"] == 15
    assert not hidden & {str(c) for col in observation["columns"] for c in col}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150))
def test_random_play_keeps_every_card_and_undo_restores(seed: int, steps: int) -> None:
    """Seed, "Svolgimento": a move only carries cards from pile to pile (one free card, the
    stock's top when drawn, the whole waste when turned over), so the 52 cards stay;
    positions round-trip and undo takes every move back exactly."""
    state = deal(seed)
    rng = DealRng(seed, "acme-property")
    positions = [state.position()]
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            break
        state.apply(rng.choice(moves))
        positions.append(state.position())
        home = [Card(r, s) for s, top in enumerate(state.foundations) for r in range(1, top + 1)]
        loose = (
            state.reserve + state.stock + state.waste + [c for col in state.columns for c in col]
        )
        assert sorted(home + loose) == sorted(FULL_DECK)
        assert from_position(state.position(), state.variant).position() == state.position()
    while state.history:
        assert state.position() == positions.pop()
        state.undo()
    assert state.position() == positions.pop()


def test_terminal_board_shows_the_table() -> None:
    """The renderer draws the reserve's top and count, the columns, the foundations, the
    stock's count and the waste's top from the observation alone."""
    from rich.console import Console

    from ludoteca.tui.base import renderer_for

    state = state_from(LATE)
    console = Console(width=100, record=True)
    console.print(renderer_for("acme")(state.observation(0)))
    text = console.export_text()
    assert "Q♠ (2)" in text  # reserve top and count
    assert "2 face down" in text  # stock
    assert "A♠ (9)" in text  # waste top and size
    assert "K♣" in text and "8♥" in text  # foundations
    assert "10♥" in text and "K♦" in text  # columns
    assert "9♥" not in text  # face down in the reserve
    empty_waste = state_from(
        LATE.replace("| 9S 8S 7S 6S 5S 4S 3S 2S AS |", "| - |").replace(
            "| JS TS |", "| JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS |"
        )
    )
    for _ in range(2):  # drawn twice: nothing may pile up between drawings
        console = Console(width=100, record=True)
        console.print(renderer_for("acme")(empty_waste.observation(0)))
        assert console.export_text().count("(0)") == 1  # the empty waste


def test_a_bad_card_is_echoed_as_typed() -> None:
    """Notation (docs/rules/acme.md): a card and its destination, case not mattering. The
    error echoed the card lowercased: "'xx' is not a card" for XX."""
    with pytest.raises(NotationError, match="'XX' is not a card"):
        deal(1).parse_move("XX c1")
    assert deal(1).parse_move("th C1") == deal(1).parse_move("TH c1")


def test_a_win_is_said_once_on_the_status_line() -> None:
    """Rule "End" (docs/rules/acme.md): the game is won when all 52 cards are home. The
    status line read "won (won)", where the other solitaires say "won"."""
    from rich.console import Console

    from ludoteca.tui.base import renderer_for

    state = state_from("- | - / - / - / - | KC KD KH KS | - | - | 0 | progress 0 moved 0")
    assert state.won
    console = Console(width=100, record=True)
    console.print(renderer_for("acme")(state.observation(0)))
    text = console.export_text()
    assert "won" in text and "won (won)" not in text
