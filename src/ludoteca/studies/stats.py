"""Confidence intervals for win rates."""

from __future__ import annotations

from scipy.stats import binomtest


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; ``(0, 1)`` with no trials."""
    if trials == 0:
        return (0.0, 1.0)
    interval = binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return (float(interval.low), float(interval.high))
