"""Domino della Frutta bots: they see only observations, play legal moves, and the compiled
playout follows the engine's placement rule (seed 004, DOMINO DELLA FRUTTA; RULES.md)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.bots._domino_rollout import encode, placements, rollout
from ludoteca.bots.domino import GreedyBot, StrongBot
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import Tile
from ludoteca.games.domino import SPEC, DominoState, from_position


def _states(seed: int, players: int) -> list[DominoState]:
    state = SPEC.new_game(None, seed, players)
    rng = DealRng(seed, "bot-test")
    seen = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
        seen.append(state.clone())
    return seen


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_the_compiled_placements_match_the_engine(seed: int, players: int) -> None:
    """Differential: the playout kernel's placement rule equals the engine's (RULES.md
    geometry, blocked neighbours, 2 x 2 ban)."""
    for state in _states(seed, players):
        if state.is_over:
            continue
        grid, _, _, _ = encode(state)
        hand = [state.drawn] if state.drawn else state.hands[state.to]
        found = placements(grid, np.array([t.index for t in hand], dtype=np.int64), 1)
        compiled = {f"{Tile.from_index(int(t))}@r{int(r)}" for t, r in found}
        assert compiled == {str(m) for m in state.placements()}, state.position()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_a_playout_ends_as_the_rules_say(seed: int, players: int) -> None:
    """Seed, Fine della partita: a playout ends when a hand is empty or every player is out;
    tiles are only ever moved from hands to the table or from the set-aside tiles to hands."""
    state = _states(seed, players)[3]
    grid, hands, aside, flags = encode(state)
    before = int(hands.sum()) + len(aside) + int((grid >= 0).sum())
    left = rollout(grid, hands, aside, flags, seed % 1000)
    assert list(left) == list(hands.sum(axis=1))
    drawn_from_aside = int(left.sum()) + int((grid >= 0).sum()) - before + len(aside)
    assert 0 <= drawn_from_aside <= len(aside)
    assert min(left) == 0 or drawn_from_aside == len(aside)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_the_bots_choose_legal_moves_from_the_observation(seed: int, players: int) -> None:
    """bots/base.py: a bot returns one of the observation's legal moves."""
    greedy, strong = GreedyBot(), StrongBot(iterations=20)
    rng = DealRng(seed, "bots")
    for state in _states(seed, players)[::4]:
        if state.is_over:
            continue
        seen = state.observation(state.to)
        assert greedy.choose(seen, rng) in seen["legal_moves"]
        assert strong.choose(seen, rng) in seen["legal_moves"]


def test_greedy_takes_the_placement_that_keeps_most_tiles_playable() -> None:
    """Docs, greedy: place a tile, choosing the placement after which most of its own
    remaining tiles can still be placed (checked against the engine by brute force)."""
    for seed in range(12):
        state = _states(seed, 2)[4]
        if state.is_over or not state.placements() or state.drawn is not None:
            continue
        me = state.to

        def playable_after(text: str, state: DominoState = state, me: int = me) -> int:
            trial = state.clone()
            trial.apply(text)
            return sum(1 for t in trial.hands[me] if trial.table.can_place(t))

        values = {str(m): playable_after(str(m)) for m in state.placements()}
        chosen = GreedyBot().choose(state.observation(me), DealRng(seed))
        assert values[chosen] == max(values.values())


def test_greedy_draws_when_stuck_and_blocks_rather_than_go_out() -> None:
    """Docs, greedy: stuck, it draws; with nothing to draw it uses the special move before
    going out (seed: "un giocatore che ... non può deporre alcuna tessera viene eliminato")."""
    base = "to 0 | turn 1 | hands 6B / {rest} | aside {aside} | table 1M@r0 | special - | "
    base += "out - | open no | drawn -"
    others = [t for t in map(str, _all_tiles()) if t not in ("6B", "1M", "5C")]
    with_aside = from_position(base.format(rest=" ".join(others), aside="5C"), SPEC.variants[0])
    assert GreedyBot().choose(with_aside.observation(0), DealRng(1)) == "draw"
    others.append("5C")
    no_aside = from_position(base.format(rest=" ".join(others), aside="-"), SPEC.variants[0])
    assert GreedyBot().choose(no_aside.observation(0), DealRng(1)) == "block 1M"


def test_strong_plays_the_last_tile_and_is_reproducible() -> None:
    """Seed: placing the last tile wins, so the strong bot takes it; the same rng gives the
    same choice (bots are seeded, tournaments replay)."""
    base = "to 0 | turn 1 | hands 2M / {rest} | aside - | table 1M@r0 | special - | "
    base += "out - | open no | drawn -"
    rest = " ".join(t for t in map(str, _all_tiles()) if t not in ("2M", "1M"))
    state = from_position(base.format(rest=rest), SPEC.variants[0])
    assert StrongBot(iterations=10).choose(state.observation(0), DealRng(2)) == "2M@r0"
    middle = _states(5, 3)[6]
    seen = middle.observation(middle.to)
    assert StrongBot(30).choose(seen, DealRng(9)) == StrongBot(30).choose(seen, DealRng(9))


def _all_tiles() -> list[Tile]:
    return [Tile.from_index(i) for i in range(36)]
