"""Mosaico solvers: the exact search against brute force, the kernel against the engine, and
the player's ignorance of the draw order (docs/rules/mosaico.md, "Solvers")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core import DealRng, Tile, find_game
from ludoteca.games.mosaico import MosaicoState, from_position
from ludoteca.solvers import _mosaico_kernel as kernel
from ludoteca.solvers.base import find_solver
from ludoteca.solvers.mosaico import (
    LABEL,
    MATCH,
    arrays,
    hint,
    player_move,
    player_policy,
    solve,
    solver_policy,
    to_cell,
)

SPEC = find_game("mosaico")
VARIANTS = st.sampled_from(["mosaico", "difficile"])


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def brute_force(state: MosaicoState) -> bool:
    """Plain-Python reference: try every legal move through the engine's checked path."""
    if state.is_over:
        outcome = state.outcome()
        return outcome is not None and outcome.won
    for move in state.legal_moves():
        state.apply(move)
        won = brute_force(state)
        state.undo()
        if won:
            return True
    return False


def near_the_end(variant: str, seed: int, left: int, follow_solution: bool) -> MosaicoState:
    """A deal played until ``left`` tiles remain: along a winning line, or at random."""
    state = SPEC.new_game(variant, seed)
    assert isinstance(state, MosaicoState)
    line = solve(state, None).moves if follow_solution else []
    rng = DealRng(seed, "near-the-end")
    while not state.is_over and len(state.draw) + len(state.aside) > left:
        state.apply(line[len(state.history)] if line else rng.choice(state.legal_moves()))
    return from_position(state.position(), state.variant)


@settings(max_examples=30, deadline=None)
@given(
    variant=VARIANTS,
    seed=st.integers(0, 10_000),
    left=st.integers(1, 5),
    follow=st.booleans(),
)
def test_exact_search_agrees_with_brute_force(
    variant: str, seed: int, left: int, follow: bool
) -> None:
    """Docs, "Solvers": the pruned search decides like an exhaustive one (small endgames)."""
    state = near_the_end(variant, seed, left, follow)
    result = solve(state, None)
    assert result.winnable == brute_force(state)
    assert result.label == LABEL


@pytest.mark.parametrize("variant", ["mosaico", "difficile"])
def test_a_winning_line_replays_to_a_win(variant: str) -> None:
    """Docs: ``solve`` returns the moves of a win; they are legal and complete the square.
    Deals 0..2 of both variants are wins, as the replay shows (the replay ran only where
    the solver said so, and a solver that called every deal lost passed)."""
    for seed in range(3):
        state = SPEC.new_game(variant, seed)
        result = solve(state, None)
        assert result.winnable is True, (variant, seed)
        for move in result.moves:
            state.apply(move)
        outcome = state.outcome()
        assert outcome is not None and outcome.won


def test_the_node_limit_leaves_the_answer_open() -> None:
    """Docs: when the node limit stops the search, winnable is None and the study says so."""
    state = SPEC.new_game("mosaico", 0)
    result = solve(state, 1)
    assert result.winnable is None and result.extra["stopped"] == "states"
    played = solver_policy(state, 1, DealRng(0))
    assert played.won is None and played.extra["limit_hit"]


