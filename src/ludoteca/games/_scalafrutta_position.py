"""Reading Scalafrutta positions, and sampling full states from one player's observation.

The notation is described in :mod:`ludoteca.games.scalafrutta`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ludoteca.core.errors import NotationError
from ludoteca.core.game import Variant, parse_error
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import Tile
from ludoteca.games._scalafrutta_split import has_scalafrutta
from ludoteca.games.scalafrutta import (
    SPEC,
    SQUARE,
    TILES,
    ScalafruttaParams,
    ScalafruttaState,
    mask_tiles,
    seat_text,
    tile_text,
)


def read_position(text: str, variant: Variant) -> ScalafruttaState:
    fields = [f.strip() for f in text.split("|")]
    names = ["players", "hand", "", "square", "pile", "held", "shown", "totals", "hands"]
    if len(fields) != len(names):
        raise parse_error("position", text[:40], f"needs {len(names)} fields separated by |")
    for name, field in zip(names, fields, strict=True):
        if name and field.split(" ")[0] != name:
            raise parse_error("position", field[:40], f"this field must start with '{name}'")
    head = _fullmatch(r"players ([234]) seed (\d+)", fields[0])
    players, seed = int(head[1]), int(head[2])
    state = ScalafruttaState(variant, seed, players)
    hand = _fullmatch(r"hand (\d+) first P(\d) phase (\d+)", fields[1])
    state.hand, state.first, state.phase = int(hand[1]), _seat(hand[2], players), int(hand[3])
    _read_stage(state, fields[2])
    state.square = _tile_list(fields[3][6:].replace("/", " "))
    if len(state.square) != SQUARE:
        raise parse_error(
            "position", fields[3], f"the square needs 9 tiles, not {len(state.square)}"
        )
    state.pile = _tile_list(fields[4][4:])[::-1]
    # Seed: "terminate le tessere ogni giocatore combina": a combination phase exactly when
    # the draw pile is empty (an insertion from an empty pile crashed; a phase beside a pile
    # lost the pile's tiles when the tiles going back became the new pile).
    if state.stage == "insert" and not state.pile:
        raise parse_error(
            "position", fields[4], "the draw pile is empty: the players combine now ('split')"
        )
    if state.stage == "split" and state.pile:
        raise parse_error(
            "position", fields[2], "the players combine only when the draw pile is empty"
        )
    held = _per_seat(fields[5][4:], players)
    state.held = [sum(1 << t for t in _tile_list(h)) for h in held]
    state.shown = [
        state._parse_split("split " + s).indices for s in _per_seat(fields[6][5:], players)
    ]
    totals = fields[7].split()[1:]
    if len(totals) != players or not all(t.isdigit() for t in totals):
        raise parse_error("position", fields[7], f"needs {players} totals")
    state.totals = [int(t) for t in totals]
    state.hands = [_read_hand(h, players) for h in fields[8].split()[1:] if h != "-"]
    _check_tiles(state, [state.square, state.pile, *map(mask_tiles, state.held)])
    return state


def _fullmatch(pattern: str, field: str) -> re.Match[str]:
    found = re.fullmatch(pattern, " ".join(field.split()))
    if not found:
        raise parse_error("position", field[:40], f"expected '{pattern.replace(chr(92), '')}'")
    return found


def _seat(text: str, players: int) -> int:
    seat = int(text) - 1
    if not 0 <= seat < players:
        raise parse_error("position", f"P{text}", f"no such seat with {players} players")
    return seat


def _read_stage(state: ScalafruttaState, field: str) -> None:
    words = field.split()
    if words == ["over"]:
        state.stage = "over"
        return
    if len(words) < 4 or words[0] not in ("insert", "split") or words[-2] != "last":
        raise parse_error(
            "position", field, "the stage is 'insert P# last P#', 'split P#... last P#' or 'over'"
        )
    seats = [
        _seat(w[1:], state.players) if w[:1] == "P" and w[1:].isdigit() else -1
        for w in words[1:-2] + words[-1:]
    ]
    if -1 in seats or (words[0] == "insert" and len(seats) != 2):
        raise parse_error("position", field, "seats are written P1..P4")
    state.stage, state.last = words[0], seats[-1]
    state.queue = seats[:-1] if words[0] == "split" else []
    state.to_move = seats[0]


def _tile_list(text: str) -> list[int]:
    words = text.split()
    if words == ["-"]:
        return []
    try:
        return [Tile.parse(w).index for w in words]
    except NotationError as err:
        raise parse_error("position", text[:40], str(err)) from err


def _per_seat(text: str, players: int) -> list[str]:
    parts = [p.strip() for p in text.split(";")]
    if len(parts) != players:
        raise parse_error("position", text[:40], f"needs {players} parts separated by ;")
    return parts


def _read_hand(text: str, players: int) -> tuple[tuple[int, ...], str]:
    found = re.fullmatch(r"([\d,]+)=(combinations|scalafrutta|phase-limit)", text)
    scores = found[1].split(",") if found else []
    if not found or len(scores) != players or not all(s.isdigit() for s in scores):
        raise parse_error("position", text, f"a hand is {players} scores=ending")
    return tuple(int(s) for s in scores), found[2]


def _check_tiles(state: ScalafruttaState, groups: list[list[int]]) -> None:
    placed = [t for group in groups for t in group]
    dupes = sorted({tile_text(t) for t in placed if placed.count(t) > 1})
    if dupes:
        raise parse_error("position", " ".join(dupes), "these tiles appear twice")
    missing = sorted(tile_text(t) for t in set(range(TILES)) - set(placed))
    if missing and state.stage == "insert":
        raise parse_error(
            "position",
            " ".join(missing),
            "tiles missing (only a combination phase or a finished game has tiles going back)",
        )
    for seat, combos in enumerate(state.shown):
        shown = sum(1 << t for c in combos for t in c)
        if shown & ~state.held[seat]:
            raise parse_error("position", seat_text(seat), "shows tiles it does not hold")
    if state.stage != "over" and any(has_scalafrutta(h) for h in state.held):
        raise parse_error("position", "held", "a full fruit ends the hand at once")


def determinize(observation: Mapping[str, Any], rng: DealRng) -> ScalafruttaState:
    """A full state consistent with what one player sees, the unseen tiles dealt at random.

    Uses only the observation: the square, open (or shown) captured tiles and the counts;
    the draw pile, the tiles going back and, under ``coperte``, the opponents' unshown
    captures are drawn from the tiles the player cannot see. The seed is random too, so the
    later reshuffles are unknown as well.
    """
    base = SPEC.variant(observation["variant"])
    params = ScalafruttaParams(**observation["params"])
    players = int(observation["players"])
    state = ScalafruttaState(Variant(base.name, base.description, params, base.title), 0, players)
    state.deal_seed = rng.next64()
    for key in ("hand", "phase", "stage", "totals"):
        setattr(state, key, observation[key] if key != "totals" else list(observation[key]))
    state.first, state.last = observation["first_player"], observation["last_to_play"]
    state.to_move = observation["to_move"] if observation["to_move"] is not None else 0
    state.queue = list(observation["split_queue"])
    state.last_before = observation["last_move"]
    state.hands = [
        (tuple(s), e)
        for s, e in zip(observation["hands"], observation["hand_endings"], strict=True)
    ]
    state.square = [Tile.parse(t).index for row in observation["square"] for t in row]
    state.shown = [
        tuple(tuple(Tile.parse(t).index for t in c) for c in combos)
        for combos in observation["shown"]
    ]
    known = [
        [Tile.parse(t).index for t in captured]
        if captured is not None
        else [t for c in state.shown[seat] for t in c]
        for seat, captured in enumerate(observation["captured"])
    ]
    missing = [observation["captured_count"][s] - len(known[s]) for s in range(players)]
    drawn = [] if observation["drawn"] is None else [Tile.parse(observation["drawn"]).index]
    seen = set(state.square) | set(drawn) | {t for k in known for t in k}
    unseen = [t for t in range(TILES) if t not in seen]
    pile_count = observation["pile_count"] - len(drawn)
    for _ in range(20):  # a deal that gives an opponent a full fruit cannot be: draw again
        rng.shuffle(unseen)
        start, held = 0, []
        for seat in range(players):
            held.append(sum(1 << t for t in known[seat] + unseen[start : start + missing[seat]]))
            start += missing[seat]
        if not any(has_scalafrutta(h) for h in held):
            break
    state.held = held
    state.pile = unseen[start : start + pile_count] + drawn
    return state
