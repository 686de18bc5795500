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


def test_a_database_from_before_game_ids_counts_each_game_once(private_database: Path) -> None:
    """A game saved before its end and ended again counts once (its id is stored). A
    database made before results had ids gets the column; its results stay counted."""
    import sqlite3

    old = sqlite3.connect(private_database)
    old.execute(
        "CREATE TABLE finished_games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT"
        " NOT NULL, seed INTEGER, won INTEGER NOT NULL, score REAL NOT NULL, moves INTEGER NOT"
        " NULL, details TEXT NOT NULL, source TEXT NOT NULL, finished REAL NOT NULL)"
    )
    old.execute(
        "INSERT INTO finished_games (game, variant, seed, won, score, moves, details, source,"
        " finished) VALUES ('gaps', 'gaps', 1, 1, 48, 90, '{}', 'terminal', 0)"
    )
    old.commit()
    old.close()
    with db.connect(private_database) as connection:
        stored = [
            record_finished(connection, "gaps", "gaps", 2, won, 40, 9, {}, "terminal", game)
            for won, game in [(True, "a"), (False, "a"), (True, None), (True, None), (True, "b")]
        ]
        (row,) = game_statistics(connection)
    assert stored == [True, False, True, True, True]
    assert (row["played"], row["won"]) == (5, 5)
