"""The Acme solver ("winnable with all cards known"): cross-checked against an exhaustive search
over the engine's own moves on small positions, its winning lines replay in the engine, the
safe moves home never lose a win, and the Numba kernel agrees with its plain-Python run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from ludoteca.core.cards import Card
from ludoteca.core.rng import DealRng
from ludoteca.games.acme import FOUNDATION, SPEC, AcmeParams, AcmeState
from ludoteca.solvers import acme
from ludoteca.solvers.acme import (
    LABEL,
    Search,
    greedy_move,
    hint,
    line_moves,
    sample,
    search,
    solve,
)
from ludoteca.solvers.base import Hint, find_solver

REDEALS = [None, 0, 1]


def small_position(seed: int, redeals: int | None) -> AcmeState:
    """A small deal of the game: the 20 cards above the 8s, a 7 to 10-card reserve, four
    column cards, the rest split between the stock and the waste."""
    rng = DealRng(seed, "acme-small")
    deck = [Card(r, s) for s in range(4) for r in range(9, 14)]
    rng.shuffle(deck)
    size = 7 + rng.below(4)
    reserve, columns, rest = deck[:size], [[c] for c in deck[size : size + 4]], deck[size + 4 :]
    cut = rng.below(len(rest) + 1)
    variant = SPEC.variant().with_params({"redeals": str(redeals).lower()})
    state = AcmeState(variant, None, reserve, columns, [8] * 4, rest[:cut], rest[cut:])
    state.progress = bool(rng.below(2))
    return state


def mixed_sample(redeals: int | None, each: int) -> list[AcmeState]:
    """Small positions, ``each`` the kernel calls won and ``each`` it calls lost (losses are
    rare in small deals); the exhaustive search then checks every answer."""
    picked: dict[int, list[AcmeState]] = {0: [], 1: []}
    for seed in range(2000):
        state = small_position(seed, redeals)
        result = search(state, 100_000).result
        if len(picked[result]) < each:
            picked[result].append(state)
        if min(map(len, picked.values())) == each:
            break
    return picked[0] + picked[1]


def brute_force(state: AcmeState) -> bool:
    """Is a win reachable through the engine's legal moves? Every move is tried; positions
    already searched are skipped (the column-move counter is left out of the key)."""
    seen: set[str] = set()

    def won_from(state: AcmeState) -> bool:
        if state.won:
            return True
        key = state.position().rsplit(" moved ", 1)[0]
        if key in seen:
            return False
        seen.add(key)
        for move in state.legal_moves():
            token = state._play(move)
            won = won_from(state)
            state._unplay(move, token)
            if won:
                return True
        return False

    return won_from(state)


@pytest.mark.parametrize("redeals", REDEALS)
def test_solver_matches_exhaustive_search_on_small_positions(redeals: int | None) -> None:
    each = 1 if redeals is None else 4  # losses are slow to prove when turning is free
    sample = mixed_sample(redeals, each)
    assert len(sample) == 2 * each
    for state in sample:
        assert search(state, 100_000).result == int(brute_force(state)), state.position()
    for seed in range(6):  # unselected positions too
        state = small_position(seed, redeals)
        assert search(state, 100_000).result == int(brute_force(state)), state.position()


@pytest.mark.parametrize("redeals", [0, 1])
def test_safe_moves_home_never_lose_a_win(redeals: int) -> None:
    """A card whose predecessor is home goes home from a column, the reserve's top or the
    waste's top without losing a win (columns build down by suit: it takes no card again)."""
    checked = 0
    for state in mixed_sample(redeals, 2):
        home = [m for m in state.legal_moves() if m.dest == FOUNDATION]
        for move in home:
            before = brute_force(state)
            state.apply(move)
            assert brute_force(state) == before, f"{move} at {state.position()}"
            state.undo()
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("seed", [14, 18, 22])
def test_winning_lines_replay_in_the_engine(seed: int) -> None:
    """Deals the solver wins (seeds 0..5 it loses every one, so the replay never ran): the
    win it reports is shown by playing its line on a fresh deal to the end."""
    state = SPEC.new_game("acme", seed)
    assert isinstance(state, AcmeState)
    result = solve(state, 200_000)
    assert result.winnable is True and result.moves
    replay = SPEC.new_game("acme", seed)
    for move in result.moves:
        replay.apply(move)
    assert replay.outcome() is not None and replay.outcome().won  # type: ignore[union-attr]
    assert result.label == LABEL == find_solver("acme").label


def test_small_winning_lines_replay_too() -> None:
    replayed = 0
    for state in mixed_sample(1, 6):
        found = search(state, 100_000)
        if found.result == 1:
            moves = line_moves(state, found.line)  # plays every move through the checked path
            assert moves or state.won
            replayed += 1
    assert replayed >= 5


def test_node_limit_answers_unknown() -> None:
    state = SPEC.new_game("acme", 1)
    result = solve(state, 1)
    assert result.winnable is None and result.extra["stopped"] == "states"
    assert result.moves == []


