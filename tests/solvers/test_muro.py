"""Il Muro solvers: the compiled kernel against the engine (differential), the all-known
search against brute force on small walls, and the player's blindness to face-down tiles."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core import ALL_TILES, DealRng, Tile, find_game
from ludoteca.games.muro import MuroState
from ludoteca.solvers import _muro_kernel as kernel
from ludoteca.solvers.base import find_solver
from ludoteca.solvers.muro import (
    EXACT_LABEL,
    Arrays,
    Planner,
    arrays_from_state,
    forget_plans,
    move_texts,
    run_search,
    sample_arrays,
    solve,
)

SPEC = find_game("muro")


def kernel_moves(state: MuroState) -> list[str]:
    arrays = arrays_from_state(state)
    out = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
    cols, h, fc, fd, sc = arrays
    six = state.params.may_start_with_six
    count = kernel.gen_moves(cols, h, fc, fd, sc, six, kernel.ALL_MOVES, out)
    return [move_texts(arrays, [int(m)])[0] for m in out[:count]]


def same(made: Arrays, engine: Arrays) -> bool:
    """Equal positions: the same tiles up to each column's height, the same counters (a
    kernel column keeps stale codes above its height)."""
    cols, h = made[0], made[1]
    live = all(np.array_equal(cols[c, : h[c]], engine[0][c, : h[c]]) for c in range(6))
    return live and all(np.array_equal(a, b) for a, b in zip(made[1:], engine[1:], strict=True))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["muro", "facile"]), st.integers(0, 2**32))
def test_kernel_moves_and_make_unmake_match_the_engine(seed: int, variant: str, walk: int) -> None:
    """Differential: along random games the kernel's unpruned moves are the engine's legal
    moves (in the same order), and its make/unmake give the engine's positions."""
    state = SPEC.new_game(SPEC.variant(variant, {"idle_limit": "12"}), seed)
    assert isinstance(state, MuroState)
    rng = DealRng(walk, "kernel-test")
    while not state.is_over:
        texts = kernel_moves(state)
        assert texts == [m for m in state.legal_moves_text() if m != "resign"]
        move = rng.below(len(texts))
        arrays = arrays_from_state(state)
        cols, h, fc, fd, sc = (a.copy() for a in arrays)
        ch = kernel.column_hashes(cols, h, kernel.ZOBRIST_COLUMN)
        out = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
        kernel.gen_moves(
            cols, h, fc, fd, sc, state.params.may_start_with_six, kernel.ALL_MOVES, out
        )
        undo = kernel.play(cols, h, fc, fd, sc, ch, kernel.ZOBRIST_COLUMN, out[move])
        state.apply(texts[move])
        assert same(made=(cols, h, fc, fd, sc), engine=arrays_from_state(state))
        assert np.array_equal(ch, kernel.column_hashes(cols, h, kernel.ZOBRIST_COLUMN))
        kernel.unplay(cols, h, fc, fd, sc, ch, kernel.ZOBRIST_COLUMN, out[move], undo)
        assert same(made=(cols, h, fc, fd, sc), engine=arrays)


def small_wall(seed: int, variant: str) -> MuroState:
    """A position with at most 7 tiles left on the wall, some of them face down; in facile
    some foundations build down from the 6."""
    rng = DealRng(seed, "small-wall")
    counts = [3 + rng.below(4) for _ in range(6)]
    while sum(6 - c for c in counts) > 7:
        counts[rng.choice([f for f in range(6) if counts[f] < 6])] += 1
    down = [variant == "facile" and c < 6 and rng.below(2) == 0 for c in counts]
    built = {
        Tile(n if not d else 7 - n, f)
        for f, (c, d) in enumerate(zip(counts, down, strict=True))
        for n in range(1, c + 1)
    }
    left = [t for t in ALL_TILES if t not in built]
    rng.shuffle(left)
    columns: list[list[str]] = [[] for _ in range(6)]
    used = 2 + rng.below(5)  # tiles stacked in the first 2..6 columns: deep columns
    for i, tile in enumerate(left):
        hidden = rng.below(3) == 0
        columns[i if i < used else rng.below(used)].append(f"({tile})" if hidden else str(tile))
    wall = " / ".join(" ".join(column) or "-" for column in columns)
    found = " ".join(
        f"6{f}..{7 - c}{f}" if d else f"1{f}..{c}{f}"
        for f, c, d in zip("MPCUFB", counts, down, strict=True)
    )
    text = f"{wall} | {found} | idle 0 best {sum(counts)}"
    idle_limit = str(1 + rng.below(3))
    state = SPEC.from_position(text, SPEC.variant(variant, {"idle_limit": idle_limit}))
    assert isinstance(state, MuroState)
    return state


