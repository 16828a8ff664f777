"""The one hybrid mode loop shared by every event-driven solver and scheme.

A hybrid run alternates smooth integration inside one mode with switches at the
mode's guards.  The integrators differ (``solve_ivp`` steppers in ``filippov``, closed
forms in ``analytic``, Assimulo's own event handling in ``ida``/``radau5dae``, fixed
steps landed on the events in the event-aware schemes); the switching does not, and
lives here once (STYLE principle 6):

* **start**: the mode at the initial state, with the projection onto a constrained
  sliding surface and cascading switches (:meth:`ModeLogic.start`; on a surface the
  decision includes the second-order tangency test of Piiroinen & Kuznetsov 2008,
  :meth:`ModeLogic.directions`);
* **switch**: crossing / sliding / exit decision at a fired guard
  (:meth:`ModeLogic.switch`), and the event log;
* **event budget**: more than ``max_events`` events stop the run;
* **Zeno detector**: ``zeno_window`` consecutive events inside the time
  ``resolution`` (default ``1e-9 max(1, t_end - t0)``; the step for fixed-step
  schemes) stop the run (accumulating events, chattering);
* **time budget**: ``max_seconds`` of CPU time of the process (:class:`Budget`, default
  :data:`DEFAULT_MAX_SECONDS`) is checked at every event (and by the integrators inside
  a mode, also inside a step: :class:`~nsfric.solvers.watch.FieldWatch`);
* **no-progress guard**: a switch at the very point (same ``t`` and ``y``) where the
  mode it enters was already entered, without the trajectory having advanced, is a
  cycle of contradicting decisions and stops the run at once, never an endless loop.

Each stop is a :class:`~nsfric.errors.ZenoError` with a diagnosis.
"""
from __future__ import annotations

import math
import numbers
import time
from contextlib import contextmanager

import numpy as np

from ..errors import BudgetError, ZenoError
from .switching import no_progress

DEFAULT_MAX_EVENTS = 10000
DEFAULT_ZENO_WINDOW = 50

#: the time budget (CPU seconds of the process) of one solve or discrete run when none is
#: given: every long path ends, with a message naming the option that raises it (``max_seconds``,
#: CLI ``--max-seconds``); ``max_seconds=math.inf`` lifts it
DEFAULT_MAX_SECONDS = 600.0

__all__ = ["ModeLoop", "loop_options", "Budget", "DEFAULT_MAX_EVENTS", "DEFAULT_MAX_SECONDS",
           "DEFAULT_ZENO_WINDOW"]


def seconds_option(max_seconds):
    """Validated time budget (:func:`nsfric.arguments.seconds`): ``None`` (the
    default budget applies), a finite number > 0, or ``math.inf`` (no limit)."""
    from ..arguments import seconds

    return seconds(max_seconds)


#: default memory budget of one run's arrays (bytes): 2 GiB
MEMORY_LIMIT = 2 * 1024 ** 3


def check_memory(nbytes: float, what: str, advice: str, limit: float | None = None):
    """:class:`BudgetError` when ``nbytes`` (an estimate made before allocating)
    exceeds ``limit`` (default :data:`MEMORY_LIMIT`); ``advice`` names the option."""
    limit = MEMORY_LIMIT if limit is None else limit
    if nbytes > limit:
        raise BudgetError(f"{what} would need about {nbytes / 1024 ** 3:.3g} GiB, beyond the memory "
                          f"limit of {limit / 1024 ** 3:.3g} GiB; {advice}")


class Budget:
    """The time budget of one run: :meth:`check` raises :class:`BudgetError`
    (naming ``max_seconds``, CLI ``--max-seconds``) once this process has spent
    ``max_seconds`` of CPU time (``time.process_time``, every thread of the process) since
    the budget was made.  CPU time, not wall time: whether a run ends or stops at its
    budget does not depend on what else the machine runs (a reference that takes 270 s of
    CPU took more than 600 s of wall time beside other jobs, and a report failed on it).
    ``None`` means the default, :data:`DEFAULT_MAX_SECONDS` (``default`` is then True, and
    the message says so); ``math.inf`` means no limit."""

    def __init__(self, max_seconds=None, label=""):
        given = seconds_option(max_seconds)
        self.default = given is None
        self.max_seconds = DEFAULT_MAX_SECONDS if given is None else given
        self.label = label
        self.start = time.process_time()

    def check(self, t=None):
        if time.process_time() - self.start > self.max_seconds:
            at = "" if t is None else f" (reached t = {float(t):.6g})"
            what = (f"the default budget of {self.max_seconds:g} s (--max-seconds)" if self.default
                    else f"max_seconds = {self.max_seconds:g} s")
            raise BudgetError(f"{self.label}: stopped after {what} of CPU time{at}; raise --max-seconds "
                              f"(API max_seconds) or shorten --t-end")


def _integer(name, value, lo):
    from ..arguments import integer

    return integer(value, name, lo)


