"""What a bot's move did, told in words at the terminal, from what the people watching may
see (each one's observation before and after the move) and nothing more."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Observation = Mapping[str, Any]
Views = Sequence[tuple[Observation, Observation]]
"""Each watcher's observation before and after the move."""
Narrator = Callable[[Views, int, int | None], str]

NO_ONE = None
"""``you`` where several people watch one screen: no one is "you", seats are named."""


def _scalafrutta(views: Views, mover: int, you: int | None) -> str:
    """An insertion: the tile drawn (face up in the square now), the tile pushed out, and who
    got it: "draws 4M, pushes out 2B and captures it". Empty for anything else (a split)."""
    before, after = views[0]
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
    # showed the tile, but what is said here must not help anyone remember it. With several
    # people at the screen, it is named only where it is hidden from none of them.
    hidden = any(seen["captured"][gainer] is None for _, seen in views)
    pushed = "pushes a tile out" if hidden else f"pushes out {left[0]}"
    if gainer == mover:
        whom = "captures it"
    else:
        whom = "gives it to " + ("you" if gainer == you else f"seat {gainer + 1}")
    return f"draws {entered[0]}, {pushed} and {whom}"


NARRATORS: dict[str, Narrator] = {"scalafrutta": _scalafrutta}


def narration(game: str, views: Views, mover: int, you: int | None) -> str:
    """What ``mover``'s move did, as the watchers saw it (``views``: each one's observation
    before and after; ``you``: the one person watching, or :data:`NO_ONE`); "" where the
    game has nothing to add to the move's notation."""
    narrator = NARRATORS.get(game)
    return narrator(views, mover, you) if narrator is not None and views else ""
