"""Hidden information in Domino della Frutta: what each seat sees, and determinization.

Seed (004, DOMINO DELLA FRUTTA): hands are "visibili a lui stesso, ma non agli avversari", the
set-aside tiles stay face down ("coperte"), and after open play ("Tessere scoperte") every hand
is visible to all. Docs rulings: a blocked tile stays known (everyone saw it face up); once
the game is over every hand is shown.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES
from ludoteca.games.domino import SPEC, DominoState, determinize

TOKEN = re.compile(r"[A-Za-z0-9]+")
TILE_NAMES = [str(t) for t in ALL_TILES]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v)]]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _states(seed: int, players: int) -> list[DominoState]:
    """Every position of one random game (open play and special moves included)."""
    state = SPEC.new_game(None, seed, players)
    rng = DealRng(seed, "observation-test")
    seen = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
        seen.append(state.clone())
    return seen


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_no_observation_ever_contains_a_hidden_tile(seed: int, players: int) -> None:
    """Seed: hands hidden from the others until open play; set-aside tiles always face down."""
    for state in _states(seed, players):
        for player in range(players):
            hidden = state.hidden_from(player)
            assert {str(t) for t in state.aside} <= hidden
            if not state.opened and not state.is_over:
                others = {str(t) for p, h in enumerate(state.hands) if p != player for t in h}
                assert others <= hidden
            texts = _strings(state.observation(player))
            tokens = {tok for text in texts for tok in TOKEN.findall(text)}
            assert not hidden & tokens, (player, sorted(hidden & tokens), state.position())
            for name in hidden:
                assert not any(name in text for text in texts), (player, name)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_each_seat_sees_its_hand_the_table_and_the_counts(seed: int, players: int) -> None:
    """Seed: own hand visible, the others' hand sizes and the table known to all; hands shown
    to everyone after open play; docs ruling: blocked tiles keep their identity."""
    for state in _states(seed, players):
        for player in range(players):
            seen = state.observation(player)
            assert seen["hand"] == [str(t) for t in state.hands[player]]
            assert seen["hand_sizes"] == [len(h) for h in state.hands]
            assert seen["aside_count"] == len(state.aside)
            table = {(e["tile"], e["blocked"]) for e in seen["table"]}
            assert table == {(str(t), down) for _, t, down in state.table.tiles()}
            if state.opened or state.is_over:
                assert seen["hands"] == [[str(t) for t in h] for h in state.hands]
            else:
                assert seen["hands"] is None
            if player != state.current_player:
                assert seen["legal_moves"] == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_every_hand_is_shown_once_the_game_is_over(seed: int, players: int) -> None:
    """Docs ruling (docs/rules/domino.md, "Hands at the end"): the terminal and the web page
    left the other hands hidden at the end, though the replay shows them; now the last
    position shows every seat every hand, and hides only the set-aside tiles."""
    last = _states(seed, players)[-1]
    assert last.is_over
    for player in range(players):
        assert last.observation(player)["hands"] == [[str(t) for t in h] for h in last.hands]
        assert last.hidden_from(player) == {str(t) for t in last.aside}
    if not last.opened:
        before = _states(seed, players)[-2]
        assert before.observation(0)["hands"] is None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_a_determinization_looks_the_same_to_its_seat(seed: int, players: int) -> None:
    """A sample built by ``determinize`` is a full state that gives the seat exactly the
    observation it came from, with all 36 tiles once each."""
    for number, state in enumerate(_states(seed, players)):
        if state.is_over:
            continue
        for player in range(players):
            seen = state.observation(player)
            sample = determinize(seen, DealRng(seed, number, player))
            every = [t for h in sample.hands for t in h] + sample.aside
            every += [t for _, t, _ in sample.table.tiles()]
            assert sorted(every) == sorted(ALL_TILES)
            assert sample.observation(player) == seen
            if sample.drawn is not None:
                assert sample.table.can_place(sample.drawn)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_a_determinization_does_not_depend_on_the_hidden_tiles(seed: int, players: int) -> None:
    """Hidden information stays hidden: two positions that differ only in tiles hidden from
    a seat look the same to it and give the same samples."""
    for number, state in enumerate(_states(seed, players)):
        if state.is_over or state.opened or state.drawn is not None:
            continue
        player = state.to
        other = (player + 1) % players
        if not state.hands[other] or not state.aside:
            continue
        twin = state.clone()
        # Swap a tile between another hand and the set-aside tiles: unseen by ``player``.
        twin.hands[other][0], twin.aside[0] = twin.aside[0], twin.hands[other][0]
        twin.hands[other].sort()
        assert twin.position() != state.position()
        assert twin.observation(player) == state.observation(player)
        first = determinize(state.observation(player), DealRng(seed, number))
        second = determinize(twin.observation(player), DealRng(seed, number))
        assert first.position() == second.position()
