"""Running the points of a sweep: in this process, in local worker processes, or on any
:class:`concurrent.futures.Executor` -- a Dask ``distributed.Client`` included (its
:meth:`~distributed.Client.get_executor`, with task retries).

Every point is one task; tasks are sent in chunks of ``chunksize`` points (one
submission each) to keep the per-task overhead of a cluster small.  Results come back
in any order and are put in place by index, so the result never depends on the
executor.  A Dask task whose worker dies is rescheduled by the scheduler on another
worker; one that raises is retried ``retries`` times.  On the local pool (``jobs``) a
dead worker breaks the pool: the unfinished chunks run again on a new one, at most
``retries`` times (:func:`_run_local`).
"""
from __future__ import annotations

import concurrent.futures as cf
import math
import sys

from ..errors import WorkerDied


def _run_chunk(fn, chunk):
    """Evaluate ``fn`` at every point of ``chunk`` (a list of ``(index, point)``)."""
    return [(i, fn(p)) for i, p in chunk]


def _workers(executor, jobs) -> int:
    if executor is None:
        return max(int(jobs or 1), 1)
    client = getattr(executor, "_client", None)  # a distributed ClientExecutor
    if client is not None:
        try:
            return max(sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()), 1)
        except (OSError, KeyError):  # pragma: no cover - scheduler unreachable: submission fails
            return 1
    return max(int(getattr(executor, "_max_workers", 0) or 4), 1)


def as_executor(executor, retries: int = 2):
    """A :class:`concurrent.futures.Executor` for ``executor``: itself, or the executor
    of a Dask ``distributed.Client`` (impure tasks, ``retries`` retries)."""
    if executor is None or isinstance(executor, cf.Executor):
        return executor
    if hasattr(executor, "get_executor") and hasattr(executor, "scheduler_info"):
        return executor.get_executor(pure=False, retries=int(retries))
    raise ValueError(f"executor must be a concurrent.futures.Executor or a distributed.Client, got {executor!r}")


def run_tasks(fn, todo, on_result, executor=None, jobs=1, chunksize=None, retries=2):
    """Evaluate ``fn`` at each ``(index, point)`` of ``todo``; call ``on_result(index,
    result)`` as results arrive (in the calling thread).

    ``executor`` None with ``jobs`` 1: here, in order; ``jobs`` > 1: a pool of local
    processes (forked where the platform allows, so workers inherit built models).
    """
    if not todo:
        return
    executor = as_executor(executor, retries)
    if executor is None and (jobs or 1) <= 1:
        for i, p in todo:
            on_result(i, fn(p))
        return
    n_workers = _workers(executor, jobs)
    if chunksize is None:
        chunksize = max(1, math.ceil(len(todo) / (4 * n_workers)))
    elif not (isinstance(chunksize, int) and chunksize >= 1):
        raise ValueError(f"chunksize must be an integer >= 1, got {chunksize!r}")
    chunks = [todo[k:k + chunksize] for k in range(0, len(todo), chunksize)]
    if executor is None:
        _run_local(fn, chunks, on_result, n_workers, retries)
        return
    futures = []
    try:
        futures = [executor.submit(_run_chunk, fn, c) for c in chunks]
        for fut in cf.as_completed(futures):
            for i, result in fut.result():
                on_result(i, result)
    finally:
        for fut in futures:
            fut.cancel()


def map_tasks(fn, items, jobs=1, progress=None) -> list:
    """``[fn(item) for item in items]``, on ``jobs`` local processes when ``jobs`` > 1
    (:func:`run_tasks`, one item per task; forked workers inherit this process's models
    and kernels).  The results are in the order of ``items`` whatever the workers' order,
    and equal, bit for bit, those of one process.  ``fn`` must be picklable (a
    module-level function, or a :func:`functools.partial` of one); ``progress(done,
    total)`` is called as results arrive.  ValueError unless ``jobs`` is an integer >= 1."""
    from ..arguments import integer

    jobs = integer(jobs, "jobs", lo=1)
    items = list(items)
    out = [None] * len(items)

    def put(i, result):
        out[i] = result
        if progress is not None:
            put.done += 1
            progress(put.done, len(items))

    put.done = 0
    run_tasks(fn, list(enumerate(items)), put, jobs=jobs if len(items) > 1 else 1, chunksize=1)
    return out


