"""Acme: play a 15-card reserve and the stock out through four suited columns to the foundations.

Seed: ``003_374ffad95808c08d.txt``; rulings in ``docs/rules/acme.md``.

Position notation, seven fields separated by ``|``::

    RESERVE | COLUMNS | FOUNDATIONS | STOCK | WASTE | TURNS | COUNTERS

RESERVE lists the reserve bottom first, its face-up top last; COLUMNS the four columns
separated by ``/``, each bottom first (``-`` when empty); FOUNDATIONS the top card of the
clubs, diamonds, hearts and spades foundations (``--`` when empty); STOCK the face-down stock,
next card first; WASTE the waste bottom first, top last (``-`` for an empty pile); TURNS how
often the waste has been turned over; COUNTERS ``progress P moved N``: whether a card has come
into play or home since the last turn-over (1 or 0), and how many column-to-column moves were
made since that last happened.

Moves: ``draw`` (stock to waste), ``turn`` (the waste becomes the stock again), and a free
card to its foundation or a column, ``7H f`` / ``7H c2`` (columns 1..4).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.cards import FULL_DECK, KING, SUIT_NAMES, SUITS, Card
from ludoteca.core.errors import NotationError
from ludoteca.core.game import (
    NOBODY,
    TERMINAL,
    THE_PLAYER,
    GameSpec,
    Outcome,
    State,
    Variant,
    parse_error,
)
from ludoteca.core.registry import register
from ludoteca.core.rng import DealRng

COLUMNS = 4
FOUNDATION = -1
REARRANGE_LIMIT = 250
"""Column-to-column moves allowed between two moves that bring a card into play or home.

