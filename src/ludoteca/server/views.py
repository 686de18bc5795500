"""What one seat is told: its observation and the table's public facts, nothing else.

The game's part of a view is ``State.observation(seat)`` and only that. The rest is what the
room knows without looking inside the state: seats, whose turn, how many moves, which buttons
work. The last move is shown to the other seats only when it names nothing hidden from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludoteca.core.game import TERMINAL
from ludoteca.core.practice import practice_label
from ludoteca.server.protocol import HUMAN, deal_number, event

if TYPE_CHECKING:
    from ludoteca.server.rooms import Room


def seat_view(room: Room, seat: int) -> dict[str, Any]:
    state = room.state
    observation = state.observation(seat)
    to_move = state.current_player
    your_turn = to_move == seat
    against_bots = all(kind != HUMAN for s, kind in enumerate(room.saved.seats) if s != seat)
    played_any = any(s == seat for s, _ in room.moves)
    return event(
        "state",
        room=room.id,
        seat=seat,
        game=room.spec.name,
        title=room.spec.title,
        variant=room.variant.name,
        variant_title=room.variant.title,
        variant_key=room.variant_key,
        params=room.saved.params,
        # In a multiplayer game with hidden tiles the deal number would reveal them all.
        seed=None if room.spec.deal_is_secret else deal_number(room.saved.seed),
        seats=[_seat(room, s) for s in range(len(room.saved.seats))],
        to_move=None if to_move == TERMINAL else to_move,
        your_turn=your_turn,
        ply=len(room.moves),
        last_move=_last_move(room, seat),
        legal_moves=list(observation.get("legal_moves") or []) if your_turn else [],
        can_undo=against_bots and played_any,
        can_redo=against_bots and bool(room.redo_stack) and your_turn,
        can_hint=your_turn and room.can_hint,
        can_restart=against_bots,
        can_again=room.can_again,
        # A game taken back past a move that showed hidden tiles: not counted at its end.
        practice=room.practice,
        practice_label=practice_label(room.spec) if room.practice else None,
        practice_notice=room.practice_notice if room.practice else None,
        outcome=observation.get("outcome"),
        observation=observation,
    )


def _seat(room: Room, seat: int) -> dict[str, Any]:
    """A seat as every seat sees it. ``taken``: a person holds it (its invitation was
    claimed, or it had its token from the start); a bot's seat is never taken. ``invited``:
    it is opened by an invitation, claimed or not (not the creator's, nor any seat of a
    table started before invitations), so that a page opened by that seat's token, not by
    the invitation, can say that whoever gave the token sees the hand. Its token and
    invitation are secrets: never in a view."""
    kind = room.saved.seats[seat]
    human = kind == HUMAN
    taken = human and room.saved.tokens[seat] is not None
    invited = seat in room.saved.invites
    return {
        "seat": seat,
        "kind": HUMAN if human else "bot",
        "name": kind,
        "taken": taken,
        "invited": invited,
    }


def _last_move(room: Room, seat: int) -> dict[str, Any] | None:
    if not room.moves:
        return None
    by, text = room.moves[-1]
    hidden = room.state.hidden_from(seat)
    if room.hidden_before_last is not None:
        # Only what the seat could see neither before the move nor after it: a Scalafrutta
        # split names the tiles it sends back to the pile, shown to all until then.
        hidden &= room.hidden_before_last[seat]
    if by != seat and _names_hidden(text, hidden):
        return {"seat": by, "move": None}
    return {"seat": by, "move": text}


def _names_hidden(text: str, hidden: frozenset[str]) -> bool:
    upper = text.upper()
    return any(token.upper() in upper for token in hidden)
