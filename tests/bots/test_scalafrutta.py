"""Scalafrutta bots: they play legal moves from an observation alone, and play to purpose."""

from __future__ import annotations

from ludoteca.bots.base import bots_for, make_bot
from ludoteca.bots.scalafrutta import STRONG_CANDIDATES, StrongBot, fit
from ludoteca.core.registry import find_game
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, Tile
from ludoteca.games.scalafrutta import ScalafruttaState, determinize

SPEC = find_game("scalafrutta")


def build(square: str, pile: str, held: tuple[str, str], variant: str = "mano") -> ScalafruttaState:
    cells = square.split()
    rows = " / ".join(" ".join(cells[i : i + 3]) for i in (0, 3, 6))
    named = set(cells) | set(pile.split()) | {t for h in held for t in h.split()}
    rest = [str(t) for t in ALL_TILES if str(t) not in named]
    text = (
        f"players 2 seed 4 | hand 1 first P1 phase 0 | insert P1 last P2 | square {rows} | "
        f"pile {' '.join(pile.split() + rest)} | held {held[0] or '-'} ; {held[1] or '-'} | "
        "shown - ; - | totals 0 0 | hands -"
    )
    state = SPEC.from_position(text, SPEC.variant(variant))
    assert isinstance(state, ScalafruttaState)
    return state


def test_registered() -> None:
    assert {"random", "greedy", "strong"} <= set(bots_for("scalafrutta"))


def test_greedy_takes_the_tile_that_completes_a_combination() -> None:
    """Drawn 1M matches the 1s at L1, L3, T1 and B1; only L1 pushes out a tile that scores at
    once (3B completes P1's 1B-2B-3B: 56 points)."""
    state = build("1P 4C 3B 5U 5F 6P 1C 2C 3U", "1M", ("1B 2B", "4U"))
    assert set(state.legal_moves_text()) == {"L1", "L3", "T1", "B1"}
    bot = make_bot(SPEC, "greedy")
    for k in range(5):
        assert bot.choose(state.observation(0), DealRng(k)) == "L1"


def test_greedy_gives_away_what_helps_least() -> None:
    """With no match (drawn 5M), greedy never hands P2 a 6 (its tris of 6s): L1 and B3 push
    out 6B, L2 pushes out 6P."""
    state = build("1M 2M 6B 4P 5P 6P 1C 2C 3C", "5M", ("", "6M 6U"))
    bot = make_bot(SPEC, "greedy")
    for k in range(8):
        move = bot.choose(state.observation(0), DealRng(k))
        assert move.endswith(">P2") and move not in ("L1>P2", "L2>P2", "B3>P2")


def test_strong_plays_legal_moves_from_the_observation_alone() -> None:
    """The strong bot gets only the observation: two states that look the same to its seat
    (the true one and a determinization of it) get the same move from the same stream."""
    state = SPEC.new_game("coperte", 21, 3)
    rng = DealRng(1)
    for _ in range(6):
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player
    observation = state.observation(seat)
    twin = determinize(observation, DealRng(99))
    bot = StrongBot(iterations=12)
    first = bot.choose(observation, DealRng(5))
    assert first in observation["legal_moves"]
    assert bot.choose(twin.observation(seat), DealRng(5)) == first


def test_strong_takes_an_instant_scalafrutta() -> None:
    """Seed, "Scalafrutta": all six of a fruit end the hand with 500; in a single hand that
    wins, and the search finds it (L1 pushes out 6B to complete P1's bananas)."""
    state = build("1C 2C 6B 4C 5C 6C 1U 2U 3U", "1M", ("1B 2B 3B 4B 5B", "4U 5U"))
    assert "L1" in state.legal_moves_text() and len(state.legal_moves()) > 1
    assert StrongBot(iterations=30).choose(state.observation(0), DealRng(3)) == "L1"


def test_fit_prefers_tiles_next_to_the_holding() -> None:
    holding = sum(1 << Tile.parse(t).index for t in ("3M", "4M", "2P"))
    assert fit(holding, Tile.parse("5M").index) > fit(holding, Tile.parse("6B").index)
    assert fit(holding, Tile.parse("2M").index) > fit(holding, Tile.parse("1M").index)


def test_bots_finish_a_game() -> None:
    state = SPEC.new_game("mano", 8, 2)
    bots = [make_bot(SPEC, "greedy"), StrongBot(iterations=4)]
    rng = DealRng(8)
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), rng))
    assert state.outcome() is not None


def test_strong_searches_only_the_best_immediate_gains() -> None:
    """With nothing matching (drawn 5M) there are 12 gifts; the search weighs only the
    ``candidates`` best by greedy's gain, so it never hands P2 one of its 6s (L1, L2, B3)."""
    state = build("1M 2M 6B 4P 5P 6P 1C 2C 3C", "5M", ("", "6M 6U"))
    observation = state.observation(0)
    bot = StrongBot(iterations=12, candidates=3)
    shortlist = bot.shortlist(observation)
    assert len(shortlist) == 3 and not {"L1>P2", "L2>P2", "B3>P2"} & set(shortlist)
    for k in range(3):
        assert bot.choose(observation, DealRng(k)) in shortlist
    assert len(StrongBot(candidates=0).shortlist(observation)) == 12
    assert len(StrongBot().shortlist(observation)) == STRONG_CANDIDATES[2]
