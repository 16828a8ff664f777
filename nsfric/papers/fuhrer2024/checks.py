"""Checks of Führer, Brendel & Wolf (2024): the C-SDS (eqs 2, 4-17) and the D-SDS (eqs 3, 18-20).

The checks take the *same* law objects the solvers use (:func:`~nsfric.symbolic.tangential.c_sds`,
:func:`~nsfric.symbolic.tangential.d_sds`, and the sliding-plates model coupled from them) and
compare them with the paper's equations, which are written out once below
(``eq*`` functions).  The tangential-plane (2D) form of the C-SDS is built from the 1D
law by :func:`csds_plane`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic import tangential as T
from nsfric.symbolic.codegen import generate
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import Slider
from nsfric.symbolic.derive import derive
from nsfric.symbolic.checks._base import Proof, check, clean_roots, dot, norm2, rng, unit_circle, vec

xi, v, k, gamma, F_max, m = L.xi, L.v, L.k, L.gamma, L.F_max, L.m
XI, V = vec("xi", real=True), vec("v", real=True)
sigma, t_dir, q_pos, delta = sp.symbols("sigma t q delta", positive=True)
_CSDS = {"law": "`tangential.c_sds()`"}
_DSDS = {"law": "`tangential.d_sds()` in the sliding-plates model "
                "(`get_case('sliding-plates').model('d-sds')`)"}


# -- the paper's statements (vectors are sympy column matrices; 1D = 1-vectors) ----------
def eq2_rate(xi_, v_):
    """Sticking: ``dxi/dt = v``, eq 2."""
    return sp.Matrix(v_)


def eq9_rate(xi_, v_):
    """Sliding: ``dxi/dt = (F_max (k xi + gamma v)/|k xi + gamma v| - k xi)/gamma``, eq 9."""
    u = k * sp.Matrix(xi_) + gamma * sp.Matrix(v_)
    return (F_max * u / sp.sqrt(norm2(u)) - k * sp.Matrix(xi_)) / gamma


def eq10_rate(xi_, v_):
    """Combined: ``dxi/dt = -(min(F_S, F_max) F_S/F_S + k xi)/gamma``, eq 10."""
    FS = L.test_force(sp.Matrix(xi_), sp.Matrix(v_))
    n = sp.sqrt(norm2(FS))
    return -(sp.Min(n, F_max) * FS / n + k * sp.Matrix(xi_)) / gamma


def eq11_residual(xi_, xi_dot, v_, F):
    """Energy balance, eq 11, as ``lhs - rhs``: ``k xi.xi' + gamma xi'^2 - F.s + F.v`` with ``s = v - xi'`` (eq 4)."""
    s = sp.Matrix(v_) - sp.Matrix(xi_dot)
    return k * dot(xi_, xi_dot) + gamma * norm2(xi_dot) - dot(F, s) + dot(F, v_)


def eq17_test_force(s_abs):
    """``F_S = gamma s + F_max``, eq 17 (magnitudes)."""
    return gamma * s_abs + F_max


def eq3_xi_D(v_, direction):
    """D-SDS displacement ``xi_D = -(F_max F_S/|F_S| + gamma v)/k``, eq 3."""
    return -(F_max * direction + gamma * v_) / k


def eq18_xi_next(v_i):
    """Euler D-SDS displacement after a sliding step with ``v_i > 0``, ``-(gamma v_i - F_max)/k``, eq 18."""
    return -(gamma * v_i - F_max) / k


def eq19_test_force(v_i, v_next):
    """``|F_S|(xi_{i+1}, v_{i+1}) = F_max - gamma (v_i - v_{i+1})``, eq 19."""
    return F_max - gamma * (v_i - v_next)


def eq20_threshold():
    """D-SDS sticks for ``v < gamma F_max/(m k)``, eq 20."""
    return gamma * F_max / (m * k)


# -- the statements on a coupled model, for numerical checks along trajectories -----------
def eq17_residual(model, mode: str):
    """``|F_S| - eq 17(|s|)`` in ``mode`` of a sliding-plates model: ``F_S`` its output,
    ``s = v - xi'`` (eq 4) with the mode's own rate from the law.  Zero on the C-SDS's
    slip branches (:func:`csds_test_force` proves it); evaluated along a trajectory it is
    the sanity check of eq 17."""
    s = v - model.mode(mode).rhs[xi]
    return sp.Abs(model.common_outputs["F_S"]) - eq17_test_force(sp.Abs(s))


