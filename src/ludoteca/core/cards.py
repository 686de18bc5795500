"""Playing cards: rank ``A 2 … 9 T J Q K`` then suit ``C D H S``, e.g. ``TH``."""

from __future__ import annotations

from dataclasses import dataclass

from ludoteca.core.errors import NotationError, shown

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS = frozenset({1, 2})
ACE, KING = 1, 13


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card; ``rank`` 1 (Ace) … 13 (King), ``suit`` 0..3 in the order ``C D H S``."""

    rank: int
    suit: int

    def __post_init__(self) -> None:
        if not (1 <= self.rank <= 13 and 0 <= self.suit <= 3):
            raise NotationError(f"no such card: rank {self.rank}, suit {self.suit}")

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def index(self) -> int:
        """0..51, suit-major: ``AC``=0 … ``KC``=12, ``AD``=13 … ``KS``=51."""
        return self.suit * 13 + self.rank - 1

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def symbol(self) -> str:
        """The card as shown to people, e.g. ``10♥``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls(index % 13 + 1, index // 13)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``TH``, ``th`` or ``10H``; raise :class:`NotationError` on anything else."""
        raw = text.strip().upper()
        if raw.startswith("10"):
            raw = "T" + raw[2:]
        if len(raw) != 2 or raw[0] not in RANKS or raw[1] not in SUITS:
            raise NotationError(
                f"'{shown(text)}' is not a card (rank A23456789TJQK then suit CDHS, e.g. TH)"
            )
        return cls(RANKS.index(raw[0]) + 1, SUITS.index(raw[1]))


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in range(4) for r in range(1, 14))
