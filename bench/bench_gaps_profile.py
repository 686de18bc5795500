"""Where the Gaps solver's time goes: the share of each compiled function in one exact search.

Runs one reduced search of a no-redeal deal (``fast.search``, no limit unless
``--max-states``) under Linux ``perf record``, then counts the samples that fall in each
function of the compiled search. Numba's code is JIT code that perf cannot name, so the
names come from the object code Numba keeps in its cache (``scripts/bootstrap.sh`` compiles
and caches the solver), placed where the search's entry point was loaded. A function Numba
compiled for literal arguments (``_widen`` with ``held`` -1, the plain analysis, beside
``_widen`` with a card held) is listed once per specialisation. Needs ``perf`` (Debian:
``linux-perf``) and ``nm`` (binutils); perf must be allowed to sample the process.

    .venv/bin/python bench/bench_gaps_profile.py --seed 4
"""

from __future__ import annotations

import argparse
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from benchkit import Parser, run, whole
from ludoteca.core.rng import MAX_DEAL
from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import fast, kernel
from ludoteca.solvers.gaps.line import board_of

ELF = b"\x7fELF"


class Symbol(NamedTuple):
    start: int
    size: int
    name: str


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=whole(0), default=4, help="the deal (no-redeal)")
    parser.add_argument(
        "--max-states", type=whole(1), help="stop the search there (default: no limit)"
    )
    parser.add_argument("--frequency", type=whole(1), default=4000, help="samples a second")
    parser.add_argument("--top", type=whole(1), default=20, help="functions listed")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the run under perf
    args = parser.parse_args()
    if args.seed > MAX_DEAL:
        parser.error(f"argument --seed: deal numbers are 0..{MAX_DEAL}, not {args.seed}")
    if args.child:
        searched(args.seed, args.max_states, Path(args.child))
        return
    tools = {tool: shutil.which(tool) for tool in ("perf", "nm")}
    missing = [tool for tool, path in tools.items() if path is None]
    if missing:
        parser.error(f"needs {' and '.join(missing)} on the PATH (Debian: linux-perf, binutils)")
    with tempfile.TemporaryDirectory() as folder:
        profile(Path(folder), args, str(tools["perf"]), str(tools["nm"]))


def profile(folder: Path, args: argparse.Namespace, perf: str, nm: str) -> None:
    data = folder / "perf.data"
    child = [sys.executable, __file__, "--seed", str(args.seed), "--child", str(folder)]
    if args.max_states:
        child += ["--max-states", str(args.max_states)]
    record = [perf, "record", "-q", "-F", str(args.frequency), "-o", str(data), "--", *child]
    done = subprocess.run(record, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (folder / "entry").exists():
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"bench_gaps_profile.py: error: perf record failed: {said}")
    print(done.stdout.strip())
    script = [perf, "script", "-i", str(data), "-F", "ip"]
    ips = [
        int(word, 16)
        for word in subprocess.run(
            script, capture_output=True, text=True, check=True
        ).stdout.split()
    ]
    wrapper, address = (folder / "entry").read_text().split()
    symbols = read_symbols(nm, folder / "search.o")
    base = int(address) - next(s.start for s in symbols if s.name == wrapper)
    shares = Counter(attributed(ips, symbols, base))
    inside = sum(count for name, count in shares.items() if name)
    if not ips:
        sys.exit("bench_gaps_profile.py: error: perf took no samples of the search")
    print(
        f"{len(ips):,} samples at {args.frequency:,} a second; {inside:,} "
        f"({100 * inside / len(ips):.1f} %) in the compiled search, the rest in Python, "
        "its libraries and the system"
    )
    labels = labelled([name for name in shares if name])
    for name, count in sorted(((n, c) for n, c in shares.items() if n), key=lambda item: -item[1])[
        : args.top
    ]:
        print(f"{100 * count / inside:5.1f} %  {labels[name]}")