def brute_force(state: MuroState) -> bool:
    """Plain search over the engine's own moves: can the deal be won, every tile known?"""
    variant = state.variant

    @cache
    def winnable(position: str) -> bool:
        here = SPEC.from_position(position, variant)
        outcome = here.outcome()
        if outcome is not None:
            return outcome.won
        for move in here.legal_moves():
            if move.kind == "resign":
                continue
            here.apply(move)
            if winnable(here.position()):
                return True
            here.undo()
        return False

    return winnable(state.position())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["muro", "facile"]))
def test_the_all_known_search_agrees_with_brute_force(seed: int, variant: str) -> None:
    """Cross-check on small walls (no-progress limit 1..3, which the kernel must respect);
    a win it reports replays through the engine's checked path."""
    state = small_wall(seed, variant)
    result = solve(state, 2_000_000)
    assert result.winnable is not None
    assert result.winnable == brute_force(state)
    for move in result.moves:
        state.apply(move)
    if result.winnable:
        outcome = state.outcome()
        assert outcome is not None and outcome.won


def test_a_stuck_wall_is_proved_lost_and_a_tiny_limit_is_undecided() -> None:
    """The search returns False only when it has seen everything, None at the node limit."""
    stuck = SPEC.from_position(
        "5M 6P / 5P 6C / 5C 6U / 5U 6F / 5F 6B / 5B 6M"
        " | 1M..4M 1P..4P 1C..4C 1U..4U 1F..4F 1B..4B | idle 0 best 24",
        SPEC.variant("muro"),
    )
    assert solve(stuck, 1000).winnable is False
    result = solve(SPEC.new_game("muro", 1), 10)
    assert result.winnable is None and result.extra["stopped"] == "states"
    assert result.label == EXACT_LABEL


def test_a_finished_position_is_answered_by_its_outcome() -> None:
    """Ruling (docs/rules/muro.md): a resigned game is over and lost. Solved, a resigned
    position was searched as if play went on: winnable, with a line."""
    deal = SPEC.new_game("muro", 2).position()
    result = solve(SPEC.from_position(deal + " resigned", SPEC.variant("muro")), None)
    assert result.winnable is False and result.moves == []
    assert result.extra["over"] == "resigned"


def test_a_deal_solved_all_known_replays_to_a_win() -> None:
    """The solver's moves are legal engine moves that win the deal (seed 2 is winnable)."""
    state = SPEC.new_game("facile", 2)
    result = solve(state, 1_000_000)
    assert result.winnable is True
    for move in result.moves:
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.won


def swapped_hidden(state: MuroState) -> MuroState:
    """The same observation with two face-down tiles exchanged."""
    hidden = sorted(state.face_down)
    a, b = str(hidden[0]), str(hidden[1])
    text = state.position().replace(a, "##").replace(b, a).replace("##", b)
    other = SPEC.from_position(text, state.variant)
    assert isinstance(other, MuroState)
    assert other.observation(0) == state.observation(0)
    assert other.position() != state.position()
    return other


def test_the_player_and_the_hint_see_only_the_observation() -> None:
    """RULES.md: a hint or a bot sees only what a player sees. Two deals that look the same
    get the same plan and the same hint."""
    state = SPEC.new_game("muro", 11)
    assert isinstance(state, MuroState)
    other = swapped_hidden(state)
    plans = []
    for deal in (state, other):
        planner = Planner(False, 100, 3000, 2)
        plans.append(planner.next_move(deal.observation(0), DealRng(5, "same")))
        plans.append(" ".join(planner.plan))
    assert plans[0:2] == plans[2:4]
    hint = find_solver("muro").hint
    assert hint is not None
    assert hint(state, 0.1).move == hint(other, 0.1).move


