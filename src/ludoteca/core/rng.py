"""Seeded randomness that gives the same deal on every machine and Python version.

Python's :mod:`random` may change its algorithms between versions, so deals use a small
SplitMix64 generator of our own, keyed by a seed and a few labels (the stream), and a
Fisher-Yates shuffle with rejection sampling.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

from ludoteca.core.errors import LudotecaError

T = TypeVar("T")
MASK64 = (1 << 64) - 1

MAX_DEAL = 2**63 - 1
"""The largest deal number: results store it as an SQLite integer (64 bits, signed)."""


def check_deal_numbers(first: int, count: int = 1) -> None:
    """Refuse deals ``first`` … ``first + count - 1`` unless every one is 0..MAX_DEAL: a study
    past the end crashed with an OverflowError when its first result was stored."""
    last = first + count - 1
    if first < 0:
        raise LudotecaError(f"a deal number is 0..{MAX_DEAL}, not {first}")
    if last > MAX_DEAL:
        shown = str(first) if count == 1 else f"{first}..{last}"
        raise LudotecaError(f"a deal number is 0..{MAX_DEAL}, not {shown}")


def stream_key(seed: int, *labels: str | int) -> int:
    """A 64-bit key for a seed and labels, stable everywhere (BLAKE2b of their text)."""
    text = "/".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


class DealRng:
    """SplitMix64: tiny, fast, and fully specified, so deals never change under us."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, *labels: str | int) -> None:
        self._state = stream_key(seed, *labels)

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def getstate(self) -> int:
        return self._state

    def setstate(self, state: int) -> None:
        self._state = state & MASK64