A useful rearrangement merges runs: at most three merges for four columns, each moving at
most 12 cards through at most two spare columns, which the four-peg Tower of Hanoi does in
81 single moves (Frame-Stewart), so 243 moves; anything longer only repeats layouts.
"""


@dataclass(frozen=True)
class AcmeParams:
    reserve: int = field(default=15, metadata={"min": 1, "max": 48})
    redeals: int | None = field(default=None, metadata={"min": 0})
    """How often the waste may be turned over; ``None``: without limit."""

    def check(self) -> None:
        if not 1 <= self.reserve <= 48:
            raise NotationError(f"the reserve holds 1..48 cards, not {self.reserve}")
        if self.redeals is not None and self.redeals < 0:
            raise NotationError(f"redeals must be 0 or more (or none), not {self.redeals}")


@dataclass(frozen=True, slots=True)
class AcmeMove:
    """``draw``, ``turn``, or ``card`` to ``dest`` (:data:`FOUNDATION` or a column 0..3)."""

    kind: str
    card: Card | None = None
    dest: int = FOUNDATION

    def __str__(self) -> str:
        if self.card is None:
            return self.kind
        return f"{self.card} {'f' if self.dest == FOUNDATION else f'c{self.dest + 1}'}"


NO_PROGRESS = "no card came into play or home on this pass"
"""Why ``turn`` is refused with the progress flag clear (ruling 2)."""

DRAW = AcmeMove("draw")
TURN = AcmeMove("turn")

# Where a free card comes from: the reserve, the waste, or column 0..3.
RESERVE, WASTE = -2, -3


class AcmeState(State[AcmeMove]):
    def __init__(
        self,
        variant: Variant,
        seed: int | None,
        reserve: list[Card],
        columns: list[list[Card]],
        foundations: list[int],
        stock: list[Card],
        waste: list[Card],
        turns: int = 0,
        progress: bool = False,
        moved: int = 0,
    ) -> None:
        super().__init__(SPEC, variant, seed, 1)
        self.params: AcmeParams = variant.params
        self.reserve = reserve  # top (face up) last
        self.columns = columns  # each bottom first, top last
        self.foundations = foundations  # top rank per suit, 0 when empty
        self.stock = stock  # next card last
        self.waste = waste  # top last
        self.turns = turns
        # A turn-over needs a card brought into play or home since the last one (or the
        # deal): otherwise the next pass would replay the last one exactly (the game is stuck).
        self.progress = progress
        # Column-to-column moves since a card last came into play or home (REARRANGE_LIMIT).
        self.moved = moved
        self._legal: list[AcmeMove] | None = None  # cached until the next move or undo

    # --- where cards are --------------------------------------------------------------
    def _free_cards(self) -> list[tuple[Card, int]]:
        """Seed, "Carte libere": the reserve's top, the waste's top, each column's last card."""
        free = [(col[-1], i) for i, col in enumerate(self.columns) if col]
        if self.reserve:
            free.append((self.reserve[-1], RESERVE))
        if self.waste:
            free.append((self.waste[-1], WASTE))
        return free

    def _source(self, card: Card) -> int | None:
        for free, source in self._free_cards():
            if free == card:
                return source
        return None

    def _fits_foundation(self, card: Card) -> bool:
        return self.foundations[card.suit] == card.rank - 1

    def _fits_column(self, card: Card, dest: int) -> bool:
        column = self.columns[dest]
        if not column:
            return True
        top = column[-1]
        # Seed: columns build down by suit, one card at a time.
        return top.suit == card.suit and top.rank == card.rank + 1

    # --- rules ------------------------------------------------------------------------
    def _rule_reason(self, move: AcmeMove) -> str | None:
        """Why the seed's rules (and our rulings) forbid ``move`` here, or ``None``."""
        if move.kind == "draw":
            return None if self.stock else "the stock is empty (turn the waste over)"
        if move.kind == "turn":
            return self._turn_reason()
        assert move.card is not None
        source = self._source(move.card)
        if source is None:
            return "that card is not free (reserve top, waste top or a column's last card)"
        if move.dest == FOUNDATION:
            if self._fits_foundation(move.card):
                return None
            top = self.foundations[move.card.suit]
            need = f"needs {Card(top + 1, move.card.suit)}" if top < KING else "is complete"
            return f"the {SUIT_NAMES[move.card.suit]} foundation {need}"
        if move.dest == source:
            return "the card is already in that column"
        if not self._fits_column(move.card, move.dest):
            last = self.columns[move.dest][-1]
            return f"column {move.dest + 1} ends with {last}: only one lower of its suit goes there"
        if source >= 0:
            if len(self.columns[source]) == 1 and not self.columns[move.dest]:
                return "a lone card moved to an empty column changes nothing"
            if self.moved >= REARRANGE_LIMIT:
                return f"{REARRANGE_LIMIT} column moves in a row without bringing a card in"
        return None

    def _turn_reason(self) -> str | None:
        if self.stock:
            return "the stock is not empty yet"
        if not self.waste:
            return "the waste is empty"
        limit = self.params.redeals
        if limit is not None and self.turns >= limit:
            return f"the waste may be turned over {limit} times only"
        if not self.progress:
            return NO_PROGRESS
        return None

    def _candidates(self) -> list[AcmeMove]:
        moves = []
        for card, source in self._free_cards():
            if self._fits_foundation(card):
                moves.append(AcmeMove("move", card, FOUNDATION))
            for dest in range(COLUMNS):
                if dest != source:
                    moves.append(AcmeMove("move", card, dest))
        moves += [DRAW, TURN]
        return [m for m in moves if self._rule_reason(m) is None]

    def legal_moves(self) -> list[AcmeMove]:
        # No special end test is needed: with no move left the game is over. Whenever only
        # column-to-column moves are left, no column is empty and the waste or the reserve
        # still holds a card (else every card left would lie in a column, where the next
        # card of each suit is always on top, free to go home), so merging a lone card
        # empties a column for it: those moves do change something.
        if self._legal is None:
            self._legal = [] if self.won else self._candidates()
        return list(self._legal)

    def parse_move(self, text: str) -> AcmeMove:
        typed = text.strip().split()  # as typed: an error echoed 'XX' as 'xx'
        words = [word.lower() for word in typed]
        if words and words[0] in ("draw", "turn"):
            if len(words) > 1:
                raise parse_error("move", text, f"{words[0]} takes nothing after it")
            return DRAW if words[0] == "draw" else TURN
        if len(words) != 2:
            raise parse_error("move", text, "a move is draw, turn, or a card and f or c1..c4")
        try:
            card = Card.parse(typed[0])
        except NotationError as err:
            raise parse_error("move", text, str(err)) from err
        if words[1] == "f":
            return AcmeMove("move", card, FOUNDATION)
        if len(words[1]) == 2 and words[1][0] == "c" and words[1][1] in "1234":
            return AcmeMove("move", card, int(words[1][1]) - 1)
        raise parse_error("move", text, "the destination is f (foundation) or c1..c4")

    def why_illegal(self, move: AcmeMove) -> str | None:
        reason = self._rule_reason(move)
        if reason != NO_PROGRESS:
            return reason
        # Stuck only when nothing else is left: a card may still come into play or home.
        if self.legal_moves():
            return f"{reason}: bring one into play or home first"
        return f"{reason}: the game is stuck"

    def reveals_to(self, move: AcmeMove) -> frozenset[int]:
        # Face down and never seen: the reserve under its top card, and the stock until the
        # waste is first turned over (from then on it holds only cards drawn before, in the
        # order they were seen). Drawing the stock or moving the reserve's top turns one of
        # them up, unless it is the only one left, the one card not in sight.
        unseen = len(self.reserve) - 1 + (len(self.stock) if self.turns == 0 else 0)
        if unseen < 2:
            return NOBODY
        if move.kind == "draw":
            return THE_PLAYER if self.turns == 0 else NOBODY
        from_reserve = move.card is not None and self._source(move.card) == RESERVE
        return THE_PLAYER if from_reserve and len(self.reserve) > 1 else NOBODY

    def _play(self, move: AcmeMove) -> Any:
        self._legal = None
        if move.kind == "draw":
            self.waste.append(self.stock.pop())
            return None
        if move.kind == "turn":
            # Seed: the waste, turned over, is the new stock (first drawn comes first again).
            self.stock, self.waste = self.waste[::-1], []
            self.turns += 1
            self.progress = False
            return None
        assert move.card is not None
        source = self._source(move.card)
        assert source is not None
        token = (source, self.progress, self.moved)
        self._pile(source).pop()
        if move.dest == FOUNDATION:
            self.foundations[move.card.suit] = move.card.rank
        else:
            self.columns[move.dest].append(move.card)
        if source >= 0 and move.dest >= 0:
            self.moved += 1
        else:
            self.progress, self.moved = True, 0
        return token

    def _unplay(self, move: AcmeMove, token: Any) -> None:
        self._legal = None
        if move.kind == "draw":
            self.stock.append(self.waste.pop())
            return
        if move.kind == "turn":
            self.waste, self.stock = self.stock[::-1], []
            self.turns -= 1
            self.progress = True
            return
        assert move.card is not None
        source, self.progress, self.moved = token
        if move.dest == FOUNDATION:
            self.foundations[move.card.suit] = move.card.rank - 1
        else:
            self.columns[move.dest].pop()
        self._pile(source).append(move.card)

    def _pile(self, source: int) -> list[Card]:
        if source == RESERVE:
            return self.reserve
        return self.waste if source == WASTE else self.columns[source]

    # --- outcome and views ------------------------------------------------------------
    @property
    def won(self) -> bool:
        return all(rank == KING for rank in self.foundations)

    @property
    def current_player(self) -> int:
        return TERMINAL if self.outcome() else 0

    @property
    def cards_on_foundations(self) -> int:
        return sum(self.foundations)

    def outcome(self) -> Outcome | None:
        won = self.won
        if not won and self.legal_moves():
            return None
        details = {
            "cards_on_foundations": self.cards_on_foundations,
            "reserve_left": len(self.reserve),
            "turns_used": self.turns,
        }
        score = float(self.cards_on_foundations)
        return Outcome((0,) if won else (), (score,), "won" if won else "stuck", details)

    def observation(self, player: int) -> dict[str, Any]:
        limit = self.params.redeals
        return {
            "game": "acme",
            "reserve_top": str(self.reserve[-1]) if self.reserve else None,
            "reserve_count": len(self.reserve),
            "columns": [[str(c) for c in col] for col in self.columns],
            "foundations": [
                str(Card(rank, suit)) if rank else None
                for suit, rank in enumerate(self.foundations)
            ],
            "stock_count": len(self.stock),
            # Ruling: the waste is face up and every card in it was seen when drawn.
            "waste": [str(c) for c in self.waste],
            "waste_top": str(self.waste[-1]) if self.waste else None,
            "turns_used": self.turns,
            "turns_left": None if limit is None else max(0, limit - self.turns),
            "progress_since_turn": self.progress,
            "score": self.cards_on_foundations,
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "outcome": o.as_json() if (o := self.outcome()) else None,
        }

    def hidden_from(self, player: int) -> frozenset[str]:
        return frozenset(str(c) for c in self.reserve[:-1] + self.stock)

    def position(self) -> str:
        cols = " / ".join(_cards(col) for col in self.columns)
        found = " ".join(str(Card(r, s)) if r else "--" for s, r in enumerate(self.foundations))
        fields = [
            _cards(self.reserve),
            cols,
            found,
            _cards(self.stock[::-1]),
            _cards(self.waste),
            str(self.turns),
            f"progress {int(self.progress)} moved {self.moved}",
        ]
        return " | ".join(fields)


