"""The Domino della Frutta table: a grid whose column n holds the tiles numbered n.

Coordinates (RULES.md geometry *assumption*): a cell is ``(column, row)``; the column is the
tile's number 1..6 from left to right, so a tile has only one possible column, and the row is
an integer counted from the first tile's row 0, growing downwards. Vertical neighbours
therefore always share their number (same-number contact) and horizontal neighbours are one
number apart, so they touch legally only when they are the same fruit (sequence contact).

The table keeps, incrementally, every cell a tile may fill and the fruit that cell needs
(``ANY_FRUIT`` when no horizontal neighbour decides it): a placement or a block changes only
the cells around it, so search does not rescan the grid on every move.
"""

from __future__ import annotations

from ludoteca.core.tiles import FRUITS, Tile

Cell = tuple[int, int]
ANY_FRUIT = -1
COLUMNS = range(1, 7)


def cell_text(cell: Cell) -> str:
    """A cell in the notation's words: ``r-1 of column 4`` (a move, ``4B@r-1``, names the row
    as ``r-1``, its tile's number the column). It was ``c4r-1``, which nothing typed reads."""
    return f"r{cell[1]} of column {cell[0]}"


def _names(tiles: set[Tile]) -> str:
    return ", ".join(str(t) for t in sorted(tiles))


