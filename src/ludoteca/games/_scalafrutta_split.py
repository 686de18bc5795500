"""Scalafrutta combinations and the exact best split of a holding.

A holding is a 36-bit mask, bit ``tile.index`` (fruit-major: bit ``6 * fruit + number - 1``).
A combination is 3 or more tiles of one number (tris, poker, pokerissimo, superpoker) or 3 to
5 tiles of one fruit in sequence; it is worth its table points plus the tiles' numbers (seed,
"Punteggi"). A split is a set of disjoint combinations; the best split has the most points.

The best split is a dynamic programme over the six fruits. Runs live inside one fruit's row,
and a row of six numbers allows at most 10 useful run choices (none, or one run of 3, 4 or
5). What links the fruits is only how many tiles of each number the runs take: the tiles of
a number left over form one same-number group if there are 3 or more (a bigger group is
always worth more, and one group of six beats two tris). So the programme keeps, for every
vector of "tiles taken per number", the best run points, in a flat NumPy array of at most
6**6 cells where adding a run is one shifted maximum.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import numpy.typing as npt

GROUP_POINTS = {3: 25, 4: 50, 5: 100, 6: 250}
"""Same number: tris, poker, pokerissimo, superpoker (seed, "Punteggi")."""
RUN_POINTS = {3: 50, 4: 100, 5: 200}
"""Same fruit in sequence, 3 to 5 tiles (seed, "Punteggi"); a run of 6 is no combination."""
SCALAFRUTTA_POINTS = 500
"""All six tiles of one fruit end the hand at once (seed, "Scalafrutta")."""

Combination = tuple[int, ...]
"""Tile indices of one combination, ascending by (number, fruit)."""

_NEG = np.int16(-20000)
"""Unreachable cells. 16-bit cells halve the memory traffic: reachable values stay below
1,700 and an unreachable one gains at most 6 x 220 run points plus 1,626 group points."""


def number_of(index: int) -> int:
    return index % 6 + 1


def fruit_of(index: int) -> int:
    return index // 6


def combination_points(tiles: Combination) -> int | None:
    """Points of a combination of tile indices, or ``None`` if it is not one."""
    if len(set(tiles)) != len(tiles) or len(tiles) < 3:
        return None
    numbers = sorted(number_of(t) for t in tiles)
    total = sum(numbers)
    if len(set(numbers)) == 1:
        return GROUP_POINTS[len(tiles)] + total
    same_fruit = len({fruit_of(t) for t in tiles}) == 1
    consecutive = numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    if same_fruit and consecutive and len(tiles) in RUN_POINTS:
        return RUN_POINTS[len(tiles)] + total
    return None


def sort_combination(tiles: Combination) -> Combination:
    return tuple(sorted(tiles, key=lambda t: (number_of(t), fruit_of(t))))


def canonical_split(combos: list[Combination]) -> tuple[Combination, ...]:
    """Combinations in one order, so that equal splits print alike."""
    ordered = [sort_combination(c) for c in combos]
    return tuple(sorted(ordered, key=lambda c: [(number_of(t), fruit_of(t)) for t in c]))


def _row_configs() -> list[list[tuple[int, int]]]:
    """For each 6-bit fruit row: the run choices it allows, as (used bits, run points)."""
    runs = [
        (
            ((1 << length) - 1) << start,
            RUN_POINTS[length] + sum(range(start + 1, start + 1 + length)),
        )
        for length in RUN_POINTS
        for start in range(7 - length)
    ]
    # 1-2-3 with 4-5-6 (121) is left out: 2-3-4-5-6 takes fewer tiles for more points (220).
    choices = [(0, 0), *runs]
    return [[(bits, pts) for bits, pts in choices if bits & row == bits] for row in range(64)]


_ROW_CONFIGS = _row_configs()


def _group_table() -> npt.NDArray[np.int16]:
    """``table[number - 1, size]``: points of a same-number group of ``size`` tiles."""
    table = np.zeros((6, 7), dtype=np.int16)
    for number in range(1, 7):
        for size, points in GROUP_POINTS.items():
            table[number - 1, size] = points + size * number
    return table


_GROUPS = _group_table()
_GROUP_LIST = [[int(v) for v in row] for row in _GROUPS]


ENUMERATE_LIMIT = 64
"""Up to this many run choices in all, trying each one beats the array programme."""


@lru_cache(maxsize=1 << 16)
def best_split(holding: int) -> tuple[int, tuple[Combination, ...]]:
    """The highest-scoring split of a holding (36-bit mask): its points and combinations."""
    rows = [(holding >> (6 * fruit)) & 63 for fruit in range(6)]
    choices = 1
    for row in rows:
        choices *= len(_ROW_CONFIGS[row])
    if choices <= ENUMERATE_LIMIT:
        return best_split_by_enumeration(holding)
    return best_split_by_programme(holding)


_NUMBER_MASKS = [sum(1 << (6 * f + n) for f in range(6)) for n in range(6)]


def best_split_by_enumeration(holding: int) -> tuple[int, tuple[Combination, ...]]:
    """Try every choice of runs (the leftover tiles of each number make its group)."""
    rows = [(holding >> (6 * fruit)) & 63 for fruit in range(6)]
    options = [
        [(bits << (6 * fruit), points) for bits, points in _ROW_CONFIGS[row]]
        for fruit, row in enumerate(rows)
    ]
    best_points, best_used = -1, 0
    for choice in itertools.product(*options):
        used = 0
        points = 0
        for bits, run_points in choice:
            used |= bits
            points += run_points
        left = holding & ~used
        for n in range(6):
            points += _GROUP_LIST[n][(left & _NUMBER_MASKS[n]).bit_count()]
        if points > best_points:
            best_points, best_used = points, used
    combos = [c for f in range(6) for c in _runs_of(f, (best_used >> (6 * f)) & 63)]
    combos.extend(_groups(holding & ~best_used))
    return best_points, canonical_split(combos)


def _groups(left: int) -> list[Combination]:
    """The same-number groups of the tiles no run takes (3 or more of a number)."""
    groups = []
    for n in range(6):
        group = tuple(6 * f + n for f in range(6) if left >> (6 * f + n) & 1)
        if len(group) >= 3:
            groups.append(group)
    return groups


def best_split_by_programme(holding: int) -> tuple[int, tuple[Combination, ...]]:
    """The array programme of the module docstring, for holdings with many run choices."""
    rows = [(holding >> (6 * fruit)) & 63 for fruit in range(6)]
    counts = [sum((row >> n) & 1 for row in rows) for n in range(6)]
    shape = _shape(counts)
    strides = [int(np.prod(shape[n + 1 :])) for n in range(6)]
    best = np.full(int(np.prod(shape)), _NEG, dtype=np.int16)
    best[0] = 0
    layers = [best]
    scratch = np.empty_like(best)
    for row in rows:
        current = best.copy()
        for bits, points in _ROW_CONFIGS[row][1:]:
            shift = sum(strides[n] for n in range(6) if bits >> n & 1 and shape[n] > 1)
            np.add(best[: best.size - shift], points, out=scratch[: best.size - shift])
            np.maximum(current[shift:], scratch[: best.size - shift], out=current[shift:])
        _fold(current.reshape(shape), row)
        best = current
        layers.append(best)
    total = best.reshape(shape).copy()
    for n in range(6):
        values = np.zeros(shape[n], dtype=np.int16)
        if shape[n] > 1:
            values[:-2] = _GROUPS[n, counts[n] - np.arange(shape[n] - 2)]
        total += values.reshape([-1 if axis == n else 1 for axis in range(6)])
    cell = tuple(int(i) for i in np.unravel_index(int(np.argmax(total)), shape))
    points = int(total[cell])
    combos: list[Combination] = []
    for fruit in range(5, -1, -1):
        before, after = layers[fruit].reshape(shape), layers[fruit + 1].reshape(shape)
        cell, bits = _predecessor(before, after, cell, rows[fruit])
        combos.extend(_runs_of(fruit, bits))
    used = sum(1 << t for c in combos for t in c)
    combos.extend(_groups(holding & ~used))
    return points, canonical_split(combos)


def _shape(counts: list[int]) -> tuple[int, ...]:
    """Slots per number for the tiles runs take from it.

    Only numbers with 3 or more tiles are tracked (elsewhere no group can form). Of c tiles,
    runs may take 0..c-3 and leave a group: one slot each; any more leaves no group: one
    shared "dead" slot; and a last, always empty, slot takes the overflow while one fruit
    is added, so that a step is a plain shift of the flat array (no carry into the next
    number); :func:`_fold` then merges it into the dead slot.
    """
    return tuple(c if c >= 3 else 1 for c in counts)


def _fold(layer: npt.NDArray[np.int16], row: int) -> None:
    for n in range(6):
        size = layer.shape[n]
        if size == 1 or not row >> n & 1:
            continue
        dead = (slice(None),) * n + (size - 2,)
        over = (slice(None),) * n + (size - 1,)
        np.maximum(layer[dead], layer[over], out=layer[dead])
        layer[over] = _NEG


def _predecessor(
    before: npt.NDArray[np.int16],
    after: npt.NDArray[np.int16],
    cell: tuple[int, ...],
    row: int,
) -> tuple[tuple[int, ...], int]:
    """Which run choice of a fruit led to ``cell``, and the cell it came from."""
    for bits, points in _ROW_CONFIGS[row]:
        options: list[list[int]] = []
        for n in range(6):
            dead = before.shape[n] - 2
            if not bits >> n & 1 or dead < 0:
                options.append([cell[n]])
            elif cell[n] == dead:
                options.append([dead - 1, dead] if dead else [dead])
            else:
                options.append([cell[n] - 1] if cell[n] else [])
        for source in itertools.product(*options):
            if before[source] + points == after[cell]:
                return source, bits
    raise AssertionError("best split: no predecessor")  # the programme always has one


def _runs_of(fruit: int, bits: int) -> list[Combination]:
    """The run a fruit row's used bits form, if any."""
    return [tuple(6 * fruit + n for n in range(6) if bits >> n & 1)] if bits else []


def holding_value(holding: int) -> int:
    """What a holding is worth now: 500 for a full fruit (Scalafrutta), else its best split."""
    if has_scalafrutta(holding):
        return SCALAFRUTTA_POINTS
    return best_split(holding)[0]


_FRUIT_STARTS = sum(1 << (6 * fruit) for fruit in range(6))


def has_scalafrutta(holding: int) -> bool:
    """Does the holding have all six tiles of some fruit? (A bit survives the five shifts
    only where a fruit's six bits are all set.)"""
    full = holding & holding >> 1 & holding >> 2 & holding >> 3 & holding >> 4 & holding >> 5
    return bool(full & _FRUIT_STARTS)
