"""The Tappeto solver: the order of plays never matters (checked against exhaustive search over
every play order), and the Numba batch kernel deals and decides exactly like the engine."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ludoteca.core.cards import FULL_DECK, Card
from ludoteca.core.rng import MASK64, DealRng, stream_key
from ludoteca.games.tappeto import SPEC, TappetoState, from_position
from ludoteca.solvers import _tappeto_kernel as kernel
from ludoteca.solvers.base import find_solver
from ludoteca.solvers.tappeto import (
    decide_batch,
    decide_scores,
    greedy_line,
    hint,
    play_solver,
    solve,
)

VARIANTS = ["tappeto", "con-scarti", "grande"]
Finals = frozenset[tuple[int, ...]]


def deal(name: str, seed: int) -> TappetoState:
    state = SPEC.new_game(name, seed)
    assert isinstance(state, TappetoState)
    return state


def solver_final(state: TappetoState) -> tuple[int, ...]:
    """The foundations the solver's line ends with."""
    tops = list(state.foundations)
    for card in greedy_line(state):
        tops[card.suit] = card.rank
    return tuple(tops)


def every_order(state: TappetoState) -> Finals:
    """The final foundations of every complete game, trying every play order (no memo)."""
    moves = state.legal_moves()
    if not moves:
        return frozenset({tuple(state.foundations)})
    finals: Finals = frozenset()
    for move in moves:
        token = state._play(move)
        finals |= every_order(state)
        state._unplay(move, token)
    return finals


def every_order_memo(state: TappetoState, memo: dict[Any, Finals], cells: bool) -> Finals:
    """As :func:`every_order`, remembering positions already searched. With ``cells`` the
    key is the exact position (carpet cell by cell); without, the carpet's cells are ignored,
    as the rules ignore them, so that won deals stay small enough to search completely."""
    carpet = tuple(state.carpet) if cells else ()
    key = (carpet, tuple(state.foundations), len(state.reserve))
    if key not in memo:
        moves = state.legal_moves()
        finals: Finals = frozenset({tuple(state.foundations)}) if not moves else frozenset()
        for move in moves:
            token = state._play(move)
            finals |= every_order_memo(state, memo, cells)
            state._unplay(move, token)
        memo[key] = finals
    return memo[key]


@st.composite
def small_positions(draw: st.DrawFn) -> TappetoState:
    """A 1 x k carpet with at most 9 cards still out: every play order can be tried."""
    tops = draw(st.lists(st.integers(9, 13), min_size=4, max_size=4))
    assume(sum(13 - t for t in tops) <= 9)
    out = draw(st.permutations([Card(r, s) for s, t in enumerate(tops) for r in range(t + 1, 14)]))
    cols = draw(st.integers(1, 3))
    carpet: list[str] = [str(c) for c in out[:cols]]
    gaps = cols - len(carpet)
    cells = draw(st.permutations(carpet + ["--"] * gaps))
    found = " ".join(str(Card(t, s)) if t else "--" for s, t in enumerate(tops))
    reserve = " ".join(str(c) for c in out[cols:]) or "-"
    variant = SPEC.variant("tappeto", {"rows": "1", "cols": str(cols)})
    state = from_position(f"{' '.join(cells)} | {found} | {reserve}", variant)
    assert isinstance(state, TappetoState)
    return state


# --- order independence --------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(small_positions())
def test_every_play_order_ends_alike_on_small_positions(state: TappetoState) -> None:
    """Exhaustive search over all play orders on hand-built positions finds one final set of
    foundations, the one the solver's single line reaches."""
    assert every_order(state) == {solver_final(state)}


def test_every_play_order_ends_alike_on_dealt_losses() -> None:
    """All orders of the exact positions (cells included) of dealt games: one ending each."""
    checked = 0
    for name in ("tappeto", "con-scarti"):
        for seed in range(60):
            state = deal(name, seed)
            if decide_scores(name, [seed])[0] == 52:
                continue
            memo: dict[Any, Finals] = {}
            assert every_order_memo(state, memo, cells=True) == {solver_final(state)}, seed
            checked += 1
    assert checked > 110


@pytest.mark.parametrize(("name", "deals"), [("tappeto", 2), ("con-scarti", 1), ("grande", 1)])
def test_every_play_order_ends_alike_on_dealt_wins(name: str, deals: int) -> None:
    """Won deals have too many orders to list one by one; searching every order with the
    carpet's cells ignored (no rule reads them) still finds a single ending: the win."""
    scores = decide_scores(name, range(400))
    seeds = [s for s in range(400) if scores[s] == 52][:deals]
    assert len(seeds) == deals
    for seed in seeds:
        state = deal(name, seed)
        assert every_order_memo(state, {}, cells=False) == {(13, 13, 13, 13)}


@pytest.mark.parametrize("name", VARIANTS)
def test_random_play_orders_end_where_the_solver_says(name: str) -> None:
    """Through the checked engine, random orders of play all end with the solver's score."""
    for seed in range(60):
        expected = solve(deal(name, seed)).extra["cards_on_foundations"]
        rng = DealRng(seed, "test-orders")
        for _ in range(3):
            state = deal(name, seed)
            while not state.is_over:
                state.apply(rng.choice(state.legal_moves()))
            assert state.cards_on_foundations == expected


