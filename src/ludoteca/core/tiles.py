"""The 36 fruit tiles of *I giochi della frutta*: number 1–6 then fruit initial, e.g. ``4B``."""

from __future__ import annotations

from dataclasses import dataclass

from ludoteca.core.errors import NotationError, shown

FRUITS = "MPCUFB"
FRUIT_NAMES_IT = ("mele", "pere", "cocomeri", "uva", "fragole", "banane")
FRUIT_NAMES = ("apples", "pears", "watermelons", "grapes", "strawberries", "bananas")
FRUIT_SYMBOLS = ("🍎", "🍐", "🍉", "🍇", "🍓", "🍌")
NUMBERS = range(1, 7)


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A tile; ``number`` 1..6, ``fruit`` 0..5 in the order ``M P C U F B``."""

    number: int
    fruit: int

    def __post_init__(self) -> None:
        if not (1 <= self.number <= 6 and 0 <= self.fruit <= 5):
            raise NotationError(f"no such tile: number {self.number}, fruit {self.fruit}")

    def __str__(self) -> str:
        return f"{self.number}{FRUITS[self.fruit]}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    @property
    def index(self) -> int:
        """0..35, fruit-major."""
        return self.fruit * 6 + self.number - 1

    @property
    def symbol(self) -> str:
        return f"{FRUIT_SYMBOLS[self.fruit]}{self.number}"

    def in_sequence(self, other: Tile) -> bool:
        """Same fruit and numbers one apart (RULES.md: "in sequence" for tiles)."""
        return self.fruit == other.fruit and abs(self.number - other.number) == 1

    def matches(self, other: Tile) -> bool:
        """Same number, or in sequence: the contact rule shared by the fruit games."""
        return self.number == other.number or self.in_sequence(other)

    @classmethod
    def from_index(cls, index: int) -> Tile:
        return cls(index % 6 + 1, index // 6)

    @classmethod
    def parse(cls, text: str) -> Tile:
        raw = text.strip().upper()
        if len(raw) != 2 or raw[0] not in "123456" or raw[1] not in FRUITS:
            raise NotationError(
                f"'{shown(text)}' is not a tile (number 1-6 then fruit M P C U F B, e.g. 4B)"
            )
        return cls(int(raw[0]), FRUITS.index(raw[1]))


ALL_TILES: tuple[Tile, ...] = tuple(Tile(n, f) for f in range(6) for n in NUMBERS)
