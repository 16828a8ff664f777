"""Checks of Krengel & Matuttis: the Filippov multiplier (eqs 7-13), exact static
friction (eq 14), and the tangency of every derived sliding field (eqs 9-11).

They read the derived quantities the solvers use: ``DerivedModel.modes[name].outputs
['lam']`` and ``['F']``, ``.rhs``, ``sigma_expr`` -- for the dry-friction oscillator by
default, and for every registered case model in :func:`sliding_field_tangent`.
"""
from __future__ import annotations

import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.derive import derive
from nsfric.symbolic.checks._base import Proof, check


_OSC = {"derived": "`derive(get_case('dry-oscillator').model('coulomb'))` "
                   "(law `tangential.coulomb_static()`)"}


def eq12_lambda(a_I, a_II):
    """``lam = a_I/(a_I + a_II)``, eq 12."""
    return a_I / (a_I + a_II)


def eq13_lambda(f_I, f_II):
    """1D form ``lam = f_I/(f_I - f_II)``, eq 13."""
    return f_I / (f_I - f_II)


def eq14_external_force():
    """The external force of the dry oscillator (eq 3), ``f_ext = -k x``; eq 14 says the
    static friction force is ``-f_ext``."""
    return -L.k * L.x


def oscillator_model(law=None):
    """The dry-friction oscillator ``m x'' = F - k x`` with ``law`` (default: the
    registered case model ``dry-oscillator/coulomb``)."""
    if law is None:
        from nsfric.papers.krengel_matuttis.systems import dry_oscillator
        return dry_oscillator("coulomb")
    from nsfric.papers.krengel_matuttis.systems import oscillator
    return couple(oscillator(), tangential=law, name=f"dry-oscillator/{law.name}")


def _filippov_modes(d):
    return [s for s in d.model.slidings if s.kind == "filippov"]


def _positive(expr):
    """``expr`` with the nonnegative parameters made positive (to decide signs)."""
    subs = {s: sp.Symbol(s.name, positive=True) for s in expr.free_symbols
            if s.is_nonnegative and not s.is_positive}
    return expr.subs(subs)


@check("filippov-lambda", "KM eqs 7-13",
       "Filippov lam = a_I/(a_I + a_II) keeps g = 0, reduces to f_I/(f_I - f_II) in 1D, and "
       "lies in [0, 1] exactly when both fields push into the surface (dry oscillator)",
       defaults=_OSC)
def filippov_lambda(derived=None, eq12=eq12_lambda, eq13=eq13_lambda):
    """On the dry oscillator's derived sticking mode: a_I = grad g . f_I and
    a_II = -grad g . f_II (eqs 7-8, f = right-hand side); the derived lam satisfies
    grad g . ((1 - lam) f_I + lam f_II) = 0 identically (eqs 10-11), equals eq 12 and
    -- g being the velocity, grad g = e_v -- eq 13 with f the force per mass.  For
    [0, 1]: lam (a_I + a_II) = a_I and (1 - lam)(a_I + a_II) = a_II identically, and
    a_I + a_II = -2 mu F_N/m is negative (SymPy, mu F_N > 0), so lam >= 0 <=> a_I <= 0
    and lam <= 1 <=> a_II <= 0: both fields push in (case 2).  (In general lam is in
    [0, 1] iff a_I a_II >= 0, which includes case 3, both repelling; here case 3 cannot
    occur.)  Finally SymPy solves a_I <= 0 and a_II <= 0 for x: together |x| <= mu F_N/k,
    the sticking segment of Fig 1."""
    d, p = derived or derive(oscillator_model()), Proof()
    modes = _filippov_modes(d)
    p.holds(bool(modes), "the model has a Filippov sliding mode")
    for sl in modes:
        grad = d.grad(sl.surface)
        fI, fII = d.modes[sl.plus].rhs, d.modes[sl.minus].rhs
        lam = d.modes[sl.name].outputs["lam"]
        a_I = sum(g * f for g, f in zip(grad, fI))
        a_II = -sum(g * f for g, f in zip(grad, fII))
        p.zero(sum(g * ((1 - lam) * a + lam * b) for g, a, b in zip(grad, fI, fII)),
               f"{sl.name}: grad g . f(lam) = 0 (constraint kept)")
        p.zero(lam - eq12(a_I, a_II), f"{sl.name}: lam = a_I/(a_I + a_II) (eq 12)")
        ig = d.y.index(sl.algebraic)
        p.zero(lam - eq13(fI[ig], fII[ig]), f"{sl.name}: lam = f_I/(f_I - f_II) (eq 13)")
        p.zero(lam * (a_I + a_II) - a_I, f"{sl.name}: lam (a_I + a_II) = a_I")
        p.zero((1 - lam) * (a_I + a_II) - a_II, f"{sl.name}: (1 - lam)(a_I + a_II) = a_II")
        D = _positive(sp.cancel(a_I + a_II))
        p.holds(D.is_negative, f"{sl.name}: a_I + a_II < 0, so lam in [0,1] <=> a_I <= 0 and a_II <= 0",
                f"a_I + a_II = {D} has no definite negative sign")
        if L.x in d.y:
            pos = _positive(L.mu * L.F_N / L.k)
            for a, want, label in ((a_I, sp.Interval(-pos, sp.oo), "a_I <= 0 <=> x >= -mu F_N/k"),
                                   (a_II, sp.Interval(-sp.oo, pos), "a_II <= 0 <=> x <= mu F_N/k")):
                got = sp.solve_univariate_inequality(_positive(a) <= 0, L.x, relational=False)
                p.holds(got == want, f"{sl.name}: {label}", f"got x in {got}")
    return p


