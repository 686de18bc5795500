"""Move pruning: which class moves a search may skip. Each rule is checked on small boards."""

from __future__ import annotations

from dataclasses import dataclass

from ludoteca.solvers.gaps.board import GAP, Board, Move


@dataclass(frozen=True)
class Pruning:
    extend_first: bool = False
    """A gap right of a row's in-sequence prefix (column 2 on) is filled first, alone."""
    extend_safe: bool = False
    """As ``extend_first``, only when the card leaves no place its successor could want: it
    stands in the last column, or its successor already stands right of it."""
    keep_threes: bool = False
    """A 3 behind a pool 2 of its suit never moves to another row."""
    twos_first: bool = False
    """A 2 outside column 0 that can go there goes first, alone."""


NO_PRUNING = Pruning()


def prune(board: Board, moves: list[Move], pruning: Pruning) -> list[Move]:
    if not moves:
        return moves
    ranks = board.shape.ranks
    if pruning.extend_first:
        for card, target, _ in moves:
            col = target % ranks
            if col >= 2 and board.grid[target - 1] == card - 1 and _prefix_to(board, target - 1):
                return [(card, target, 0)]
    if pruning.extend_safe:
        for card, target, _ in moves:
            col = target % ranks
            if col >= 2 and board.grid[target - 1] == card - 1 and _prefix_to(board, target - 1):
                source = board.pos[card]
                if source % ranks == ranks - 1 or board.grid[source + 1] == card + 1:
                    return [(card, target, 0)]
    if pruning.twos_first:
        for card, _, _ in moves:
            if card % ranks == 1:
                return [m for m in moves if m[0] == card]
    if pruning.keep_threes:
        twos = set(board.pool_twos()) if board.pool_free() else set()
        moves = [m for m in moves if not _leaves_prefix(board, m[0], twos)]
    return moves


def _prefix_to(board: Board, cell: int) -> bool:
    """Is ``cell`` the end of its row's in-sequence prefix (in some arrangement of the pool)?"""
    ranks, grid = board.shape.ranks, board.grid
    head = cell - cell % ranks
    if grid[head + 1] == GAP or grid[head + 1] % ranks != 2:
        return False
    if board.run(head + 1) < cell - head:
        return False
    two = grid[head + 1] - 1
    return grid[head] == two or (board.pool_free() and two in board.pool_twos())


def _leaves_prefix(board: Board, card: int, twos: set[int]) -> bool:
    ranks = board.shape.ranks
    if card % ranks != 2:
        return False
    cell = board.pos[card]
    return cell % ranks == 1 and (board.grid[cell - 1] == card - 1 or card - 1 in twos)
