"""The contract every registered game keeps (after OpenSpiel's generic game tests).

Random games of every game, variant and player count check that legal moves apply, games end,
undo restores the position, notation and saves round-trip, deals are reproducible, and no
observation ever shows a player a card or tile hidden from them.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import TERMINAL, GameSpec, State, Variant
from ludoteca.core.registry import all_games, find_game
from ludoteca.core.rng import DealRng
from ludoteca.core.saves import loads, snapshot

CASES = [
    pytest.param(spec.name, variant.name, players, id=f"{spec.name}-{variant.name}-{players}p")
    for spec in all_games()
    for variant in spec.variants
    for players in range(spec.min_players, spec.max_players + 1)
]
TOKEN = re.compile(r"[A-Za-z0-9]+")


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value: dict keys and string leaves alike."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v)]]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def assert_no_leak(state: State[Any]) -> None:
    for player in range(state.players):
        hidden = state.hidden_from(player)
        observation = state.observation(player)
        json.dumps(observation)  # must be JSON-ready
        if not hidden:
            continue
        seen = set()
        for text in _strings(observation):
            seen.add(text)
            seen.update(TOKEN.findall(text))
        leaked = hidden & seen
        assert not leaked, f"player {player} sees hidden {sorted(leaked)} in {state.position()}"


def check_step(state: State[Any], spec: GameSpec, variant: Variant) -> None:
    position = state.position()
    assert spec.from_position(position, variant).position() == position
    moves = state.legal_moves()
    player = state.current_player
    if state.is_over:
        assert player == TERMINAL and moves == []
        return
    assert moves, f"{spec.name}: the game is not over but offers no move at {position}"
    observed = state.observation(player)["legal_moves"]
    assert sorted(observed) == sorted(state.legal_moves_text())
    for move in moves:
        text = state.move_text(move)
        assert state.move_text(state.parse_move(text)) == text
        assert state.why_illegal(move) is None


def play_random(name: str, variant_name: str, players: int, seed: int) -> State[Any]:
    spec = find_game(name)
    variant = spec.variant(variant_name)
    state = spec.new_game(variant, seed, players)
    assert spec.new_game(variant, seed, players).position() == state.position(), "deal differs"
    rng = DealRng(seed, "contract-test")
    for _ in range(spec.max_game_length):
        check_step(state, spec, variant)
        assert_no_leak(state)
        if state.is_over:
            break
        moves = state.legal_moves()
        move = rng.choice(moves)
        before = state.position()
        state.apply(move)
        state.undo()
        assert state.position() == before, f"{spec.name}: undo of {move} changed the position"
        state.apply(move)
    else:
        # The bound's last move may end the game: a Tappeto con-scarti win takes all 52.
        check_step(state, spec, variant)
        assert_no_leak(state)
        assert state.is_over or spec.extra.get("can_cycle"), (
            f"{spec.name} did not end within max_game_length={spec.max_game_length}; "
            "if the rules allow endless play, declare GameSpec.extra['can_cycle']=True"
        )
    return state


@pytest.mark.parametrize(("name", "variant_name", "players"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_games_keep_the_contract(
    name: str, variant_name: str, players: int, seed: int
) -> None:
    state = play_random(name, variant_name, players, seed)
    saved, replayed = loads(snapshot(state).dumps())
    assert replayed.position() == state.position()
    assert saved.moves == state.history_text()
    if state.is_over:
        assert state.outcome() == replayed.outcome()


def test_a_game_may_end_on_the_last_move_its_bound_allows() -> None:
    """Tappeto seed, Varianti "con scarti" (the aces are dealt and go up from the carpet):
    a win puts all 52 cards on the foundations, one per move, so it takes exactly
    max_game_length = 52 moves. Deal 1 of con-scarti is such a win (every order of plays
    wins it); the random-game contract called it a game that "did not end within
    max_game_length" whenever Hypothesis drew it."""
    state = play_random("tappeto", "con-scarti", 1, 1)
    outcome = state.outcome()
    assert outcome is not None and outcome.won
    assert len(state.history) == state.spec.max_game_length == 52


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_declared_facts(spec: GameSpec) -> None:
    assert find_game(spec.name) is spec
    for alias in spec.aliases:
        assert find_game(alias.upper()) is spec
    assert 1 <= spec.min_players <= spec.max_players <= 4
    assert spec.variants and len({v.name for v in spec.variants}) == len(spec.variants)
    # What the web page shows for each (its name is the notation): one of its own, capitalised.
    titles = [v.title for v in spec.variants]
    assert all(t and not t[0].islower() for t in titles) and len(set(titles)) == len(titles)
    assert spec.max_game_length > 0
    assert spec.rules_doc == f"docs/rules/{spec.name}.md"


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_every_parameter_is_explained_for_players(spec: GameSpec) -> None:
    """The web page's options and `ludoteca games GAME` say what each `-p` parameter does
    (the page once showed bare names: "twos first", "penalty"); a parameter added to a game
    without its label and line fails here."""
    names = {name for variant in spec.variants for name in variant.params_json()}
    assert set(spec.param_help) == names, sorted(names ^ set(spec.param_help))
    for label, text in spec.param_help.values():
        assert label and label[0].isupper() and text.endswith("."), (label, text)


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_the_parameters_limits_are_those_the_checks_take(spec: GameSpec) -> None:
    """The web page's options fields take each number parameter's ``min`` and ``max`` from
    the spec (``param_limits_json``): each limit is a value the variant's check takes, and one
    step past it is refused, so that the fields' limits and the checks cannot drift apart."""
    default = spec.default_variant
    for name, limits in spec.param_limits_json().items():
        past = 1 if limits["step"] == 1 else 0.5
        for key, outside in (("min", -past), ("max", past)):
            if key not in limits:
                continue
            default.with_params({name: str(limits[key])})
            with pytest.raises(LudotecaError):
                default.with_params({name: str(limits[key] + outside)})