def forks_workers() -> bool:
    """Whether local workers are forked from this process now (and so inherit its objects,
    e.g. the tokens of :func:`nsfric.study.runs.local_token`): only where the platform
    forks and this process runs no other thread -- forking while another thread (a Dask
    client's, for instance) holds a lock can deadlock the children."""
    import multiprocessing as mp
    import threading

    return "fork" in mp.get_all_start_methods() and threading.active_count() == 1


def _stepper_modules() -> tuple:
    """The modules whose presence in this process selects a stepper (``method="auto"``
    takes the compiled DOP853 once numba is imported: :mod:`nsfric.solvers.filippov`)."""
    import sys

    return tuple(m for m in ("numba",) if m in sys.modules)


def _like_parent(modules):
    """Initializer of a worker that is not forked: import what selected the parent's
    steppers, so that a point gives the same bits in a worker as in the parent."""
    import importlib

    for name in modules:
        importlib.import_module(name)


def _run_local(fn, chunks, on_result, n_workers, retries):
    """The chunks on a pool of local processes (forked where the platform allows and this
    process runs no other thread; then the first point runs in this process first, so that the workers inherit the models,
    derived functions and compiled kernels it built instead of each building them).

    A worker that dies (killed, out of memory: :class:`BrokenProcessPool`) breaks the
    pool; the chunks not finished then are run again on a new pool, at most ``retries``
    times in all, then :class:`WorkerDied` is raised.  Results already delivered stay.
    """
    import multiprocessing as mp
    from concurrent.futures.process import BrokenProcessPool

    # fork only a single-threaded process (forks_workers); otherwise a fresh forkserver
    methods = mp.get_all_start_methods()
    fork = forks_workers()
    ctx = mp.get_context("fork" if fork else "forkserver" if "forkserver" in methods else "spawn")
    if fork:  # the first point here: forked workers inherit what it built
        (i, p), chunks = chunks[0][0], [chunks[0][1:]] + chunks[1:]
        on_result(i, fn(p))
    pending, breaks = {k: c for k, c in enumerate(chunks) if c}, 0
    while pending:
        executor = cf.ProcessPoolExecutor(max_workers=min(n_workers, len(pending)), mp_context=ctx,
                                          **({} if fork else {"initializer": _like_parent,
                                                              "initargs": (_stepper_modules(),)}))
        futures = {}
        try:
            futures = {executor.submit(_run_chunk, fn, c): k for k, c in pending.items()}
            for fut in cf.as_completed(futures):
                try:
                    rows = fut.result()
                except BrokenProcessPool as e:
                    breaks += 1
                    if breaks > retries:
                        raise WorkerDied(f"a worker process died {breaks} times (retries = {retries}): "
                                         f"{str(e) or type(e).__name__}") from e
                    break  # a new pool for what is left
                del pending[futures[fut]]
                for i, result in rows:
                    on_result(i, result)
        finally:
            for fut in futures:
                fut.cancel()
            executor.shutdown(wait=True, cancel_futures=True)


class Progress:
    """Progress over the points: ``progress`` None/False (silent), ``"plain"`` (the
    plain lines below, even on a terminal), True (on a terminal a
    rich bar on stderr, erased when done so that an error message stays one line;
    elsewhere, or without rich (the ``rich`` extra), a plain line ``LABEL: DONE/TOTAL points`` at every tenth) or a callable
    ``(done, total)``."""

    def __init__(self, progress, total: int, label: str = "sweep"):
        self.total, self.done, self.label = total, 0, label
        self.callback = progress if callable(progress) else None
        self.bar = None
        from ..extras import available

        # no terminal, or no rich (the rich extra) to draw a bar: the plain lines
        self.plain = progress == "plain" or (progress is True and not (sys.stderr.isatty() and available("rich")))
        if progress is True and not self.plain:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn,
                                       TimeRemainingColumn)

            self.bar = Bar(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                           console=Console(file=sys.stderr), transient=True)
            self.task = self.bar.add_task(label, total=total)

    def __enter__(self):
        if self.bar is not None:
            self.bar.start()
        return self

    def advance(self, n: int = 1):
        self.done += n
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)
        if self.callback is not None:
            self.callback(self.done, self.total)
        step = max(self.total // 10, 1)
        if self.plain and n and (self.done // step != (self.done - n) // step or self.done == self.total):
            print(f"{self.label}: {self.done}/{self.total} points", file=sys.stderr, flush=True)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False