def reset_threshold(model):
    """The initial velocity ``v(0) > 0`` beyond which the D-SDS starts with a reset
    (eq 3): the root in ``v`` of the law's switching function ``h_minus`` (``F_S =
    -F_max``) of ``model`` at ``xi = xi0`` (``(F_max - k xi0)/gamma``)."""
    xi0 = [q.symbol for q in model.params if q.name == "xi0"][0]
    (root,) = sp.solve(model.switching["h_minus"].subs(xi, xi0), v)
    return root


# -- the C-SDS in the tangential plane, from the 1D law ----------------------------------
@dataclass
class Plane:
    """2D C-SDS built from a 1D law: ``stick`` and ``slips`` are ``(name, F, rate)``."""

    FS: sp.Matrix
    stick: tuple
    slips: list


def _direction(branch) -> int:
    """Sign of ``F_S`` on a slip branch (1D): +1 on ``h_plus > 0``, -1 on ``h_minus < 0``."""
    if branch.signs.get("h_plus") == 1:
        return 1
    if branch.signs.get("h_minus") == -1:
        return -1
    raise ValueError(f"slip branch with signs {branch.signs} has no F_S direction")


def csds_plane(law=None) -> Plane:
    """The C-SDS of ``law`` in the tangential plane.

    Each 1D branch is applied component-wise (``xi -> xi_i``, ``v -> v_i``); on a slip
    branch the slider force ``F_max`` (direction ``d = sign F_S = +-1`` in 1D) becomes
    the vector ``d F_max e_F`` component-wise, ``e_F = F_S/|F_S|``, so that the 1D
    branch is the 2D law restricted to ``e_F = d``.
    """
    law = law or T.c_sds()
    FS = L.test_force(XI, V)
    e = FS / sp.sqrt(norm2(FS))

    def lift(expr, direction=None):
        out = []
        for i in range(len(XI)):
            sub = {xi: XI[i], v: V[i]}
            if direction is not None:
                sub[F_max] = direction * F_max * e[i]
            out.append(sp.sympify(expr).subs(sub, simultaneous=True))
        return sp.Matrix(out)

    stick = [(n, b) for n, b in law.branches.items() if b.kind == "stick"]
    (sname, sb), = stick
    slips = [(n, lift(b.F, _direction(b)), lift(b.rates[xi], _direction(b)))
             for n, b in law.branches.items() if b.kind == "slip"]
    return Plane(FS, (sname, lift(sb.F), lift(sb.rates[xi])), slips)


def _eval_min(expr):
    """``Min(a, b) -> (a + b - |a - b|)/2`` with a factored difference (decides signs)."""
    return expr.replace(sp.Min, lambda a, b: (a + b - sp.Abs(sp.factor(a - b))) / 2)


def _sliding_state(U):
    """Plane state with ``k xi + gamma v = U e`` (``e`` a rational unit vector, ``v`` free)."""
    e = unit_circle(t_dir)
    return e, (U * e - gamma * V) / k


# -- checks 1-4: C-SDS --------------------------------------------------------------------
@check("csds-energy-balance", "F eq 11",
       "k xi.xi' + gamma |xi'|^2 - F.s = -F.v holds identically while sliding "
       "(2D, s = v - xi', F = -F_max e_s)",
       defaults=_CSDS)
def csds_energy_balance(law=None, eq11=eq11_residual):
    """The 2D sliding branches of the law (:func:`csds_plane`) are substituted into
    eq 11; the residual expands to 0 identically in all components of xi and v and in
    k, gamma, F_max.  Also shown: the branch force is F = -F_max e_s with e_s of eq 8,
    and eq 11 holds on the sticking branch (s = 0)."""
    pl, p = csds_plane(law), Proof()
    u = k * XI + gamma * V
    for name, F, rate in pl.slips:
        p.zero(eq11(XI, rate, V, F), f"{name}: eq 11 residual with the law's sliding branch = 0")
        p.equal(clean_roots(F), clean_roots(-F_max * u / sp.sqrt(norm2(u))),
                f"{name}: F = -F_max e_s (eqs 5, 8)")
    name, F, rate = pl.stick
    p.zero(eq11(XI, rate, V, F), f"{name}: eq 11 with s = 0 = 0")
    return p


@check("csds-branches", "F eqs 2, 9, 10",
       "C-SDS: the sticking branch gives xi' = v (eq 2), the sliding branches are eq 9, "
       "and eq 10 combines both (1D and 2D)",
       defaults=_CSDS)