@check("static-friction-compensates", "KM eq 14",
       "At x' = 0 the Filippov friction force compensates the external force exactly: "
       "F = k x, x'' = 0, and |F| <= mu F_N <=> lam in [0, 1] (dry oscillator)",
       defaults=_OSC)
def static_friction(derived=None, f_ext=eq14_external_force):
    """On the dry oscillator's derived sticking mode: the derived force output F equals
    -f_ext = k x identically (eq 14), the derived acceleration is 0 identically, and
    F = F_I + lam (F_II - F_I) with F_II - F_I = 2 mu F_N > 0: F runs monotonically from
    -mu F_N (lam = 0) to +mu F_N (lam = 1), so |F| <= mu F_N (eq 2) exactly on
    lam in [0, 1]."""
    d, p = derived or derive(oscillator_model()), Proof()
    modes = _filippov_modes(d)
    p.holds(bool(modes), "the model has a Filippov sliding mode")
    for sl in modes:
        mode = d.modes[sl.name]
        F = mode.outputs["F"]
        p.zero(F + f_ext(), f"{sl.name}: F = -f_ext (eq 14)")
        p.zero(mode.rhs[d.y.index(sl.algebraic)], f"{sl.name}: total acceleration f(x' = 0, lam) = 0")
        F_I, F_II = d.modes[sl.plus].outputs["F"], d.modes[sl.minus].outputs["F"]
        lam = mode.outputs["lam"]
        p.zero(F - (F_I + lam * (F_II - F_I)), f"{sl.name}: F = F_I + lam (F_II - F_I)")
        p.holds(_positive(sp.cancel(F_II - F_I)).is_positive, f"{sl.name}: F_II - F_I > 0",
                f"F_II - F_I = {F_II - F_I}")
        p.zero(F_I + L.mu * L.F_N, f"{sl.name}: F(lam = 0) = -mu F_N")
        p.zero(F_II - L.mu * L.F_N, f"{sl.name}: F(lam = 1) = +mu F_N")
    return p


def case_models():
    """``[(label, DerivedModel)]`` for every law of every system (the cases' models)."""
    from nsfric.symbolic.systems import all_models
    return [(label, derive(model)) for label, model in all_models()]


@check("sliding-field-tangent", "KM eqs 9-11",
       "Every derived sliding field is tangent to its switching surface, grad h . f_slide = 0 "
       "(every sliding mode of every registered case model)",
       defaults={"models": "`derive(case.model(law))` for every registered case and law"})
def sliding_field_tangent(models=None):
    """For every registered case and law, the model is derived (``derive``) and for each
    sliding mode -- Filippov convex combination or D-SDS constrained mode -- the
    directional derivative grad h . f of its switching function along the derived
    sliding right-hand side reduces to 0 identically (expand/cancel)."""
    models, p = models if models is not None else case_models(), Proof()
    n = 0
    for label, d in models:
        for sl in d.model.slidings:
            n += 1
            rhs = d.modes[sl.name].rhs
            p.zero(sum(g * f for g, f in zip(d.grad(sl.surface), rhs)),
                   f"{label} {sl.name}: grad {sl.surface} . f = 0")
    p.holds(n > 0, f"{n} sliding modes in {len(models)} models", "no sliding modes found")
    return p
