"""What a law supplies to a discrete scheme: its rates by mode and its per-step adjustment.

A fixed-step scheme evaluates ``f(u)`` at states ``u`` that need not lie on the exact
trajectory.  :class:`DiscreteField` answers, from the :class:`DerivedModel` alone (no
formula is restated here):

* the *mode* of a state: the region whose sign pattern holds (``region_at``); a state
  in a forbidden region (the D-SDS ``|F_S| > F_max``) belongs to the constrained
  sliding mode of that side; a state exactly on a surface is decided by the shared
  :class:`~nsfric.solvers.switching.ModeLogic`;
* the rates ``f(u)`` of that mode -- for a constrained sliding mode, ``rhs(sliding)``
  at the projected state ``reset(sliding)(u)`` (the D-SDS eq 3);
* the adjustment of a regular assignment ``u_new = u_base + c h f(u_eval)``: when
  ``u_eval`` slides on a constrained mode, the algebraic state of ``u_new`` is not
  integrated but set by the reset map applied to ``u_eval`` (Führer et al. eq 3; for
  explicit Euler this is eq 18, ``xi_{i+1} = -(gamma v_i - F_max)/k``);
* implicit assignments ``u = u_base + c h f(u)``: the mode's DAE residual
  (``DerivedModel.residual``) with ``u' = (u - u_base)/(c h)``, solved by Newton with
  the symbolic Jacobian; the mode is found by an active-set loop (regions first, the
  sliding mode when the neighbouring region's solution is forbidden);
* Taylor coefficients ``u^(j)`` (Lie derivatives of the mode's field) to start
  Nordsieck (Gear) schemes;
* the split of the states into positions and velocities for partitioned schemes (a
  state whose rate, in some region, is another state is a position).

:class:`FrozenField` is the same interface with the mode fixed and no adjustment (the
smooth field of one mode continued across its boundary), used by the event-aware
schemes between events.  :class:`RateField` holds the assignments of a field that
never adjusts a state; the delta approximation
(:class:`~nsfric.schemes.delta.DeltaAdjustment`) is such a field, whose adjustment is
in its rates.  Every scheme reaches the law only through its field, so every
adjustment is a hook any scheme applies.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..memo import Identity, Memo
from ..solvers.switching import ModeLogic
from .codecache import is_index_list, store

#: one evaluation of the field: rates ``k``, the ``mode`` used, and the projected state
#: ``proj`` (``reset(mode)(u)``) when ``mode`` is a constrained sliding mode, else None
Eval = namedtuple("Eval", "k mode proj")


class Diverged(ArithmeticError):
    """A scheme produced a non-finite state (unstable step size)."""


def partition(model):
    """Indices ``(positions, velocities)`` of the states of ``model``.

    A state is a position when, in some region, its rate is another state (``xi' = v``
    while sticking, ``x' = v``); the other states are velocities.  Raises ValueError
    when the model has no such state.
    """
    import sympy as sp

    model = getattr(model, "symbolic", model)  # a FrozenModel restored from the disk cache
    names = list(model.states)
    pos = []
    for s in names:
        for r in model.regions:
            rate = sp.simplify(sp.sympify(r.rhs[s]))
            if rate in names and rate != s:
                pos.append(names.index(s))
                break
    if not pos:
        raise ValueError(f"model {model.name!r} has no position/velocity split "
                         "(no state whose rate is another state); partitioned schemes need one")
    vel = [i for i in range(len(names)) if i not in pos]
    return np.array(pos), np.array(vel)


class _Compiled:
    """Numeric pieces shared by DiscreteField and FrozenField (one per model): the
    derived model's functions, and the schemes' own (Newton, Taylor, the split) from
    the disk cache where it holds them (:mod:`nsfric.schemes.codecache`)."""

    def __init__(self, model):
        d = model.derived()  # a FrozenModel's: restored from the disk cache
        self.d = d
        self.model = model
        self.store = store(model)
        names = list(model.state_names)
        self.n = len(names)
        self.rhs = {m: d.rhs(m) for m in model.mode_names}
        self.constrained = {s.name for s in model.slidings if s.kind == "constrained"}
        self.reset = {s: d.reset(s) for s in self.constrained}
        self.alg = {s.name: names.index(str(s.algebraic)) for s in model.slidings}
        self.h_names, self.h = d.h
        hidx = {n: i for i, n in enumerate(self.h_names)}
        self.regions = [(r.name, [(hidx[k], int(sg)) for k, sg in r.signs.items()])
                        for r in model.regions]
        self.forbidden = []
        for s in model.slidings:
            if s.kind == "constrained":
                if s.plus is None:
                    self.forbidden.append((s.name, hidx[s.surface], 1))
                if s.minus is None:
                    self.forbidden.append((s.name, hidx[s.surface], -1))
        self._newton = {}
        self._taylor = {}
        self._split = None

    def newton_functions(self, mode):
        """Residual and its Jacobians (in y, y', lam) of ``mode``, compiled once."""
        if mode not in self._newton:
            self._newton[mode] = (self.store.function(("residual", mode), lambda d: d.residual(mode)),
                                  self.store.function(("newton-jacobian", mode), lambda d: _newton_jacobian(d, mode)))
        return self._newton[mode]

    def taylor_function(self, mode, q):
        """``y -> [y', y'', ..., y^(q)]`` along ``mode``'s field (Lie derivatives)."""
        key = (mode, q)
        if key not in self._taylor:
            self._taylor[key] = self.store.function(("taylor", mode, q), lambda d: _taylor(d, mode, q))
        return self._taylor[key]

    @property
    def split(self):
        if self._split is None:
            def make(d):
                try:
                    return [p.tolist() for p in partition(self.model)]
                except ValueError as e:
                    return str(e)
            v = self.store.value(("split",), make, lambda v: isinstance(v, str) or (
                len(v) == 2 and all(is_index_list(x, self.n) for x in v)))
            if isinstance(v, str):
                raise ValueError(v)
            self._split = tuple(np.array(x) for x in v)
        return self._split


def _newton_jacobian(d, mode):
    """The Jacobians of ``mode``'s residual (with ``lam``) in y, y' and lam, flat."""
    import sympy as sp

    from ..symbolic.codegen import generate
    from ..symbolic.laws import lam as LAM

    res = list(d.modes[mode].residual)
    if len(res) == d.n:
        res.append(LAM)
    M = sp.Matrix(res)
    jac = list(M.jacobian(d.y)) + list(M.jacobian(d.yp)) + list(M.jacobian([LAM]))
    return generate(jac, (d.y, d.yp, [LAM], d.p))


def _taylor(d, mode, q):
    """``y -> [y', ..., y^(q)]`` of ``mode``'s field, generated (Lie derivatives)."""
    import sympy as sp

    from ..symbolic.codegen import generate

    f = sp.Matrix(d.modes[mode].rhs)
    out, cur = [], f
    for _ in range(q):
        out.append(cur)
        cur = cur.jacobian(d.y) * f
    return generate([e for col in out for e in col], (d.y, d.p))


_COMPILED = Memo(32, "nsfric.schemes.field.compiled")


def _compiled(model) -> _Compiled:
    return _COMPILED.get(Identity(model), lambda: _Compiled(model))


class DiscreteField:
    """A law's rates and adjustments for fixed-step schemes (see module docstring).

    Counts right-hand-side evaluations in ``n_rhs`` and Jacobian evaluations in
    ``n_jac``.  ``stagewise``: the adjustment sets states assignment by assignment, so
    Runge-Kutta schemes run in Führer et al.'s assignment form.
    """

    frozen_mode = None
    stagewise = True

    def __init__(self, model, params: dict):
        self.model = model
        self.params = dict(params)
        self.c = _compiled(model)
        self.d = self.c.d
        self.p = model.param_vector(self.params)
        self.logic = ModeLogic(self.d, self.p)
        self.n_rhs = 0
        self.n_jac = 0

    # -- modes ------------------------------------------------------------------------
    def mode(self, u) -> str:
        """The mode a scheme uses at ``u`` (region, forbidden side, or surface decision)."""
        c = self.c
        hv = c.h(u, self.p)
        for name, pattern in c.regions:
            if all(sg * hv[i] > 0 for i, sg in pattern):
                return name
        for name, i, side in c.forbidden:
            if side * hv[i] > 0:
                return name
        for i, hname in enumerate(c.h_names):
            if hv[i] == 0:
                return self.logic.decide(hname, np.asarray(u, dtype=float), None)
        if not np.all(np.isfinite(u)):
            raise Diverged(f"non-finite state {u}")
        raise ValueError(f"state {u} lies in no mode of {self.model.name!r}")

    def is_constrained(self, mode) -> bool:
        return mode in self.c.constrained

    # -- explicit assignments ---------------------------------------------------------------
    def f(self, u) -> Eval:
        """Rates at ``u`` by its mode (projected first on a constrained sliding mode)."""
        mode = self.mode(u)
        self.n_rhs += 1
        if mode in self.c.constrained:
            proj = self.c.reset[mode](u, self.p)
            return Eval(self.c.rhs[mode](proj, self.p), mode, proj)
        return Eval(self.c.rhs[mode](u, self.p), mode, None)

    def trial(self, u) -> Eval:
        """The trial (elastic predictor) rates at ``u``: the rates of the region a
        constrained sliding mode borders, at ``u`` itself (not projected), so the
        algebraic state (the D-SDS ``xi``) is integrated as in its sticking region --
        LAMMPS's ``shear += vtr dt`` before the cap.  In a region: :meth:`f`."""
        mode = self.mode(u)
        if mode in self.c.constrained:
            mode = self._neighbour_region(mode)
        self.n_rhs += 1
        return Eval(self.c.rhs[mode](u, self.p), mode, None)

    def histories(self) -> list:
        """Indices of the algebraic states of the constrained sliding modes (the D-SDS
        ``xi``): the states a constrained mode resets."""
        return sorted({self.c.alg[s] for s in self.c.constrained})

    def return_map(self, u, ev: Eval):
        """``u`` with the algebraic state of ``ev``'s constrained mode set from the
        projected evaluation state ``ev.proj`` (the cap's history reset); ``u`` itself
        when ``ev`` is no constrained evaluation."""
        if ev.proj is None:
            return u
        u = np.array(u, dtype=float)
        a = self.c.alg[ev.mode]
        u[a] = ev.proj[a]
        return u

    def apply(self, base, hc, ev: Eval, comps=None):
        """``u_new = base + hc * ev.k`` (only ``comps`` if given; the others copied from
        ``base``), then the adjustment: on a constrained mode the algebraic state of
        ``u_new`` is set from the projected evaluation state (Führer et al. eq 3).

        Returns ``(u_new, adjusted)``.
        """
        if comps is None:
            u_new = base + hc * ev.k
        else:
            u_new = np.array(base, dtype=float)
            u_new[comps] += hc * ev.k[comps]
        if ev.proj is not None:
            a = self.c.alg[ev.mode]
            if comps is None or a in comps:
                u_new[a] = ev.proj[a]
                return u_new, True
        return u_new, False

    def assign(self, base, hc, u_eval, comps=None):
        """A regular assignment ``u_new = base + hc f(u_eval)`` with its adjustment.

        Returns ``(u_new, ev, adjusted)``.
        """
        ev = self.f(u_eval)
        u_new, adj = self.apply(base, hc, ev, comps)
        return u_new, ev, adj

    # -- implicit assignments ----------------------------------------------------------------
    def newton(self, mode, base, hc, guess, tol=1e-13, max_iter=30):
        """Solve ``mode``'s residual ``R(u, (u - base)/hc, lam) = 0`` by Newton.

        Converged when the update is below ``tol`` (relative) or the residual has
        dropped by 13 orders of magnitude (one step suffices for an affine mode).
        """
        res, jac = self.c.newton_functions(mode)
        n = self.c.n
        z = np.append(np.asarray(guess, dtype=float), 0.0)
        r0 = None
        A = np.empty((n + 1, n + 1))
        for _ in range(max_iter):
            u = z[:n]
            up = (u - base) / hc
            r = res(u, up, z[n:], self.p)
            self.n_rhs += 1
            rn = float(np.abs(r).max())
            if r0 is None:
                r0 = rn
                if rn == 0.0:
                    return z[:n]
            elif rn <= 1e-13 * r0 or rn <= 1e-15 * (1.0 + np.abs(up).max() + np.abs(u).max()):
                return z[:n]
            J = jac(u, up, z[n:], self.p)
            self.n_jac += 1
            m = (n + 1) * n
            A[:, :n] = J[:m].reshape(n + 1, n) + J[m:2 * m].reshape(n + 1, n) / hc
            A[:, n] = J[2 * m:]
            try:
                dz = np.linalg.solve(A, -r)
            except np.linalg.LinAlgError:
                raise RuntimeError(f"implicit step: singular Newton matrix in mode {mode!r}") from None
            z = z + dz
            if np.abs(dz).max() <= tol * (1.0 + np.abs(z).max()):
                return z[:n]
        raise RuntimeError(f"implicit step: Newton did not converge in mode {mode!r}")

    def jumped(self, mode, u_old, tol=1e-12) -> bool:
        """True when a step in ``mode`` from ``u_old`` cannot be continuous: ``mode`` is
        a constrained sliding mode and ``u_old`` is off its surface."""
        if mode not in self.c.constrained:
            return False
        s = self.model.mode(mode)
        hv = self.c.h(u_old, self.p)[self.c.h_names.index(s.surface)]
        return abs(hv) > tol * (1.0 + float(np.max(np.abs(u_old))))

    def _neighbour_region(self, mode):
        s = self.model.mode(mode)
        return s.plus if s.plus is not None else s.minus

    def solve(self, base, hc, guess):
        """An implicit assignment ``u = base + hc f(u)`` with the law's adjustment.

        Active set: solve in the region of ``guess``; if the solution lies in another
        region, solve there; if it lies in a forbidden region (or two regions send the
        solution to each other across a surface with a sliding mode), solve the sliding
        mode's residual -- for the D-SDS the algebraic state then satisfies eq 3 at the
        new state (the implicit D-SDS).  Returns ``(u_new, mode)``.
        """
        mode = self.mode(guess)
        if self.model.is_sliding(mode):
            mode = self._neighbour_region(mode) or mode
        seen = []
        u = None
        for _ in range(2 * len(self.model.mode_names) + 2):
            u = self.newton(mode, base, hc, guess if u is None else u)
            if self.model.is_sliding(mode):
                return u, mode
            new = self.mode(u)
            if new == mode:
                return u, mode
            seen.append(mode)
            if self.model.is_sliding(new):
                mode = new
            elif new in seen:  # two regions point at each other: slide between them
                sl = self._sliding_between(mode, new)
                if sl is None:
                    return u, mode
                mode = sl
            else:
                mode = new
        return u, mode

    def _sliding_between(self, a, b):
        for s in self.model.slidings:
            if {s.plus, s.minus} == {a, b}:
                return s.name
        return None

    # -- Taylor coefficients (Nordsieck start) --------------------------------------------------
    def taylor(self, u, q):
        """``(mode, D)`` with ``D[j-1] = u^(j)``, ``j = 1..q``, at ``u`` along its mode's
        field (evaluated at the projected state on a constrained mode); counts one rhs
        evaluation per derivative."""
        mode = self.mode(u)
        if mode in self.c.constrained:
            u = self.c.reset[mode](u, self.p)
        self.n_rhs += q
        return mode, self.c.taylor_function(mode, q)(u, self.p).reshape(q, self.c.n)

    @property
    def split(self):
        return self.c.split

    def frozen(self, mode) -> "FrozenField":
        return FrozenField(self, mode)


class RateField:
    """Assignments of a field that never adjusts a state (its adjustment, if any, is in
    the rates ``f(u)``): ``u_new = base + hc f(u_eval)`` and nothing else.  Subclasses
    define ``f``; ``stagewise`` tells Runge-Kutta schemes which form to run (see
    :mod:`nsfric.schemes.rk`)."""

    stagewise = True

    def apply(self, base, hc, ev, comps=None):
        if comps is None:
            return base + hc * ev.k, False
        u_new = np.array(base, dtype=float)
        u_new[comps] += hc * ev.k[comps]
        return u_new, False

    def assign(self, base, hc, u_eval, comps=None):
        ev = self.f(u_eval)
        u_new, adj = self.apply(base, hc, ev, comps)
        return u_new, ev, adj

    def trial(self, u) -> Eval:
        """The rates at ``u`` (a field without adjustments has no separate predictor)."""
        return self.f(u)

    def histories(self) -> list:
        """No state is reset by this field."""
        return []

    def return_map(self, u, ev):
        return u


class FrozenField(RateField):
    """The field of one mode, continued across its boundary, without adjustments.

    Same interface as :class:`DiscreteField`; evaluations are counted on the parent.
    The last few evaluations are cached, so the end-of-step slope used by the
    event-aware interpolant is reused as the next step's first stage.
    """

    def __init__(self, parent: DiscreteField, mode: str):
        self.parent = parent
        self.frozen_mode = mode
        self.model = parent.model
        self.c = parent.c
        self.p = parent.p
        self._rhs = parent.c.rhs[mode]
        self._cache = {}

    def mode(self, u):
        return self.frozen_mode

    def is_constrained(self, mode):
        return False

    def f(self, u) -> Eval:
        key = np.asarray(u, dtype=float).tobytes()
        k = self._cache.get(key)
        if k is None:
            self.parent.n_rhs += 1
            k = self._rhs(u, self.p)
            if len(self._cache) > 8:
                self._cache.clear()
            self._cache[key] = k
        return Eval(k, self.frozen_mode, None)

    def solve(self, base, hc, guess):
        return self.parent.newton(self.frozen_mode, base, hc, guess), self.frozen_mode

    def jumped(self, mode, u_old):
        return False

    def taylor(self, u, q):
        self.parent.n_rhs += q
        return self.frozen_mode, self.c.taylor_function(self.frozen_mode, q)(u, self.p).reshape(q, self.c.n)

    @property
    def split(self):
        return self.c.split
