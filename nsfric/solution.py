"""One :class:`Solution` type for every reference solver.

A solution is a list of mode *segments* (each with its own dense interpolant), the
event log, solver statistics and the tolerances used.  ``sol(t)`` evaluates the state
across segments; ``sol["xi"]`` gives a state or a derived quantity (``F``, energies,
``lam``) at the sample times ``sol.t``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np



@dataclass(frozen=True)
class Event:
    """A mode switch: time, kind (``stick``, ``slip``, ``reversal``, ``contact-end``...),
    the modes left and entered, and the state after the switch."""

    t: float
    kind: str
    from_mode: str | None
    to_mode: str
    y: tuple

    def as_dict(self, state_names) -> dict:
        return {"t": self.t, "kind": self.kind, "from": self.from_mode, "to": self.to_mode,
                "y": dict(zip(state_names, map(float, self.y)))}


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


@dataclass
class Solution:
    """The result of a reference solve.

    Attributes
    ----------
    model, params : the HybridModel and the parameter values used
    solver : str, the registered solver name
    segments : list of Segment, in time order
    events : list of Event
    stats : dict, e.g. ``nfev``, ``njev``, ``nsteps``, ``nevents``
    tolerances : dict, ``rtol``, ``atol`` (and method)
    t : sample times (uniform grid plus event times); ``y`` the states there
    termination : str, why the run ended
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

    # -- sampling ----------------------------------------------------------------
    def resample(self, t_eval):
        """Set the sample times; event times are added so that jumps are kept."""
        t_eval = np.asarray(t_eval, dtype=float)
        ts, ys, modes = [], [], []
        for i, seg in enumerate(self.segments):
            last = i == len(self.segments) - 1
            sel = (t_eval >= seg.t0) & ((t_eval < seg.t1) | (last & (t_eval <= seg.t1)))
            tt = np.unique(np.concatenate([[seg.t0], t_eval[sel]]))
            if last:
                tt = np.unique(np.concatenate([tt, [seg.t1]]))
            yy = seg(tt)
            yy[:, 0] = seg.y0
            if last and tt[-1] == seg.t1:
                yy[:, -1] = seg.y1
            ts.append(tt)
            ys.append(yy)
            modes += [seg.mode] * len(tt)
        self.t = np.concatenate(ts)
        self._y = np.concatenate(ys, axis=1)
        self.sample_modes = modes
        return self

    @property
    def y(self) -> np.ndarray:
        return self._y

    @property
    def state_names(self):
        return self.model.state_names

    def __call__(self, t):
        """Dense evaluation of the states at ``t`` (scalar or array) across segments.

        At an event time the state *after* the event is returned.
        """
        t = np.asarray(t, dtype=float)
        flat = np.atleast_1d(t)
        out = np.empty((len(self.model.states), flat.size))
        starts = np.array([s.t0 for s in self.segments])
        idx = np.clip(np.searchsorted(starts, flat, side="right") - 1, 0, len(self.segments) - 1)
        for i in np.unique(idx):
            sel = idx == i
            out[:, sel] = self.segments[i](flat[sel])
        return out.reshape((-1,) + t.shape)

    def mode_at(self, t: float) -> str:
        starts = [s.t0 for s in self.segments]
        i = max(0, int(np.searchsorted(starts, t, side="right")) - 1)
        return self.segments[i].mode

    # -- named access --------------------------------------------------------------
    def derived(self, name: str, t=None, y=None, modes=None) -> np.ndarray:
        """A derived quantity (``F``, energies, ``lam``) at the samples or at ``t``."""
        d = self.model.derived()
        p = self.model.param_vector(self.params)
        if t is not None:
            t = np.atleast_1d(np.asarray(t, dtype=float))
            y = self(t)
            modes = [self.mode_at(tt) for tt in t]
        elif y is None:
            y, modes = self._y, self.sample_modes
        out = np.empty(y.shape[1])
        modes = np.asarray(modes)
        for mode in np.unique(modes):
            sel = modes == mode
            names, f = d.outputs(str(mode))
            out[sel] = f(y[:, sel], p)[names.index(name)]
        return out

    def __getitem__(self, name: str) -> np.ndarray:
        if name == "t":
            return self.t
        if name in self.model.state_names:
            return self._y[self.model.state_names.index(name)]
        if name in self.model.output_names:
            return self.derived(name)
        raise KeyError(f"{name!r} is neither a state {self.model.state_names} nor a derived "
                       f"quantity {self.model.output_names}")

    def columns(self) -> dict:
        """Ordered columns for tables: ``t``, the states, then derived quantities."""
        cols = {"t": self.t}
        for n in self.model.state_names:
            cols[n] = self[n]
        for n in self.model.output_names:
            cols[n] = self[n]
        cols["mode"] = np.asarray(self.sample_modes)
        return cols

    def event_log(self) -> list:
        return [e.as_dict(self.model.state_names) for e in self.events]

    def event_times(self, kind: str | None = None) -> np.ndarray:
        return np.array([e.t for e in self.events if kind is None or e.kind == kind])

    def summary(self) -> str:
        ev = ", ".join(f"{e.kind}@{e.t:.12g}" for e in self.events)
        return (f"{self.model.name} by {self.solver}: {len(self.segments)} segment(s), "
                f"events [{ev}], stats {self.stats}")