@settings(max_examples=40, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_kernel_cells_match_the_engine(variant: str, seed: int, steps: int) -> None:
    """Differential: the kernel's legal cells equal the engine's for every unplaced tile."""
    state = SPEC.new_game(variant, seed)
    assert isinstance(state, MosaicoState)
    rng = DealRng(seed, "cells")
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    a = arrays(state)
    out = np.empty(kernel.PAD * kernel.PAD, dtype=np.int64)
    for tile in [*state.aside, *state.draw]:
        count = kernel.legal_cells(a.grid, a.box, tile.index, MATCH, a.difficile, out)
        assert sorted(to_cell(int(c)) for c in out[:count]) == state.cells_for(tile)


def test_the_player_does_not_read_the_draw_order() -> None:
    """Docs: the player sees the set of unseen tiles, never their order: shuffling the draw
    pile behind the tile in play leaves every choice unchanged."""
    state = near_the_end("mosaico", 11, 20, follow_solution=False)
    tail = state.draw[1:]
    DealRng(3, "shuffle").shuffle(tail)
    shuffled = MosaicoState(
        state.variant, None, dict(state.mosaic), list(state.aside), state.draw[:1] + tail
    )
    for seed in range(5):
        assert player_move(state, seed) == player_move(shuffled, seed)


@settings(max_examples=6, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 10_000))
def test_the_player_plays_legal_moves_to_the_end(variant: str, seed: int) -> None:
    """The ``player`` policy goes through the checked path and finishes every deal."""
    state = SPEC.new_game(variant, seed)
    assert isinstance(state, MosaicoState)
    result = player_policy(state, None, DealRng(seed, "policy"))
    outcome = state.outcome()
    assert outcome is not None and result.won == outcome.won
    assert result.score == len(state.mosaic)


def test_hint_is_a_legal_repeatable_move() -> None:
    """The hint is the player's move, seeded by what the player sees so it does not change
    on a second ask."""
    state = SPEC.new_game("difficile", 4)
    first = hint(state, 1.0)
    assert first.move in state.legal_moves_text()
    assert hint(state, 1.0).move == first.move


def test_a_hint_owes_nothing_to_the_hidden_draw_order() -> None:
    """Brief: hidden information stays hidden. The hint's sampling was seeded by the
    position, which holds the face-down draw order: one view got different hints as the
    draw behind it differed (deal 1: 3F@-1,1 or 3F@1,1). The same view gets one hint."""
    import random

    for seed in (1, 5):
        state = SPEC.new_game(None, seed)
        hints = {hint(state, 0.5).move}
        for shuffle in range(6):
            twin = from_position(state.position(), state.variant)
            rest = twin.draw[1:]
            random.Random(shuffle).shuffle(rest)
            twin.draw[1:] = rest
            twin._turn_known = False
            assert twin.observation(0) == state.observation(0)
            hints.add(hint(twin, 0.5).move)
        assert len(hints) == 1, (seed, hints)


def test_both_study_policies_are_registered() -> None:
    entry = find_solver("mosaico")
    assert {"solver", "player"} <= set(entry.policies)
    assert entry.label == LABEL


def test_a_set_aside_tile_with_no_future_neighbour_is_a_loss() -> None:
    """Docs, "Solvers": a set-aside tile that fits nowhere needs a new matching neighbour,
    placed before it: from the draw pile or from above it on the pile. Mosaic: the 6 x 6
    square of fruit rows with holes at 0,0 (under 5U), 0,1 and 5,5; 1M fits only beside 2M."""
    mosaic = {(r, c): Tile(c + 1, r) for r in range(6) for c in range(6)}
    mosaic[(1, 0)], mosaic[(3, 4)] = mosaic[(3, 4)], mosaic[(1, 0)]
    for hole in [(0, 0), (0, 1), (5, 5)]:
        del mosaic[hole]

    def unwinds(aside_bottom_first: str, draw: str) -> bool:
        state = MosaicoState(
            SPEC.variant(), None, dict(mosaic), tiles(aside_bottom_first), tiles(draw)
        )
        a = arrays(state)
        return bool(
            kernel.pile_can_unwind(a.grid, a.box, a.aside, a.n_aside, a.draw, 0, MATCH, a.difficile)
        )

    assert not unwinds("2M 1M", "6B")  # 2M lies under 1M
    assert unwinds("1M", "2M 6B")  # 2M is still to come
    assert unwinds("1M 2M", "6B")  # 2M is above 1M
    assert (
        solve(
            MosaicoState(SPEC.variant(), None, dict(mosaic), tiles("2M 1M"), tiles("6B")), None
        ).winnable
        is False
    )
