"""Derivation: from a declared :class:`HybridModel` to every quantity a solver needs.

For each mode: the full right-hand side and its Jacobian; for each switching
function ``h``: ``h``, ``grad h`` and the indicators ``sigma = grad h . f`` of the
neighbouring regions; for each sliding mode on ``h = 0``:

* the multiplier ``lam = sigma_plus / (sigma_plus - sigma_minus)`` (Krengel & Matuttis
  eq 12 with ``a_I = sigma_plus``, ``a_II = -sigma_minus``; eq 13 in 1D) and the
  Filippov field ``(1 - lam) f_plus + lam f_minus`` (eq 9); the algebraic state's
  rate is taken from ``d h/dt = 0`` so that the constraint holds *exactly*;
* for constrained modes, the algebraic state's rate from ``d h/dt = 0`` and the reset
  map ``y_a <- solve(h = 0, y_a)`` (the D-SDS eq 3);
* exit guards: leave towards the plus region when ``sigma_plus`` becomes positive,
  towards the minus region when ``sigma_minus`` becomes negative (``lam`` leaving
  [0, 1]);
* for a ``graze`` mode inside a constrained mode (the cap) towards a region: the cap's
  exit indicator ``G`` (positive inside the cap, :meth:`DerivedModel.graze_indicator`),
  its rates ``a = grad G . f_cap`` and ``b = grad G . f_region``, the multiplier ``lam =
  a/(a - b)`` and the field ``(1 - lam) f_cap + lam f_region`` (the Filippov
  combination on ``G = 0`` within the cap's surface), the algebraic state's rate from
  ``d h/dt = 0``; exit guards ``a`` (to the cap) and ``-b`` (to the region);
* the DAE residual ``F(y, y', lam) = 0`` used with Assimulo: ``y' - f`` for regions;
  for sliding modes the algebraic state's equation is replaced by ``h(y) = 0`` and the
  multiplier's by ``grad h . f_lam = 0`` (index 1 in ``(y_a, lam)``).

All of it is SymPy, turned into numeric functions by :func:`nsfric.symbolic.codegen.generate`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import sympy as sp

from .codegen import generate
from .frozen import FrozenModel, IterationMatrix, Reshaped, region_at
from .laws import lam as LAM
from .mode_fields import cancel_held, with_mode_signs
from .model import HybridModel, Region, Sliding, has_multiplier
from .normal import real_abs, step_sign

_YP = sp.Symbol("_yp")
#: the look-ahead time of :meth:`DerivedModel.one_sided` (an argument of the generated code)
_DT = sp.Symbol("_dt")


def _cancel(e, states=()):
    """:func:`~nsfric.symbolic.mode_fields.cancel_held`: ``sp.cancel`` with the gaps of
    ``states`` held whole (up to its :data:`~nsfric.symbolic.mode_fields.CANCEL_LIMIT` operations)."""
    return cancel_held(e, states)


@dataclass
class Guard:
    """Leave the current mode when ``expr`` crosses zero upwards (``expr < 0`` inside).

    ``target`` is a mode name, or ``("surface", name)`` for a decision made at the
    surface from the neighbouring fields.
    """

    expr: sp.Expr
    target: object
    label: str


@dataclass
class SymbolicMode:
    """Everything derived, symbolically, for one mode."""

    name: str
    sliding: Sliding | None
    rhs: list
    outputs: dict
    guards: list
    residual: list = field(default_factory=list)  # in y, y' (yp_*), lam


class DerivedModel:
    """Symbolic derivations of a :class:`HybridModel` and their compiled functions.

    Numeric functions take ``(y, p)`` with ``y`` ordered as ``model.states`` and
    ``p`` as ``model.params``; they are generated lazily and cached.
    """

    def __init__(self, model: HybridModel, backend: str = "numpy"):
        self.model = model
        self.backend = backend
        self.y = list(model.states)
        self.p = [q.symbol for q in model.params]
        self.yp = [sp.Symbol(f"yp_{s.name}") for s in self.y]
        self.n = len(self.y)
        self._memo = {}  # sigma and reset expressions: derived (simplified) once, not per call
        self._numeric = {}  # compiled functions, built once per mode
        self.modes: dict[str, SymbolicMode] = {}
        for r in model.regions:
            self.modes[r.name] = self._region(r)
        for s in model.slidings:  # a graze mode after the cap it lies in
            if s.kind != "graze":
                self.modes[s.name] = self._sliding(s)
        for s in model.slidings:
            if s.kind == "graze":
                self.modes[s.name] = self._graze(s)

    # -- symbolic ---------------------------------------------------------------
    def grad(self, surface: str):
        h = self.model.switching[surface]
        return [sp.diff(h, s) for s in self.y]

    def sigma_expr(self, surface: str, region: str):
        """Indicator ``grad h . f_region`` (Krengel & Matuttis eqs 7-8)."""
        key = ("sigma", surface, region)
        if key not in self._memo:
            r = self.model.mode(region)
            self._memo[key] = _cancel(sum(g * r.rhs[s] for g, s in zip(self.grad(surface), self.y)), self.y)
        return self._memo[key]

    def sigma2_expr(self, surface: str, region: str):
        """Second derivative ``d2h/dt2 = grad(grad h . f) . f`` along ``region``'s field:
        the sign that decides a tangential contact (``sigma = 0``) with the surface
        (Piiroinen & Kuznetsov 2008, the second-order exit test)."""
        key = ("sigma2", surface, region)
        if key not in self._memo:
            r, s1 = self.model.mode(region), self.sigma_expr(surface, region)
            self._memo[key] = _cancel(sum(sp.diff(s1, y) * r.rhs[y] for y in self.y), self.y)
        return self._memo[key]

    def _region(self, r: Region) -> SymbolicMode:
        missing = [s for s in self.y if s not in r.rhs]
        if missing:
            raise ValueError(f"region {r.name!r} lacks rates for {missing}")
        rhs = [sp.sympify(r.rhs[s]) for s in self.y]
        outs = dict(self.model.common_outputs)
        outs.update(r.outputs)
        if has_multiplier(self.model):
            outs["lam"] = sp.Integer(0)
        guards = []
        for name, sign in r.signs.items():
            h = self.model.switching[name]
            guards.append(Guard(-sign * h, ("surface", name), f"{name}->0"))
        residual = [yp - f for yp, f in zip(self.yp, rhs)]
        return SymbolicMode(r.name, None, self._smooth(rhs, r.signs), outs, guards, residual)

    def _smooth(self, rhs, signs):
        """``rhs`` with the kinks whose sign the mode's ``signs`` fix resolved
        (:func:`~nsfric.symbolic.mode_fields.with_mode_signs`): the same field inside the
        mode, smooth across its own boundary, so that a step crosses it and the event is
        located on the step's dense output.  The DAE residuals keep the kinks (their
        solvers locate them as events)."""
        return with_mode_signs(rhs, signs, self.model.switching, self.y, self._memo.setdefault("signs", {}))

    def _algebraic_rate(self, s: Sliding, rates: dict):
        grad = self.grad(s.surface)
        a = s.algebraic
        ia = self.y.index(a)
        if grad[ia] == 0:
            raise ValueError(f"sliding mode {s.name!r}: surface does not depend on {a}")
        rest = sum(g * rates[y] for g, y in zip(grad, self.y) if y != a)
        return _cancel(-rest / grad[ia], self.y)

    def _sliding(self, s: Sliding) -> SymbolicMode:
        h = self.model.switching[s.surface]
        outs = dict(self.model.common_outputs)
        if s.kind == "filippov":
            if s.plus is None or s.minus is None:
                raise ValueError(f"Filippov mode {s.name!r} needs both neighbours")
            fp, fm = self.model.mode(s.plus), self.model.mode(s.minus)
            sp_, sm = self.sigma_expr(s.surface, s.plus), self.sigma_expr(s.surface, s.minus)
            lam_expr = _cancel(sp_ / (sp_ - sm), self.y)
            rates = {y: _cancel((1 - lam_expr) * fp.rhs[y] + lam_expr * fm.rhs[y], self.y) for y in self.y}
            for key in set(fp.outputs) & set(fm.outputs):
                outs[key] = _cancel((1 - lam_expr) * fp.outputs[key] + lam_expr * fm.outputs[key], self.y)
            outs["lam"] = lam_expr
            # residual with lam as unknown
            f_lam = {y: (1 - LAM) * fp.rhs[y] + LAM * fm.rhs[y] for y in self.y}
            lam_res = sum(g * f_lam[y] for g, y in zip(self.grad(s.surface), self.y))
        elif s.kind == "constrained":
            rates = {y: sp.sympify(e) for y, e in s.rhs.items()}
            outs.update(s.outputs)
            if has_multiplier(self.model):
                outs["lam"] = sp.Integer(0)
            f_lam, lam_res = rates, LAM
        else:
            raise ValueError(f"sliding kind must be 'filippov', 'constrained' or 'graze', got {s.kind!r}")
        rates[s.algebraic] = self._algebraic_rate(s, rates)
        rhs = self._smooth([rates[y] for y in self.y], self._shared_signs(s))
        guards = []
        if s.plus is not None and s.exits:
            guards.append(Guard(self.sigma_expr(s.surface, s.plus), s.plus, f"exit->{s.plus}"))
        if s.minus is not None and s.exits:
            guards.append(Guard(-self.sigma_expr(s.surface, s.minus), s.minus, f"exit->{s.minus}"))
        guards += self._shared_guards(s)
        residual = []
        for y, yp in zip(self.y, self.yp):
            residual.append(h if y == s.algebraic else yp - f_lam[y])
        residual.append(lam_res)
        return SymbolicMode(s.name, s, rhs, outs, guards, residual)

    def _shared_signs(self, s: Sliding) -> dict:
        """The signs of the switching functions other than ``s``'s surface that both
        neighbours of ``s`` share and that do not involve its algebraic state."""
        sides = [self.model.mode(r).signs for r in (s.plus, s.minus) if r is not None]
        return {n: sgn for n, sgn in sides[0].items() if n != s.surface and all(o.get(n) == sgn for o in sides)
                and not self.model.switching[n].has(s.algebraic)}

    def graze_indicator(self, s: Sliding):
        """``G`` of the graze mode ``s``: the exit indicator of its cap ``s.plus`` towards
        the region ``s.minus`` -- ``grad h . f_region`` signed to be positive inside the
        cap (the region's field would carry the state beyond the cap's surface, so the cap
        holds it), zero where the cap is left."""
        key = ("graze", s.name)
        if key not in self._memo:
            cap = self.model.mode(s.plus)
            side = 1 if cap.plus == s.minus else -1
            self._memo[key] = -side * self.sigma_expr(s.surface, s.minus)
        return self._memo[key]

    def _graze(self, s: Sliding) -> SymbolicMode:
        """The graze mode ``s`` (module docstring): the Filippov combination of the cap's
        and the region's fields on ``G = 0`` inside the cap's surface ``h = 0``."""
        cap, region = self.modes[s.plus], self.modes[s.minus]
        G = self.graze_indicator(s)
        dG = [sp.diff(G, y) for y in self.y]
        a = _cancel(sum(g * f for g, f in zip(dG, cap.rhs)), self.y)
        b = _cancel(sum(g * f for g, f in zip(dG, region.rhs)), self.y)
        lam_expr = _cancel(a / (a - b), self.y)
        rates = {y: _cancel((1 - lam_expr) * fc + lam_expr * fr, self.y)
                 for y, fc, fr in zip(self.y, cap.rhs, region.rhs)}
        rates[s.algebraic] = self._algebraic_rate(s, rates)
        outs = {key: _cancel((1 - lam_expr) * cap.outputs[key] + lam_expr * region.outputs[key], self.y)
                for key in cap.outputs if key in region.outputs}
        outs["lam"] = lam_expr
        guards = [Guard(a, s.plus, f"exit->{s.plus}"), Guard(-b, s.minus, f"exit->{s.minus}")]
        guards += self._shared_guards(self.model.mode(s.plus))
        h = self.model.switching[s.surface]
        f_lam = {y: (1 - LAM) * fc + LAM * fr for y, fc, fr in zip(self.y, cap.rhs, region.rhs)}
        residual = [h if y == s.algebraic else yp - f_lam[y] for y, yp in zip(self.y, self.yp)]
        residual.append((1 - LAM) * a + LAM * b)  # dG/dt = 0: index 1 in lam
        return SymbolicMode(s.name, s, [rates[y] for y in self.y], outs, guards, residual)

    def _shared_guards(self, s: Sliding) -> list:
        """Guards of the other switching functions whose sign both neighbours of ``s``
        share and that do not involve its algebraic state: a sliding (sticking) mode ends
        where the contact ends (the normal law's ``h -> 0`` of a coupled model) or the
        velocity reverses, as its regions do.  A function of the algebraic state is
        another face of the same slider (the D-SDS's ``|F_S| = F_max``), held by the
        constraint."""
        shared = self._shared_signs(s)
        return [Guard(-sgn * self.model.switching[n], ("surface", n), f"{n}->0") for n, sgn in shared.items()]

    def reset_expr(self, sliding: str):
        """Projection onto the sliding surface: ``y_a = solve(h = 0, y_a)``."""
        if ("reset", sliding) in self._memo:
            return self._memo[("reset", sliding)]
        s = self.model.mode(sliding)
        h = self.model.switching[s.surface]
        # the |u| and sign(u) free of the algebraic state are constants of the solve: held
        # as symbols, so that solve keeps them (it turned Kuwabara-Kono's sqrt(|delta|) into
        # sqrt(delta), NaN just beyond the contact end where a DAE solver's event lies)
        held = {a: sp.Dummy() for a in h.atoms(real_abs, step_sign) if not a.has(s.algebraic)}
        back = {d: a for a, d in held.items()}
        sol = sp.solve(sp.Eq(h.xreplace(held), 0), s.algebraic, dict=True)
        sol = [{k: sp.sympify(v).xreplace(back) for k, v in r.items()} for r in sol]
        if len(sol) == 1:
            value = sol[0][s.algebraic]
        elif len(sol) > 1 and s.kind == "filippov":
            # a curved surface (|F| = mu F_N in the plane) has no single root: the state is
            # on it up to round-off when a Filippov mode is entered, and its field keeps
            # dh/dt = 0, so it is left as it is
            value = s.algebraic
        else:
            raise ValueError(f"sliding mode {sliding!r}: h = 0 has {len(sol)} solutions for {s.algebraic}")
        self._memo[("reset", sliding)] = [value if y == s.algebraic else y for y in self.y]
        return self._memo[("reset", sliding)]

    def jacobian_expr(self, mode: str):
        return sp.Matrix(self.modes[mode].rhs).jacobian(self.y)

    # -- numeric -------------------------------------------------------------------
    def _gen(self, exprs, args=None):
        return generate(exprs, args or (self.y, self.p), self.backend)

    def _numeric_fn(self, key, build):
        """Numeric functions are built once per derived model (symbolic work included)."""
        if key not in self._numeric:
            self._numeric[key] = build()
        return self._numeric[key]

    @cached_property
    def h(self):
        names = list(self.model.switching)
        return names, self._gen([self.model.switching[n] for n in names])

    def rhs(self, mode: str):
        return self._numeric_fn(("rhs", mode), lambda: self._gen(self.modes[mode].rhs))

    def jac(self, mode: str):
        return self._numeric_fn(("jac", mode),
                                lambda: Reshaped(self._gen(list(self.jacobian_expr(mode))), (self.n, self.n)))

    def guards(self, mode: str):
        gs = self.modes[mode].guards
        return gs, self._numeric_fn(("guards", mode), lambda: self._gen([g.expr for g in gs]) if gs else None)

    def rate_expr(self, expr, mode: str):
        """``d expr/dt = grad expr . f_mode`` along ``mode``'s field."""
        return sum(sp.diff(expr, y) * fy for y, fy in zip(self.y, self.modes[mode].rhs))

    def guard_rates(self, mode: str):
        """Time derivatives ``grad g . f_mode`` of the mode's guards along its own field."""
        def build():
            gs = self.modes[mode].guards
            return self._gen([self.rate_expr(g.expr, mode) for g in gs]) if gs else None
        return self._numeric_fn(("guard_rates", mode), build)

    def kinks(self, mode: str) -> list:
        """The arguments ``u`` of the absolute values and signs in ``mode``'s guards
        (``mu |F_n|`` of a friction limit): where ``u = 0`` a guard's rate jumps (a
        ``|u|`` kink) or the guard itself jumps (an indicator ``grad h . f`` holding
        ``sign(u) du/dt``).  An excursion of a guard across its surface can hide between
        two integrator steps there (the stick region ``|F_S| < mu |F_n|`` closes where
        ``F_n = 0``), so the DAE solvers locate ``u = 0`` as an event."""
        key = ("kinks", mode)
        if key not in self._memo:
            found = []
            for g in self.modes[mode].guards:
                for a in sorted(g.expr.atoms(real_abs, step_sign), key=sp.default_sort_key):
                    if not a.args[0].is_number and a.args[0] not in found:
                        found.append(a.args[0])
            self._memo[key] = found
        return self._memo[key]

    def kink_values(self, mode: str):
        """``u(y, p)`` of :meth:`kinks` (``None`` where the guards have none)."""
        us = self.kinks(mode)
        return self._numeric_fn(("kink_values", mode), lambda: self._gen(us) if us else None)

    def one_sided(self, what: str, *key):
        """A decision quantity with the forward one-sided derivative at the kinks.

        ``what`` is ``"sigma"`` or ``"sigma2"`` (key ``surface, region``), ``"guards"``
        or ``"guard_rates"`` (key ``mode``).  Their expressions hold ``sign(u)`` where
        they differentiate ``|u|`` (``d|u|/dt = sign(u) du/dt``), which at ``u = 0`` is
        neither one-sided rate; the forward one is ``|du/dt|``.  Each ``sign(u)`` becomes
        ``sign(u + dt du/dt)`` (``du/dt`` along the field of the region or mode whose
        quantity it is), the sign ``u`` takes within the look-ahead time ``dt`` (the time
        resolution of a located event): unchanged where ``u`` is farther from zero than
        that, ``sign(du/dt)`` at a kink.  Returns ``f(y, p, [dt])``, or ``None`` when
        the expressions hold no sign (the plain function is the same)."""
        def build():
            if what in ("sigma", "sigma2"):
                surface, field = key
                exprs = [(self.sigma_expr if what == "sigma" else self.sigma2_expr)(surface, field)]
            elif what in ("guards", "guard_rates"):
                field = key[0]
                exprs = [g.expr for g in self.modes[field].guards]
                exprs = [self.rate_expr(e, field) for e in exprs] if what == "guard_rates" else exprs
            else:
                raise ValueError(f"what must be 'sigma', 'sigma2', 'guards' or 'guard_rates', got {what!r}")
            signs = set().union(set(), *(sp.sympify(e).atoms(step_sign) for e in exprs))
            if not signs:
                return None
            ahead = {s: step_sign(s.args[0] + _DT * self.rate_expr(s.args[0], field)) for s in signs}
            return self._gen([sp.sympify(e).xreplace(ahead) for e in exprs], (self.y, self.p, [_DT]))
        return self._numeric_fn(("one_sided", what) + key, build)

    def sigma(self, surface: str, region: str):
        return self._numeric_fn(("sigma", surface, region),
                          lambda: self._gen([self.sigma_expr(surface, region)]))

    def sigma2(self, surface: str, region: str):
        return self._numeric_fn(("sigma2", surface, region),
                                lambda: self._gen([self.sigma2_expr(surface, region)]))

    def reset(self, sliding: str):
        return self._numeric_fn(("reset", sliding), lambda: self._gen(self.reset_expr(sliding)))

    def region_reset(self, region: str):
        """The reset map of a region with one (``Region.reset``): ``y -> y`` with the
        reset states replaced."""
        r = self.model.mode(region)
        return self._numeric_fn(("region_reset", region),
                                lambda: self._gen([sp.sympify(r.reset.get(s, s)) for s in self.y]))

    def outputs(self, mode: str):
        names = list(self.model.output_names)

        def build():
            outs = self.modes[mode].outputs
            missing = [k for k in names if k not in outs]
            if missing:
                raise ValueError(f"mode {mode!r} does not define outputs {missing}")
            return self._gen([outs[k] for k in names])
        return names, self._numeric_fn(("outputs", mode), build)

    def residual(self, mode: str):
        """``r(y, yp, lam, p)``: the DAE residual of ``mode`` (length ``n + 1``)."""
        def build():
            res = self.modes[mode].residual
            if len(res) == self.n:
                res = res + [LAM]
            return generate(res, (self.y, self.yp, [LAM], self.p), self.backend)
        return self._numeric_fn(("residual", mode), build)

    def residual_jacobian(self, mode: str):
        """``J(c, y, yp, lam, p) = dF/dY + c dF/dY'`` of the DAE residual, ``Y = (y, lam)``,
        derived symbolically (the iteration matrix IDA and Radau5 need)."""
        def build():
            res = list(self.modes[mode].residual)
            if len(res) == self.n:
                res = res + [LAM]
            Y, YP = self.y + [LAM], self.yp + [sp.Symbol("yp_lam")]
            c = sp.Symbol("c_j")
            J = sp.Matrix(res).jacobian(Y) + c * sp.Matrix(res).jacobian(YP)
            f = generate(list(J), ([c], self.y, self.yp, [LAM], self.p), self.backend)
            return IterationMatrix(f, (self.n + 1, self.n + 1))
        return self._numeric_fn(("residual_jacobian", mode), build)

    def switching_values(self, y, p):
        return self.h[1](y, p)

    def region_at(self, y, p, override: dict | None = None, tol: float = 0.0):
        """Name of the region whose sign pattern holds at ``y`` (with ``override``
        forcing the sign of some switching functions), or ``None``."""
        names, f = self.h
        return region_at(self.model.regions, names, f(y, p), override, tol)


def derive(model: HybridModel, backend: str = "numpy") -> DerivedModel:
    """The :class:`DerivedModel` of ``model`` (derived once per model and backend).

    The derivation is stored on the model object itself, so it lives exactly as long
    as the model does.
    """
    if isinstance(model, FrozenModel):  # restored from the disk cache: the symbolic model's
        model = model.symbolic  # derivation (the filippov solver asks the FrozenModel itself)
    cache = model.__dict__.setdefault("_derived", {})
    if backend not in cache:
        cache[backend] = DerivedModel(model, backend)
    return cache[backend]


def param_vector(model: HybridModel, values: dict) -> np.ndarray:
    return model.param_vector(values)
