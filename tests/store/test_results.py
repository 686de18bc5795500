"""Finished games feed the statistics: played, won, best score, streaks, redeals used."""

from __future__ import annotations

from pathlib import Path

from ludoteca.store import db
from ludoteca.store.results import game_statistics, record_finished


def test_statistics_count_streaks_and_best_scores(private_database: Path) -> None:
    with db.connect(private_database) as connection:
        for won, score in [(True, 48), (True, 40), (False, 30), (True, 44)]:
            record_finished(
                connection, "gaps", "addiction", 1, won, score, 10, {"redeals_used": 2}, "test"
            )
        (row,) = game_statistics(connection)
    assert (row["played"], row["won"], row["best_score"]) == (4, 3, 48)
    assert (row["streak"], row["best_streak"], row["redeals_used"]) == (1, 2, 8)


def test_database_survives_reopening(private_database: Path) -> None:
    with db.connect(private_database) as connection:
        record_finished(connection, "tappeto", "tappeto", 3, False, 12, 8, {}, "test")
    with db.connect(private_database) as connection:
        assert game_statistics(connection)[0]["played"] == 1
