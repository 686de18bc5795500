"""The ``ludoteca`` command's entry point: Ctrl-C while the command line loads is one line.

Loading the command line (Typer, Rich, every command's module) takes about a second, and a
KeyboardInterrupt raised while Python imports it came back as a traceback. This module
imports nothing of its own until it can catch that.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130
"""The status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it."""


def main() -> None:
    try:
        from ludoteca.cli import main as run
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    run()
