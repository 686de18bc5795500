"""``ludoteca.solvers.warm`` (run by ``scripts/bootstrap.sh``) compiles every kernel that a
player's or a researcher's first call would otherwise compile: on a fresh install the first
Gaps hint took about 25 s against its budget of 2 s, while Numba compiled the search."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FIRST_CALLS = """
import importlib, pkgutil
import ludoteca.solvers as package
from numba.core.registry import CPUDispatcher
from ludoteca.core import find_game
from ludoteca.core.rng import DealRng
from ludoteca.hints import hint_for
from ludoteca.solvers.base import find_solver

# What people call first: a hint in every variant, a timed solve that reaches the second
# thread, a solve under a state limit, and the study policy with and without redeals.
for name in ("gaps", "acme", "tappeto", "muro", "mosaico"):
    spec = find_game(name)
    for variant in spec.variants:
        hint_for(spec.new_game(variant, seed=7), 0, 0.5)
        find_solver(name).solve(spec.new_game(variant, seed=7), 5000)
gaps = find_game("gaps")
entry = find_solver("gaps")
entry.solve_timed(gaps.new_game("no-redeal", seed=150), None, 3.0, 1 << 24)
for variant in gaps.variants:
    entry.policies["solver"](gaps.new_game(variant, seed=3), 20000, DealRng(3, "test"))
from ludoteca.solvers.gaps import fast
from ludoteca.solvers.gaps.line import board_of
fast.novel(board_of(gaps.new_game("no-redeal", seed=40)), max_states=1000)
compiled, loaded_from_cache = [], []
for module in pkgutil.walk_packages(package.__path__, "ludoteca.solvers."):
    loaded = importlib.import_module(module.name)
    for name, value in vars(loaded).items():
        if isinstance(value, CPUDispatcher) and value.__module__ == loaded.__name__:
            if sum(value.stats.cache_misses.values()):
                compiled.append(f"{loaded.__name__}.{name}")
            if sum(value.stats.cache_hits.values()):
                loaded_from_cache.append(f"{loaded.__name__}.{name}")
print("compiled:", " ".join(compiled))
print("cached:", " ".join(loaded_from_cache))
"""


def test_warming_compiles_every_kernel_the_first_calls_need(tmp_path: Path) -> None:
    """With an empty cache, ``python -m ludoteca.solvers.warm``; then, in a new process,
    the calls players and studies make first must find every kernel in the cache: Numba
    counts a miss for each one it compiles, and a hit for each one it loads."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    warmed = subprocess.run(
        [sys.executable, "-m", "ludoteca.solvers.warm"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert warmed.returncode == 0, warmed.stderr
    assert "solvers compiled and cached" in warmed.stderr
    after = subprocess.run(
        [sys.executable, "-c", FIRST_CALLS],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert after.returncode == 0, after.stderr
    compiled, cached = after.stdout.splitlines()
    assert compiled.strip() == "compiled:", after.stdout
    # The check sees the kernels: the searches were loaded from the cache, not skipped.
    for kernel in (
        "gaps.kernel.search",
        "gaps.beam.beam",
        "gaps.novelty.search",
        "gaps.nested.search",
        "_muro_kernel.search",
        "_mosaico_kernel.search",
        "_acme_kernel.solve",
    ):
        assert f"ludoteca.solvers.{kernel}" in cached, (kernel, cached)


def test_warming_forgets_the_old_machine_code_first(tmp_path: Path) -> None:
    """Numba checks a cached kernel only against its own file: ``kernel.search`` cached
    before a change to ``compiled_analysis.py`` alone loaded the old analysis with it (seen
    in the session of 2026-11-26: a changed analysis gave the old node counts until the
    caches were deleted). So warming deletes the solvers' cache files first, and only
    those. Here Numba itself caches a kernel of a small package, beside its sources and
    under ``NUMBA_CACHE_DIR``, and the files it wrote are the ones deleted."""
    from ludoteca.solvers.warm import compiled_cache, forget_compiled

    package = tmp_path / "kernels"
    (package / "inner").mkdir(parents=True)
    (package / "inner" / "twice.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    call = "import sys; sys.path.insert(0, sys.argv[1]); import twice; print(twice.twice(21))"

    def compile_it(env: dict[str, str]) -> None:
        done = subprocess.run(
            [sys.executable, "-c", call, str(package / "inner")],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.stdout.strip() == "42", done.stderr

    def numba_files() -> list[str]:
        return sorted(p.name for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc"))

    plain = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    compile_it(plain)
    assert len(numba_files()) == 2  # an index and the machine code, in __pycache__
    (package / "inner" / "__pycache__" / "keep.pyc").write_bytes(b"x")
    assert forget_compiled(compiled_cache(package, None)) == 2
    assert numba_files() == []
    assert (package / "inner" / "__pycache__" / "keep.pyc").exists()
    assert (package / "inner" / "twice.py").exists()
    elsewhere = str(tmp_path / "numba-cache")
    compile_it({**plain, "NUMBA_CACHE_DIR": elsewhere})
    assert len(numba_files()) == 2
    assert forget_compiled(compiled_cache(package, elsewhere)) == 2
    assert numba_files() == []
