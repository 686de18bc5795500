"""Confidence intervals for win rates."""

from __future__ import annotations

from typing import Any

from scipy.stats import binomtest


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; ``(0, 1)`` with no trials."""
    if trials == 0:
        return (0.0, 1.0)
    interval = binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return (float(interval.low), float(interval.high))


def win_rates(won: int, unknown: int, deals: int) -> dict[str, Any]:
    """A study's figures, named alike wherever a study is reported (``study --json`` and each
    row of ``study --list --json``): the rate among decided deals with its 95% interval,
    and over all deals the bracket the truth lies in, unknown deals counted as lost, then
    as won, with the interval around it."""
    decided = deals - unknown
    low, high = wilson(won, decided)
    return {
        "won": won,
        "lost": decided - won,
        "unknown": unknown,
        "rate": won / decided if decided else None,
        "ci95": [low, high],
        "rate_bounds": [won / deals, (won + unknown) / deals] if deals else None,
        "ci95_bounds": [wilson(won, deals)[0], wilson(won + unknown, deals)[1]],
    }
