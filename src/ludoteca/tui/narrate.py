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
    got it: "draws 4M, pushes out 2B and captures it"; a split, what it shows (:func:`_split`)."""
    before, after = views[0]
    if before["stage"] == "split":
        return _split(after, mover)
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


def _split(after: Observation, mover: int) -> str:
    """A split, as everyone sees it (rules, End of a hand: each player scores their last
    split when the hand ends): "shows 2 combinations worth 48 points, scored when the hand
    ends", or "makes no combination: every tile goes back". It read "plays split none"."""
    combinations = len(after["shown"][mover])
    if combinations == 0:
        return "makes no combination: every tile goes back"
    points = after["shown_points"][mover]
    when = "" if after["outcome"] else ", scored when the hand ends"
    shown = f"{combinations} combination" + ("" if combinations == 1 else "s")
    return f"shows {shown} worth {points} points{when}"


def _domino(views: Views, mover: int, you: int | None) -> str:
    """A draw, as everyone sees it: the tile stays hidden, but not whether it fitted (rules,
    A turn: a tile that fits is placed at once, else it is kept and the turn
    ends). It read "plays draw", and the hand's count went up without a word. Empty for
    anything else (the move's notation says it)."""
    before, after = views[0]
    if after["aside_count"] != before["aside_count"] - 1:
        return ""
    if after["to_move"] == mover:
        return "draws a set-aside tile, which fits: it places it next"
    return "draws a set-aside tile and keeps it: it fits nowhere"


NARRATORS: dict[str, Narrator] = {"scalafrutta": _scalafrutta, "domino": _domino}


def narration(game: str, views: Views, mover: int, you: int | None) -> str:
    """What ``mover``'s move did, as the watchers saw it (``views``: each one's observation
    before and after; ``you``: the one person watching, or :data:`NO_ONE`); "" where the
    game has nothing to add to the move's notation."""
    narrator = NARRATORS.get(game)
    return narrator(views, mover, you) if narrator is not None and views else ""
