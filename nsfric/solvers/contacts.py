"""Exact event-driven reference for rigid bodies with exact static friction at every
contact: any :class:`~nsfric.symbolic.contacts.ContactModel` -- the pile of case
``km-pile`` (:class:`~nsfric.papers.krengel_matuttis.pile_model.DiscPile`), the rotating block with one
contact per corner (:class:`~nsfric.papers.krengel_matuttis.block_corners.BlockCorners`, law
``coulomb-corners`` of ``slope-block-rotating``).

A mode gives each contact one character: ``o`` open, ``s`` stuck, ``+``/``-`` sliding
(:func:`~nsfric.symbolic.contacts.field`: the stuck contacts' forces from one linear system
per evaluation).  :class:`PileLogic` holds what the event-driven solver here and the DAE
solver (:mod:`nsfric.solvers.contacts_dae`) share:

**Guards** (positive inside the mode, an event where one reaches zero from above):
closed contact ``F_n`` (opens where the repulsive force vanishes); open contact
``-min(xi, F_n)`` (closes where both the overlap and the force turn positive); sliding
``sign * v_t`` (the relative velocity reaches zero); stuck ``mu F_n - |lam|`` (the force
reaches the Coulomb bound).  A guard that starts a mode at zero (a contact that has
just opened or begun to slide) is armed once it has turned positive.

**Decision** (:meth:`PileLogic.decide`, :mod:`nsfric.solvers.contact_modes`): the
contacts whose normal guard fired open or close; the stick/slip mode of every closed
contact with ``v_t = 0`` is chosen together, by a complementarity solve (the planar
friction LCP of those contacts, Lemke's algorithm, polynomial in their number; the
enumeration of all ``3^k`` assignments is kept as ``decision="enumerate"``, the
cross-check): the consistent mode with the most stuck contacts.  None consistent is a
:class:`~nsfric.errors.ZenoError` (a Painlevé-type paradox).  The
state is then projected onto ``J_S v = 0`` (the ``M``-orthogonal projection: the
exact solution has ``v_t = 0`` there; the projection removes the event location's
rounding).  At the start, contacts touching with a non-negative force start closed,
decided in the same way (unless the model must start open, ``starts_open``).

:class:`PileSolver` integrates a mode with scipy's DOP853 stepper and checks the guards
on each step's dense output (``checks`` points per step); a sign change is located by
Brent's method on the dense output.  A model with ``project_steps`` (nearly parallel
stuck contacts) has each step of a mode with stuck contacts projected onto ``J_S v =
0`` (the projection method for an invariant: the exact solution lies on it).  The mode bookkeeping is the shared
:class:`~nsfric.solvers.loop.ModeLoop`.
"""
from __future__ import annotations

import numpy as np
from scipy.integrate import DOP853
from scipy.optimize import brentq

from nsfric.solution import Event, Segment, Solution
from nsfric.symbolic.contacts import OPEN, SLIP_SIGN, STICK, acceleration_scale, external_force, field, mass_vector
from nsfric.solvers.base import ReferenceSolver, check_reference, register
from nsfric.solvers.loop import ModeLoop, loop_options
from nsfric.solvers.contact_modes import CONSISTENT, ModeDecision, check_decision  # noqa: F401 (CONSISTENT re-exported)


