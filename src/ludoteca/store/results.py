"""Study results (one row per deal, so a study resumes) and finished-game statistics."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ludoteca.store.db import add_schema


@add_schema
def _create(connection: sqlite3.Connection) -> None:
    connection.executescript(
        """
        CREATE TABLE IF NOT EXISTS studies (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            variant TEXT NOT NULL,
            policy TEXT NOT NULL,
            first_seed INTEGER NOT NULL,
            max_states INTEGER NOT NULL,  -- 0: no limit (NULLs would defeat UNIQUE)
            created REAL NOT NULL,
            UNIQUE (game, variant, policy, first_seed, max_states)
        );
        CREATE TABLE IF NOT EXISTS study_deals (
            study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
            seed INTEGER NOT NULL,
            won INTEGER,
            score REAL NOT NULL,
            states INTEGER NOT NULL,
            seconds REAL NOT NULL,
            PRIMARY KEY (study_id, seed)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS finished_games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            variant TEXT NOT NULL,
            seed INTEGER,
            won INTEGER NOT NULL,
            score REAL NOT NULL,
            moves INTEGER NOT NULL,
            details TEXT NOT NULL,
            source TEXT NOT NULL,
            finished REAL NOT NULL
        );
        CREATE INDEX IF NOT EXISTS finished_by_game ON finished_games (game, variant);
        """
    )
    # A database made before games had an id gets the column; its older results have none.
    columns = {row[1] for row in connection.execute("PRAGMA table_info(finished_games)")}
    if "game_id" not in columns:
        try:
            connection.execute("ALTER TABLE finished_games ADD COLUMN game_id TEXT")
        except sqlite3.OperationalError as err:  # another connection added it meanwhile
            if "duplicate column" not in str(err):
                raise
    # One result a game (NULLs, results without an id, do not collide).
    connection.execute(
        "CREATE UNIQUE INDEX IF NOT EXISTS finished_once ON finished_games (game_id)"
    )


@dataclass(frozen=True)
class DealRow:
    seed: int
    won: bool | None
    score: float
    states: int
    seconds: float


def study_id(
    connection: sqlite3.Connection,
    game: str,
    variant: str,
    policy: str,
    first_seed: int,
    max_states: int | None,
    stored_as_none: bool = False,
) -> int:
    """The id of this study, created if new: the same settings resume the same study.
    ``stored_as_none``: the study may have been stored with no limit (0) though its searches
    ran under ``max_states``, as every study but Gaps' was before the limit was stored; such a
    study takes its limit now, and resumes."""
    limit = max_states or 0
    with connection:
        if stored_as_none and limit:
            _fold_in(connection, (game, variant, policy, first_seed), limit)
        connection.execute(
            "INSERT OR IGNORE INTO studies (game, variant, policy, first_seed, max_states, created)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game, variant, policy, first_seed, limit, time.time()),
        )
    row = connection.execute(
        "SELECT id FROM studies WHERE game=? AND variant=? AND policy=? AND first_seed=?"
        " AND max_states=?",
        (game, variant, policy, first_seed, limit),
    ).fetchone()
    return int(row["id"])


def _fold_in(connection: sqlite3.Connection, settings: tuple[Any, ...], limit: int) -> None:
    """The same study stored with no limit takes ``limit`` (and keeps its id); where one
    with ``limit`` is stored too (a study run with and without ``--max-states`` before),
    its deals move there and it goes: it was left beside it, listed twice."""
    where = "game=? AND variant=? AND policy=? AND first_seed=? AND max_states=?"
    old = connection.execute(f"SELECT id FROM studies WHERE {where}", (*settings, 0)).fetchone()
    if old is None:
        return
    new = connection.execute(f"SELECT id FROM studies WHERE {where}", (*settings, limit)).fetchone()
    if new is None:
        connection.execute("UPDATE studies SET max_states=? WHERE id=?", (limit, old["id"]))
        return
    connection.execute(
        "INSERT OR IGNORE INTO study_deals (study_id, seed, won, score, states, seconds)"
        " SELECT ?, seed, won, score, states, seconds FROM study_deals WHERE study_id=?",
        (new["id"], old["id"]),
    )
    connection.execute("DELETE FROM study_deals WHERE study_id=?", (old["id"],))
    connection.execute("DELETE FROM studies WHERE id=?", (old["id"],))


def done_seeds(connection: sqlite3.Connection, study: int) -> set[int]:
    rows = connection.execute("SELECT seed FROM study_deals WHERE study_id=?", (study,))
    return {int(r["seed"]) for r in rows}


def add_deals(connection: sqlite3.Connection, study: int, deals: Iterable[DealRow]) -> None:
    with connection:
        connection.executemany(
            "INSERT OR REPLACE INTO study_deals (study_id, seed, won, score, states, seconds)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (study, d.seed, None if d.won is None else int(d.won), d.score, d.states, d.seconds)
                for d in deals
            ],
        )


@dataclass(frozen=True)
class StudyFigures:
    deals: int
    won: int
    unknown: int
    mean_score: float | None
    states: int
    median_seconds: float | None
    slowest_seconds: float | None


def figures(connection: sqlite3.Connection, study: int, seeds: range) -> StudyFigures:
    """A study's totals over ``seeds`` (consecutive), counted by SQLite (a million rows never
    leave it). The last seed bounds them, not ``seeds.stop``: after the last deal number,
    2**63 - 1, it is no SQLite integer."""
    where = "FROM study_deals WHERE study_id=? AND seed >= ? AND seed <= ?"
    args = (study, seeds.start, seeds.stop - 1)
    row = connection.execute(
        "SELECT COUNT(*) AS deals, COALESCE(SUM(won = 1), 0) AS won,"
        " COALESCE(SUM(won IS NULL), 0) AS unknown, AVG(score) AS mean_score,"
        f" COALESCE(SUM(states), 0) AS states, MAX(seconds) AS slowest {where}",
        args,
    ).fetchone()
    median = connection.execute(
        f"SELECT seconds {where} ORDER BY seconds LIMIT 1 OFFSET ?", (*args, row["deals"] // 2)
    ).fetchone()
    return StudyFigures(
        int(row["deals"]),
        int(row["won"]),
        int(row["unknown"]),
        row["mean_score"],
        int(row["states"]),
        None if median is None else float(median["seconds"]),
        row["slowest"],
    )


def list_studies(connection: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = connection.execute(
        """
        SELECT s.id AS study_id, s.game, s.variant, s.policy, s.first_seed, s.max_states,
               s.created,
               COUNT(d.seed) AS deals, COALESCE(SUM(d.won = 1), 0) AS won,
               COALESCE(SUM(d.won IS NULL AND d.seed IS NOT NULL), 0) AS unknown
        FROM studies s LEFT JOIN study_deals d ON d.study_id = s.id
        GROUP BY s.id ORDER BY s.game, s.variant, s.policy, s.id
        """
    )
    return [{**dict(r), "max_states": r["max_states"] or None} for r in rows]


def record_finished(
    connection: sqlite3.Connection,
    game: str,
    variant: str,
    seed: int | None,
    won: bool,
    score: float,
    moves: int,
    details: dict[str, Any],
    source: str,
    game_id: str | None = None,
) -> bool:
    """Store a finished game; False (and nothing stored) if the game ``game_id`` was stored
    already: it ended before, was saved before its end, and ended again from the save."""
    with connection:
        cursor = connection.execute(
            # Only a game stored already is passed over: any other failure still fails.
            "INSERT INTO finished_games"
            " (game, variant, seed, won, score, moves, details, source, finished, game_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (
                game,
                variant,
                seed,
                int(won),
                score,
                moves,
                json.dumps(details),
                source,
                time.time(),
                game_id,
            ),
        )
    return cursor.rowcount == 1


def game_statistics(connection: sqlite3.Connection) -> list[dict[str, Any]]:
    """Per game and variant: played, won, best score, streaks, and redeals used."""
    rows = connection.execute(
        "SELECT game, variant, won, score, details FROM finished_games ORDER BY id"
    ).fetchall()
    return [stats.as_json() for stats in statistics(rows)]


def statistics(rows: Iterable[sqlite3.Row]) -> list[Stats]:
    """Finished games (``game``, ``variant``, ``won``, ``score``, ``details`` as JSON; oldest
    first) summed up per game and variant: the terminal's and the web's results alike."""
    grouped: dict[tuple[str, str], list[tuple[bool, float]]] = {}
    redeals: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row["game"], row["variant"])
        grouped.setdefault(key, []).append((bool(row["won"]), float(row["score"])))
        used = int(json.loads(row["details"]).get("redeals_used", 0))
        redeals[key] = redeals.get(key, 0) + used
    return [
        summarize(game, variant, results, redeals[(game, variant)])
        for (game, variant), results in grouped.items()
    ]


@dataclass(frozen=True)
class Stats:
    game: str
    variant: str
    played: int
    won: int
    best_score: float
    streak: int
    """Wins (positive) or losses (negative) in a row, ending with the latest game."""
    best_streak: int
    redeals_used: int = 0
    """Redeals used over all these games (Gaps and Addiction keep them)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "played": self.played,
            "won": self.won,
            "best_score": self.best_score,
            "streak": self.streak,
            "best_streak": self.best_streak,
            "redeals_used": self.redeals_used,
        }


def summarize(
    game: str, variant: str, results: list[tuple[bool, float]], redeals_used: int = 0
) -> Stats:
    """Played, won, best score and streaks of one game and variant, results oldest first;
    ``redeals_used``: their redeals in all."""
    streak = best = 0
    for won, _ in results:
        # A win extends a winning streak or starts one; a loss likewise, counted negative.
        step = 1 if won else -1
        streak = streak + step if streak * step > 0 else step
        best = max(best, streak)
    return Stats(
        game=game,
        variant=variant,
        played=len(results),
        won=sum(1 for won, _ in results if won),
        best_score=max(score for _, score in results),
        streak=streak,
        best_streak=best,
        redeals_used=redeals_used,
    )