@pytest.mark.parametrize("seed", [-1, 2**63])
def test_new_game_refuses_a_deal_number_no_command_takes(seed: int) -> None:
    """docs/architecture.md: deals are 0..2**63-1. ``new_game(None, -1)`` dealt a 'deal
    -1' from Python, which every command refuses."""
    for spec in all_games():
        with pytest.raises(LudotecaError, match=r"a deal number is 0\.\.\d+, not "):
            spec.new_game(None, seed)


def play_watching_reveals(name: str, variant_name: str, players: int, seed: int) -> None:
    """Random play that checks :meth:`State.reveals_to` against :meth:`State.hidden_from`
    with perfect recall: a card or tile that a seat never saw before and sees after a move
    was brought to light for it, so the move must name the seat. (Unless it was the one
    thing out of that seat's sight, known without looking.) A seat that saw it once and
    lost sight of it (Acme's waste turned over, Scalafrutta's pile shuffled again) may or
    may not be told: whether it learns something is the game's to say (its own tests).
    And what a move reveals is asked without changing the position."""
    spec = find_game(name)
    state = spec.new_game(spec.variant(variant_name), seed, players)
    never_seen = [set(state.hidden_from(seat)) for seat in range(players)]
    rng = DealRng(seed, "contract-reveals")
    for _ in range(spec.max_game_length):
        if state.is_over:
            return
        move = rng.choice(state.legal_moves())
        before = state.position()
        told = state.reveals_to(move)
        assert state.position() == before, f"{spec.name}: reveals_to changed the position"
        state.apply(move)
        for seat in range(players):
            shown = never_seen[seat] - state.hidden_from(seat)
            if shown and len(never_seen[seat]) > 1:
                assert seat in told, (
                    f"{spec.name}: {state.move_text(move)} showed seat {seat} {sorted(shown)}"
                    f" but reveals_to says {sorted(told)}, at {before}"
                )
            never_seen[seat] -= shown
        after, moves = state.position(), state.legal_moves_text()
        assert state.revealed_in_last(0, 1) == (0 in told)
        assert state.position() == after, f"{spec.name}: revealed_in_last changed the position"
        assert state.legal_moves_text() == moves


@pytest.mark.parametrize(("name", "variant_name", "players"), CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_reveals_to_names_every_seat_a_move_shows_something_new(
    name: str, variant_name: str, players: int, seed: int
) -> None:
    """docs/architecture.md, *Practice*: every game says which seats a move brings hidden
    information to light for (undo and restart past such a move make the game practice)."""
    play_watching_reveals(name, variant_name, players, seed)