def _cards(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _read_cards(text: str) -> list[Card]:
    return [] if text.strip() == "-" else [Card.parse(t) for t in text.split()]


def new_state(variant: Variant, seed: int, players: int) -> AcmeState:
    params: AcmeParams = variant.params
    deck = list(FULL_DECK)
    DealRng(seed, "acme").shuffle(deck)
    # Seed, "Disposizione": the reserve, four face-up column cards, the rest is the stock.
    reserve = deck[: params.reserve]
    columns = [[c] for c in deck[params.reserve : params.reserve + COLUMNS]]
    stock = deck[params.reserve + COLUMNS :][::-1]
    return AcmeState(variant, seed, reserve, columns, [0, 0, 0, 0], stock, [])


def from_position(text: str, variant: Variant) -> AcmeState:
    parts = text.split("|")
    if len(parts) != 7:
        raise parse_error(
            "position",
            text[:40],
            "needs RESERVE | COLUMNS | FOUNDATIONS | STOCK | WASTE | TURNS | COUNTERS",
        )
    reserve = _read_cards(parts[0])
    columns = [_read_cards(col) for col in parts[1].split("/")]
    if len(columns) != COLUMNS:
        raise parse_error("position", parts[1][:40], f"needs {COLUMNS} columns, not {len(columns)}")
    foundations = _read_foundations(parts[2])
    stock = _read_cards(parts[3])[::-1]
    waste = _read_cards(parts[4])
    _check_deck(text, reserve + stock + waste + [c for col in columns for c in col], foundations)
    _check_columns(columns)
    turns, progress, moved = _read_counters(parts[5], parts[6], variant.params.redeals)
    return AcmeState(
        variant, None, reserve, columns, foundations, stock, waste, turns, progress, moved
    )


def _read_foundations(text: str) -> list[int]:
    tops = text.split()
    if len(tops) != 4:
        raise parse_error("position", text, "needs four foundation tops (C D H S) or --")
    ranks = []
    for suit, token in enumerate(tops):
        card = None if token == "--" else Card.parse(token)
        if card is not None and card.suit != suit:
            raise parse_error("position", token, f"foundation {suit + 1} is for {SUITS[suit]}")
        ranks.append(card.rank if card else 0)
    return ranks


def _check_deck(text: str, loose: list[Card], foundations: list[int]) -> None:
    placed = loose + [Card(r, s) for s, top in enumerate(foundations) for r in range(1, top + 1)]
    if len(placed) != len(set(placed)):
        dupes = sorted({str(c) for c in placed if placed.count(c) > 1})
        raise parse_error("position", text[:40], f"cards appear twice: {' '.join(dupes)}")
    missing = set(FULL_DECK) - set(placed)
    if missing:
        raise parse_error(
            "position", text[:40], f"cards missing: {' '.join(sorted(map(str, missing)))}"
        )


def _check_columns(columns: list[list[Card]]) -> None:
    for i, col in enumerate(columns):
        for below, above in itertools.pairwise(col):
            if above.suit != below.suit or above.rank != below.rank - 1:
                raise parse_error(
                    "position", _cards(col), f"column {i + 1}: {above} cannot lie on {below}"
                )


def _read_counters(turns: str, counters: str, redeals: int | None) -> tuple[int, bool, int]:
    words = counters.split()
    if not turns.strip().isdigit():
        raise parse_error("position", turns, "TURNS is a whole number")
    if len(words) != 4 or words[0] != "progress" or words[2] != "moved":
        raise parse_error("position", counters, "COUNTERS reads 'progress 0|1 moved N'")
    if words[1] not in {"0", "1"} or not words[3].isdigit():
        raise parse_error("position", counters, "progress is 0 or 1 and moved a whole number")
    # Counts no game reaches were taken as they came (turns 5 with redeals=0, moved 999).
    if redeals is not None and int(turns) > redeals:
        raise parse_error("position", turns, f"{int(turns)} turns used, {redeals} allowed")
    if int(words[3]) > REARRANGE_LIMIT:
        raise parse_error(
            "position", counters, f"moved is 0..{REARRANGE_LIMIT} (column moves in a row)"
        )
    return int(turns), words[1] == "1", int(words[3])


def _heuristic(state: State[Any]) -> float:
    assert isinstance(state, AcmeState)
    # Cards home first; then the reserve, which only its top card can leave, and free columns.
    empty = sum(1 for col in state.columns if not col)
    return state.cards_on_foundations - 0.5 * len(state.reserve) + 0.25 * empty


def _max_game_length() -> int:
    # Each card comes into play or home at most twice; between two such moves there are at
    # most REARRANGE_LIMIT column moves and two passes of the stock (draws and one turn-over).
    progress_moves = 2 * 52
    talon = 52 - COLUMNS - 1
    return (progress_moves + 1) * (REARRANGE_LIMIT + 2 * talon + 2)


SPEC = register(
    GameSpec(
        name="acme",
        title="Acme",
        description="Play a 15-card reserve and the stock out through four suited columns.",
        aliases=(),
        min_players=1,
        max_players=1,
        hidden_information=True,
        chance=True,
        variants=(
            Variant(
                "acme",
                "15-card reserve, the waste turned over without limit",
                AcmeParams(),
                "Standard",
            ),
            Variant("reserve-13", "a 13-card reserve", AcmeParams(reserve=13), "13-card reserve"),
            Variant("reserve-20", "a 20-card reserve", AcmeParams(reserve=20), "20-card reserve"),
        ),
        new_state=new_state,
        from_position=from_position,
        max_game_length=_max_game_length(),
        param_help={
            "reserve": ("Reserve", "How many cards the reserve starts with (1 to 48)."),
            "redeals": (
                "Redeals",
                "How often the waste may be turned over into the stock; no limit by default.",
            ),
        },
        heuristic=_heuristic,
        rules_doc="docs/rules/acme.md",
    )
)