def csds_branches(law=None, eq2=eq2_rate, eq9=eq9_rate, eq10=eq10_rate):
    """1D: stick rate - v = 0; on each slip region, parametrised exactly as
    F_S = d (F_max + gamma sigma), sigma > 0, the branch rate equals eq 9 and eq 10
    (Abs and Min decided by the parametrisation).  2D: the lifted stick rate equals v,
    the lifted slip rates equal eq 9 identically, and eq 10 equals the lifted branch on
    the sliding region |F_S| = F_max + gamma sigma and on the sticking region
    |F_S| = F_max q/(1 + q) (direction a rational unit vector)."""
    law, p = law or T.c_sds(), Proof()
    one = lambda e: sp.Matrix([e])  # noqa: E731
    for name, b in law.branches.items():
        if b.kind == "stick":
            p.equal(one(b.rates[xi]), eq2(one(xi), one(v)), f"1D {name}: xi' = v (eq 2)")
            for d in (1, -1):
                x_r = (-d * F_max * q_pos / (1 + q_pos) - gamma * v) / k
                p.equal(one(b.rates[xi].subs(xi, x_r)), _eval_min(eq10(one(x_r), one(v))),
                        f"1D {name}, F_S = {d:+d} F_max q/(1+q): eq 10")
        else:
            d = _direction(b)
            x_r = (-d * (F_max + gamma * sigma) - gamma * v) / k
            rate = one(b.rates[xi].subs(xi, x_r))
            p.equal(rate, eq9(one(x_r), one(v)), f"1D {name} on its region: eq 9")
            p.equal(rate, _eval_min(eq10(one(x_r), one(v))), f"1D {name} on its region: eq 10")
    pl = csds_plane(law)
    p.equal(pl.stick[2], eq2(XI, V), "2D stick: xi' = v (eq 2)")
    for U, rate in ((F_max + gamma * sigma, pl.slips[0][2]), (F_max * q_pos / (1 + q_pos), pl.stick[2])):
        e, x_r = _sliding_state(U)
        sub = dict(zip(XI, x_r))
        p.equal(clean_roots(rate.subs(sub)), clean_roots(_eval_min(clean_roots(eq10(x_r, V)))),
                f"2D eq 10 on |F_S| = {U}")
    for name, F, rate in pl.slips:
        p.equal(clean_roots(rate), clean_roots(eq9(XI, V)), f"2D {name}: eq 9 identically")
    return p


@check("csds-loading-rate", "F eqs 12-15",
       "C-SDS, 2D: while sliding (F_S > F_max) and loading (xi.xi' > 0), |xi'| < |v|",
       defaults=_CSDS)
def csds_loading_rate(law=None, samples=2000):
    """On the sliding region, parametrised exactly by k xi + gamma v = (F_max + gamma sigma) e
    (sigma > 0, e a rational unit vector, v free), the law's 2D sliding rate gives the
    identities  s = v - xi' = sigma e,  |v|^2 - |xi'|^2 = s (2 v_par - s)  (eq 15) and
    k xi.xi' + gamma |xi'|^2 = F_max (v_par - s)  (eqs 11-13, v_par = e.v).  Loading
    (xi.xi' > 0) thus forces v_par - s > 0; writing v_par = s + delta, delta > 0, SymPy
    decides |v|^2 - |xi'|^2 = s (s + 2 delta) > 0.  A numeric sweep over random sliding,
    loading states cross-checks |xi'| <= |v| on the lambdified law."""
    pl, p = csds_plane(law), Proof()
    e, x_r = _sliding_state(F_max + gamma * sigma)
    sub = dict(zip(XI, x_r))
    vpar = dot(e, V)
    for name, F, rate in pl.slips:
        r = clean_roots(rate.subs(sub))
        p.equal(V - r, sigma * e, f"{name}: s = v - xi' = sigma e_s")
        p.zero(norm2(V) - norm2(r) - sigma * (2 * vpar - sigma), f"{name}: |v|^2 - |xi'|^2 = s (2 v_par - s)")
        p.zero(k * dot(x_r, r) + gamma * norm2(r) - F_max * (vpar - sigma),
               f"{name}: k xi.xi' + gamma |xi'|^2 = F_max (v_par - s)")
    gap = sigma * (2 * (sigma + delta) - sigma)  # s (2 v_par - s) at v_par = s + delta
    p.holds(sp.expand(gap).is_positive, "loading => v_par = s + delta, delta > 0 => |v|^2 - |xi'|^2 > 0")
    # numeric cross-check on the lambdified law
    fr = generate(pl.slips[0][2], list(XI) + list(V) + [k, gamma, F_max], "numpy", cse=False, products=False, raw=True)
    g = rng()
    n = 20 * samples
    x, w = g.normal(size=(2, n)) * 3, g.normal(size=(2, n)) * 3
    pars = g.uniform(0.2, 3, size=(3, n))
    rate = np.asarray(fr(*x, *w, *pars), float).reshape(2, n)
    FS = -pars[0] * x - pars[1] * w
    keep = (np.hypot(*FS) > pars[2]) & (np.sum(x * rate, axis=0) > 0)
    states = [(x[:, j], w[:, j], pars[:, j], rate[:, j]) for j in np.flatnonzero(keep)[:samples]]
    p.sweep(lambda s: np.linalg.norm(s[3]) <= np.linalg.norm(s[1]) * (1 + 1e-12), states,
            "numeric: |xi'| <= |v| on random sliding, loading states")
    return p