class PileLogic(ModeDecision):
    """Guards, decisions and projections of a :class:`~nsfric.symbolic.contacts.ContactModel`
    at parameter ``values`` (see the module docstring); ``decision`` is the method of the
    stick/slip decision (:mod:`~nsfric.solvers.contact_modes`: ``lcp`` or ``enumerate``)."""

    def __init__(self, model, values: dict, decision: str = "lcp"):
        self.decision = check_decision(decision)
        #: the LCP decisions: solves, Lemke pivots, failed checks, contacts repaired
        self.lcp_stats = {"solves": 0, "pivots": 0, "rechecks": 0, "repairs": 0}
        self.model, self.values = model, dict(values)
        self.p = model.param_vector(values)
        self.Minv = 1.0 / mass_vector(model, values)
        self.gravity = external_force(model, values)
        self.accel_scale = acceleration_scale(model, values)
        self.mu = float(values["mu"])
        self.K = model.K
        self.counts = {}
        #: modes whose stuck contacts are dependent (least-squares forces), with those contacts
        self.dependent = {}

    def field(self, y, mode):
        """``(dy/dt, lam, F_t, c)`` of ``mode`` at ``y``."""
        return field(self.model, y, self.p, self.Minv, self.gravity, mode, self.mu, mode in self.dependent)

    def rhs(self, y, mode):
        return self.field(y, mode)[0]

    def guards(self, y, mode, lam=None):
        """The ``2 K`` guards: normal ones, then tangential ones (``1`` where inactive);
        ``lam`` (the stuck forces) is taken from the field unless given (the DAE's own)."""
        dy, lam_f, _, c = self.field(y, mode)
        lam = lam_f if lam is None else lam
        F_n, xi, v_t = c["F_n"], c["xi"], c["v_t"]
        g = np.ones(2 * self.K)
        for i, ch in enumerate(mode):
            if ch == OPEN:
                g[i] = -min(xi[i], F_n[i])
                continue
            g[i] = F_n[i]
            if ch == STICK:
                g[self.K + i] = self.mu * F_n[i] - abs(lam[i])
            else:
                g[self.K + i] = SLIP_SIGN[ch] * v_t[i]
        return g

    def project(self, y, mode):
        """``y`` with its velocities projected ``M``-orthogonally onto ``J_S v = 0``."""
        S = [i for i, ch in enumerate(mode) if ch == STICK]
        if not S:
            return y
        n = self.model.n
        J = self.field(y, mode)[3]["J_t"][S]
        v = y[n:]
        A = (J * self.Minv) @ J.T
        mult = np.linalg.lstsq(A, J @ v, rcond=1e-12)[0]
        return np.concatenate([y[:n], v - self.Minv * (J.T @ mult)])

    # -- the ModeLoop interface -----------------------------------------------------------
    def start(self, t0, y0):
        """The first mode: a contact touching with a non-negative force (``xi >= 0`` and
        ``F_n >= 0``, its closing guard at or below zero) starts closed, its stick/slip
        mode decided as at an event; a model that must start open raises ValueError."""
        y = np.asarray(y0, dtype=float)
        mode = OPEN * self.K
        c = self.field(y, mode)[3]
        touching = [i for i in range(self.K) if c["xi"][i] >= 0 and c["F_n"][i] >= 0]
        if touching and self.model.starts_open:
            raise ValueError(f"{self.model.name.split('/')[0]} starts with every contact open: "
                             "raise h_1, h_3 or s_w above 0")
        if touching:
            mode = self.decide(y, mode, touching, t0)
            self.check_dependent(y, mode)
            y = self.project(y, mode)
        return mode, y, [], None

    def switch(self, t, y, mode, fired):
        new = self.decide(y, mode, fired, t)
        if new == mode:
            return mode, y, None
        self.check_dependent(y, new)
        y = self.project(y, new)
        kind = _kind(mode, new)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return new, y, Event(float(t), kind, mode, new, tuple(y))


def _kind(old, new):
    """Event kind: ``contact-begin``/``contact-end``, ``stick``, ``slip``, or ``switch``
    when several kinds happen at once."""
    kinds = set()
    for a, b in zip(old, new):
        if a == b:
            continue
        if OPEN in (a, b):
            kinds.add("contact-begin" if a == OPEN else "contact-end")
        elif b == STICK:
            kinds.add("stick")
        elif a == STICK:
            kinds.add("slip")
        else:
            kinds.add("reversal")
    return kinds.pop() if len(kinds) == 1 else "switch"