def test_a_sample_keeps_what_is_seen_and_deals_only_unseen_tiles() -> None:
    """The player's samples agree with the observation; the face-down places get exactly the
    tiles the player has not seen."""
    state = SPEC.new_game("facile", 4)
    obs = state.observation(0)
    cols, h, _, _, sc = sample_arrays(obs, DealRng(1, "s"))
    codes = [int(cols[c, k]) for c in range(6) for k in range(h[c])]
    assert sorted(c % kernel.DOWN for c in codes) == list(range(36))
    for c, column in enumerate(obs["wall"]):
        for k, text in enumerate(column):
            if text is None:
                assert cols[c, k] >= kernel.DOWN
            else:
                assert Tile.from_index(int(cols[c, k])) == Tile.parse(text)
    assert sum(code >= kernel.DOWN for code in codes) == 30 == sc[kernel.FACE_DOWN]


def test_policies_are_registered_and_labelled() -> None:
    """Both kinds are study policies: ``solver`` (all known) and ``player`` (observation)."""
    entry = find_solver("muro")
    assert set(entry.policies) >= {"solver", "player"}
    played = entry.policies["player"](SPEC.new_game("facile", 2), 500, DealRng(2, "p"))
    assert played.won is not None
    assert entry.label == EXACT_LABEL


def wall_now(state: MuroState) -> str:
    """The position without its idle count: the same wall and foundations, the same record."""
    return f"{state.position().rsplit('|', 1)[0]} best {state.best}"


def no_progress_possible(state: MuroState) -> bool:
    """No line of moves turns a tile or raises the record before the no-progress limit: an
    exhaustive all-known search finds no such line (and so no win)."""
    six, idle_limit = state.params.may_start_with_six, state.params.idle_limit
    found = run_search(arrays_from_state(state), six, idle_limit, 10**7)
    return found.result == kernel.LOST and not found.best_line


@pytest.mark.parametrize("seed", [3, 5])
def test_hints_followed_go_on_to_a_sensible_end(seed: int) -> None:
    """Ruling 5 (no progress): moving tiles to and fro is no progress, and 100 moves without
    progress lose the game. Hints followed move after move (deals 3 and 5 once sent one tile
    to and fro for a hundred moves, then said resign) never come back to a position seen
    since the last progress, never let the no-progress limit end the game, and say resign
    only when no move can make progress any more, and say so."""
    hint = find_solver("muro").hint
    assert hint is not None
    forget_plans()  # the hints plan from the start, whatever ran before
    state = SPEC.new_game("muro", seed)
    assert isinstance(state, MuroState)
    seen: set[str] = set()
    for _ in range(600):
        if state.is_over:
            break
        if state.idle == 0:
            seen.clear()
        seen.add(wall_now(state))
        given = hint(state, 0.5)
        assert given.move is not None
        if given.move == "resign":
            assert given.winnable is False and "no-progress limit" in given.note
            assert no_progress_possible(state)
        state.apply(given.move)
        assert state.is_over or wall_now(state) not in seen, f"{given.move} goes back"
    outcome = state.outcome()
    assert outcome is not None and outcome.termination != "no progress"


BEFORE_PROGRESS = (
    "(4M) (2U) (3P) (5F) 6M 5U / (1P) (5C) (6U) (2F) 6B / (3B) (1C) (4C) (5P) 4P /"
    " (1F) (5B) (4F) (2B) (3U) 2C / (4U) (6F) (3F) (3C) (6P) 4B 3M 2P /"
    " (1B) (5M) (2M) (1M) (1U) 6C | -- -- -- -- -- -- | idle {idle} best 0"
)
"""Deal 3 after eight moves: 4P onto 5U, then turning c3, is the only way to progress."""


def test_the_hint_counts_the_moves_left_before_the_no_progress_limit() -> None:
    """Ruling 5 (no progress): with two moves left the hint takes the two-move line to a
    turn; with one move left nothing can be gained, and the hint says resign and why."""
    hint = find_solver("muro").hint
    assert hint is not None
    two_left = SPEC.from_position(BEFORE_PROGRESS.format(idle=98), SPEC.variant("muro"))
    assert hint(two_left, 0.5).move == "4P c1"
    one_left = SPEC.from_position(BEFORE_PROGRESS.format(idle=99), SPEC.variant("muro"))
    given = hint(one_left, 0.5)
    assert given.move == "resign" and given.winnable is False
    assert "no-progress limit" in given.note
