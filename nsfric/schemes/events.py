"""Event-aware variants of the fixed-step schemes: land a step on every mode transition.

A fixed-step scheme that steps over a transition integrates a field whose derivative
(C-SDS: the kink of ``min(|F_S|, F_max)``) or value jumps inside the step; whatever its
order, that step commits a local error of order ``h^2`` (a quadrature rule of any order
integrates a kinked function only to ``O(h^2)`` over the interval containing the kink),
so the global order saturates at 2 (and the error constant depends on where the kink
falls inside the step, which scatters the convergence plot).

The variant ``NAME-event`` of a scheme integrates the smooth field of the *current
mode* only (continued across the boundary: :class:`FrozenField`, no adjustments -- on a
constrained sliding mode that is the index-reduced DAE, which keeps the state on the
surface).  After each step it samples the mode's guards on the step's own interpolant,
the cubic Hermite polynomial through ``(u_n, f(u_n))`` and ``(u_{n+1}, f(u_{n+1}))``
(``f(u_{n+1})`` is the next step's first slope, cached), at 8 interior points, so two
crossings inside one step are not missed.  At a sign change it locates the crossing
``theta`` by Brent's method on the interpolant, redoes the step with length
``theta h`` (so the landed state is a step of the scheme itself), lets the shared
:class:`~nsfric.solvers.switching.ModeLogic` decide the new mode (crossing, sliding,
leaving; projection onto a constrained surface) and the shared
:class:`~nsfric.solvers.loop.ModeLoop` logs the event (event budget, Zeno window
counted within one step, no-progress guard); the scheme writes a row there
and continues to the next grid point ``t_{n+1}``; multistep histories are restarted
after an event.  The interpolation error ``O(h^4)`` in the switching time costs nothing
at order <= 4 for a field continuous across the surface (the error is quadratic in the
time error there) -- the nominal order is recovered.
"""
from __future__ import annotations

import numpy as np


from ..solvers.loop import ModeLoop, loop_options
from .base import SCHEMES, Scheme, _safe_mode, register_scheme, tag_stages

_THETA = np.linspace(0.0, 1.0, 9)


def hermite(u0, k0, u1, k1, h, theta):
    """Cubic Hermite interpolant on a step of length ``h`` at fractions ``theta``."""
    th = np.asarray(theta, dtype=float)
    h00 = (1 + 2 * th) * (1 - th) ** 2
    h10 = th * (1 - th) ** 2
    h01 = th ** 2 * (3 - 2 * th)
    h11 = th ** 2 * (th - 1)
    return (np.multiply.outer(u0, h00) + np.multiply.outer(h * k0, h10)
            + np.multiply.outer(u1, h01) + np.multiply.outer(h * k1, h11))


