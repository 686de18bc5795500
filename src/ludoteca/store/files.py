"""Files written so that a crash never leaves half of one: temp file, fsync, rename; a write
also removes the temporary files that killed writes of the same file left behind."""

from __future__ import annotations

import glob
import os
import re
import stat
import tempfile
import time
from pathlib import Path

from ludoteca.core.errors import SaveFileError

STALE_AFTER = 600.0
"""Seconds after its last change that a temporary file of :func:`write_atomic` is taken for
one a killed write left behind: a younger one may be another process's write in flight."""


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once; the old file survives any failure."""
    path = path.expanduser()
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise SaveFileError(f"{path}: the folder {directory} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as err:
        # The new text goes into a file of its own first: a folder that takes no new file
        # (/proc, a read-only one) refuses that one, whose name says nothing to the reader.
        reason = err.strerror or str(err)
        raise SaveFileError(f"{path}: cannot make a new file in {directory} ({reason})") from None
    try:
        # A temporary file is made readable by its owner alone; the file it becomes gets the
        # mode a plain write would give it: the old file's, or what the umask leaves.
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _tidy(directory, path.name)


def _tidy(directory: Path, name: str) -> None:
    """Remove the temporary files of earlier writes of ``name`` that a SIGKILL (or a power
    cut) between their making and their rename left beside it, once :data:`STALE_AFTER` old;
    one that cannot be removed stays, and the write that found it has succeeded all the same."""
    # mkstemp's names: the prefix, 8 letters, digits or underscores, the suffix; the glob
    # alone would also take those of "NAME.json" while writing "NAME".
    ours = re.compile(rf"\.{re.escape(name)}\.[a-z0-9_]{{8}}\.tmp")
    cutoff = time.time() - STALE_AFTER
    try:
        found = list(directory.glob(f".{glob.escape(name)}.*.tmp"))
    except OSError:
        return
    for leftover in filter(lambda p: ours.fullmatch(p.name), found):
        try:
            info = leftover.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                leftover.unlink(missing_ok=True)
        except OSError:
            continue


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def read_text(path: Path, what: str = "a saved game") -> str:
    """The text of ``path``, or one line of error naming it; ``what`` the file should be,
    for a folder named in its place (it was the system's "Is a directory")."""
    try:
        # utf-8-sig: a byte-order mark (some Windows editors write one) is not part of the
        # text; it made the first card of a positions file "not a card".
        return path.expanduser().read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SaveFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SaveFileError(f"{path} is a folder, not {what}") from None
    except UnicodeDecodeError:
        raise SaveFileError(f"{path}: not a text file") from None
    except OSError as err:
        raise SaveFileError(f"{path}: {err.strerror}") from None
