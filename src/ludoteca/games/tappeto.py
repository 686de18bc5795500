"""Tappeto: play carpet cards to four foundations; the reserve refills every gap at once.

Seed: ``002_2781edcd7553a594.txt``; rulings in ``docs/rules/tappeto.md``.

Position notation: ``CARPET | FOUNDATIONS | RESERVE`` where CARPET is the rows top to bottom
separated by `` / `` (cards or ``--`` for a gap), FOUNDATIONS the top card of the clubs,
diamonds, hearts and spades foundations (``--`` when empty) and RESERVE the face-down reserve,
next card first (``-`` when empty). A move is the carpet card that goes to its foundation.
The reserve's order is part of the position, so a position is for the exact solver and for
saves, never for a player (a player's view is :meth:`TappetoState.observation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.cards import ACE, FULL_DECK, KING, SUIT_NAMES, SUITS, Card
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

GAP = None
DECK_SIZE = len(FULL_DECK)
DEAL_STREAM = "tappeto"
"""The label of the deal's random stream: ``DealRng(seed, DEAL_STREAM)`` shuffles the deck."""


@dataclass(frozen=True)
class TappetoParams:
    # (no maximum of their own: what fits in one deck depends on the other, and on the aces)
    rows: int = field(default=4, metadata={"min": 1})
    cols: int = field(default=5, metadata={"min": 1})
    aces_start_on_foundations: bool = True

    @property
    def carpet_size(self) -> int:
        return self.rows * self.cols

    @property
    def reserve_size(self) -> int:
        aces = 4 if self.aces_start_on_foundations else 0
        return DECK_SIZE - aces - self.carpet_size

    def check(self) -> None:
        if self.rows < 1 or self.cols < 1:
            # (a 0 x 5 carpet was said not to fit in one deck)
            raise NotationError(
                f"rows and cols must be at least 1, not {self.rows} and {self.cols}"
            )
        if self.reserve_size < 0:
            raise NotationError(f"a {self.rows} x {self.cols} carpet does not fit in one deck")


class TappetoState(State[Card]):
    def __init__(
        self,
        variant: Variant,
        seed: int | None,
        carpet: list[Card | None],
        foundations: list[int],
        reserve: list[Card],
    ) -> None:
        super().__init__(SPEC, variant, seed, 1)
        self.params: TappetoParams = variant.params
        self.carpet = carpet
        self.foundations = foundations  # top rank per suit, 0 when empty
        self.reserve = reserve  # next card first

    # --- rules ------------------------------------------------------------------------
    def _playable(self, card: Card) -> bool:
        # Seed, Svolgimento 1 "Giocare alle fondamenta": same suit, one rank higher (an ace
        # on an empty foundation in con-scarti).
        return self.foundations[card.suit] == card.rank - 1

    def legal_moves(self) -> list[Card]:
        return [c for c in self.carpet if c is not None and self._playable(c)]

    def parse_move(self, text: str) -> Card:
        try:
            return Card.parse(text)
        except NotationError as err:
            raise parse_error("move", text, "a move is the carpet card to play, e.g. 5H") from err

    def why_illegal(self, move: Card) -> str | None:
        top = self.foundations[move.suit]
        name = SUIT_NAMES[move.suit]
        if move.rank <= top:
            return f"it is already on the {name} foundation"
        if move not in self.carpet:
            # Say nothing more: where a hidden card lies in the reserve is not the player's.
            return "that card is not in the carpet"
        if not self._playable(move):
            return f"the {name} foundation needs {Card(top + 1, move.suit)}"
        return None

    def reveals_to(self, move: Card) -> frozenset[int]:
        # The play refills its gap with the reserve's top card, face down until then; the
        # reserve's last card is the one card not in sight, known without looking.
        return THE_PLAYER if len(self.reserve) > 1 else NOBODY

    def _play(self, move: Card) -> Any:
        cell = self.carpet.index(move)
        self.foundations[move.suit] = move.rank
        # Seed, Svolgimento 2-3: the gap is filled at once from the reserve's top; with the
        # reserve empty it stays open.
        refill = self.reserve.pop(0) if self.reserve else GAP
        self.carpet[cell] = refill
        return cell, refill

    def _unplay(self, move: Card, token: Any) -> None:
        cell, refill = token
        if refill is not None:
            self.reserve.insert(0, refill)
        self.carpet[cell] = move
        self.foundations[move.suit] = move.rank - 1

    @property
    def current_player(self) -> int:
        return TERMINAL if self.outcome() else 0

    @property
    def cards_on_foundations(self) -> int:
        return sum(self.foundations)

    def outcome(self) -> Outcome | None:
        # Seed, Punteggio 1: won when all four foundations reach the King; otherwise the game
        # ends when no carpet card can go up (there is no other kind of move).
        won = all(rank == KING for rank in self.foundations)
        if not won and self.legal_moves():
            return None
        score = float(self.cards_on_foundations)  # Seed, Punteggio 2: cards on foundations.
        details = {
            "cards_on_foundations": self.cards_on_foundations,
            "reserve_left": len(self.reserve),
        }
        return Outcome((0,) if won else (), (score,), "won" if won else "stuck", details)

    def observation(self, player: int) -> dict[str, Any]:
        # The reserve is face down: only its size is shown.
        return {
            "game": "tappeto",
            "rows": self.params.rows,
            "cols": self.params.cols,
            "carpet": [str(c) if c else None for c in self.carpet],
            "foundations": [
                str(Card(rank, suit)) if rank else None
                for suit, rank in enumerate(self.foundations)
            ],
            "reserve_count": len(self.reserve),
            "score": self.cards_on_foundations,
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "outcome": o.as_json() if (o := self.outcome()) else None,
        }

    def hidden_from(self, player: int) -> frozenset[str]:
        return frozenset(str(c) for c in self.reserve)

    def position(self) -> str:
        cols = self.params.cols
        rows = [
            " ".join(str(c) if c else "--" for c in self.carpet[r * cols : (r + 1) * cols])
            for r in range(self.params.rows)
        ]
        found = " ".join(str(Card(r, s)) if r else "--" for s, r in enumerate(self.foundations))
        reserve = " ".join(str(c) for c in self.reserve) or "-"
        return f"{' / '.join(rows)} | {found} | {reserve}"