@check("csds-test-force", "F eqs 16-17",
       "C-SDS: F_S = gamma s + F_max while sliding, s = 0 while sticking, hence F_S > F_max <=> s > 0",
       defaults=_CSDS)
def csds_test_force(law=None, eq17=eq17_test_force):
    """1D: on each slip region (F_S = d (F_max + gamma sigma)) the slip velocity
    s = v - xi' of the law has |s| = sigma and |F_S| = eq 17(|s|); on the stick branch
    s = 0 identically.  2D: on the sliding region s = -(F_S + F_max e_s)/gamma (eq 16),
    |s| = sigma, |F_S| = eq 17(|s|).  With gamma > 0 the equivalence follows: s > 0 only
    on the slip branches, where F_S - F_max = gamma s > 0; F_S > F_max only there."""
    law, p = law or T.c_sds(), Proof()
    for name, b in law.branches.items():
        s = v - b.rates[xi]
        if b.kind == "stick":
            p.zero(s, f"1D {name}: s = v - xi' = 0")
            continue
        d = _direction(b)
        FS = d * (F_max + gamma * sigma)
        s_r = sp.cancel(s.subs(xi, (-FS - gamma * v) / k))
        p.zero(sp.Abs(s_r) - sigma, f"1D {name}: |s| = (|F_S| - F_max)/gamma")
        p.zero(sp.Abs(FS) - eq17(sp.Abs(s_r)), f"1D {name}: |F_S| = gamma |s| + F_max (eq 17)")
    pl = csds_plane(law)
    e, x_r = _sliding_state(F_max + gamma * sigma)
    sub = dict(zip(XI, x_r))
    FS = pl.FS.subs(sub)
    for name, F, rate in pl.slips:
        s = V - clean_roots(rate.subs(sub))
        p.equal(s, -(FS + F_max * e) / gamma, f"2D {name}: s = -(F_S + F_max e_s)/gamma (eq 16)")
        s_abs = sp.sqrt(sp.factor(sp.cancel(norm2(s))))
        p.zero(s_abs - sigma, f"2D {name}: |s| = sigma > 0")
        p.zero(sp.sqrt(sp.factor(sp.cancel(norm2(FS)))) - eq17(s_abs), f"2D {name}: |F_S| = gamma |s| + F_max (eq 17)")
    p.equal(V - pl.stick[2], sp.zeros(2, 1), "2D stick: s = 0")
    return p


# -- checks 5-7: D-SDS on the sliding-plates model ----------------------------------------
def plates_model(law=None):
    """The sliding-plates model (``m dv/dt = F``) with ``law``; default: the registered
    case model ``sliding-plates/d-sds``."""
    if law is None:
        from nsfric.papers.fuhrer2024.systems import sliding_plates
        return sliding_plates("d-sds")
    from nsfric.papers.fuhrer2024.systems import plates_mass
    return couple(Slider(params=(plates_mass(),)), tangential=law, name=f"sliding-plates/{law.name}")


def _surface_direction(sl) -> int:
    return 1 if sl.surface == "h_plus" else -1


@check("dsds-reset", "F eq 3",
       "D-SDS: the reset xi_D (eq 3) puts the state on |F_S| = F_max",
       defaults=_DSDS)
def dsds_reset(law=None, eq3=eq3_xi_D):
    """For each constrained sliding mode of the sliding-plates model, the derived reset
    map (``DerivedModel.reset_expr``: solve h = 0 for xi) equals eq 3 with
    sign(F_S) = +-1 and gives |F_S(xi_D, v)| = F_max identically in v.  2D: with the
    direction e = F_S/|F_S| a rational unit vector, F_S(xi_D, v) = F_max e exactly."""
    model, p = plates_model(law), Proof()
    d = derive(model)
    ix = d.y.index(xi)
    for sl in model.slidings:
        dirn = _surface_direction(sl)
        xi_D = d.reset_expr(sl.name)[ix]
        p.equal(xi_D, eq3(v, dirn), f"{sl.name}: reset map = eq 3 with sign(F_S) = {dirn:+d}")
        p.zero(sp.Abs(L.test_force(xi_D, v)) - F_max, f"{sl.name}: |F_S(xi_D, v)| = F_max")
    e = unit_circle(t_dir)
    p.equal(L.test_force(eq3(V, e), V), F_max * e, "2D: F_S(xi_D, v) = F_max e, so |F_S| = F_max")
    return p


