"""Exact Tappeto: the order of plays never matters, so playing greedily decides a deal.

Why (the proof that ``tests/solvers/test_tappeto.py`` checks against exhaustive search):
a carpet card's cell is irrelevant to the rules and every play moves the reserve's next card
into the carpet, so after any ``n`` plays the carpet holds exactly the dealt carpet plus the
reserve's first ``n`` cards, less the cards played. Whether card ``c`` may go up therefore
depends only on the *set* ``P`` of cards played so far: its predecessor is in ``P`` and it is
in the carpet (``reveal(c) <= |P|``, ``reveal`` 0 for a dealt carpet card and ``i + 1`` for
the reserve's card ``i``). Both conditions stay true when ``P`` grows, so a playable card
stays playable until it is played. Take two complete games ending with sets ``A`` and ``B``;
if some card of ``B`` were missing from ``A``, the first such card in ``B``'s order was
playable on a subset of ``A``, hence on ``A``, and ``A``'s game had not ended. So every
complete game ends with the same cards on the foundations: win or loss, and the score, are
fixed by the deal, and any order of plays (the first legal move, say) reaches them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.core.cards import Card
from ludoteca.core.game import State, Variant
from ludoteca.core.rng import DealRng, stream_key
from ludoteca.games.tappeto import DEAL_STREAM, DECK_SIZE, SPEC, TappetoParams, TappetoState
from ludoteca.solvers._tappeto_kernel import decide_keys
from ludoteca.solvers.base import Hint, PlayResult, SolverEntry, SolveResult, register_solver

LABEL = "exact, with all cards known: it reads the reserve's order"


def reveal_times(state: TappetoState) -> dict[Card, int]:
    """How many more plays each card still out needs before it lies in the carpet."""
    times: dict[Card, int] = {c: 0 for c in state.carpet if c is not None}
    times.update({c: i + 1 for i, c in enumerate(state.reserve)})
    return times


def greedy_line(state: TappetoState) -> list[Card]:
    """The plays to the end of the game, suit by suit as far as each goes (plain Python).

    Any complete game reaches the same foundations (module docstring); this one is cheap.
    """
    reveal = reveal_times(state)
    tops = list(state.foundations)
    line: list[Card] = []
    moved = True
    while moved:
        moved = False
        for suit in range(4):
            while tops[suit] < 13 and reveal[Card(tops[suit] + 1, suit)] <= len(line):
                tops[suit] += 1
                line.append(Card(tops[suit], suit))
                moved = True
    return line


def _as_tappeto(state: State[Any]) -> TappetoState:
    if not isinstance(state, TappetoState):
        raise TypeError(f"the Tappeto solver got a {state.spec.name} position")
    return state


def solve(state: State[Any], max_states: int | None = None) -> SolveResult:
    """Decide the position exactly; one line of at most 52 plays, so no limit is needed."""
    start = time.perf_counter()
    game = _as_tappeto(state)
    line = greedy_line(game)
    cards = game.cards_on_foundations + len(line)
    return SolveResult(
        winnable=cards == DECK_SIZE,
        states=len(line) + 1,
        seconds=time.perf_counter() - start,
        moves=[str(c) for c in line],
        label=LABEL,
        # No state limit applies (one line of at most 52 plays): said as null, as everywhere.
        extra={"cards_on_foundations": cards, "order_matters": False, "max_states": None},
    )


def hint(state: State[Any], seconds: float) -> Hint:
    """Any legal move is as good as any other; the hidden reserve decides the rest."""
    game = _as_tappeto(state)
    moves = game.legal_moves()
    if game.reserve:
        # A player does not see the reserve, so the hint does not read it either.
        note = "every order of plays ends the same; the face-down reserve decides the deal"
        return Hint(str(moves[0]) if moves else None, None, note)
    won = game.cards_on_foundations + len(greedy_line(game)) == DECK_SIZE
    note = "the reserve is empty: every card left is in sight"
    return Hint(str(moves[0]) if moves else None, won, note)


def play_solver(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """The study policy ``solver``: the exact outcome of the deal in ``state``."""
    result = solve(state, max_states)
    cards = result.extra["cards_on_foundations"]
    return PlayResult(result.winnable, float(cards), result.states)


def _params(variant: Variant | str) -> TappetoParams:
    chosen = SPEC.variant(variant) if isinstance(variant, str) else variant
    params: TappetoParams = chosen.params
    return params


def decide_scores(variant: Variant | str, seeds: Sequence[int]) -> npt.NDArray[np.int8]:
    """Cards on the foundations at the end of each seeded deal (52 when won), by the kernel."""
    params = _params(variant)
    keys = np.fromiter((stream_key(s, DEAL_STREAM) for s in seeds), np.uint64, len(seeds))
    scores: npt.NDArray[np.int8] = decide_keys(
        keys, params.carpet_size, params.aces_start_on_foundations
    )
    return scores


def decide_batch(
    variant: Variant | str, seeds: Sequence[int], max_states: int | None = None
) -> list[PlayResult]:
    """The study's batch path for ``solver``: one :class:`PlayResult` per seed, the same as
    :func:`play_solver` gives for that seed's deal (no limit is ever reached)."""
    params = _params(variant)
    base = 4 if params.aces_start_on_foundations else 0
    return [
        PlayResult(score == DECK_SIZE, float(score), score - base + 1)
        for score in decide_scores(variant, seeds).tolist()
    ]


register_solver(
    SolverEntry(
        game="tappeto",
        label=LABEL,
        solve=solve,
        hint=hint,
        policies={"solver": play_solver},
        batch_policies={"solver": decide_batch},
        limited=False,
    )
)
