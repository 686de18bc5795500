"""Saved games: JSON of game, variant, seed and moves; corrupt files are refused clearly."""

from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludoteca.core import SaveFileError, find_game
from ludoteca.core.saves import loads, parse_saved, snapshot
from ludoteca.store import files
from ludoteca.store.files import read_text, write_atomic


def _played(moves: int = 3) -> str:
    state = find_game("tappeto").new_game(seed=5)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(state.legal_moves()[0])
    return snapshot(state).dumps()


def test_save_round_trips() -> None:
    text = _played()
    saved, state = loads(text)
    assert saved.game == "tappeto" and saved.seed == 5
    assert snapshot(state).dumps() == text


def test_practice_round_trips_and_an_old_save_is_not_practice() -> None:
    """docs/architecture.md, *Practice*: a save keeps whether the game is practice
    (``"practice": true``); a file written before, without the field, is not practice."""
    saved, state = loads(_played())
    assert not saved.practice and "practice" not in json.loads(_played())
    kept = snapshot(state, ["you"], None, "id", practice=True).dumps()
    assert json.loads(kept)["practice"] is True
    again, _ = loads(kept)
    assert again.practice


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("moves"), 'the field "moves" is missing'),
        (lambda d: d.update(seed="x"), '"seed" must be an integer'),
        (lambda d: d.update(game="chess"), "no game called 'chess'"),
        # Of the file, not of the user ("tappeto has no variant 'huge'" read as if asked for).
        (
            lambda d: d.update(variant="huge"),
            "^game.json: the saved game of tappeto names variant 'huge', which tappeto does not",
        ),
        (lambda d: d.update(variant="gaps"), "names variant 'gaps', which tappeto does not have$"),
        (lambda d: d.update(format="other"), "not a ludoteca saved game"),
        (lambda d: d.update(version=99), r"version 99 is unknown \(this program reads version"),
        # It said "save format version None is unknown".
        (lambda d: d.pop("version"), r'no "version" \(this program reads version \d+\)'),
        (lambda d: d["moves"].append("KS"), "move 4 does not replay"),
        (lambda d: d["moves"].insert(0, "zz"), "move 1 does not replay: bad move 'zz'"),
        # Deal numbers are 0..2**63-1: play --load refused these, replay showed "deal -5".
        (lambda d: d.update(seed=-5), r"game.json: a deal number is 0\.\.\d+, not -5"),
        (lambda d: d.update(seed=2**70), r"a deal number is 0\.\.\d+, not 1180591620717411303424"),
        # Fields of the wrong kind are said in words, not Python's ("must be a dict").
        (lambda d: d.update(params=None), '"params" must be an object of names and values'),
        (lambda d: d.update(players="2"), '"players" must be a whole number'),
        (lambda d: d.update(game_id=3), '"game_id" must be text'),
        (
            lambda d: d.update(practice="yes"),
            'game.json: the field "practice" must be true or false$',
        ),
        # One seat a player: a game of two with one seat or none failed with an IndexError,
        # and a seat of 5 became the bot '5'.
        (lambda d: d.update(players=2, seats=["you"]), "1 seat for a game of 2 players"),
        (lambda d: d.update(seats=["you", "greedy"]), "2 seats for a game of 1 player$"),
        (lambda d: d.update(seats=[5]), "every seat must be text: 'you' or a bot's name"),
    ],
)
def test_corrupt_saves_are_refused_with_a_reason(mutate, message) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(_played())
    mutate(data)
    with pytest.raises(SaveFileError, match=message):
        loads(json.dumps(data), "game.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, r"game\.json: not a saved game \(lists nested too deep\)$"),
        (
            '{"seed": ' + "9" * 5000 + "}",
            r"game\.json: not a saved game \(a number far too long\)$",
        ),
    ],
)
def test_json_beyond_what_is_read_is_a_clear_error(text: str, message: str) -> None:
    """Non-negotiable: a corrupt save gets a one-line message. These two ended the program
    with Python's RecursionError and ValueError."""
    with pytest.raises(SaveFileError, match=message):
        parse_saved(text, "game.json")


@given(st.text(max_size=200))
def test_any_text_is_a_save_or_a_clear_error(text: str) -> None:
    try:
        parse_saved(text)
    except SaveFileError as err:
        assert str(err).startswith("save: ")


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    write_atomic(target, "old")

    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert read_text(target) == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def _aged(path: Path, seconds: float) -> Path:
    path.write_text("half a save")
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_save_removes_the_old_temporary_files_a_kill_left_beside_it(tmp_path: Path) -> None:
    """A SIGKILL between the temporary file's making and its rename left it there for good,
    hidden: a later save of the same file removes those older than STALE_AFTER, and keeps a
    younger one (another process's save in flight) and those of other files."""
    target = tmp_path / "game.json"
    stale = _aged(tmp_path / ".game.json.k3x_9qzb.tmp", files.STALE_AFTER + 60)
    fresh = _aged(tmp_path / ".game.json.p0w2aa7m.tmp", 60)
    other = _aged(tmp_path / ".game.json.bak.r8t1c4de.tmp", files.STALE_AFTER + 60)

    write_atomic(target, "new")

    assert not stale.exists()
    assert fresh.exists() and other.exists() and read_text(target) == "new"


def test_a_leftover_that_cannot_be_removed_does_not_fail_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "game.json"
    stale = _aged(tmp_path / ".game.json.k3x_9qzb.tmp", files.STALE_AFTER + 60)

    def refuse(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "unlink", refuse)
    write_atomic(target, "new")

    assert stale.exists() and read_text(target) == "new"


def test_a_saved_game_gets_the_mode_a_plain_write_would_give(tmp_path: Path) -> None:
    """Saves went through a temporary file readable by its owner alone (0600) and kept that
    mode; now a new save gets what the umask leaves of 0666, and a save over an old file
    keeps the old file's mode."""
    mask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        write_atomic(fresh, "{}")
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
        kept = tmp_path / "kept.json"
        kept.write_text("old")
        kept.chmod(0o640)
        write_atomic(kept, "new")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and read_text(kept) == "new"
    finally:
        os.umask(mask)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="no such file"):
        read_text(tmp_path / "nope.json")


def test_a_folder_named_as_a_file_is_said_so(tmp_path: Path) -> None:
    """``replay adir.json`` of a folder said Python's "adir.json: Is a directory"; it says
    what the file should have been, as ``save .`` says it of a folder."""
    folder = tmp_path / "adir.json"
    folder.mkdir()
    with pytest.raises(SaveFileError) as raised:
        read_text(folder)
    assert str(raised.value) == f"{folder} is a folder, not a saved game"
    with pytest.raises(SaveFileError, match=r"is a folder, not a file of positions$"):
        read_text(folder, "a file of positions")


def test_a_variant_named_in_any_case_still_loads() -> None:
    """The check of a save's variant reads it as ``-v`` does, in any case."""
    data = json.loads(_played())
    data["variant"] = data["variant"].upper()
    assert loads(json.dumps(data))[1].variant.name == json.loads(_played())["variant"]


def test_a_save_cut_short_says_where_in_one_line() -> None:
    """A save cut short read "Unterminated string starting at at line 24"."""
    with pytest.raises(SaveFileError) as raised:
        loads(_played()[:-30], "game.json")
    message = str(raised.value)
    assert " at at " not in message and "\n" not in message
    assert re.search(r"game\.json: not JSON \(.+: line \d+ column \d+\)$", message), message
