"""Studies: seeded, resumable, and honest about deals a solver could not decide."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ludoteca.core import UnknownGameError
from ludoteca.store import db
from ludoteca.store.results import list_studies
from ludoteca.studies.runner import StudyPlan, run_study
from ludoteca.studies.stats import wilson


def test_wilson_matches_the_formula() -> None:
    low, high = wilson(25, 100)
    z = 1.959963984540054
    p, n = 0.25, 100
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert wilson(0, 0) == (0.0, 1.0)


def _connect(path: Path) -> sqlite3.Connection:
    return db.connect(path)


def test_a_study_resumes_instead_of_replaying(private_database: Path) -> None:
    plan = StudyPlan("tappeto", None, {}, "random", 30)
    with _connect(private_database) as connection:
        first = run_study(plan, connection).as_json()
        seen: list[int] = []
        again = run_study(plan, connection, lambda done, total: seen.append(done)).as_json()
        assert seen == [30], "a finished study plays nothing again"
        assert {k: first[k] for k in ("won", "deals", "rate")} == {
            k: again[k] for k in ("won", "deals", "rate")
        }
        longer = run_study(StudyPlan("tappeto", None, {}, "random", 40), connection).as_json()
        assert longer["deals"] == 40
        assert [s["deals"] for s in list_studies(connection)] == [40]


def test_parallel_jobs_give_the_same_answer(private_database: Path) -> None:
    with _connect(private_database) as connection:
        one = run_study(StudyPlan("tappeto", None, {}, "greedy", 40, 100), connection).as_json()
    with _connect(private_database.with_name("other.sqlite3")) as connection:
        two = run_study(
            StudyPlan("tappeto", None, {}, "greedy", 40, 100, jobs=2), connection
        ).as_json()
    assert one["won"] == two["won"] and one["mean_score"] == two["mean_score"]


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (StudyPlan("tappeto", None, {}, "psychic", 5), "no policy 'psychic'"),
        (StudyPlan("tappeto", None, {}, "random", 0), "at least 1"),
        (StudyPlan("tappeto", "mini", {}, "random", 5), "no variant 'mini'"),
        (StudyPlan("tappeto", None, {"rows": "x"}, "random", 5), "needs a whole number"),
    ],
)
def test_bad_plans_are_refused(plan: StudyPlan, message: str, private_database: Path) -> None:
    with _connect(private_database) as connection, pytest.raises(UnknownGameError, match=message):
        run_study(plan, connection)
