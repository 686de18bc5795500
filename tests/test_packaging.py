"""What a built package carries: the rules documents, which live in ``docs/rules/`` only."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

from ludoteca.rules_docs import PLAYERS_END

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("acme", "domino", "gaps", "mosaico", "muro", "scalafrutta", "tappeto")
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
)


def backend(hook: str, source: Path, out: Path) -> Path:
    """Call setuptools' build hook (``build_sdist``, ``build_wheel``) in ``source``: offline,
    with the setuptools of this environment, as ``pip wheel --no-build-isolation`` would."""
    out.mkdir()
    code = f"import sys; from setuptools import build_meta; build_meta.{hook}(sys.argv[1])"
    result = subprocess.run(
        [sys.executable, "-c", code, str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (built,) = out.iterdir()
    return built


@pytest.mark.slow
def test_a_wheel_built_from_the_sdist_carries_the_rules_and_finds_them(tmp_path: Path) -> None:
    """No folder src/ludoteca/rules/ exists, so the package data's ``rules/*.md`` took
    nothing: an installed ludoteca said the rules of every game were not installed."""
    found = version("setuptools")
    assert int(found.split(".")[0]) >= 77, f"setuptools {found}: scripts/bootstrap.sh updates it"
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT, checkout, ignore=LEFT_OUT)
    sdist = backend("build_sdist", checkout, tmp_path / "sdist")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    wheel = backend("build_wheel", unpacked, tmp_path / "wheel")

    docs = {game: (ROOT / "docs" / "rules" / f"{game}.md").read_text("utf-8") for game in GAMES}
    with zipfile.ZipFile(wheel) as archive:
        carried = sorted(n for n in archive.namelist() if n.startswith("ludoteca/rules/"))
        assert carried == [f"ludoteca/rules/{game}.md" for game in GAMES]
        for game in GAMES:
            assert archive.read(f"ludoteca/rules/{game}.md").decode("utf-8") == docs[game]
        site = tmp_path / "installed" / "site-packages"
        archive.extractall(site)

    # The unpacked wheel alone, from a folder with no docs/ near it or above the package.
    code = (
        "import ludoteca, sys\n"
        "from ludoteca.core.registry import find_game\n"
        "from ludoteca.rules_docs import players_part\n"
        "print(ludoteca.__file__)\n"
        "for game in sys.argv[1:]:\n"
        "    found = players_part(find_game(game))\n"
        "    print(game, found and len(found[0]))\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [sys.executable, "-c", code, *GAMES],
        cwd=elsewhere,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    where, *found = result.stdout.splitlines()
    assert Path(where).is_relative_to(site)
    players = {game: docs[game].partition(PLAYERS_END)[0] for game in GAMES}
    assert found == [f"{game} {len(players[game])}" for game in GAMES]
