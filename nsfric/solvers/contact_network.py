"""Event-driven exact reference for networks of independent contacts (the column of grains,
:class:`~nsfric.papers.schafer1996.column.ColumnModel`).

Every contact is its own switching surface, its overlap ``xi_j = 0``: it closes when the
overlap turns positive and opens when it returns to zero, independently of the others,
so a mode is a closed/open pattern (``2^N`` of them, never enumerated).  In a mode the
field is affine, ``y' = A y + b`` with ``A = A0 + sum_closed A_j`` (the model's
:meth:`~nsfric.papers.schafer1996.column.ColumnModel.linear_system`).  For a mechanical network
``x' = v``, ``v' = -K x - G v + f`` whose stiffness ``K`` and damping ``G`` are symmetric
and commute (classical damping: the linear spring-dashpot with one ``gamma_n/k_n`` for
every contact and equal masses), one orthogonal ``Q`` diagonalises both, and each modal
coordinate ``q = Q^T x`` is a damped oscillator ``z'' + 2 beta z' + kappa z = 0`` about
``q* = Q^T f/kappa`` (or a free flight ``q'' = phi`` where ``kappa = 0``), solved in
closed form:

    z(s) = e^(-beta s) [z0 cosh(mu s) + (z0' + beta z0) sinh(mu s)/mu],  mu^2 = beta^2 - kappa

(complex ``mu`` for the underdamped modes).  The flow is exact and costs a few vector
operations per time (no matrix exponential, no integration).

**Guards.**  The overlaps are sampled along this exact flow on a grid of
``samples_per_period`` points per period of the fastest mode (the whole segment in free
flight, where the overlaps are linear in time); a sign change is located by Brent's
method on the exact flow to rounding (``rtol = 4 eps``).  Between two samples where a
guard stays on its side but its cubic Hermite interpolant (from the overlap rates)
leaves it, the interval is searched on a finer grid, so a graze is not missed.

**Simultaneous switches.**  All contacts whose crossing lies within ``1e-12`` (relative)
of the first one switch together at that instant (a symmetric configuration closes or
opens two contacts at the same time).  Each switching contact is decided by the sign of
the first non-vanishing time derivative of its overlap along the field with the
switching contacts closed (``xi^(k) = C_j A^(k-1) (A y + b)``; the contact's own force
vanishes at ``xi = xi' = 0`` and cannot flip that sign): positive closes it, negative
opens it, none keeps it.

The mode bookkeeping (event budget, Zeno window, CPU-time budget, no-progress guard)
is the shared :class:`~nsfric.solvers.loop.ModeLoop`.  With ``stop_when_separated``
the run ends as soon as every contact is open and none approaches (every overlap rate
``<= 0`` in free flight: no contact can ever close again); the Solution then spans up
to that instant and its ``termination`` says ``separated``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from ..solution import Event, Segment, Solution
from .loop import ModeLoop, loop_options

#: a mode of a network is one letter per contact: closed or open (``"c---"``: only the first closed)
CLOSED, OPEN = "c", "-"


def mode_name(closed) -> str:
    """The mode name of a closed/open pattern (booleans, one per contact)."""
    return "".join(CLOSED if c else OPEN for c in closed)


def closed_mask(mode: str) -> np.ndarray:
    """The closed/open pattern (booleans) of a mode name."""
    return np.array([c == CLOSED for c in mode], dtype=bool)


#: relative window in which crossings count as simultaneous
SIMULTANEOUS = 1e-12


@dataclass(frozen=True)
class _Guard:
    """The contacts that reach their surface together (``target``: their indices)."""

    target: frozenset


class ContactLogic:
    """Mode decisions of a contact network at given parameter values (see module docstring)."""

    def __init__(self, model, system: dict):
        self.model = model
        self.s = system
        self.K = len(model.contacts)
        self._cache = {}

    # -- the field of a mode -------------------------------------------------------------------
    def field(self, mode: str):
        """``(A, b, flow)`` of ``mode``: the affine field and its exact :class:`ModalFlow`."""
        hit = self._cache.get(mode)
        if hit is None:
            closed = closed_mask(mode)
            A = self.s["A0"] + self.s["A"][closed].sum(axis=0)
            b = self.s["b0"] + self.s["b"][closed].sum(axis=0)
            hit = self._cache[mode] = (A, b, ModalFlow(A, b))
        return hit

    def overlaps(self, Y):
        return self.s["C"] @ Y + (self.s["c"] if np.ndim(Y) == 1 else self.s["c"][:, None])

    def rates(self, Y):
        return self.s["D"] @ Y + (self.s["d"] if np.ndim(Y) == 1 else self.s["d"][:, None])

    # -- decisions ---------------------------------------------------------------------------
    def direction(self, j: int, y, mode: str) -> int:
        """+1 (closes), -1 (opens) or 0 (undecided): the sign of the first time derivative
        of overlap ``j`` that is not negligible against the same derivative of all
        overlaps, along the field of ``mode``."""
        A, b, _ = self.field(mode)
        f = A @ y + b
        C = self.s["C"]
        for _ in range(len(y) + 1):
            d = C @ f
            scale = float(np.max(np.abs(d)))
            if scale == 0.0:
                return 0
            if abs(d[j]) > 1e-9 * scale:
                return 1 if d[j] > 0 else -1
            f = A @ f
        return 0

    def decide(self, y, mode: str, contacts) -> str:
        """The mode after ``contacts`` reached their surfaces at ``y`` from ``mode``."""
        trial = list(mode)
        for j in contacts:
            trial[j] = CLOSED
        trial = "".join(trial)
        new = list(mode)
        for j in contacts:
            s = self.direction(j, y, trial)
            if s != 0:
                new[j] = CLOSED if s > 0 else OPEN
        return "".join(new)

    def start(self, t0, y0):
        y = np.asarray(y0, dtype=float)
        g = self.overlaps(y)
        tol = 1e-12 * (1.0 + float(np.max(np.abs(y))))
        mode = mode_name(g > tol)
        on = [j for j, gi in enumerate(g) if abs(gi) <= tol]
        if on:
            mode = self.decide(y, mode, on)
        return mode, y, [], None

    def switch(self, t, y, mode, guard):
        new = self.decide(y, mode, sorted(guard.target))
        if new == mode:
            return mode, y, None
        changed = [j for j in range(self.K) if new[j] != mode[j]]
        kinds = {"contact-begin" if new[j] == CLOSED else "contact-end" for j in changed}
        kind = kinds.pop() if len(kinds) == 1 else "contact-switch"
        return new, y, Event(float(t), kind, mode, new, tuple(y))

    def check(self, y, mode: str, switching, t):
        """RuntimeError if a contact other than ``switching`` lies beyond its surface at the
        end of a segment (a crossing the guard search missed), beyond rounding."""
        G = np.where(closed_mask(mode), -1.0, 1.0) * self.overlaps(y)
        tol = 256 * np.finfo(float).eps * (1.0 + float(np.max(np.abs(y[:len(y) // 2]))))
        bad = [j for j in np.nonzero(G > tol)[0] if j not in switching]
        if bad:
            raise RuntimeError(f"contacts: at t = {t:.17g} contact(s) {[self.model.contacts[j] for j in bad]} "
                               f"crossed their surface unnoticed (overlaps {self.overlaps(y)[bad]}); raise "
                               "samples_per_period")

    def separated(self, y, mode: str) -> bool:
        """Every contact open and none approaching: free flight forever."""
        return CLOSED not in mode and bool(np.all(self.rates(y) <= 0.0))


class ContactNetworkSolver:
    """Exact event-driven reference for contact networks (see module docstring).

    Options: ``samples_per_period`` (guard samples per period of the fastest mode,
    default 32), ``stop_when_separated`` (default True) and the mode-loop options
    ``max_events``, ``zeno_window``, ``max_seconds``.
    """

    name = "contacts"

    def __init__(self, samples_per_period: int = 32, stop_when_separated: bool = True, **loop):
        if not (isinstance(samples_per_period, int) and samples_per_period >= 4):
            raise ValueError(f"samples_per_period must be an integer >= 4, got {samples_per_period!r}")
        self.spp = samples_per_period
        self.stop = bool(stop_when_separated)
        self.loop = loop_options(*(loop.pop(k, None) for k in ("max_events", "zeno_window", "max_seconds")))
        if loop:
            raise ValueError(f"unknown option(s) {sorted(loop)} for solver 'contacts'")

    def solve(self, model, values: dict, y0, t_span, samples: int = 1001) -> Solution:
        """Solve ``model`` at parameter ``values`` from ``y0`` over ``t_span``; the
        Solution is resampled on ``samples`` uniform times of its span (plus the events)."""
        logic = ContactLogic(model, model.linear_system(values))
        t0, t_end = map(float, t_span)
        loop = ModeLoop(logic, (t0, t_end), label=self.name, **self.loop)
        stats = {"nfev": 0, "njev": 0, "nsteps": 0, "nroots": 0}
        state = {"stop": None}

        def segment(mode, t, y):
            if self.stop and logic.separated(y, mode):
                state["stop"] = t
                return Segment(mode, t, t, None, y.copy(), y.copy()), None
            flow = logic.field(mode)[2]
            s_hit, contacts = self._first_crossing(logic, mode, flow, y, t_end - t, t, stats)
            s1 = t_end - t if s_hit is None else s_hit
            y1 = flow(np.array([s1]), y)[:, 0]
            logic.check(y1, mode, contacts, t + s1)
            dense = (lambda tt, ys=y.copy(), ta=t, fl=flow: _dense(fl, tt, ta, ys))
            seg = Segment(mode, t, t + s1, dense, y.copy(), y1)
            return seg, (None if s_hit is None else _Guard(frozenset(contacts)))

        segments, events = loop.run(np.asarray(y0, dtype=float), segment)
        t_stop = state["stop"] if state["stop"] is not None else t_end
        if len(segments) > 1 and segments[-1].t1 == segments[-1].t0:
            segments = segments[:-1]
        stats.update(nevents=len(events))
        sol = Solution(model, dict(values), self.name, segments, events, stats,
                       {"rtol": 0.0, "atol": 0.0, "method": "exact affine flows (scipy expm), brentq roots"},
                       (t0, t_stop), "separated" if state["stop"] is not None else "reached t_end")
        span_end = segments[-1].t1
        sol.resample(np.linspace(t0, span_end, samples) if span_end > t0 else np.array([t0]))
        return sol

    def _first_crossing(self, logic, mode, flow, y, span, t, stats, chunk=256):
        """``(s, contacts)``: the first time in ``(0, span]`` where a contact reaches its
        surface (closing contacts upwards, closed ones downwards) and every contact
        reaching it within :data:`SIMULTANEOUS`; ``(None, ())`` if none does."""
        sign = np.where(closed_mask(mode), -1.0, 1.0)[:, None]  # G = sign xi fires at G >= 0
        omega = flow.omega
        n_int = 1 if omega == 0.0 else max(1, int(np.ceil(span * omega / (2 * np.pi) * self.spp)))
        h = span / n_int
        for k0 in range(0, n_int, chunk):
            s = h * np.arange(k0, min(n_int, k0 + chunk) + 1)
            if k0 + chunk >= n_int:
                s[-1] = span
            Y = flow(s, y)
            stats["nsteps"] += len(s) - 1
            G, dG = sign * logic.overlaps(Y), sign * logic.rates(Y) * h
            if k0 == 0:  # on the surface just switched (G >= 0 by rounding only): leaving it
                G[:, 0] = np.where(G[:, 0] >= 0, -np.finfo(float).tiny, G[:, 0])
            cross = (G[:, :-1] < 0) & (G[:, 1:] >= 0)
            cross |= _hermite_excursions(G[:, :-1], G[:, 1:], dG[:, :-1], dG[:, 1:])
            cols = np.nonzero(cross.any(axis=0))[0]
            for k in cols:
                found = self._roots(logic, flow, y, sign[:, 0], np.nonzero(cross[:, k])[0], s[k], s[k + 1], stats)
                if found:
                    s_min = min(found.values())
                    tol = SIMULTANEOUS * max(s_min, abs(t) + s_min, 1e-300)
                    return s_min, [j for j, sj in found.items() if sj - s_min <= tol]
        return None, ()

    def _roots(self, logic, flow, y, sign, hits, a, b, stats):
        """Roots of the guards ``hits`` in ``[a, b]`` (refined on a finer grid where a
        guard only grazes its surface inside the interval)."""
        C, c = logic.s["C"], logic.s["c"]

        def G(s, j):
            return sign[j] * float(C[j] @ flow(np.array([s]), y)[:, 0] + c[j])

        noise = 256 * np.finfo(float).eps * (1.0 + float(np.max(np.abs(y[:len(y) // 2]))))
        out = {}
        for j in hits:
            lo, hi = a, b
            g_lo, g_hi = G(lo, j), G(hi, j)
            if not (g_lo < 0 <= g_hi) or (a == 0.0 and g_hi < noise):
                grid = np.linspace(a, b, 65)
                if a == 0.0:  # a contact leaving its surface at the start and returning
                    grid = np.concatenate([b * 0.5 ** np.arange(60, 6, -1), grid[1:]])
                vals = np.array([G(s, j) for s in grid])
                # from the start, only a return beyond rounding counts
                beyond = np.nonzero(vals >= (noise if a == 0.0 else 0.0))[0]
                neg = np.nonzero(vals < 0)[0]
                if not len(beyond) or not len(neg) or neg[0] > beyond[-1]:
                    continue
                first = beyond[beyond > neg[0]][0]
                i0 = neg[neg < first][-1]
                i1 = i0 + 1 + int(np.argmax(vals[i0 + 1:first + 1] >= 0))
                lo, hi = grid[i1 - 1], grid[i1]
            out[int(j)] = brentq(lambda s: G(s, j), lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps)
            stats["nroots"] += 1
        return out


def _hermite_excursions(G0, G1, dG0, dG1):
    """Guards negative at both ends of an interval whose cubic Hermite interpolant (values
    and derivatives times the step) rises to >= 0 inside it (a graze): a boolean array."""
    s = np.linspace(0.0, 1.0, 17)[1:-1, None, None]
    h00, h10 = 2 * s ** 3 - 3 * s ** 2 + 1, s ** 3 - 2 * s ** 2 + s
    h01, h11 = -2 * s ** 3 + 3 * s ** 2, s ** 3 - s ** 2
    H = h00 * G0 + h10 * dG0 + h01 * G1 + h11 * dG1
    return (G0 < 0) & (G1 < 0) & np.any(H >= 0, axis=0)


class ModalFlow:
    """The exact flow of ``x' = v, v' = -K x - G v + f`` (states ``y = (x, v)``) by modal
    decomposition (see the module docstring); ``flow(s, y0)`` -> states ``(2n, len(s))``.

    Raises
    ------
    ValueError
        If ``(A, b)`` is not of that form with symmetric, commuting ``K`` and ``G``.
    """

    def __init__(self, A, b):
        n2 = len(b)
        n = n2 // 2
        K, G, f = -A[n:, :n], -A[n:, n:], b[n:]
        scale = max(float(np.max(np.abs(K))), 1e-300)
        gscale = max(float(np.max(np.abs(G))), 1e-300)
        if (n2 != 2 * n or np.any(A[:n, :n]) or np.any(b[:n]) or not np.array_equal(A[:n, n:], np.eye(n))
                or not np.allclose(K, K.T, rtol=0, atol=1e-12 * scale)
                or not np.allclose(G, G.T, rtol=0, atol=1e-12 * gscale)):
            raise ValueError("the contact network is not x' = v, v' = -K x - G v + f with symmetric K, G")
        lam, Q = np.linalg.eigh(K / scale + np.pi * G / gscale)  # a generic combination: common eigenvectors
        kappa = np.einsum("ij,ik,kj->j", Q, K, Q)
        g = np.einsum("ij,ik,kj->j", Q, G, Q)
        off = Q.T @ K @ Q - np.diag(kappa)
        goff = Q.T @ G @ Q - np.diag(g)
        if np.max(np.abs(off), initial=0) > 1e-9 * scale or np.max(np.abs(goff), initial=0) > 1e-9 * gscale:
            raise ValueError("stiffness and damping do not commute (no classical damping): no modal flow")
        self.n, self.Q = n, Q
        self.free = np.abs(kappa) <= 1e-12 * scale
        self.kappa = np.where(self.free, 0.0, kappa)
        self.beta = np.where(self.free, 0.0, g / 2)
        self.phi = Q.T @ f
        self.q_eq = np.where(self.free, 0.0, self.phi / np.where(self.free, 1.0, self.kappa))
        self.mu = np.sqrt((self.beta ** 2 - self.kappa).astype(complex))
        self.omega = float(np.max(np.sqrt(np.abs(self.kappa)), initial=0.0)) if n else 0.0

    def __call__(self, s, y0):
        s = np.asarray(s, dtype=float)[None, :]
        n, Q = self.n, self.Q
        q0, p0 = Q.T @ y0[:n], Q.T @ y0[n:]
        z0, dz0 = (q0 - self.q_eq)[:, None], p0[:, None]
        beta, kap, mu = self.beta[:, None], self.kappa[:, None], self.mu[:, None]
        ep, em = np.exp((mu - beta) * s), np.exp(-(mu + beta) * s)
        ch = (ep + em) / 2                                   # e^(-beta s) cosh(mu s)
        small = np.abs(mu * s) < 1e-6
        sh = np.where(small, np.exp(-beta * s) * s * (1 + (mu * s) ** 2 / 6),
                      (ep - em) / (2 * np.where(small, 1.0, mu)))  # e^(-beta s) sinh(mu s)/mu
        q = (z0 * ch + (dz0 + beta * z0) * sh).real + self.q_eq[:, None]
        p = (dz0 * ch - (kap * z0 + beta * dz0) * sh).real
        fr = self.free[:, None]
        phi = self.phi[:, None]
        q = np.where(fr, q0[:, None] + p0[:, None] * s + phi * s ** 2 / 2, q)
        p = np.where(fr, p0[:, None] + phi * s, p)
        return np.vstack([Q @ q, Q @ p])


def _dense(flow, tt, t0, y0):
    tt = np.asarray(tt, dtype=float)
    return flow(np.atleast_1d(tt).ravel() - t0, y0).reshape((len(y0),) + tt.shape)
