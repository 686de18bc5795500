"""Files written so that a crash never leaves half of one: temp file, fsync, rename."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ludoteca.core.errors import SaveFileError


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


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def read_text(path: Path) -> str:
    try:
        # utf-8-sig: a byte-order mark (some Windows editors write one) is not part of the
        # text; it made the first card of a positions file "not a card".
        return path.expanduser().read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SaveFileError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise SaveFileError(f"{path}: not a text file") from None
    except OSError as err:
        raise SaveFileError(f"{path}: {err.strerror}") from None