def test_kernel_matches_its_plain_python_run() -> None:
    """The compiled kernel and the same code run by the interpreter (NUMBA_DISABLE_JIT)
    decide the same deals with the same number of states."""
    cases = [(seed, variant) for seed in range(3) for variant in ("acme", "reserve-20")]
    code = (
        "import json, sys\n"
        "from ludoteca.games.acme import SPEC\n"
        "from ludoteca.solvers.acme import search\n"
        "out = []\n"
        "for seed, variant in json.loads(sys.argv[1]):\n"
        "    found = search(SPEC.new_game(variant, seed), 3000)\n"
        "    out.append([found.result, found.states])\n"
        "print(json.dumps(out))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run(
        [sys.executable, "-c", code, json.dumps(cases)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    plain = json.loads(run.stdout)
    for (seed, variant), (result, states) in zip(cases, plain, strict=True):
        state = SPEC.new_game(variant, seed)
        assert isinstance(state, AcmeState)
        found = search(state, 3000)
        assert [found.result, found.states] == [result, states]


def test_hint_does_not_look_at_hidden_cards() -> None:
    """Two deals that look the same to the player (hidden cards in another order) get the
    same hint, and the samples keep every face-up card in place."""
    state = SPEC.new_game("acme", 5)
    assert isinstance(state, AcmeState)
    for _ in range(3):
        state.apply("draw")
    other = sample(state, DealRng(9, "x"))
    assert other.observation(0) == state.observation(0)
    assert sorted(other.stock + other.reserve) == sorted(state.stock + state.reserve)
    assert hint(state, 0.0) == hint(other, 0.0)
    assert hint(state, 0.0).move in state.legal_moves_text()


def test_hint_starts_no_sample_that_would_end_after_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hint sampled until its time was up, so a hint that sampled always ended after
    its time, by up to a whole sample (2.04 s for a 2 s hint: ``bench/bench_hints.py``).
    Now a sample starts only where one as long as the longest so far still ends in time.
    On a clock that each search moves on by a quarter of a second, a budget of two and a
    half samples gets two (it got three, ending half a sample late)."""
    state = SPEC.new_game("reserve-20", 0)
    assert isinstance(state, AcmeState)
    moves = state.legal_moves()
    assert len(moves) > 1 and not any(m.dest == FOUNDATION and m.card for m in moves)
    now = _clock_moved_by_searches(monkeypatch, 0.25, lambda deal, limit: Search(0, limit, []))
    one_sample = 0.25 * len(moves)
    found = hint(state, 2.5 * one_sample)
    assert now[0] == 2 * one_sample
    assert found.note.endswith("of 2 sampled deals of the unseen cards")
    # A margin: two samples would end at 2.0 samples' time, past 0.95 of 2.04; one does.
    now[0] = 0.0
    found = hint(state, 2.04 * one_sample)
    assert now[0] == one_sample and found.note.endswith("of 1 sampled deal of the unseen cards")


def _clock_moved_by_searches(
    monkeypatch: pytest.MonkeyPatch, step: float, search: Callable[[AcmeState, int], Search]
) -> list[float]:
    """The hint's clock (``now[0]``, returned) moved on by ``step`` seconds by each of its
    searches, which ``search`` makes."""
    now = [0.0]

    class Clock:
        @staticmethod
        def perf_counter() -> float:
            return now[0]

    def searched(deal: AcmeState, max_states: int) -> Search:
        now[0] += step
        return search(deal, max_states)

    monkeypatch.setattr(acme, "time", Clock)
    monkeypatch.setattr(acme, "search", searched)
    return now


def _hints_on_a_sample_count(
    monkeypatch: pytest.MonkeyPatch, samples: int
) -> Callable[[AcmeState], Hint]:
    """``hint`` on a clock that each search moves on by one second: a hint gets exactly
    ``samples`` samples whatever the machine's speed (the real searches run)."""
    now = _clock_moved_by_searches(monkeypatch, 1.0, acme.search)

    def counted(state: AcmeState) -> Hint:
        now[0] = 0.0
        moves = len(state.legal_moves())
        return hint(state, moves * (samples + 0.5) / acme.HINT_SHARE)

    return counted


def test_following_the_hints_never_goes_round_in_a_circle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/rules/acme.md, *Hint* (which move when several do as well): a column move back to
    a layout already seen in this game is hinted only when it wins clearly more samples than
    every other move. From deal 5 the hints went ``7C c2``, ``7C c1``, ``7C c2``, … for ever
    (each undid the one before: the two positions reach each other, so they tie)."""
    counted = _hints_on_a_sample_count(monkeypatch, 12)
    state = SPEC.new_game("acme", 5)
    assert isinstance(state, AcmeState)

    def layout(state: AcmeState) -> tuple[list[str], str]:  # columns in any order
        fields = state.position().rsplit(" moved ", 1)[0].split(" | ")
        return sorted(fields[1].split(" / ")), " | ".join(fields[:1] + fields[2:])

    seen = [layout(state)]
    followed = []
    for _ in range(8):
        found = counted(state)
        assert found.move is not None
        assert found.note.endswith("of the unseen cards") or "only move" in found.note
        state.apply(found.move)
        followed.append(found.move)
        assert layout(state) not in seen, followed
        seen.append(layout(state))
    assert followed[:2] == ["7C c2", "5D c1"], followed  # a column freed, then filled


def test_the_hint_knows_a_layout_seen_with_its_columns_in_another_order() -> None:
    """docs/rules/acme.md, *Hint*: the columns are alike in every rule (ruling 4 refuses a
    lone card to an empty column for that reason), so a column move to a layout seen before
    with its columns relabelled is a move back too; the hint's look at the game's history
    leaves the game as it was."""
    state = SPEC.new_game("acme", 5)
    assert isinstance(state, AcmeState)
    state.apply("TS c3")  # 7C / 8C / JS TS / -
    state.apply("7C c2")  # - / 8C 7C / JS TS / -
    before, history = state.position(), state.history_text()
    seen = acme._seen(state)
    assert state.position() == before and state.history_text() == history
    kinds = {str(m): acme._kind(state, m, seen) for m in state.legal_moves()}
    assert kinds["7C c1"] == kinds["7C c4"] == acme.BACK  # 7C / 8C / JS TS / -, relabelled
    assert kinds[f"{state.reserve[-1]} c1"] == acme.PROGRESS and kinds["draw"] == acme.PASS


def test_the_hint_prefers_progress_on_a_tie_and_a_move_back_only_when_clear() -> None:
    """docs/rules/acme.md, *Hint*: among the moves that won as many samples as the best, the
    kind that takes the game forward; a move back must win by two standard errors (the root
    of the number of shared deals only one of the two moves won) over every other move."""
    shuffle, progress, back = acme.SHUFFLE, acme.PROGRESS, acme.BACK

    def results(*columns: str) -> list[list[bool]]:  # one string of 0/1 per move
        return [[c[i] == "1" for c in columns] for i in range(len(columns[0]))]

    # A tie: the card into play, not the column move listed first.
    assert acme.choose([shuffle, progress], results("1100", "1010")) == 1
    # One win more is one win more: a near-tie is no tie (following the hints lost wins).
    assert acme.choose([shuffle, progress], results("1110", "1100")) == 0
    # A move back ahead by 5 wins with the two apart on all 25 deals (one standard error):
    # not clear enough.
    assert acme.choose([back, shuffle], results("1" * 15 + "0" * 10, "0" * 15 + "1" * 10)) == 1
    # Ahead by 12 with 12 deals apart (3.5 standard errors): the move back is hinted.
    assert acme.choose([back, shuffle], results("1" * 12 + "0" * 8, "0" * 20)) == 0


def test_greedy_plays_legal_moves_and_wins_only_winnable_deals() -> None:
    """The greedy player's choices go through the checked path; it stops only when the game
    is over or just column splits are left, and it wins only deals the solver can win."""
    wins = 0
    for seed in range(40):
        state = SPEC.new_game("reserve-13", seed)
        assert isinstance(state, AcmeState)
        winnable = search(state, 200_000).result
        while (move := greedy_move(state)) is not None:
            state.apply(move)
        sources = [state._source(m.card) for m in state.legal_moves() if m.card and m.dest >= 0]
        assert len(sources) == len(state.legal_moves())  # nothing left but column moves
        assert all(source is not None and source >= 0 for source in sources)
        if state.won:
            wins += 1
            assert winnable == 1
    assert wins > 0


def test_params_reach_the_solver() -> None:
    """A deal with no turn-over allowed is never easier than with turns without limit; the
    solver tells the two apart (some deal is won only with turns), and a win it finds with
    none replays in an engine that allows none. (With the 15-card reserve no deal of 0..19
    is won without turns, so the check that a strict win is a free win never ran.)"""
    strict_wins = free_only = 0
    for seed in range(30):
        free = SPEC.new_game("reserve-13", seed)
        assert isinstance(free, AcmeState)
        strict = SPEC.new_game(SPEC.variant("reserve-13").with_params({"redeals": "0"}), seed)
        assert isinstance(strict, AcmeState)
        assert strict.params == AcmeParams(reserve=13, redeals=0)
        with_turns, without = search(free, 200_000).result, search(strict, 200_000).result
        if without == 1:
            assert with_turns == 1
            for move in solve(strict, 200_000).moves:
                strict.apply(move)
            assert strict.outcome() is not None and strict.outcome().won  # type: ignore[union-attr]
            strict_wins += 1
        elif without == 0 and with_turns == 1:
            free_only += 1
    assert strict_wins >= 1 and free_only >= 1, (strict_wins, free_only)
