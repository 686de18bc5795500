"""What a bot's move did, told in words at the terminal, from what the person watching may
see (their observation before and after the move) and nothing more."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

Observation = Mapping[str, Any]
Narrator = Callable[[Observation, Observation, int, int], str]


def _scalafrutta(before: Observation, after: Observation, mover: int, you: int) -> str:
    """An insertion: the tile drawn (face up in the square now), the tile pushed out, and who
    got it: "draws 4M, pushes out 2B and captures it". Empty for anything else (a split)."""
    old = Counter(tile for row in before["square"] for tile in row)
    new = Counter(tile for row in after["square"] for tile in row)
    entered, left = list((new - old).elements()), list((old - new).elements())
    if len(entered) != 1 or len(left) != 1:
        return ""
    counts = zip(before["captured_count"], after["captured_count"], strict=True)
    gainers = [seat for seat, (was, now) in enumerate(counts) if now > was]
    if len(gainers) != 1:
        return f"draws {entered[0]}, pushes out {left[0]}"
    gainer = gainers[0]
    # Under coperte another's captures stand hidden (docs/rules/scalafrutta.md): the square
    # showed the tile, but what is said here must not help anyone remember it.
    hidden = after["captured"][gainer] is None
    pushed = "pushes a tile out" if hidden else f"pushes out {left[0]}"
    whom = (
        "captures it"
        if gainer == mover
        else "gives it to " + ("you" if gainer == you else f"seat {gainer + 1}")
    )
    return f"draws {entered[0]}, {pushed} and {whom}"


NARRATORS: dict[str, Narrator] = {"scalafrutta": _scalafrutta}


def narration(game: str, before: Observation, after: Observation, mover: int, you: int) -> str:
    """What ``mover``'s move did, as ``you`` saw it ("" where the game has nothing to add to
    the move's notation)."""
    narrator = NARRATORS.get(game)
    return narrator(before, after, mover, you) if narrator is not None else ""