def _around(cell: Cell) -> list[Cell]:
    """The 8 cells whose placeability can change when ``cell`` is filled or blocked."""
    col, row = cell
    return [(col + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]


class Table:
    """Face-up and blocked (face-down) tiles by cell, with the placeable cells kept current."""

    __slots__ = ("_open", "blocked", "face_up", "square_ban")

    def __init__(self, square_ban: bool = True) -> None:
        self.square_ban = square_ban
        self.face_up: dict[Cell, Tile] = {}
        self.blocked: dict[Cell, Tile] = {}
        # Per column (index 0..7, the outer two stay empty): row -> fruit that cell needs.
        self._open: list[dict[int, int]] = [{} for _ in range(8)]

    def copy(self) -> Table:
        other = Table(self.square_ban)
        other.face_up = dict(self.face_up)
        other.blocked = dict(self.blocked)
        other._open = [dict(rows) for rows in self._open]
        return other

    @property
    def empty(self) -> bool:
        return not self.face_up and not self.blocked

    def occupied(self, cell: Cell) -> bool:
        return cell in self.face_up or cell in self.blocked

    def tile_at(self, cell: Cell) -> Tile | None:
        return self.face_up.get(cell) or self.blocked.get(cell)

    def cell_of(self, tile: Tile) -> Cell | None:
        for cell, there in self.face_up.items():
            if there == tile:
                return cell
        for cell, there in self.blocked.items():
            if there == tile:
                return cell
        return None

    def tiles(self) -> list[tuple[Cell, Tile, bool]]:
        """Every tile on the table as (cell, tile, blocked), top row first, left to right."""
        found = [(c, t, False) for c, t in self.face_up.items()]
        found += [(c, t, True) for c, t in self.blocked.items()]
        return sorted(found, key=lambda item: (item[0][1], item[0][0]))

    # --- placing --------------------------------------------------------------------------
    def rows_for(self, tile: Tile) -> list[int]:
        """The rows where ``tile`` may go now (the first tile goes anywhere: row 0)."""
        if self.empty:
            return [0]
        rows = self._open[tile.number]
        return sorted(r for r, need in rows.items() if need == ANY_FRUIT or need == tile.fruit)

    def can_place(self, tile: Tile) -> bool:
        if self.empty:
            return True
        return any(need in (ANY_FRUIT, tile.fruit) for need in self._open[tile.number].values())

    def why_not(self, tile: Tile, row: int) -> str | None:
        """Why ``tile`` may not go to ``row``, checked directly from the rules (None if it may)."""
        if self.empty:
            return None if row == 0 else "the first tile goes in row 0 (rows count from it)"
        cell = (tile.number, row)
        col = tile.number
        there = self.tile_at(cell)
        if there is not None:
            return f"{cell_text(cell)} already holds {there}"
        orthogonal = [(col, row - 1), (col, row + 1), (col - 1, row), (col + 1, row)]
        for near in orthogonal:
            if near in self.blocked:
                return f"{cell_text(cell)} is next to the blocked tile {self.blocked[near]}"
        if not any(near in self.face_up for near in orthogonal):
            return f"{cell_text(cell)} touches no tile"
        for near in orthogonal[2:]:
            other = self.face_up.get(near)
            if other is not None and other.fruit != tile.fruit:
                side = "left" if near[0] < col else "right"
                return f"{side} of {cell_text(cell)} is {other}, not {FRUITS[tile.fruit]} fruit"
        if self.square_ban and self._closes_square(cell):
            return f"{cell_text(cell)} would close a 2 x 2 square"
        return None

    def why_nowhere(self, tile: Tile) -> str:
        """Why ``tile`` fits in no cell at all (for a tile that :meth:`can_place` refuses): what
        stands beside each empty cell of its column that touches the table."""
        col = tile.number
        rows = sorted(
            {r + dr for (c, r) in (*self.face_up, *self.blocked) if c == col for dr in (-1, 1)}
            | {r for (c, r) in (*self.face_up, *self.blocked) if abs(c - col) == 1}
        )
        rows = [r for r in rows if not self.occupied((col, r))]
        if not rows:
            return f"every empty cell of column {col} touches no tile"
        others: set[Tile] = set()
        blocked: set[Tile] = set()
        square = False
        for row in rows:
            beside = [(col - 1, row), (col + 1, row)]
            down = [
                self.blocked[n]
                for n in (*beside, (col, row - 1), (col, row + 1))
                if n in self.blocked
            ]
            if down:
                blocked.update(down)
                continue
            other = [self.face_up[n] for n in beside if n in self.face_up]
            other = [t for t in other if t.fruit != tile.fruit]
            if other:
                others.update(other)
            else:
                square = True
        reasons = []
        if others:
            reasons.append(f"lies beside another fruit ({_names(others)})")
        if blocked:
            plural = "s" if len(blocked) > 1 else ""
            reasons.append(f"lies next to the blocked tile{plural} {_names(blocked)}")
        if square:
            reasons.append("would close a 2 x 2 square")
        cells = "the one empty cell" if len(rows) == 1 else "each empty cell"
        return f"{cells} of column {col} next to a tile {' or '.join(reasons)}"

    def _closes_square(self, cell: Cell) -> bool:
        col, row = cell
        for dc in (-1, 1):
            for dr in (-1, 1):
                if (
                    self.occupied((col + dc, row))
                    and self.occupied((col, row + dr))
                    and self.occupied((col + dc, row + dr))
                ):
                    return True
        return False

    def _need(self, cell: Cell) -> int | None:
        """The fruit an empty ``cell`` needs (``ANY_FRUIT``), or None when nothing may go there."""
        col, row = cell
        if not 1 <= col <= 6 or self.occupied(cell):
            return None
        touching = False
        for near in ((col, row - 1), (col, row + 1), (col - 1, row), (col + 1, row)):
            if near in self.blocked:
                return None
            touching = touching or near in self.face_up
        if not touching:
            return None
        need = ANY_FRUIT
        for near in ((col - 1, row), (col + 1, row)):
            other = self.face_up.get(near)
            if other is not None:
                if need not in (ANY_FRUIT, other.fruit):
                    return None
                need = other.fruit
        if self.square_ban and self._closes_square(cell):
            return None
        return need

    def _refresh(self, cells: list[Cell]) -> None:
        for col, row in cells:
            if not 1 <= col <= 6:
                continue
            need = self._need((col, row))
            if need is None:
                self._open[col].pop(row, None)
            else:
                self._open[col][row] = need

    def place(self, tile: Tile, row: int) -> None:
        cell = (tile.number, row)
        self.face_up[cell] = tile
        self._open[tile.number].pop(row, None)
        self._refresh(_around(cell))

    def block(self, tile: Tile) -> Cell:
        """Turn a face-up tile face down (the special move); return its cell."""
        cell = self.cell_of(tile)
        assert cell is not None and cell in self.face_up
        self.blocked[cell] = self.face_up.pop(cell)
        self._refresh(_around(cell))
        return cell

    def load(self, tiles: list[tuple[Cell, Tile, bool]]) -> None:
        """Set the table from (cell, tile, blocked) without checks, then find the open cells."""
        for cell, tile, blocked in tiles:
            (self.blocked if blocked else self.face_up)[cell] = tile
        candidates = {near for cell, _, _ in tiles for near in _around(cell)}
        self._refresh(sorted(candidates))

    def open_cells(self) -> dict[Cell, int]:
        """Every placeable cell and the fruit it needs (for tests and renderers)."""
        return {(c, r): need for c in COLUMNS for r, need in self._open[c].items()}