def searched(seed: int, max_states: int | None, folder: Path) -> None:
    """The child, under perf: load the compiled search, say where its entry point is and
    write its object code, then run the search that is measured."""
    game = SPEC.new_game("no-redeal", seed)
    assert isinstance(game, GapsState)
    board = board_of(game)
    fast.search(board, 1000, reduce=True)  # load the compiled kernels before the search
    overloads: list[Any] = list(kernel.search.overloads.values())
    wrapper = overloads[-1].fndesc.llvm_cpython_wrapper_name
    address = overloads[-1].library.get_pointer_to_function(wrapper)
    (folder / "search.o").write_bytes(object_code(wrapper))
    began = time.thread_time()
    answer = fast.search(board, max_states, reduce=True)
    took = time.thread_time() - began
    verdict = {True: "won", False: "not winnable", None: "undecided"}[answer.winnable]
    limit = "no limit" if max_states is None else f"at most {max_states:,} nodes"
    print(f"seed {seed}: {verdict}, {answer.states:,} nodes in {took:.2f} s (one search, {limit})")
    (folder / "entry").write_text(f"{wrapper} {address}\n")


def object_code(wrapper: str) -> bytes:
    """The object code of the compiled search from Numba's cache: the ELF file among the
    cache's entries for ``kernel.search`` that defines ``wrapper``, the newest first (an
    entry of an older source can stay beside it under the same wrapper name)."""
    cache = Path(getattr(kernel.search, "_cache")._cache_path)  # noqa: B009 (Numba's own)
    entries = cache.glob("kernel.search-*.nbc")
    for entry in sorted(entries, key=lambda path: path.stat().st_mtime, reverse=True):
        for blob in blobs(pickle.loads(entry.read_bytes())):
            if blob.startswith(ELF) and wrapper.encode() in blob:
                return blob
    sys.exit(
        "bench_gaps_profile.py: error: the compiled search is not in Numba's cache "
        f"({cache}); scripts/bootstrap.sh compiles and caches it"
    )


def blobs(value: object, depth: int = 0) -> list[bytes]:
    """Every bytes object inside a cache entry (tuples, lists and dicts, a few levels)."""
    if isinstance(value, bytes | bytearray):
        return [bytes(value)]
    if depth > 8:
        return []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, tuple | list):
        return [blob for item in value for blob in blobs(item, depth + 1)]
    return []


def read_symbols(nm: str, path: Path) -> list[Symbol]:
    listed = subprocess.run(
        [nm, "-S", "--defined-only", str(path)], capture_output=True, text=True, check=True
    ).stdout
    symbols = []
    for line in listed.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            symbols.append(Symbol(int(parts[0], 16), int(parts[1], 16), parts[3]))
    return sorted(symbols)


def attributed(ips: list[int], symbols: list[Symbol], base: int) -> list[str]:
    """The symbol each sample's address falls in ("" outside the search's object code)."""
    names = []
    for ip in ips:
        offset = ip - base
        hit = next((s.name for s in symbols if s.start <= offset < s.start + s.size), "")
        names.append(hit)
    return names


def labelled(names: list[str]) -> dict[str, str]:
    """Readable names for mangled ones: module.function, with the literal arguments a
    specialisation was compiled for, and a number where two would read the same."""
    labels: dict[str, str] = {}
    seen: Counter[str] = Counter()
    for name in sorted(names):
        parts = []
        rest = name[3:] if name.startswith("_ZN") else name
        while rest[:1].isdigit():
            digits = re.match(r"\d+", rest)
            assert digits is not None
            length = int(digits.group())
            parts.append(rest[len(digits.group()) : len(digits.group()) + length])
            rest = rest[len(digits.group()) + length :]
        text = ".".join(parts[-2:]) or name
        if parts[:1] == ["cpython"]:
            text += " (the entry from Python)"
        literals = [
            re.sub(r"_([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), found)
            for found in re.findall(r"Literal_5bint_5d_28[0-9a-z_]*?_29", name)
        ]
        if literals:
            values = ", ".join(lit.split("(")[1].rstrip(")") for lit in literals)
            text += f" [literal arguments {values}]"
        seen[text] += 1
        labels[name] = text if seen[text] == 1 else f"{text} #{seen[text]}"
    return labels


if __name__ == "__main__":
    run(main)
