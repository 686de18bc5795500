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

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def execute(self, sql: str, *args: Any) -> Any:
            found = self.inner.execute(sql, *args)
            if sql.startswith("PRAGMA table_info"):
                return [row for row in found if row[1] != "details"]
            return found

    connection = sqlite3.connect(path)
    web._create(Stale(connection))  # type: ignore[arg-type]
    columns = [row[1] for row in connection.execute("PRAGMA table_info(web_results)")]
    assert columns.count("details") == 1


OLD_SCHEMA = """
CREATE TABLE web_games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, params TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, tokens TEXT NOT NULL, player TEXT NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL, status TEXT NOT NULL DEFAULT 'playing'
);
CREATE TABLE web_moves (
    game_id TEXT NOT NULL REFERENCES web_games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE web_results (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL UNIQUE,
    player TEXT NOT NULL, game TEXT NOT NULL, variant TEXT NOT NULL,
    won INTEGER NOT NULL, score REAL NOT NULL, finished REAL NOT NULL,
    details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX web_results_by_player ON web_results (player, game, variant, id);
CREATE TABLE web_invites (
    game_id TEXT NOT NULL REFERENCES web_games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL, code TEXT NOT NULL, claimed REAL,
    PRIMARY KEY (game_id, seat)
);
INSERT INTO web_games VALUES
    ('solo', 'tappeto', 'tappeto', '{}', 1, '["human"]', '["t0"]', 'ada', 0, 0, 'finished'),
    ('pair', 'domino', 'domino', '{}', 2, '["greedy", "human", "human"]', '["x", "t1", "t2"]',
     'ada', 0, 0, 'finished'),
    ('asked', 'domino', 'domino', '{}', 3, '["human", "human"]', '["t3", "t4"]',
     'bob', 0, 0, 'playing');
INSERT INTO web_invites VALUES ('pair', 2, 'c2', 1.0), ('asked', 0, 'c0', NULL);
INSERT INTO web_results (game_id, player, game, variant, won, score, finished, details)
VALUES ('solo', 'ada', 'tappeto', 'tappeto', 1, 30.0, 1.0, '{"redeals_used": 1}'),
       ('pair', 'ada', 'domino', 'domino', 0, -2.0, 2.0, '{}');
"""
"""A database as this store made it before results per seat: a solitaire and a table of
two people finished (recorded once, for the first person's seat, under the creator's name),
and a table started by the second seat ('again' from it) in progress."""


def old_database(path: Path) -> None:
    import sqlite3

    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA)
    old.commit()
    old.close()


def test_a_database_from_before_results_per_seat_is_migrated_keeping_every_row(
    tmp_path: Path,
) -> None:
    """Opened, an old database is brought up to date in place: its results stay (ids, names
    and all, as the first person's seats'), each game's creator names its seat, and the
    results of the other people's seats are recorded beside them, each once."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old_database(path)
    store = WebStore(path)
    store.open()
    rows = store.conn.execute(
        "SELECT id, game_id, seat, player, won, score, finished, details FROM web_results"
        " ORDER BY id"
    ).fetchall()
    assert [tuple(r) for r in rows] == [
        (1, "solo", 0, "ada", 1, 30.0, 1.0, '{"redeals_used": 1}'),
        (2, "pair", 1, "ada", 0, -2.0, 2.0, "{}"),
    ]
    indexes = {r["name"] for r in store.conn.execute("PRAGMA index_list(web_results)")}
    assert "web_results_by_player" in indexes
    assert [(s.game, s.played, s.won, s.redeals_used) for s in store.stats("ada")] == [
        ("tappeto", 1, 1, 1),
        ("domino", 1, 0, 0),
    ]
    pair, asked = store.load_game("pair"), store.load_game("asked")
    assert pair is not None and asked is not None
    assert (pair.players, asked.players) == ({1: "ada"}, {1: "bob"})
    assert [g["players"] for g in store.games_in_progress("bob")] == [[None, "bob"]]
    # The old row is the first person's seat's: recorded again, it counts once.
    assert not store.record_result("pair", "domino", False, -2.0, seat=1)
    # The friend's seat, named now (their next join), records its own, once; a new row.
    assert store.name_seat("pair", 2, "cleo") == "cleo"
    assert store.record_result("pair", "domino", True, 0.0, seat=2)
    assert not store.record_result("pair", "domino", True, 0.0, seat=2)
    assert [(s.game, s.played, s.won) for s in store.stats("cleo")] == [("domino", 1, 1)]
    assert [s.played for s in store.stats("ada")] == [1, 1]
    # (After the old rows, in id order: the order in which statistics count streaks.)
    ids = [r["id"] for r in store.conn.execute("SELECT id FROM web_results ORDER BY id")]
    assert len(ids) == 3 and ids[:2] == [1, 2]
    # Opened again (another connection): nothing to do, nothing lost.
    again = sqlite3.connect(path)
    assert again.execute("SELECT COUNT(*) FROM web_results").fetchone() == (3,)
    again.close()
    assert [s.played for s in WebStore(path).stats("ada")] == [1, 1]


def test_a_migration_that_fails_leaves_the_old_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The migration is one transaction: failing half-way (here, the rebuilt table refuses
    the old rows), it leaves the old table, its rows and no creator's name; opened again,
    it is done whole."""
    import sqlite3

    from ludoteca.store import web

    path = tmp_path / "old.sqlite3"
    old_database(path)
    monkeypatch.setattr(web, "RESULTS", web.RESULTS + ", CHECK (score > 100)")
    with pytest.raises(sqlite3.IntegrityError):
        WebStore(path).open()
    with sqlite3.connect(path) as kept:
        columns = [r[1] for r in kept.execute("PRAGMA table_info(web_results)")]
        assert "seat" not in columns
        assert kept.execute("SELECT COUNT(*) FROM web_results").fetchone() == (2,)
        assert kept.execute("SELECT COUNT(*) FROM web_players").fetchone() == (0,)
        tables = {r[0] for r in kept.execute("SELECT name FROM sqlite_master")}
        assert "web_results_per_seat" not in tables
    monkeypatch.undo()
    store = WebStore(path)
    assert [s.played for s in store.stats("ada")] == [1, 1]
    assert store.conn.execute("SELECT COUNT(*) FROM web_players").fetchone()[0] == 3
