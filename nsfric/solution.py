"""One :class:`Solution` type for every reference solver and every discrete scheme.

A solution is a list of mode *segments* (each with its own dense evaluation), the
event log, statistics and the tolerances used.  ``sol(t)`` evaluates the state across
segments; ``sol["xi"]`` gives a state or a derived quantity (``F``, energies, ``lam``)
at the sample times ``sol.t``.

* A **reference** solve (``filippov``, ``analytic``, ``ida``...) has one segment per
  mode, each with the solver's own dense output; ``sol.t`` is a resampling grid plus
  the event times (:meth:`Solution.resample`).
* A **discrete** run of a fixed-step scheme (:meth:`Solution.from_steps`) holds its
  *step points* as samples (``sol.t``, ``sol.y`` are the scheme's rows, untouched; an
  event-aware scheme adds rows at the located transitions) and its segments are the
  runs of rows in one mode.  Between step points ``sol(t)`` is the **piecewise linear**
  interpolant of the step points (:class:`StepInterpolant`; at a repeated time, e.g. a
  reset, the later row).  This is nsfric's choice, not the scheme's own continuous
  extension: it is exact at the step points, which is where studies compare.
  Auxiliary stage states are kept optionally (``stages``).
* A **batched** discrete run (:meth:`Solution.from_batch`) holds ``B`` runs of one
  scheme on one model with parameters (and initial states) that differ per member:
  ``sol.y`` has shape ``(n, B, N)``, ``sol["v"]`` shape ``(B, N)``, array-valued
  ``params`` shape ``(B,)``.  The modes of the rows are found when first asked for;
  :meth:`Solution.member` gives member ``i`` as an ordinary discrete Solution.

This module is the ground floor: it imports no layer.  Derived quantities come from
``model.derived()`` and ``model.param_vector()``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .solution_batch import BatchMixin
from .solution_tables import TablesMixin

_EVENT_KEYS = {"t": "t", "kind": "kind", "from": "from_mode", "to": "to_mode", "y": "y"}


@dataclass(frozen=True)
class Event:
    """A mode switch: time, kind (``stick``, ``slip``, ``reversal``, ``contact-end``...),
    the modes left and entered, and the state after the switch (``()`` if not kept).

    Read as attributes (``e.kind``) or, as the discrete schemes used to log them, by
    key (``e["kind"]``, ``e["from"]``, ``e["to"]``).
    """

    t: float
    kind: str
    from_mode: str | None
    to_mode: str
    y: tuple = ()

    def __getitem__(self, key):
        try:
            return getattr(self, _EVENT_KEYS[key])
        except KeyError:
            raise KeyError(f"event fields are {sorted(_EVENT_KEYS)}, not {key!r}") from None

    def as_dict(self, state_names=None) -> dict:
        """``t``, ``kind``, ``from``, ``to`` (and ``y`` by state name when it is kept)."""
        d = {"t": self.t, "kind": self.kind, "from": self.from_mode, "to": self.to_mode}
        if state_names is not None and len(self.y):
            d["y"] = dict(zip(state_names, map(float, self.y)))
        return d

    @classmethod
    def coerce(cls, e) -> "Event":
        """An Event from an Event or a dict ``{"t", "kind", "from", "to"[, "y"]}``."""
        if isinstance(e, Event):
            return e
        return cls(float(e["t"]), e["kind"], e.get("from"), e["to"], tuple(e.get("y", ())))


@dataclass
class Segment:
    """The trajectory inside one mode on ``[t0, t1]``; ``dense(t)`` -> states (n, ...)."""

    mode: str
    t0: float
    t1: float
    dense: object
    y0: np.ndarray
    y1: np.ndarray

    def __call__(self, t):
        t = np.asarray(t, dtype=float)
        if self.t1 == self.t0:
            return np.broadcast_to(self.y0.reshape(-1, *([1] * t.ndim)), (len(self.y0),) + t.shape).copy()
        return np.asarray(self.dense(t), dtype=float)


class StepInterpolant:
    """Piecewise linear interpolant of step points ``(t_i, Y[:, i])`` (``t`` non-decreasing).

    At a repeated time the later row is returned; outside ``[t_0, t_N]`` the end
    intervals are extended linearly.
    """

    def __init__(self, t, Y):
        self.t = np.asarray(t, dtype=float)
        self.Y = np.asarray(Y, dtype=float)

    def __call__(self, t):
        t = np.asarray(t, dtype=float)
        flat = np.atleast_1d(t)
        if len(self.t) == 1:
            return np.repeat(self.Y, flat.size, axis=1).reshape((-1,) + t.shape)
        i = np.clip(np.searchsorted(self.t, flat, side="right") - 1, 0, len(self.t) - 2)
        span = self.t[i + 1] - self.t[i]
        with np.errstate(all="ignore"):
            theta = np.where(span > 0, (flat - self.t[i]) / np.where(span > 0, span, 1.0), 1.0)
        out = self.Y[:, i] * (1 - theta) + self.Y[:, i + 1] * theta
        return out.reshape((-1,) + t.shape)


def _on_segment(seg, tt, last: bool):
    """The states of the segment ``seg`` at the times ``tt`` (which start at ``seg.t0``),
    with its exact start state and, on the ``last`` segment, its exact end state where
    ``tt`` ends there."""
    yy = np.empty((len(seg.y0), 1)) if tt.size == 1 else seg(tt)  # the start alone: its state
    yy[:, 0] = seg.y0
    if last and tt[-1] == seg.t1:
        yy[:, -1] = seg.y1
    return yy


@dataclass
class Solution(BatchMixin, TablesMixin):
    """The result of a reference solve or of a discrete run (see module docstring).

    Attributes
    ----------
    model, params : the HybridModel and the parameter values used
    solver : str, the registered solver or scheme name
    segments : list of Segment, in time order
    events : list of Event
    stats : dict: ``nfev`` (right-hand-side evaluations), ``njev`` (Jacobians),
        ``nsteps``, ``nevents``; a discrete run adds ``seconds`` (wall time)
    tolerances : dict, ``rtol``, ``atol`` (and method); ``{"dt": dt}`` for a scheme
    t_span : tuple
        ``(t0, t_end)`` asked for
    termination : str, why the run ended (also :attr:`message`; :attr:`success` and
        :attr:`status` as ``solve_ivp``'s; ``to_xarray()``, ``to_dataframe()``)
    t : sample times (reference: uniform grid plus event times; discrete: the rows);
        ``y`` the states there, ``modes`` the mode of each sample
    summary : dict of scalar observables (empty by default), written into sidecars
    case, law : names of the problem, where known
    scheme, dt : the fixed-step scheme and its step (None for a reference solve)
    stages : list of ``(t, u, label, row, mode)`` auxiliary stage states of a discrete
        run (empty unless asked): ``label`` numbers the stage within its step (1, 2,
        ...), ``row`` is the row the step starts from
    batch : int or None, the number of members of a batched run (None: one run)
    units : dict, the unit of ``t``, each state and derived quantity, where known (a
        case's solve fills it)
    """

    model: object
    params: dict
    solver: str
    segments: list
    events: list
    stats: dict
    tolerances: dict
    t_span: tuple
    termination: str = "reached t_end"
    t: np.ndarray = field(default=None)
    sample_modes: list = field(default=None)
    _y: np.ndarray = field(default=None, repr=False)
    info: dict = field(default_factory=dict)
    summary: dict = field(default_factory=dict)
    case: str | None = None
    law: str | None = None
    scheme: str | None = None
    dt: float | None = None
    stages: list = field(default_factory=list)
    batch: int | None = None
    units: dict = field(default_factory=dict)
    #: batched run: the function that finds the modes of its rows (see :meth:`from_batch`)
    _mode_codes: object = field(default=None, repr=False)

    @classmethod
    def from_steps(cls, model, params, t, Y, modes, *, scheme, dt, t_span, events=(), stats=None,
                   termination="reached t_end", stages=(), case=None, law=None) -> "Solution":
        """A discrete run: rows ``t``, states ``Y`` (n, N), the mode of each row (None for
        a non-finite row); segments are the runs of rows in one mode, evaluated by one
        :class:`StepInterpolant` (each segment ends on the first row of the next)."""
        t = np.asarray(t, dtype=float)
        Y = np.asarray(Y, dtype=float)
        modes = list(modes)
        dense = StepInterpolant(t, Y)
        segments, a = [], 0
        for i in range(1, len(t) + 1):
            if i == len(t) or modes[i] != modes[a]:
                b = min(i, len(t) - 1)
                segments.append(Segment(modes[a], float(t[a]), float(t[b]), dense, Y[:, a].copy(),
                                        Y[:, b].copy()))
                a = i
        events = [Event.coerce(e) for e in events]
        stats = dict(stats or {})
        stats.setdefault("nsteps", len(t) - 1)
        stats.setdefault("nevents", len(events))
        return cls(model, dict(params), scheme, segments, events, stats, {"dt": dt},
                   tuple(map(float, t_span)), termination, t, modes, Y, case=case, law=law,
                   scheme=scheme, dt=dt, stages=list(stages))

    # -- sampling ----------------------------------------------------------------
    def resample(self, t_eval):
        """Set the sample times; event times are added so that jumps are kept.

        Each segment is sampled at its start (where its state is ``y0``), the times of
        ``t_eval`` inside it and, the last one, at its end (``y1``); a segment holding no
        time of ``t_eval`` (most of an event-heavy run) needs no evaluation."""
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or not (t_eval.size < 2 or np.all(t_eval[1:] > t_eval[:-1])):
            return self._resample_any(t_eval)
        ts, ys, modes = [], [], []
        for i, seg in enumerate(self.segments):
            last = i == len(self.segments) - 1
            lo = int(np.searchsorted(t_eval, seg.t0, side="left"))
            hi = max(lo, int(np.searchsorted(t_eval, seg.t1, side="right" if last else "left")))
            inner = t_eval[lo + 1:hi] if hi > lo and t_eval[lo] == seg.t0 else t_eval[lo:hi]
            tt = np.concatenate([[seg.t0], inner, [seg.t1] if last and (inner[-1] if inner.size else seg.t0) != seg.t1
                                 else []])
            ts.append(tt)
            ys.append(_on_segment(seg, tt, last))
            modes += [seg.mode] * len(tt)
        return self._sampled(ts, ys, modes)

    def _resample_any(self, t_eval):
        """:meth:`resample` for sample times in any order."""
        ts, ys, modes = [], [], []
        for i, seg in enumerate(self.segments):
            last = i == len(self.segments) - 1
            sel = (t_eval >= seg.t0) & ((t_eval < seg.t1) | (last & (t_eval <= seg.t1)))
            tt = np.unique(np.concatenate([[seg.t0], t_eval[sel]]))
            if last:
                tt = np.unique(np.concatenate([tt, [seg.t1]]))
            ts.append(tt)
            ys.append(_on_segment(seg, tt, last))
            modes += [seg.mode] * len(tt)
        return self._sampled(ts, ys, modes)

    def _sampled(self, ts, ys, modes):
        self.t = np.concatenate(ts)
        self._y = np.concatenate(ys, axis=1)
        self.sample_modes = modes
        return self

    @property
    def y(self) -> np.ndarray:
        return self._y

    @property
    def modes(self) -> list:
        """The mode of each sample (None for a non-finite row of a discrete run); a list
        per member for a batched run."""
        if self.batch is not None:
            return [self._member_modes(i) for i in range(self.batch)]
        return self.sample_modes

    @property
    def state_names(self):
        return self.model.state_names

    @property
    def output_names(self):
        return self.model.output_names

    @property
    def t_end(self) -> float:
        return self.t_span[1]

    # -- statistics under their usual names -----------------------------------------
    @property
    def n_rhs(self) -> int:
        return self.stats.get("nfev", 0)

    @property
    def n_jac(self) -> int:
        return self.stats.get("njev", 0)

    @property
    def n_steps(self) -> int:
        return self.stats.get("nsteps", 0)

    @property
    def seconds(self) -> float:
        return self.stats.get("seconds", float("nan"))

    def __call__(self, t):
        """Dense evaluation of the states at ``t`` (scalar or array) across segments.

        At an event time the state *after* the event is returned.

        Raises
        ------
        ValueError
            If a time is not finite or lies outside the solution's span
            :attr:`span` (no extrapolation).
        """
        t = np.asarray(t, dtype=float)
        flat = np.atleast_1d(t)
        self.check_times(flat)
        if self.batch is not None:  # states (n, B) + t.shape, linear between the rows
            n = len(self.model.states)
            out = StepInterpolant(self.t, self._y.reshape(n * self.batch, -1))(flat)
            return out.reshape((n, self.batch) + t.shape)
        out = np.empty((len(self.model.states), flat.size))
        starts = np.array([s.t0 for s in self.segments])
        idx = np.clip(np.searchsorted(starts, flat, side="right") - 1, 0, len(self.segments) - 1)
        if flat.size > 1 and np.all(idx[1:] >= idx[:-1]):  # times in order: one run of them per segment
            cuts = np.flatnonzero(idx[1:] != idx[:-1]) + 1
            for a, b in zip([0, *cuts.tolist()], [*cuts.tolist(), flat.size]):
                out[:, a:b] = self.segments[idx[a]](flat[a:b])
            return out.reshape((-1,) + t.shape)
        for i in np.unique(idx):
            sel = idx == i
            out[:, sel] = self.segments[i](flat[sel])
        return out.reshape((-1,) + t.shape)

    @property
    def span(self) -> tuple:
        """``(first, last)`` time covered by the segments (a discrete run ends on its
        last row, which may lie before the ``t_end`` asked for)."""
        if self.batch is not None:
            return (float(self.t[0]), float(self.t[-1]))
        return (self.segments[0].t0, self.segments[-1].t1)

    def check_times(self, t):
        """ValueError unless every time in ``t`` is finite and inside :attr:`span`
        (up to rounding, ``1e-12`` of the span)."""
        a, b = self.span
        tol = 1e-12 * max(1.0, abs(a), abs(b))
        t = np.atleast_1d(np.asarray(t, dtype=float))
        if t.size and not (np.all(np.isfinite(t)) and t.min() >= a - tol and t.max() <= b + tol):
            bad = t[~(np.isfinite(t) & (t >= a - tol) & (t <= b + tol))][0]
            raise ValueError(f"t = {bad:.17g} lies outside the solution's span [{a:.17g}, {b:.17g}]; "
                             "a Solution is not extrapolated")

    def mode_at(self, t: float) -> str:
        self._not_batched("mode_at")
        self.check_times(t)
        starts = [s.t0 for s in self.segments]
        i = max(0, int(np.searchsorted(starts, t, side="right")) - 1)
        return self.segments[i].mode

    # -- named access --------------------------------------------------------------
    def _outputs(self, Y, modes, names=None) -> np.ndarray:
        """Derived quantities ``names`` (default all) at states ``Y`` in ``modes``
        (NaN where the mode is None)."""
        d = self.model.derived()
        p = self.model.param_vector(self.params)
        names = list(self.model.output_names if names is None else names)
        out = np.full((len(names), Y.shape[1]), np.nan)
        modes = np.asarray(modes, dtype=object)
        for mode in dict.fromkeys(m for m in modes if m is not None):
            sel = modes == mode
            onames, f = d.outputs(str(mode))
            vals = f(Y[:, sel], p)
            for k, n in enumerate(names):
                out[k, sel] = vals[onames.index(n)]
        return out

    def derived(self, name: str, t=None, y=None, modes=None) -> np.ndarray:
        """A derived quantity (``F``, energies, ``lam``) at the samples or at ``t``
        (a batched run: at its samples only, shape (B, N))."""
        if self.batch is not None:
            if t is not None or y is not None:
                self._not_batched("derived at given times or states")
            return self._batch_outputs([name])[0]
        if t is not None:
            t = np.atleast_1d(np.asarray(t, dtype=float))
            y = self(t)  # checks the span
            modes = [self.mode_at(tt) for tt in t]
        elif y is None:
            return self._sample_outputs()[list(self.model.output_names).index(name)].copy()
        return self._outputs(y, modes, [name])[0]

    def _sample_outputs(self) -> np.ndarray:
        """Every derived quantity at the samples, computed once (an output function
        evaluates all of them at a time) and kept while the samples and parameters are
        the same objects and values."""
        params = tuple(self.model.param_vector(self.params))
        kept = self.__dict__.get("_outputs_at_samples")
        if kept is None or kept[0] is not self._y or kept[1] != params:
            kept = (self._y, params, self._outputs(self._y, self.sample_modes))
            self.__dict__["_outputs_at_samples"] = kept
        return kept[2]

    def __getitem__(self, name: str) -> np.ndarray:
        if name == "t":
            return self.t
        if name in self.model.state_names:
            return self._y[self.model.state_names.index(name)]
        if name in self.model.output_names:
            return self.derived(name)
        raise KeyError(f"{name!r} is neither a state {self.model.state_names} nor a derived "
                       f"quantity {self.model.output_names}")

    def stage_arrays(self):
        """``(t, Y, labels, modes)`` of the recorded auxiliary stage states."""
        if not self.stages:
            return np.empty(0), np.empty((len(self.state_names), 0)), [], []
        t = np.array([s[0] for s in self.stages])
        Y = np.array([s[1] for s in self.stages]).T
        return t, Y, [s[2] for s in self.stages], [s[4] for s in self.stages]

    def columns(self, stages: bool = False) -> dict:
        """Ordered columns ``t``, states, derived quantities, ``mode``; with ``stages``
        the auxiliary stage rows are interleaved after the step they belong to and a
        ``stage`` column marks them (0 = step row)."""
        self._not_batched("columns()")
        t, Y, modes, stage = self.t, self._y, list(self.sample_modes), np.zeros(len(self.t), dtype=int)
        if stages and self.stages:
            st, sY, labels, smodes = self.stage_arrays()
            keys = [(i, 0) for i in range(len(self.t))] + [(s[3], 1) for s in self.stages]
            idx = sorted(range(len(keys)), key=lambda k: keys[k])  # stable: stage order kept
            allM = modes + smodes
            t = np.concatenate([t, st])[idx]
            Y = np.concatenate([Y, sY], axis=1)[:, idx]
            stage = np.concatenate([stage, np.array(labels, dtype=int)])[idx]
            modes = [allM[k] for k in idx]
        cols = {"t": t}
        for i, n in enumerate(self.state_names):
            cols[n] = Y[i]
        outs = self._outputs(Y, modes)
        for i, n in enumerate(self.output_names):
            cols[n] = outs[i]
        cols["mode"] = np.array([m if m is not None else "" for m in modes])
        if stages:
            cols["stage"] = stage
        return cols

    def event_log(self) -> list:
        return [e.as_dict(self.model.state_names) for e in self.events]

    def event_times(self, kind: str | None = None) -> np.ndarray:
        return np.array([e.t for e in self.events if kind is None or e.kind == kind])

    def describe(self) -> str:
        """One line: model, solver, segments, events, statistics."""
        ev = ", ".join(f"{e.kind}@{e.t:.12g}" for e in self.events)
        return (f"{self.model.name} by {self.solver}: {len(self.segments)} segment(s), "
                f"events [{ev}], stats {self.stats}")