def dealt_deck(params: TappetoParams, seed: int) -> list[Card]:
    """The cards in dealing order: the carpet row by row, then the reserve from its top."""
    deck = list(FULL_DECK)
    DealRng(seed, DEAL_STREAM).shuffle(deck)
    if params.aces_start_on_foundations:
        # Seed, Preparazione 3: the four aces start the foundations.
        deck = [c for c in deck if c.rank != ACE]
    return deck


def new_state(variant: Variant, seed: int, players: int) -> TappetoState:
    params: TappetoParams = variant.params
    deck = dealt_deck(params, seed)
    foundations = [ACE if params.aces_start_on_foundations else 0] * 4
    size = params.carpet_size
    carpet: list[Card | None] = list(deck[:size])
    return TappetoState(variant, seed, carpet, foundations, deck[size:])


def _card(token: str) -> Card | None:
    return None if token == "--" else Card.parse(token)


def from_position(text: str, variant: Variant) -> TappetoState:
    params: TappetoParams = variant.params
    parts = text.split("|")
    if len(parts) != 3:
        raise parse_error("position", text[:40], "needs CARPET | FOUNDATIONS | RESERVE")
    rows = [r.split() for r in parts[0].split("/")]
    if len(rows) != params.rows or any(len(r) != params.cols for r in rows):
        raise parse_error(
            "position", parts[0][:40], f"the carpet must be {params.rows} rows of {params.cols}"
        )
    carpet = [_card(t) for row in rows for t in row]
    tops = parts[1].split()
    if len(tops) != 4:
        raise parse_error("position", parts[1], "needs four foundation tops (C D H S) or --")
    foundations = []
    for suit, token in enumerate(tops):
        card = _card(token)
        if card is not None and card.suit != suit:
            raise parse_error("position", token, f"foundation {suit + 1} is for {SUITS[suit]}")
        foundations.append(card.rank if card else 0)
    reserve = [] if parts[2].strip() == "-" else [Card.parse(t) for t in parts[2].split()]
    _check_cards(text, carpet, foundations, reserve)
    if reserve and GAP in carpet:
        # Seed, Svolgimento 2: a gap is refilled at once, so none is open while cards remain.
        raise parse_error("position", parts[0][:40], "a gap is open while the reserve has cards")
    return TappetoState(variant, None, carpet, foundations, reserve)


def _check_cards(
    text: str, carpet: list[Card | None], foundations: list[int], reserve: list[Card]
) -> None:
    placed = [c for c in carpet if c] + reserve
    placed += [Card(r, s) for s, top in enumerate(foundations) for r in range(1, top + 1)]
    if len(placed) != len(set(placed)):
        dupes = sorted({str(c) for c in placed if placed.count(c) > 1})
        raise parse_error("position", text[:40], f"cards appear twice: {' '.join(dupes)}")
    missing = set(FULL_DECK) - set(placed)
    if missing:
        raise parse_error(
            "position", text[:40], f"cards missing: {' '.join(sorted(map(str, missing)))}"
        )


def _heuristic(state: State[Any]) -> float:
    assert isinstance(state, TappetoState)
    return float(state.cards_on_foundations)


SPEC = register(
    GameSpec(
        name="tappeto",
        title="Tappeto",
        description="Play the 20-card carpet to four foundations; the reserve fills every gap.",
        aliases=("carpet",),
        min_players=1,
        max_players=1,
        hidden_information=True,
        chance=True,
        # Every complete game of a deal ends alike (docs/rules/tappeto.md, The order of plays
        # never matters): an undo that showed a reserve card gains nothing, so it is no practice.
        play_decides=False,
        variants=(
            Variant(
                "tappeto", "aces start the foundations; 4 x 5 carpet", TappetoParams(), "Standard"
            ),
            Variant(
                "con-scarti",
                "aces are dealt too and play from the carpet",
                TappetoParams(aces_start_on_foundations=False),
                "Con scarti",
            ),
            Variant(
                "grande", "a 5 x 6 carpet, 18 cards in the reserve", TappetoParams(5, 6), "Grande"
            ),
        ),
        new_state=new_state,
        from_position=from_position,
        max_game_length=DECK_SIZE,
        param_help={
            "rows": ("Rows", "Rows of the carpet."),
            "cols": ("Columns", "Columns of the carpet."),
            "aces_start_on_foundations": (
                "Aces start the foundations",
                "Off: the aces are dealt too and play from the carpet.",
            ),
        },
        heuristic=_heuristic,
        rules_doc="docs/rules/tappeto.md",
    )
)
