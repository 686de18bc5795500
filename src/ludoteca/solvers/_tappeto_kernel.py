"""Numba kernels for Tappeto: the seeded deal and the exact decision, a batch at a time.

The deal repeats :class:`ludoteca.core.rng.DealRng` (SplitMix64 and its rejection sampling)
on card indices, so a kernel deal is exactly the deal of ``tappeto.new_state``; only the
stream key (BLAKE2b of the seed) is computed in Python. Every constant is ``uint64`` because
Numba turns mixed signed/unsigned arithmetic into floats.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

DECK = 52
RANKS = 13
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31 = np.uint64(27), np.uint64(30), np.uint64(31)
_ZERO = np.uint64(0)


@njit(cache=True)
def _next64(state: npt.NDArray[np.uint64]) -> np.uint64:
    state[0] += _GOLDEN
    z: np.uint64 = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    mixed: np.uint64 = z ^ (z >> _S31)
    return mixed


@njit(cache=True)
def _below(state: npt.NDArray[np.uint64], n: int) -> int:
    bound = np.uint64(n)
    # 2**64 % n, computed as (2**64 - n) % n in wrapping arithmetic.
    rest = (_ZERO - bound) % bound
    while True:
        value = _next64(state)
        if rest == _ZERO or value < _ZERO - rest:
            return int(value % bound)


@njit(cache=True)
def deal_into(key: np.uint64, deck: npt.NDArray[np.int32]) -> None:
    """Fisher-Yates shuffle of the card indices 0..51 into ``deck``, as ``DealRng.shuffle``."""
    state = np.empty(1, np.uint64)
    state[0] = key
    for i in range(DECK):
        deck[i] = i
    for i in range(DECK - 1, 0, -1):
        j = _below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True)
def decide_deck(deck: npt.NDArray[np.int32], carpet_size: int, aces_start: bool) -> int:
    """Cards on the foundations at the end of the deal ``deck`` (52 when won).

    ``reveal[c]`` is how many plays must be made before card ``c`` lies in the carpet: 0 for
    the dealt carpet, ``i + 1`` for the reserve's card ``i``. Plays commute (see the solver's
    docstring), so suits are played up greedily until none moves.
    """
    reveal = np.zeros(DECK, np.int32)
    dealt = 0
    for i in range(DECK):
        card = deck[i]
        if aces_start and card % RANKS == 0:
            continue
        reveal[card] = 0 if dealt < carpet_size else dealt - carpet_size + 1
        dealt += 1
    start = 1 if aces_start else 0
    nxt = np.full(4, start, np.int32)  # rank index (0 = ace) each suit needs next
    played = 0
    moved = True
    while moved:
        moved = False
        for suit in range(4):
            while nxt[suit] < RANKS and reveal[suit * RANKS + nxt[suit]] <= played:
                nxt[suit] += 1
                played += 1
                moved = True
    return played + 4 * start


@njit(cache=True)
def decide_keys(
    keys: npt.NDArray[np.uint64], carpet_size: int, aces_start: bool
) -> npt.NDArray[np.int8]:
    """Final foundation counts for a batch of deals given by their stream keys."""
    scores = np.empty(keys.shape[0], np.int8)
    deck = np.empty(DECK, np.int32)
    for k in range(keys.shape[0]):
        deal_into(keys[k], deck)
        scores[k] = decide_deck(deck, carpet_size, aces_start)
    return scores


@njit(cache=True)
def deal_keys(keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.int32]:
    """The shuffled card indices of each deal (for the differential test)."""
    decks = np.empty((keys.shape[0], DECK), np.int32)
    for k in range(keys.shape[0]):
        deal_into(keys[k], decks[k])
    return decks
