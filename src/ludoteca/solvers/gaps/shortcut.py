"""Shorter lines: from a position of a line, a small breadth-first look for a later one.

The exact search's lines are depth-first lines. They reach the end they promise, but often by
detours: a 2 and its 3 sent from row to row and back, a finished row broken up and built
again (Addiction deal 707111, hints followed from its start: 157 moves to the redeal). A
breadth-first search over the game's own moves from a position of the line, stopped after a
few thousand positions, finds the later positions of the line it reaches in fewer moves
than the line takes; the line then goes to the one that saves the most, straight. The end
is the same position, so whatever the line promised (a win, so many cards in sequence) it
still keeps. The look never passes through a position the game has seen, nor one of the
line that comes before (RULES.md, repetition), and the line found is played through the
engine before it is offered.

Positions here are tuples of small ints, 0 for a gap and ``16 * suit + rank`` for a card, so
that a look of a few thousand positions takes milliseconds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence

from ludoteca.core.cards import Card
from ludoteca.core.errors import LudotecaError
from ludoteca.games.gaps import GapsMove, GapsState

NODES = 2_000
"""Positions one look may reach: about 5 ms of Python. On lines that hints followed (deals
7, 33, 112 and Addiction 707111) larger looks (up to 50,000) shortened no more."""

Grid = tuple[int, ...]
Step = tuple[int, int]
"""A move as (card code, row for a 2 entering the first column, else -1)."""


def _code(card: Card | None) -> int:
    return 0 if card is None else 16 * card.suit + card.rank


def encoded(grid: Iterable[Card | None]) -> Grid:
    return tuple(_code(card) for card in grid)


def _children(grid: Grid, ranks: int, suits: int) -> list[tuple[Grid, Step]]:
    """Every move the game's fill rule allows (the repetition rule is the caller's)."""
    found: list[tuple[Grid, Step]] = []
    for cell, there in enumerate(grid):
        if there:
            continue
        if cell % ranks == 0:  # any 2, even one in the first column already
            for suit in range(suits):
                two = 16 * suit + 2
                source = grid.index(two)
                found.append((_moved(grid, source, cell, two), (two, cell // ranks)))
            continue
        left = grid[cell - 1]
        if not left or left % 16 == ranks:  # a dead gap
            continue
        card = left + 1
        found.append((_moved(grid, grid.index(card), cell, card), (card, -1)))
    return found


def _moved(grid: Grid, source: int, target: int, card: int) -> Grid:
    cells = list(grid)
    cells[source], cells[target] = 0, card
    return tuple(cells)


def look(
    start: Grid, later: dict[Grid, int], barred: set[Grid], ranks: int, suits: int, nodes: int
) -> tuple[int, list[Step], list[Grid]] | None:
    """The shortcut from ``start`` that saves the most: the index (in ``later``) of the
    position it reaches, its moves and the positions it passes on the way, when that
    position comes more moves later on the line than the path takes. ``later`` maps the
    line's positions after ``start`` to how many moves after it they come; ``barred``
    positions are never entered."""
    parent: dict[Grid, tuple[Grid, Step] | None] = {start: None}
    queue: deque[tuple[Grid, int]] = deque([(start, 0)])
    best: tuple[int, int, Grid] | None = None  # (moves saved, index, position)
    while queue and len(parent) <= nodes:
        grid, depth = queue.popleft()
        for child, step in _children(grid, ranks, suits):
            if child in parent or child in barred:
                continue
            parent[child] = (grid, step)
            at = later.get(child)
            if at is not None and at - depth - 1 > (best[0] if best else 0):
                best = (at - depth - 1, at, child)
            queue.append((child, depth + 1))
    if best is None:
        return None
    steps: list[Step] = []
    passed: list[Grid] = []
    node = best[2]
    while (link := parent[node]) is not None:
        node, step = link
        steps.append(step)
        passed.append(node)
    return best[1], steps[::-1], passed[:-1]  # (not ``start`` itself)


def _move_text(step: Step) -> str:
    code, row = step
    move = GapsMove(Card(code % 16, code // 16), row if row >= 0 else None)
    return str(move)


def _positions(game: GapsState, line: Sequence[str]) -> list[Grid]:
    """The positions ``line`` passes through from ``game`` (``game``'s first), as far as
    the game allows its moves; a redeal ends them."""
    copy = game.fork()
    grids = [encoded(copy.grid)]
    for move in line:
        if move == "redeal" or move not in copy.legal_moves_text():
            break
        copy.apply(move)
        grids.append(encoded(copy.grid))
    return grids


def shortcut(game: GapsState, line: Sequence[str], nodes: int = NODES) -> list[str] | None:
    """``line`` (engine moves from ``game``) with its first stretch replaced by the shortcut
    that saves the most, found by one look from ``game``; None where the look finds none
    (or the line does not play whole here)."""
    grids = _positions(game, line)
    if len(grids) != len(line) + 1 or len(line) < 2:
        return None
    found = _look_along(game, grids, 0, _seen(game), nodes)
    if found is None:
        return None
    at, steps, _ = found
    shorter = [*(_move_text(step) for step in steps), *line[at:]]
    return shorter if _plays_to(game, shorter, grids[-1]) else None


def _seen(game: GapsState) -> set[Grid]:
    return {encoded(seen) for seen in game.seen_positions()}


def _look_along(
    game: GapsState, grids: list[Grid], at: int, barred: set[Grid], nodes: int
) -> tuple[int, list[Step], list[Grid]] | None:
    """:func:`look` from the line's position ``at`` (``grids``: all of them) for a later
    one; the index found counts from ``at``."""
    later = {grid: k - at for k, grid in enumerate(grids) if k >= at + 2}
    return look(grids[at], later, barred, game.ranks, game.params.suits, nodes)


PASSES = 2
"""Passes of :func:`shortened` at most: a second pass over a line already shortened finds
more (the winning lines of deals 0 and 1: 156 moves, 125 after one pass, 115 after two;
215, 125, 117), a third little (7: 141, 109, 107)."""


def shortened(game: GapsState, line: Sequence[str], nodes: int = NODES) -> list[str]:
    """``line`` with a look from each position along it (the shortcut that saves the most
    taken, then a look from where it lands), in passes until one shortens nothing: about
    5 ms a move of the line a pass. The looks are counted, not timed, so the same line
    always comes out the same."""
    kept = list(line)
    for _ in range(PASSES):
        shorter = _pass(game, kept, nodes)
        if len(shorter) == len(kept):
            break
        kept = shorter
    return kept


def _pass(game: GapsState, line: Sequence[str], nodes: int) -> list[str]:
    grids = _positions(game, line)
    if len(grids) != len(line) + 1:
        return list(line)
    barred = _seen(game)
    kept: list[str] = []
    at = 0
    while at < len(line) - 1:
        barred.add(grids[at])
        found = _look_along(game, grids, at, barred, nodes)
        if found is None:
            kept.append(line[at])
            at += 1
            continue
        ahead, steps, passed = found
        kept += [_move_text(step) for step in steps]
        barred.update(passed)  # where the shortcut passes: seen, once it is taken
        at += ahead
    kept += line[at:]
    if len(kept) < len(line) and _plays_to(game, kept, grids[-1]):
        return kept
    return list(line)


def _plays_to(game: GapsState, line: Sequence[str], end: Grid) -> bool:
    copy = played(game, line)
    return copy is not None and encoded(copy.grid) == end


def played(game: GapsState, line: Sequence[str]) -> GapsState | None:
    """A copy of ``game`` (with the positions it has seen) after ``line``; None where the
    game refuses one of its moves."""
    copy = game.fork()
    return copy if all(_takes(copy, move) for move in line) else None


REPAIR_NODES = 20_000
"""Positions :func:`repaired` may look at for each stretch it repairs."""


def repaired(
    game: GapsState, line: Sequence[str], nodes: int = REPAIR_NODES, until: float | None = None
) -> list[str] | None:
    """``line`` made playable in ``game``, whose earlier positions the repetition rule bars
    (RULES.md): the searches know nothing of the moves before, and a line found from here
    may begin by putting a 2 back where it stood (deal 1 after ``... 2S>r2 6C 7C 2S>r3``: the
    line began ``2S>r2``). Where the game refuses a move, a breadth-first look from the
    position before it, through positions not seen, finds the nearest later position of the
    line, and the line goes there instead; repeated for each refusal. The line as it is
    where it plays whole; None where a look finds no way on, or the clock passes ``until``
    (a ``time.perf_counter`` value) first (the caller decides)."""
    kept = list(line)
    if len(game.seen_positions()) <= 1:
        # A game with no earlier position: the line, which never repeats its own, plays.
        return kept
    for _ in range(len(kept) + 1):
        copy = game.fork()
        refused = next((i for i, move in enumerate(kept) if not _takes(copy, move)), None)
        if refused is None:
            return kept
        # The line's positions from the refusal on, as the line goes when nothing is barred.
        fresh = game.spec.from_position(copy.position(), copy.variant)
        assert isinstance(fresh, GapsState)
        grids = [encoded(fresh.grid)]
        for move in kept[refused:]:
            if not _takes(fresh, move):
                return None  # (not a line of this position: nothing to repair)
            grids.append(encoded(fresh.grid))
        later = {grid: k for k, grid in enumerate(grids) if k >= 1}
        barred = _seen(copy)
        found = _nearest(grids[0], later, barred, game.ranks, game.params.suits, nodes, until)
        if found is None:
            return None
        at, steps = found
        kept = [*kept[:refused], *(_move_text(step) for step in steps), *kept[refused + at :]]
    return None


def _takes(game: GapsState, move: str) -> bool:
    """Play ``move`` if ``game`` allows it here."""
    try:
        game.apply(move)
    except LudotecaError:
        return False
    return True


def _nearest(
    start: Grid,
    later: dict[Grid, int],
    barred: set[Grid],
    ranks: int,
    suits: int,
    nodes: int,
    until: float | None = None,
) -> tuple[int, list[Step]] | None:
    """The fewest moves from ``start`` to a position of ``later`` (the furthest along the
    line among those as near), never entering ``barred``: its index and the moves. None
    past ``nodes`` positions, or once the clock passes ``until``."""
    parent: dict[Grid, tuple[Grid, Step] | None] = {start: None}
    frontier = [start]
    spent = False  # the nodes or the time: what this level reached is the last looked at
    while frontier and not spent:
        reached: list[Grid] = []
        for grid in frontier:
            spent = len(parent) > nodes or (until is not None and time.perf_counter() > until)
            if spent:
                break
            for child, step in _children(grid, ranks, suits):
                if child not in parent and child not in barred:
                    parent[child] = (grid, step)
                    reached.append(child)
        hits = [grid for grid in reached if grid in later]
        if hits:
            node = max(hits, key=lambda grid: later[grid])
            at = later[node]
            steps: list[Step] = []
            while (link := parent[node]) is not None:
                node, step = link
                steps.append(step)
            return at, steps[::-1]
        frontier = reached
    return None
