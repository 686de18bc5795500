"""Where study batches run. Anything that is a ``concurrent.futures.Executor`` will do, so a
cluster backend (e.g. a Dask or MPI executor) can be slotted in beside these two."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs each task at once in this process: one job, no start-up cost, easy to debug."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # handed to the caller through the future
            future.set_exception(err)
        return future


def follow_the_parent(parent: int | None = None) -> None:
    """The initializer of every worker pool (the bench scripts' too). Workers ignore
    Ctrl-C: the command that started them stops them (no traceback from each worker, no
    half-told result). And they end when that command is gone: killed (``kill -9``), it
    left them waiting on its pipe for good, each perhaps with a 2 GiB Gaps table."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent's pid as the parent gave it (``pool_options``): read here, it is already
    # the reaper's when the parent died while this worker started, and it waited for good.
    if parent is None:
        parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:  # (an orphan is handed to another process)
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="follow-the-parent", daemon=True).start()


PARENT_CHECK_SECONDS = 1.0


def make_executor(jobs: int) -> Executor:
    """One job runs inline; more run in worker processes (spawned: safe with threads)."""
    if jobs <= 1:
        return InlineExecutor()
    context: Any = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=follow_the_parent,
        initargs=(os.getpid(),),
    )
