"""The plain-Python reference solver: depth-first search over classes with a visited set.

Slow but simple; the compiled kernel must give the same answers (see the differential tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ludoteca.solvers.gaps.board import Board, Move
from ludoteca.solvers.gaps.rules import NO_PRUNING, Pruning, prune


@dataclass
class Answer:
    """What one search found. ``complete`` is False when ``max_states`` stopped it."""

    winnable: bool | None
    best: int
    """The most cards in sequence in any class reached."""
    best_dead_end: int
    """The most cards in sequence in a class with no move left (what a redeal keeps)."""
    states: int
    line: list[Move] = field(default_factory=list)
    """A winning line, else the line to a best dead end."""
    complete: bool = True
    stopped: str = ""
    """Why an incomplete search stopped: ``"states"`` (the state limit), ``"time"`` (the
    clock) or ``"room"`` (its share of a shared table is full: more time alone cannot
    help); empty when complete."""


def search(
    start: Board,
    max_states: int | None = None,
    pruning: Pruning = NO_PRUNING,
    stop_at_win: bool = True,
) -> Answer:
    board = start.copy()
    full = board.shape.full
    seen = {board.key()}
    path: list[Move] = []
    stack: list[tuple[list[Move], int, Board]] = []
    best = best_dead = -1
    best_line: list[Move] = []
    won = False
    moves = prune(board, board.moves(), pruning)
    stack.append((moves, 0, board))
    while stack:
        moves, index, node = stack[-1]
        if index == 0:
            score = node.in_sequence()
            best = max(best, score)
            if not moves and score > best_dead:
                best_dead, best_line = score, list(path)
                if score == full:
                    won = True
                    if stop_at_win:
                        break
        if index == len(moves):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (moves, index + 1, node)
        child = node.copy()
        child.play(moves[index])
        key = child.key()
        if key in seen:
            continue
        if max_states is not None and len(seen) >= max_states:
            return Answer(
                None if not won else True, best, best_dead, len(seen), best_line, False, "states"
            )
        seen.add(key)
        path.append(moves[index])
        stack.append((prune(child, child.moves(), pruning), 0, child))
    return Answer(won, best, best_dead, len(seen), best_line, True)
