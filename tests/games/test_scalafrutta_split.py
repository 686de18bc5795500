"""Scalafrutta combinations and the exact best split (seed, SCALAFRUTTA, "Punteggi")."""

from __future__ import annotations

import itertools
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ludoteca.core.tiles import Tile
from ludoteca.games._scalafrutta_split import (
    _ROW_CONFIGS,
    best_split,
    best_split_by_enumeration,
    best_split_by_programme,
    combination_points,
    has_scalafrutta,
    holding_value,
)


def ids(text: str) -> tuple[int, ...]:
    return tuple(Tile.parse(t).index for t in text.split())


def mask(text: str) -> int:
    return sum(1 << t for t in ids(text))


def brute_force(tiles: list[int]) -> int:
    """Reference: every combination of the holding, then every disjoint set of them."""
    combos = []
    for size in range(3, 7):
        for combo in itertools.combinations(sorted(tiles), size):
            points = combination_points(combo)
            if points is not None:
                combos.append((sum(1 << t for t in combo), points))
    best = 0

    def search(start: int, used: int, points: int) -> None:
        nonlocal best
        best = max(best, points)
        for i in range(start, len(combos)):
            bits, value = combos[i]
            if not bits & used:
                search(i + 1, used | bits, points + value)

    search(0, 0, 0)
    return best


def test_worked_examples() -> None:
    """Seed, "Punteggi": poker di 3 = 50+3+3+3+3 = 62; 3-4-5-6 di mele = 100+3+4+5+6 = 118."""
    assert combination_points(ids("3M 3P 3C 3U")) == 62
    assert combination_points(ids("3M 4M 5M 6M")) == 118
    assert best_split(mask("3M 3P 3C 3U"))[0] == 62
    assert best_split(mask("3M 4M 5M 6M"))[0] == 118


def test_points_table() -> None:
    """Seed, "Punteggi": tris 25, poker 50, pokerissimo 100, superpoker 250; runs of the same
    fruit 3 -> 50, 4 -> 100, 5 -> 200; each plus the tiles' numbers."""
    assert combination_points(ids("1M 1P 1C")) == 25 + 3
    assert combination_points(ids("2M 2P 2C 2U 2F")) == 100 + 10
    assert combination_points(ids("6M 6P 6C 6U 6F 6B")) == 250 + 36
    assert combination_points(ids("1B 2B 3B")) == 50 + 6
    assert combination_points(ids("2U 3U 4U 5U 6U")) == 200 + 20


def test_what_is_no_combination() -> None:
    """Seed: combinations of 3 or more; a run is one fruit in sequence; RULES.md: no run of 6
    (all six of a fruit is the instant Scalafrutta instead)."""
    assert combination_points(ids("1M 1P")) is None
    assert combination_points(ids("1M 2M 4M")) is None
    assert combination_points(ids("1M 2P 3M")) is None
    assert combination_points(ids("1M 2M 3M 4M 5M 6M")) is None
    assert combination_points(ids("1M 1M 1P")) is None


def test_each_tile_in_one_combination_only() -> None:
    """Seed: "ogni tessera può appartenere ad una sola combinazione": 3M in a tris of 3s and
    in 1-2-3 of apples cannot count twice; the best is the better of the two."""
    assert best_split(mask("1M 2M 3M 3P 3C")) == (56, (ids("1M 2M 3M"),))
    # With a fourth 3, 3M stays in the run and the other three 3s make a tris: 56 + 34 = 90
    # beats the poker of 3s alone (62).
    assert best_split(mask("1M 2M 3M 3P 3C 3U")) == (90, (ids("1M 2M 3M"), ids("3P 3C 3U")))


def test_superpoker_beats_two_tris_and_the_full_square_of_tiles() -> None:
    """All 36 tiles: six superpokers (6 x 250 + 126 = 1626) beat any mix with runs."""
    points, combos = best_split((1 << 36) - 1)
    assert points == 1626
    assert len(combos) == 6


def test_against_brute_force_on_random_small_holdings() -> None:
    rng = random.Random(7)
    for _ in range(150):
        tiles = rng.sample(range(36), rng.randint(0, 11))
        holding = sum(1 << t for t in tiles)
        points, combos = best_split(holding)
        assert points == brute_force(tiles), [str(Tile.from_index(t)) for t in tiles]
        assert points == sum(combination_points(c) or -1000 for c in combos)
        used = [t for c in combos for t in c]
        assert len(used) == len(set(used)) and all(holding >> t & 1 for t in used)


def run_choices(holding: int) -> int:
    count = 1
    for fruit in range(6):
        count *= len(_ROW_CONFIGS[(holding >> (6 * fruit)) & 63])
    return count


@settings(max_examples=150, deadline=None)
@given(st.sets(st.integers(0, 35), max_size=30))
def test_enumeration_and_programme_agree(tiles: set[int]) -> None:
    """Differential: the plain enumeration of run choices and the array programme."""
    holding = sum(1 << t for t in tiles)
    assume(run_choices(holding) <= 3000)
    by_programme = best_split_by_programme(holding)
    assert by_programme[0] == best_split_by_enumeration(holding)[0]
    combos = by_programme[1]
    assert by_programme[0] == sum(combination_points(c) or -1000 for c in combos)


def test_scalafrutta_detection() -> None:
    """Seed, "Scalafrutta": all six tiles of one fruit are worth 500."""
    assert has_scalafrutta(mask("1U 2U 3U 4U 5U 6U 1M"))
    assert not has_scalafrutta(mask("1U 2U 3U 4U 5U 6M 1M"))
    assert holding_value(mask("1U 2U 3U 4U 5U 6U")) == 500
    assert holding_value(mask("1U 2U 3U")) == 56