def loop_options(max_events=None, zeno_window=None, max_seconds=None) -> dict:
    """Validated ``max_events`` (integer >= 1), ``zeno_window`` (integer >= 2) and
    ``max_seconds`` (> 0); ``None`` gives the defaults (10000, 50, no time limit)."""
    return {"max_seconds": seconds_option(max_seconds),
            "max_events": DEFAULT_MAX_EVENTS if max_events is None else _integer("max_events", max_events, 1),
            "zeno_window": DEFAULT_ZENO_WINDOW if zeno_window is None
            else _integer("zeno_window", zeno_window, 2)}


class ModeLoop:
    """One hybrid run's mode bookkeeping (see module docstring).

    Parameters
    ----------
    logic : ModeLogic of the derived model and parameter vector
    t_span : tuple
        ``(t0, t_end)``, the time span.
    max_events, zeno_window : int, the event budget and the Zeno window (events)
    resolution : float, optional, the time below which ``zeno_window`` events count
        as accumulating
    label : str, the solver or scheme name used in the diagnostics

    Attributes
    ----------
    events : list of Event (start events included)
    segments : list of Segment (filled by :meth:`run`; the zero-length segment holding
        the state before a start reset comes first)
    n_switches : events logged by :meth:`switch` (start events excluded)
    """

    def __init__(self, logic, t_span, max_events=DEFAULT_MAX_EVENTS, zeno_window=DEFAULT_ZENO_WINDOW,
                 resolution=None, label="", max_seconds=None, budget=None):
        self.logic = logic
        self.t0, self.t_end = map(float, t_span)
        opts = loop_options(max_events, zeno_window)
        self.max_events, self.zeno_window = opts["max_events"], opts["zeno_window"]
        self.resolution = 1e-9 * max(1.0, abs(self.t_end - self.t0)) if resolution is None else resolution
        self.label = label
        self.budget = budget if budget is not None else Budget(max_seconds, label)
        self.events, self.segments = [], []
        self.n_switches = 0
        self._point = None  # (t, y bytes) of the last switch, and the modes entered there
        self._entered = []

    # -- hooks ------------------------------------------------------------------------
    def start(self, y0):
        """Initial mode and (projected) state; logs the start events."""
        with self._located(self.t0):
            mode, y, events, pre = self.logic.start(self.t0, y0)
        self.events += events
        if pre is not None:
            self.segments.append(pre)
        self._arrive(self.t0, y, mode)
        self._check(self.t0)
        return mode, y

    def switch(self, t, y, mode, guard):
        """The switch after ``guard`` of ``mode`` fired at ``(t, y)``: ``(new_mode, y,
        event)``, the event logged and checked; ``event`` is ``None`` when the same mode
        continues (grazing contact)."""
        with self._located(t):
            new, y, event = self.logic.switch(t, y, mode, guard)
        if event is not None:
            self.events.append(event)
            self.n_switches += 1
        self._arrive(t, y, new, mode)
        self._check(t)
        return new, y, event

    def run(self, y0, segment):
        """Start at ``y0``, then integrate mode by mode: ``segment(mode, t, y) ->
        (Segment, guard or None)`` integrates ``mode`` from ``(t, y)`` up to its first
        fired guard (``None``: reached ``t_end``).  Returns ``(segments, events)``."""
        mode, y = self.start(y0)
        t = self.t0
        while True:
            seg, guard = segment(mode, t, y)
            self.segments.append(seg)
            t, y = seg.t1, seg.y1
            if guard is None:
                break
            mode, y, _ = self.switch(t, y, mode, guard)
            if t >= self.t_end:
                break
        return self.segments, self.events

    # -- checks -------------------------------------------------------------------------
    @contextmanager
    def _located(self, t):
        """Name the solver and the time in a diagnosis of the mode logic (cascading
        switches that do not settle)."""
        try:
            yield
        except ZenoError as e:
            raise ZenoError(f"{self.label}: at t = {t:.17g}: {e}") from None

    def _arrive(self, t, y, mode, from_mode=None):
        """No-progress guard: entering ``mode`` again at the very ``(t, y)`` where the
        trajectory was in it already, with no advance in between (a graze continues
        the mode once; a second time is a cycle)."""
        point = (float(t), np.asarray(y, dtype=float).tobytes())
        if point != self._point:
            self._point = point
            self._entered = [from_mode or mode] + ([mode] if from_mode not in (None, mode) else [])
            return
        if mode in self._entered:
            raise no_progress(self.label, t, y, self._entered + [mode])
        self._entered.append(mode)

    def _check(self, t):
        self.budget.check(t)
        ev = self.events
        if len(ev) > self.max_events:
            raise ZenoError(f"{self.label}: more than max_events = {self.max_events} events before "
                            f"t = {t:.17g}; raise the option max_events (CLI --max-events) if the "
                            f"events are genuine")
        w = self.zeno_window
        if len(ev) >= w:
            span = ev[-1].t - ev[-w].t
            if span <= self.resolution:
                cycle = " -> ".join(str(e.to_mode) for e in ev[-6:])
                raise ZenoError(
                    f"{self.label}: Zeno/chattering: zeno_window = {w} events within {span:.3g} "
                    f"time units before t = {t:.17g} (modes {cycle}); the model has no solution "
                    f"continuation here -- refine the model or the initial state")