class EventAware(Scheme):
    """Event-aware variant of a fixed-step scheme (see module docstring)."""

    def __init__(self, base: Scheme, max_events=None, zeno_window=None):
        self.base = base
        self.loop_options = loop_options(max_events, zeno_window)
        self.name = f"{base.name}-event"
        self.order = base.order
        self.implicit = base.implicit
        self.symplectic = base.symplectic
        self.multistep = base.multistep
        self.reference = "nsfric: event location on the step's Hermite interpolant"
        self.__doc__ = (f"{base.name} landing a step on every mode transition (event-aware): "
                        f"order {base.order} recovered across the switches.")

    @property
    def damped_order(self):
        return self.base.damped_order

    def with_options(self, max_events=None, zeno_window=None) -> "EventAware":
        """This scheme with another event budget / Zeno window of the shared mode loop
        (:class:`~nsfric.solvers.loop.ModeLoop`; the Zeno window counts events within
        one step): ``max_events`` integer >= 1 (default 10000), ``zeno_window`` integer
        >= 2 (default 50)."""
        return EventAware(self.base, max_events, zeno_window)

    def step(self, field, t, u, h, hist, record=None):  # pragma: no cover - integrate only
        raise NotImplementedError("event-aware schemes run through integrate()")

    # -- crossing detection ---------------------------------------------------------------
    @staticmethod
    def _crossing(frozen, guards, u0, u1, h, affine=False):
        gs, gf = guards
        if gf is None:
            return None
        p = frozen.p
        k0 = frozen.f(u0).k
        k1 = frozen.f(u1).k
        if affine:
            # Bezier control points of the Hermite cubic: for guards affine in the state
            # the guard along the interpolant lies in the hull of its values there, so
            # all of them clearly negative means no crossing inside the step
            P = np.stack([u0, u0 + h * k0 / 3, u1 - h * k1 / 3, u1], axis=1)
            GP = np.asarray(gf(P, p)).reshape(len(gs), 4)
            if np.all(GP < -1e-12 * (1.0 + np.abs(GP).max())):
                return None
        g1 = gf(u1, p)
        U = hermite(u0, k0, u1, k1, h, _THETA)
        G = np.asarray(gf(U, p)).reshape(len(gs), len(_THETA))
        G[:, -1] = g1
        best = None
        for i in range(len(gs)):
            g = G[i]
            tol = 1e-12 * (1.0 + np.max(np.abs(g)))
            if g[0] >= -tol:
                # starting on the surface just crossed: only a clear exit at the step's
                # end counts (the interpolant of a low-order step may dip across a
                # surface the flow leaves tangentially; an event must not re-fire)
                if g[-1] <= tol:
                    continue
                above = np.array([np.nonzero(g[:-1] <= tol)[0][-1]])
            else:
                above = np.nonzero(g[1:] > tol)[0]
            if len(above) == 0:
                continue
            j = above[0] + 1
            lo, hi = _THETA[j - 1], _THETA[j]

            def gi(th, i=i):
                return float(gf(hermite(u0, k0, u1, k1, h, th), p)[i])

            glo = gi(lo)
            if glo >= 0:
                theta = lo
            else:
                from scipy.optimize import brentq  # SciPy only where a crossing is searched

                theta = brentq(gi, lo, hi, xtol=1e-16, rtol=1e-15)
            if best is None or theta < best[0]:
                best = (theta, gs[i])
        return best

    # -- the integration loop -----------------------------------------------------------
    def integrate(self, field, t0, u0, h, n_steps, record=None):
        base = self.base
        rows_t, rows_y = [t0], [np.asarray(u0, dtype=float).copy()]
        loop = ModeLoop(field.logic, (t0, t0 + n_steps * h), resolution=h, label=self.name,
                        **self.loop_options)
        mode, u = loop.start(u0)
        rows_m = [mode]  # the mode of each row, as the loop decided it (on a sliding surface
        # the sign of a rounding error must not name it)
        if loop.segments:  # the reset at t0 is a row of its own
            rows_t.append(t0)
            rows_y.append(u.copy())
            rows_m = [_safe_mode(field, rows_y[0]), mode]  # before the reset: the region it lies in
        frozen = field.frozen(mode)
        guards = field.d.guards(mode)
        affine = _AffineGuards(field.c.store)
        t, hist = t0, None
        termination = "reached t_end"
        with np.errstate(all="ignore"):
            for i in range(1, n_steps + 1):
                t_target = t0 + i * h
                n_events = 0
                while t < t_target:
                    full = n_events == 0
                    hh = h if full else t_target - t
                    k0 = len(record) if record is not None else 0
                    u1, hist1 = base.step(frozen, t, u, hh, hist, record)
                    if not np.all(np.isfinite(u1)):
                        termination = f"diverged at t = {t_target:.6g}"
                        break
                    hit = self._crossing(frozen, guards, u, u1, hh, affine[mode])
                    if hit is None:
                        tag_stages(record, k0, len(rows_t) - 1)
                        t, u = t_target, u1
                        hist = hist1 if full else None
                        break
                    if record is not None:
                        del record[k0:]
                    theta, guard = hit
                    h_ev = theta * hh
                    if h_ev > 0:
                        hist_ev = base.rescale(hist, theta) if hist is not None else None
                        u_ev, _ = base.step(frozen, t, u, h_ev, hist_ev, record)
                        tag_stages(record, k0, len(rows_t) - 1)
                    else:
                        u_ev = u
                    t = t + h_ev
                    new, u_ev, event = loop.switch(t, u_ev, mode, guard)
                    if event is not None:
                        mode, frozen, guards = new, field.frozen(new), field.d.guards(new)
                    rows_t.append(t)
                    rows_y.append(u_ev.copy())
                    rows_m.append(mode)
                    u, hist = u_ev, None
                    n_events += 1
                if termination != "reached t_end":
                    break
                rows_t.append(t_target)
                rows_y.append(u.copy())
                rows_m.append(mode)
        Y = np.array(rows_y).T
        ev = [{"t": e.t, "kind": e.kind, "from": e.from_mode, "to": e.to_mode} for e in loop.events]
        return np.array(rows_t), Y, {"events": ev, "termination": termination,
                                     "steps": len(rows_t) - 1, "modes": rows_m}


class _AffineGuards(dict):
    """mode -> True when every guard of the mode is affine in the state (symbolic)."""

    def __init__(self, store):
        super().__init__()
        self.store = store  # the disk cache of the schemes' derived values (nsfric.schemes.codecache)

    def __missing__(self, mode):
        def affine(d):
            import sympy as sp

            gs = d.modes[mode].guards
            return all(sp.diff(g.expr, a, b) == 0 for g in gs for a in d.y for b in d.y)
        ok = self.store.value(("affine-guards", mode), affine, lambda v: isinstance(v, bool))
        self[mode] = ok
        return ok


def register_event_variants():
    """Register ``NAME-event`` for every registered plain scheme."""
    for name, scheme in list(SCHEMES.items()):
        if isinstance(scheme, EventAware) or f"{name}-event" in SCHEMES:
            continue
        register_scheme(EventAware(scheme))
