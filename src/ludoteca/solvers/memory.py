"""Whether a hint may remember the plan behind it (Gaps' and Il Muro's hint memories).

A hint run only to load the compiled kernels (:mod:`ludoteca.hints`' ``load_kernels``) plays a
deal no player chose: what it found is kept nowhere, so no table's later hint follows a plan
made in a fraction of the time."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


def remembering() -> bool:
    """False in a thread inside :func:`apart`."""
    return not getattr(_local, "apart", False)


@contextmanager
def apart() -> Iterator[None]:
    """Hints run in this thread, inside this block, remember nothing."""
    before = getattr(_local, "apart", False)
    _local.apart = True
    try:
        yield
    finally:
        _local.apart = before