@pytest.mark.parametrize("name", VARIANTS)
def test_a_deal_is_won_exactly_when_the_reserve_runs_out(name: str) -> None:
    """Seed, Svolgimento 3: once the reserve is empty every card left is in the carpet, so the
    game goes on to the Kings; and while cards remain hidden a stall is a loss."""
    for seed in range(300):
        state = deal(name, seed)
        line = greedy_line(state)
        won = state.cards_on_foundations + len(line) == 52
        assert won == (len(line) >= len(state.reserve)), seed


# --- the kernel ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kernel_deals_exactly_the_engine_deal(name: str) -> None:
    """Differential: the Numba shuffle gives new_state's carpet and reserve, card by card."""
    seeds = [*range(0, 3000, 3), 2**40 + 1, 10**12]
    keys = np.array([stream_key(s, "tappeto") for s in seeds], np.uint64)
    decks = kernel.deal_keys(keys)
    params = SPEC.variant(name).params
    for seed, deck in zip(seeds, decks, strict=True):
        cards = [FULL_DECK[i] for i in deck]
        if params.aces_start_on_foundations:
            cards = [c for c in cards if c.rank != 1]
        state = deal(name, seed)
        assert state.carpet + state.reserve == cards, seed


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kernel_decides_like_the_plain_python_solver(name: str) -> None:
    """Differential: batch scores equal the plain-Python line and the study policy."""
    seeds = range(600)
    batch = decide_batch(name, seeds)
    scores = decide_scores(name, seeds)
    for seed in seeds:
        state = deal(name, seed)
        line = greedy_line(state)
        assert scores[seed] == state.cards_on_foundations + len(line)
        single = play_solver(state, None, DealRng(seed, "policy"))
        assert batch[seed] == single


def _unshift(value: int, shift: int) -> int:
    result = value
    for _ in range(64 // shift):
        result = value ^ (result >> shift)
    return result


def _state_giving(output: int) -> int:
    """The SplitMix64 state whose next output is ``output`` (the mix is invertible)."""
    z = _unshift(output, 31)
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK64
    z = _unshift(z, 27)
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK64
    z = _unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.parametrize("bound", [3, 5, 7, 52])
def test_the_kernel_rejects_the_same_draws_as_deal_rng(bound: int) -> None:
    """Differential on the rare branch: a draw at the top of the 64-bit range is rejected by
    both generators, which then agree on the next draw."""
    rng = DealRng(0)
    rng.setstate(_state_giving(MASK64))
    assert rng.next64() == MASK64
    rng.setstate(_state_giving(MASK64))
    mirror = np.array([rng.getstate()], np.uint64)
    assert kernel._below(mirror, bound) == rng.below(bound)
    assert (
        int(mirror[0])
        == rng.getstate()
        == (_state_giving(MASK64) + 2 * 0x9E3779B97F4A7C15) & MASK64
    )


# --- the solver's answers ------------------------------------------------------------------


def test_solve_reports_a_winning_line() -> None:
    """Seed, Punteggio 1: the solver's moves play out to all four Kings."""
    state = deal("tappeto", 1)
    result = solve(state)
    assert result.winnable is True and result.extra["cards_on_foundations"] == 52
    for move in result.moves:
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.won


def test_solve_reports_a_loss_and_its_score() -> None:
    """Seed, Punteggio 2: a loss scores the cards the foundations can reach."""
    state = from_position(
        "5D 6D 7D | KC 3D KH KS | 8D 9D TD JD QD KD 4D",
        SPEC.variant("tappeto", {"rows": "1", "cols": "3"}),
    )
    result = solve(state)
    assert result.winnable is False and result.moves == []
    assert result.extra == {"cards_on_foundations": 42, "order_matters": False, "max_states": None}


def test_the_hint_does_not_read_the_hidden_reserve() -> None:
    """RULES.md (hidden reserve): a hint sees what the player sees, so reordering the
    reserve changes nothing in it; with the reserve empty it can tell the outcome."""
    state = deal("tappeto", 4)
    shuffled = deal("tappeto", 4)
    shuffled.reserve.reverse()
    assert hint(state, 1.0) == hint(shuffled, 1.0)
    assert hint(state, 1.0).winnable is None
    assert hint(state, 1.0).move in state.legal_moves_text()
    ending = from_position(
        "KC KD -- | QC QD KH KS | -", SPEC.variant("tappeto", {"cols": "3", "rows": "1"})
    )
    assert hint(ending, 1.0).winnable is True


def test_the_solver_is_registered_with_its_policy_and_batch() -> None:
    """The study's ``--policy solver`` finds the per-deal policy and the batch fast path."""
    entry = find_solver("tappeto")
    assert entry.policies["solver"] is play_solver
    assert entry.batch_policies["solver"] is decide_batch