@check("dsds-euler-step", "F eqs 18-19",
       "D-SDS, explicit Euler from a sliding state with v_i > 0: |F_S|(xi_{i+1}, v_{i+1}) = "
       "F_max - gamma (v_i - v_{i+1}) < F_max",
       defaults=_DSDS)
def dsds_euler_step(law=None, eq18=eq18_xi_next, eq19=eq19_test_force):
    """The law's reset on the sliding surface with F_S < 0 (v_i > 0) gives
    xi_{i+1} = eq 18; then F_S(xi_{i+1}, v_{i+1}) = -eq 19 identically in v_{i+1}.  The
    Euler step with the sliding mode's own rate gives v_i - v_{i+1} = Delta t F_max/m > 0,
    and SymPy solves |F_S|/F_max < 1 for tau = gamma Delta t/m: exactly 0 < tau < 2."""
    model, p = plates_model(law), Proof()
    d = derive(model)
    ix, iv = d.y.index(xi), d.y.index(v)
    v_i, dt, tau = sp.symbols("v_i Delta_t tau", positive=True)
    v_n = sp.Symbol("v_next", real=True)
    sl = next(s for s in model.slidings if _surface_direction(s) == -1)
    xi_next = d.reset_expr(sl.name)[ix].subs(v, v_i)
    p.equal(xi_next, eq18(v_i), "reset at v_i = eq 18")
    FS = L.test_force(xi_next, v_n)
    p.zero(FS + eq19(v_i, v_n), "F_S(xi_{i+1}, v_{i+1}) = -(F_max - gamma (v_i - v_{i+1})) (eq 19)")
    acc = d.modes[sl.name].rhs[iv].subs({v: v_i, xi: xi_next})
    v_next = v_i + dt * acc
    p.holds(sp.cancel(v_i - v_next).is_positive, "Euler step: v_i - v_{i+1} > 0",
            f"v_i - v_(i+1) = {sp.cancel(v_i - v_next)}")
    ratio = sp.cancel(FS.subs(v_n, v_next).subs(dt, tau * m / gamma) / F_max)
    ok_set = sp.solve_univariate_inequality(sp.Abs(ratio) < 1, tau, relational=False)
    p.holds(ok_set == sp.Interval.open(0, 2), "|F_S| < F_max exactly for 0 < gamma Delta t/m < 2",
            f"|F_S| < F_max for tau in {ok_set}")
    return p


@check("dsds-stick-threshold", "F eq 20",
       "D-SDS sliding-plates model: on |F_S| = F_max the stick field stops pushing |F_S| "
       "above F_max exactly for |v| <= gamma F_max/(m k)",
       defaults=_DSDS)
def dsds_stick_threshold(law=None, eq20=eq20_threshold):
    """For each constrained sliding mode, the indicator sigma = grad h . f_stick of the
    neighbouring stick region (``DerivedModel.sigma_expr``) is evaluated on the surface
    (after the derived reset).  Oriented towards the stick side, sigma >= 0 means the
    stick field no longer pushes |F_S| above F_max; SymPy solves this inequality in v:
    v <= gamma F_max/(m k) for F_S = -F_max and v >= -gamma F_max/(m k) for F_S = +F_max
    (eq 20).  The solver's exit guard of the mode is the same oriented indicator."""
    model, p = plates_model(law), Proof()
    d = derive(model)
    for sl in model.slidings:
        stick, side = (sl.plus, 1) if sl.plus is not None else (sl.minus, -1)
        y_r = d.reset_expr(sl.name)
        sig = side * d.sigma_expr(sl.surface, stick).subs(dict(zip(d.y, y_r)), simultaneous=True)
        got = sp.solve_univariate_inequality(sig >= 0, v, relational=False)
        thr = eq20()
        want = sp.Interval(-sp.oo, thr) if _surface_direction(sl) == -1 else sp.Interval(-thr, sp.oo)
        p.holds(got == want, f"{sl.name}: stick holds exactly for v in {want}", f"got v in {got}")
        guard = next(g for g in d.modes[sl.name].guards if g.target == stick)
        p.zero(guard.expr.subs(dict(zip(d.y, y_r)), simultaneous=True) - sig,
               f"{sl.name}: the solver's exit guard is this indicator")
    return p