class _Piecewise:
    """Dense output of one segment: the steps' interpolants, evaluated at ``tt``."""

    def __init__(self):
        self.t, self.f = [], []

    def add(self, t1, dense):
        self.t.append(t1)
        self.f.append(dense)

    def __call__(self, tt):
        tt = np.atleast_1d(np.asarray(tt, dtype=float))
        idx = np.minimum(np.searchsorted(self.t, tt, side="left"), len(self.f) - 1)
        out = np.empty((len(self.f[0](self.t[0])), len(tt)))
        for k in np.unique(idx):
            sel = idx == k
            out[:, sel] = self.f[k](tt[sel])
        return out


class PileOptions:
    """Tolerances and mode-loop options shared by the multi-contact solvers."""

    name = "pile"

    def __init__(self, rtol, atol, loop: dict, decision="lcp"):
        self.decision = check_decision(decision)
        self.rtol, self.atol = float(rtol), float(atol)
        if not (self.rtol > 0 and self.atol > 0):
            raise ValueError(f"rtol and atol must be > 0, got {rtol!r}, {atol!r}")
        self.loop = loop_options(*(loop.pop(k, None) for k in ("max_events", "zeno_window", "max_seconds")))
        if loop:
            raise ValueError(f"unknown option(s) {sorted(loop)} for solver {self.name!r}")

    def start(self, model, values, t_span):
        """The shared :class:`PileLogic` and :class:`~nsfric.solvers.loop.ModeLoop` of a run."""
        logic = PileLogic(model, values, self.decision)
        return logic, ModeLoop(logic, t_span, label=self.name, **self.loop)


