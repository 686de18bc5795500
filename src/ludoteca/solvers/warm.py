"""Compile the solvers' kernels once, at install time (``scripts/bootstrap.sh``).

Numba compiles a kernel the first time it is called and keeps the machine code in
``__pycache__`` beside the sources (``cache=True``). On a fresh install that first call was
the player's first hint: about 25 s for Gaps, 5-8 s for Il Muro and Mosaico, against a
budget of 2 s. This module runs every solver's paths (a solve under a state limit and under
a time budget, a hint, each study policy, each batch policy) on one small deal of every
variant, so that each kernel is compiled and cached before anyone waits on it. Later processes
load the cached code (0.3-1.8 s a game): ``play`` at a terminal and ``serve`` do that in the
background as they start (:func:`ludoteca.hints.load_in_background`), not in the first hint.

``python -m ludoteca.solvers.warm`` runs it; the work is thrown away, only the caches stay.
It first deletes the solvers' cached machine code (:func:`forget_compiled`): Numba checks a
cached kernel only against its own source file, so a kernel whose callee in another file
changed (``kernel.search`` calls the analysis of ``compiled_analysis.py``) would load the
old machine code, callee and all, and a change to the analysis alone would not take effect.
``scripts/bootstrap.sh`` runs this module exactly when a solver's source changed.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from numba.core.caching import UserProvidedCacheLocator, UserWideCacheLocator
from numba.misc.appdirs import AppDirs

import ludoteca.solvers as solvers_package
from ludoteca.core.registry import all_games
from ludoteca.core.rng import DealRng
from ludoteca.solvers.base import find_solver, has_solver

WARM_STATES = 2_000
"""State limit of the warming solves: enough to reach every kernel, little work."""

WARM_SECONDS = 3.0
"""Budget of the warming timed solve: long enough for Gaps to reach its second thread (the
search alone runs 2 s, then two searches share a table)."""

WARM_MEMORY = 1 << 24
"""Table of the warming timed solve: 16 MiB, the smallest a timed Gaps search makes."""

TIMED_SEED = 290
"""A Gaps deal that stays open for minutes, so the timed solve reaches the pair of searches
(the novelty search beside the search alone it may not reach: see ``SolverEntry.warm``)."""


def warm(say: Callable[[str], None] = lambda line: None) -> float:
    """Call every solver path once per variant; returns the seconds it took."""
    began = time.perf_counter()
    for spec in all_games():
        if not has_solver(spec.name):
            continue
        entry = find_solver(spec.name)
        say(f"compiling the {spec.name} solver")
        for variant in spec.variants:
            state = spec.new_game(variant, seed=1)
            entry.solve(state, WARM_STATES)
            if entry.hint is not None:
                entry.hint(spec.new_game(variant, seed=1), 0.2)
            for policy in entry.policies.values():
                policy(spec.new_game(variant, seed=1), WARM_STATES, DealRng(1, "warm"))
            for batch in entry.batch_policies.values():
                batch(variant, [1, 2], WARM_STATES)
        if entry.solve_timed is not None:
            deal = spec.new_game(None, seed=TIMED_SEED)
            entry.solve_timed(deal, None, WARM_SECONDS, WARM_MEMORY)
        if entry.warm is not None:
            entry.warm()
    return time.perf_counter() - began


def fresh_compiled_code() -> bool:
    """Whether Numba holds machine code, fresh for its sources, for the solvers' and the
    bots' compiled functions: some function's cache index holds code, and no index on disk
    is stale (an older source, another Numba). Functions called only from compiled code
    have no index of their own. Reads Numba's cache index as Numba itself does (its cache
    object's index file), which no public call offers; any surprise there answers no."""
    found = False
    try:
        for dispatcher in compiled_functions():
            index = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
            if index is None or not os.path.exists(index._index_path):
                continue
            if not index._load_index():
                return False
            found = True
    except Exception:  # (Numba's internals moved: answer no, and nothing is loaded early)
        return False
    return found


def compiled_functions() -> list[Any]:
    """Every compiled function of the solvers and bots (their modules imported)."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import ludoteca.bots as bots_package

    found = []
    for root in (solvers_package, bots_package):
        for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
            module = importlib.import_module(info.name)
            found += [
                value
                for value in vars(module).values()
                if isinstance(value, CPUDispatcher) and value.__module__ == module.__name__
            ]
    return found


def compiled_cache(package: Path, cache_dir: str | None) -> list[Path]:
    """The folders where Numba may keep the machine code of the kernels under
    ``package``, one per source folder, as Numba's own cache locators place them: under
    ``NUMBA_CACHE_DIR`` (``cache_dir``) when it is set, else beside the sources in their
    ``__pycache__``, or in the user's cache when that is not writable."""
    folders = sorted({source.parent for source in package.rglob("*.py")})
    if cache_dir:
        return [Path(cache_dir) / _subpath(UserProvidedCacheLocator, f) for f in folders]
    user = Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)  # type: ignore[no-untyped-call]
    return [f / "__pycache__" for f in folders] + [
        user / _subpath(UserWideCacheLocator, f) for f in folders
    ]


def _subpath(locator: Any, folder: Path) -> str:
    """The folder a Numba locator gives the sources of ``folder`` in its cache."""
    subpath: str = locator.get_suitable_cache_subpath(str(folder / "source.py"))
    return subpath


def forget_compiled(folders: list[Path]) -> int:
    """Delete Numba's cache files (``*.nbi`` indexes, ``*.nbc`` machine code) in
    ``folders``, nothing else; returns how many were deleted."""
    gone = 0
    for folder in folders:
        for pattern in ("*.nbi", "*.nbc"):
            for path in folder.glob(pattern):
                path.unlink(missing_ok=True)
                gone += 1
    return gone


def main() -> None:
    package = Path(solvers_package.__file__).parent
    forget_compiled(compiled_cache(package, os.environ.get("NUMBA_CACHE_DIR")))
    spent = warm(lambda line: print(line, file=sys.stderr, flush=True))
    print(f"solvers compiled and cached in {spent:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
