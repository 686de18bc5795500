"""Confidence intervals for win rates."""

from __future__ import annotations

import math
from typing import Any

from scipy.stats import binomtest, norm


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; ``(0, 1)`` with no trials."""
    if trials == 0:
        return (0.0, 1.0)
    interval = binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return (float(interval.low), float(interval.high))


def wilson_of_shares(shares: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval around ``shares / trials`` where a trial's success may be
    shared (a tournament game won by two players gives each half): the binomial formula with
    the fractional count, not a rounded one (157.5 of 200 was read as 158; two players who
    share their wins had intervals that did not mirror each other). A shared win varies less
    than a whole one, so the interval errs wide."""
    if trials == 0:
        return (0.0, 1.0)
    z = float(norm.ppf(0.5 + confidence / 2))
    rate = shares / trials
    middle = rate + z * z / (2 * trials)
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (max(0.0, (middle - spread) / scale), min(1.0, (middle + spread) / scale))


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
