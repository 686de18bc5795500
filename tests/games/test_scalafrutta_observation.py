"""What each Scalafrutta player may see, and determinizations built from it alone.

RULES.md: captured tiles are open to all (variant ``coperte``: hidden from the others); the
draw pile is face down (seed: "pesca una delle tessere coperte"), and the drawn tile is
known to its drawer only (docs/rules/scalafrutta.md, rule 2).
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core.registry import find_game
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import Tile
from ludoteca.games.scalafrutta import ScalafruttaState, determinize, mask_tiles

SPEC = find_game("scalafrutta")
TOKEN = re.compile(r"[A-Za-z0-9]+")


def new(variant: str, seed: int, players: int) -> ScalafruttaState:
    state = SPEC.new_game(variant, seed, players)
    assert isinstance(state, ScalafruttaState)
    return state


def seen_tokens(observation: dict[str, Any]) -> set[str]:
    return set(TOKEN.findall(json.dumps(observation)))


def tiles(indices: list[int]) -> set[str]:
    return {str(Tile.from_index(t)) for t in indices}


def test_drawn_tile_only_for_the_drawer() -> None:
    """Seed: each player in turn "pesca una delle tessere coperte" and pushes it in; docs
    (rule 2): only the player to move sees the drawn tile, the others do not."""
    state = new("scalafrutta", 3, 3)
    drawn = str(Tile.from_index(state.pile[-1]))
    mover = state.current_player
    assert state.observation(mover)["drawn"] == drawn
    for seat in range(3):
        if seat != mover:
            observation = state.observation(seat)
            assert observation["drawn"] is None and observation["legal_moves"] == []
            assert drawn not in seen_tokens(observation)


def test_coperte_shows_counts_only() -> None:
    """Seed, Variante: captured tiles are kept standing, hidden from the opponents, and shown
    only when combinations are made."""
    state = new("coperte", 5, 2)
    for _ in range(8):
        state.apply(state.legal_moves()[0])
    for seat in range(2):
        observation = state.observation(seat)
        other = 1 - seat
        assert observation["captured"][other] is None
        assert observation["captured_count"][other] == state.held[other].bit_count()
        assert observation["captured"][seat] == sorted(
            tiles(mask_tiles(state.held[seat])), key=Tile.parse
        )
        assert not tiles(mask_tiles(state.held[other])) & seen_tokens(observation)


def test_open_variant_shows_every_capture() -> None:
    """RULES.md: captured tiles are open to all."""
    state = new("scalafrutta", 5, 2)
    for _ in range(8):
        state.apply(state.legal_moves()[0])
    observation = state.observation(0)
    for seat in range(2):
        assert set(observation["captured"][seat]) == tiles(mask_tiles(state.held[seat]))


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    variant=st.sampled_from(["scalafrutta", "coperte", "mano"]),
)
def test_no_observation_shows_a_hidden_tile(seed: int, players: int, variant: str) -> None:
    """Property over random games: the draw pile (its order included), the drawn tile for the
    others, the tiles going back and, under coperte, the opponents' unshown captures never
    appear in an observation; and tiles are conserved (36, each once)."""
    state = new(variant, seed, players)
    rng = DealRng(seed, "observation-test")
    for _ in range(400):
        if state.is_over:
            break
        for seat in range(players):
            hidden = state.hidden_from(seat)
            pile = set(state.pile)
            if seat == state.current_player and state.stage == "insert":
                pile.discard(state.pile[-1])
            assert tiles(list(pile)) <= hidden
            assert not hidden & seen_tokens(state.observation(seat))
        placed = state.square + state.pile + state.returned()
        placed += [t for h in state.held for t in mask_tiles(h)]
        assert sorted(placed) == list(range(36))
        state.apply(rng.choice(state.legal_moves()))


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    variant=st.sampled_from(["scalafrutta", "coperte"]),
    steps=st.integers(0, 60),
)
def test_determinize_agrees_with_the_observation(
    seed: int, players: int, variant: str, steps: int
) -> None:
    """A determinization from one seat's observation shows that seat exactly the same, and
    deals every tile once; it never copies what the seat cannot see."""
    state = new(variant, seed, players)
    rng = DealRng(seed, "determinize-test")
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player
    observation = state.observation(seat)
    sample = determinize(observation, rng)
    again = sample.observation(seat)
    assert again == observation  # (its last move too: a review found it None)
    placed = sample.square + sample.pile + sample.returned()
    placed += [t for h in sample.held for t in mask_tiles(h)]
    assert sorted(placed) == list(range(36))
    assert sample.legal_moves() == state.legal_moves()


def test_determinize_samples_the_unseen_tiles() -> None:
    """Different random streams give different draw piles (not the true one every time)."""
    state = new("coperte", 11, 3)
    for _ in range(10):
        state.apply(state.legal_moves()[0])
    observation = state.observation(state.current_player)
    piles = {tuple(determinize(observation, DealRng(k)).pile[:-1]) for k in range(6)}
    assert len(piles) > 1
    hidden_opponent = {
        determinize(observation, DealRng(k)).held[(state.current_player + 1) % 3] for k in range(6)
    }
    assert len(hidden_opponent) > 1
