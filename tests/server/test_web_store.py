"""The web tables: games in progress, moves in order, results recorded once, statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.store.web import SavedGame, WebStore


def saved(game_id: str, player: str = "ada") -> SavedGame:
    return SavedGame(
        id=game_id,
        game="tappeto",
        variant="tappeto",
        params={},
        seed=1,
        seats=["human"],
        tokens=["t"],
        player=player,
        status="playing",
        moves=[],
    )


@pytest.fixture
def store(tmp_path: Path) -> WebStore:
    return WebStore(tmp_path / "store.sqlite3")


def test_moves_are_kept_in_order_and_cut_back(store: WebStore) -> None:
    store.create_game(saved("g1"))
    store.push_moves("g1", 0, [(0, "2C"), (0, "3C")])
    store.push_moves("g1", 2, [(0, "4C")])
    store.truncate_moves("g1", 1)
    store.push_moves("g1", 1, [(0, "2D")])
    loaded = store.load_game("g1")
    assert loaded is not None and loaded.moves == [(0, "2C"), (0, "2D")]
    assert store.load_game("nothing") is None


def test_a_ply_is_written_once(store: WebStore) -> None:
    """The primary key (game, ply) refuses a second move at the same ply: no silent fork."""
    import sqlite3

    store.create_game(saved("g1"))
    store.push_moves("g1", 0, [(0, "2C")])
    with pytest.raises(sqlite3.IntegrityError):
        store.push_moves("g1", 0, [(0, "2D")])
    assert store.load_game("g1").moves == [(0, "2C")]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("results", "streak", "best"),
    [
        ([True, True, False, True, True, True], 3, 3),
        ([False, False], -2, 0),
        ([True, True, True, False], -1, 3),
        ([True], 1, 1),
    ],
)
def test_statistics_count_streaks(
    store: WebStore, results: list[bool], streak: int, best: int
) -> None:
    for i, won in enumerate(results):
        store.create_game(saved(f"g{i}"))
        assert store.record_result(f"g{i}", "tappeto", won, float(10 + i))
    (stats,) = store.stats("ada")
    assert (stats.played, stats.won) == (len(results), sum(results))
    assert (stats.streak, stats.best_streak) == (streak, best)
    assert stats.best_score == 10 + len(results) - 1
    assert store.stats("bob") == []


def test_a_result_is_recorded_once_and_ends_the_game_in_progress(store: WebStore) -> None:
    store.create_game(saved("g1"))
    store.create_game(saved("g2", player="bob"))
    assert [g["room"] for g in store.games_in_progress("ada")] == ["g1"]
    assert store.record_result("g1", "tappeto", True, 48)
    assert not store.record_result("g1", "tappeto", False, 3)
    assert store.stats("ada")[0].won == 1
    assert [g["room"] for g in store.games_in_progress()] == ["g2"]


def test_addiction_results_keep_the_redeals_used(store: WebStore) -> None:
    """The issue's Addiction statistics (games, wins, redeals used, best score) on the web:
    a result keeps its outcome's details, and the statistics add up the redeals used."""
    for i, (won, used) in enumerate([(False, 3), (True, 1), (True, None)]):
        store.create_game(saved(f"g{i}"))
        details = {} if used is None else {"redeals_used": used, "in_sequence": 48}
        assert store.record_result(f"g{i}", "addiction", won, 40.0 + i, details)
    (stats,) = store.stats("ada")
    assert (stats.played, stats.won, stats.best_score) == (3, 2, 42.0)
    assert stats.redeals_used == 4 and stats.as_json()["redeals_used"] == 4


def test_a_database_from_before_the_details_column_is_brought_up_to_date(
    tmp_path: Path,
) -> None:
    """A web database made before results kept details gets the column when opened: its
    old results stay (counting no redeals) and new ones keep their redeals."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE web_results (
            id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL UNIQUE,
            player TEXT NOT NULL, game TEXT NOT NULL, variant TEXT NOT NULL,
            won INTEGER NOT NULL, score REAL NOT NULL, finished REAL NOT NULL
        );
        INSERT INTO web_results (game_id, player, game, variant, won, score, finished)
        VALUES ('g0', 'ada', 'tappeto', 'tappeto', 1, 30.0, 0.0);
        """
    )
    old.commit()
    old.close()
    store = WebStore(path)
    store.create_game(saved("g1"))
    assert store.record_result("g1", "tappeto", False, 12.0, {"redeals_used": 2})
    (stats,) = store.stats("ada")
    assert (stats.played, stats.won, stats.redeals_used) == (2, 1, 2)


def test_two_connections_bringing_an_old_database_up_to_date_do_not_clash(
    tmp_path: Path,
) -> None:
    """Two connections may both find the details column missing before either adds it
    (threads of the server opening at once): the second one's ALTER finds it there and
    goes on instead of failing."""
    import sqlite3
    from typing import Any

    from ludoteca.store import web

    path = tmp_path / "both.sqlite3"
    WebStore(path).open()  # the column exists now: the first connection added it

    class Stale:
        """A connection that still reports the columns from before the other one's ALTER."""

        def __init__(self, inner: sqlite3.Connection) -> None:
            self.inner = inner

        def executescript(self, script: str) -> Any:
            return self.inner.executescript(script)

        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith("PRAGMA table_info"):
                return [{"name": "id"}]
            return self.inner.execute(sql, *args)

    connection = sqlite3.connect(path)
    web._create(Stale(connection))  # type: ignore[arg-type]
    columns = [row[1] for row in connection.execute("PRAGMA table_info(web_results)")]
    assert columns.count("details") == 1