class PileSolver(PileOptions):
    """Event-driven exact reference for a multi-contact model (see the module docstring).

    Options: ``rtol`` (default 1e-12), ``atol`` (default 1e-15), ``checks`` (guard
    samples per step, default 4), ``decision`` (``lcp`` or ``enumerate``, the stick/slip
    decision at events) and the mode-loop options.
    """

    name = "pile-events"

    def __init__(self, rtol=1e-12, atol=1e-15, checks=4, decision="lcp", **loop):
        super().__init__(rtol, atol, loop, decision)
        if not (isinstance(checks, int) and checks >= 1):
            raise ValueError(f"checks must be an integer >= 1, got {checks!r}")
        self.checks = checks

    def solve(self, model, values, y0, t_span, t_eval) -> Solution:
        logic, loop = self.start(model, values, t_span)
        stats = {"nfev": 0, "njev": 0, "nsteps": 0, "nroots": 0}
        t_end = float(t_span[1])

        def segment(mode, t, y):
            fun = (lambda tt, yy: (stats.__setitem__("nfev", stats["nfev"] + 1), logic.rhs(yy, mode))[1])
            step = DOP853(fun, t, y, t_end, rtol=self.rtol, atol=self.atol)
            dense = _Piecewise()
            g_prev = logic.guards(y, mode)
            armed = g_prev > 0
            project = self.project_steps(logic, mode)
            first = True
            while step.status == "running":
                t_a = step.t
                step.step()
                stats["nsteps"] += 1
                if project and step.status != "failed":
                    step.y = logic.project(step.y, mode)
                    step.f = logic.rhs(step.y, mode)
                d = step.dense_output()
                dense.add(step.t, d)
                s_grid = np.linspace(t_a, step.t, self.checks + 1)
                for s_prev, s in zip(s_grid[:-1], s_grid[1:]):
                    g = logic.guards(d(s), mode)
                    starts = {int(i): s_prev for i in np.nonzero(armed & (g <= 0))[0]}
                    if first:  # a guard that started at zero may rise and return before this check
                        starts.update(self._risen(logic, mode, d, t, s, np.nonzero(~armed & (g <= 0))[0]))
                        first = False
                    if starts:
                        return self._located(logic, mode, d, dense, t, y, starts, s, stats)
                    armed |= g > 0
            return Segment(mode, t, step.t, dense, y.copy(), step.y.copy()), None

        segments, events = loop.run(np.asarray(y0, dtype=float), segment)
        stats["nevents"] = len(events)
        sol = Solution(model, dict(values), self.name, segments, events, stats,
                       {"rtol": self.rtol, "atol": self.atol, "method": "DOP853 per mode, brentq guards"},
                       tuple(map(float, t_span)))
        sol.info["event_counts"] = dict(logic.counts)
        sol.info["decisions"] = dict(logic.lcp_stats)
        sol.resample(t_eval)
        return sol

    @staticmethod
    def project_steps(logic, mode) -> bool:
        """Whether the steps of ``mode`` are projected onto ``J_S v = 0``: for a model
        that asks for it (``model.project_steps``, e.g. nearly parallel stuck contacts
        whose forces amplify rounding) in a mode with stuck contacts."""
        return bool(getattr(logic.model, "project_steps", False)) and STICK in mode

    #: halvings of the first check interval scanned for a guard that started at zero
    SCAN = 40

    @classmethod
    def _risen(cls, logic, mode, d, t0, s, idx) -> dict:
        """``{guard: a}`` for the guards ``idx`` that started the mode at zero (unarmed) and
        are not positive at the first check ``s`` but were at some ``a`` in ``(t0, s)``:
        they rose and returned to zero in between (a corner that lifts off and lands again
        inside one long step of a smooth flight: DOP853 steps over the whole flight, the
        checks can straddle the corner's short lift).  ``a`` is the latest of the points
        ``t0 + (s - t0) 2^-k``, ``k = 1..SCAN``, where the guard is positive."""
        if not len(idx):
            return {}
        pts = t0 + (s - t0) * 2.0 ** -np.arange(1, cls.SCAN + 1)
        out = {}
        for a in pts:
            g = logic.guards(d(a), mode)
            for i in idx:
                if int(i) not in out and g[i] > 0:
                    out[int(i)] = float(a)
        return out

    @staticmethod
    def _located(logic, mode, d, dense, t0, y0, starts, b, stats):
        """The segment up to the first guard root and the guards firing there; guard ``i``
        is searched in ``[starts[i], b]``."""
        roots = {}
        for i, a in starts.items():
            gi = (lambda s, i=i: logic.guards(d(s), mode)[i])
            roots[int(i)] = brentq(gi, a, b, xtol=1e-300, rtol=4 * np.finfo(float).eps) \
                if gi(a) > 0 else a
            stats["nroots"] += 1
        t1 = min(roots.values())
        tol = 1e-12 * max(1.0, abs(t1))
        fired = sorted(i for i, r in roots.items() if r - t1 <= tol)
        y1 = d(t1)
        seg = Segment(mode, t0, t1, dense, y0.copy(), y1.copy())
        return seg, fired


class ContactReference(ReferenceSolver):
    """A registered reference solver of multi-contact models (capability ``contacts``,
    :class:`~nsfric.symbolic.contacts.ContactModel`): runs :attr:`solver` with the
    tolerances given, else the model's ``default_tolerances[tolerance_key]``, else the
    solver's defaults, and the mode-loop options."""

    needs = "contacts"
    #: the multi-contact solver class it runs
    solver = None
    #: the key of the model's ``default_tolerances`` that applies
    tolerance_key = ""

    def _solve(self, problem, t_eval=None) -> Solution:
        model = problem.model
        check_reference(model)
        tolerances = {"rtol": self.rtol, "atol": self.atol,
                      **getattr(model, "default_tolerances", {}).get(self.tolerance_key, {}), **self.given_tolerances}
        return self.solver(**tolerances, **self.options, **self.loop_options).solve(
            model, problem.params, problem.y0, problem.t_span, t_eval)


@register
class ContactEvents(ContactReference):
    """Event-driven exact reference of multi-contact models (stick, slip, lift-off per contact)."""

    name = "pile-events"
    solver = PileSolver
    tolerance_key = "events"
    options_allowed = ("checks", "decision")
    default_rtol, default_atol = 1e-12, 1e-15
