"""Checks of Kuhn, Suzuki & Daouadji: fresh contact (eqs 7-8), slip onset (eqs 9-14),
force direction during slip (ODE 16, eqs 17-18), projection and twirl (eqs 22-23) and
the work increments (Fig 1).  The law is :mod:`nsfric.papers.kuhn.contact_law`; every check takes
its functions as keyword arguments.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from nsfric.symbolic.codegen import generate
from nsfric.papers.kuhn import contact_law as K
from nsfric.symbolic.checks._base import Proof, check, dot, norm2, rng, vec

a = sp.Symbol("alpha", real=True)


@check("kuhn-contact-onset", "K eqs 7-8",
       "Fresh contact: the overlap zeta^t + alpha Delta_zeta vanishes at alpha_o = "
       "1 - zeta^{t+dt}/Delta_zeta, in [0, 1) when the contact closes during the step; the "
       "remaining movement (1 - alpha_o) Delta_zeta is the final overlap")
def kuhn_contact_onset(eq7=K.contact_onset, eq8=K.after_onset, eq1=K.normal_force):
    """With eq 4 the overlap during the step is zeta^t + alpha Delta_zeta,
    zeta^t = zeta^{t+dt} - Delta_zeta; SymPy solves it = 0 for alpha and compares
    with eq 7.  For a contact that closes in the step (zeta^t = -g < 0 <= zeta^{t+dt} = e)
    SymPy decides 0 < alpha_o <= 1.  Eq 8: (1 - alpha_o) Delta_zeta = zeta^{t+dt}
    exactly, so eq 1 gives the normal force k_n zeta^{t+dt}; the tangential movement is
    scaled by the same factor."""
    p = Proof()
    zt = K.zeta_end - K.d_zeta
    roots = sp.solve(zt + a * K.d_zeta, a)
    p.holds(len(roots) == 1, "one contact instant", f"{roots}")
    p.zero(roots[0] - eq7(K.zeta_end, K.d_zeta), "alpha_o = 1 - zeta^{t+dt}/Delta_zeta (eq 7)")
    e, g = sp.Symbol("e", nonnegative=True), sp.Symbol("g", positive=True)
    ao = eq7(e, e + g)
    p.holds(sp.factor(ao).is_positive and sp.factor(1 - ao).is_nonnegative,
            "closing contact (zeta^t < 0 <= zeta^{t+dt}): 0 < alpha_o <= 1", f"alpha_o = {ao}")
    dxi = vec("dxi", 2, real=True)
    dxi_o, dz_o = eq8(dxi, K.d_zeta, eq7(K.zeta_end, K.d_zeta))
    p.zero(dz_o - K.zeta_end, "(1 - alpha_o) Delta_zeta = zeta^{t+dt} (eq 8)")
    p.zero(eq1(dz_o) - K.k_n * K.zeta_end, "normal force after onset = k_n zeta^{t+dt} (eq 1)")
    p.equal(dxi_o, K.zeta_end / K.d_zeta * dxi, "Delta_xi scaled by (1 - alpha_o) (eq 8)")
    return p


@check("kuhn-slip-onset", "K eqs 9-14",
       "alpha_s of eq 10 (A, B, C of eqs 11-13) is a root of eq 9, the first crossing of the "
       "friction limit; C = 0 gives max(0, -2B/A); A -> 0 gives -C/(2B) (eq 14)",
       method="partial: exact for the root, the C = 0 and A -> 0 cases; numeric sweep for "
              "'first crossing of the limit'")
def kuhn_slip_onset(eq9=K.friction_limit_residual, coeffs=K.slip_coefficients, eq10=K.slip_onset,
                    eq10_c0=K.slip_onset_at_limit, eq14=K.slip_onset_linear, samples=4000):
    """Exact: eq 9 expands to A alpha^2 + 2 B alpha + C with A, B, C of eqs 11-13
    (2D tangent-plane vectors with symbolic components); eq 10 annuls this quadratic
    for symbolic A, B, C; for C = 0 the roots are {0, -2B/A} and the paper's
    max(0, -2B/A) is the larger; for A -> 0 with B < 0 the limit of eq 10 is eq 14,
    which solves the linear equation 2 B alpha + C = 0.  Numeric: for random states
    inside the limit (C > 0) whose force reaches it, eq 10 equals the smallest positive
    root of |f + alpha k_t Delta_xi| = mu (f_n + alpha k_n Delta_zeta) (numpy roots)."""
    p = Proof()
    f, d = vec("f", 2, real=True), vec("dxi", 2, real=True)
    A, B, C = coeffs(f, d)
    p.zero(eq9(a, f, d) - (A * a ** 2 + 2 * B * a + C), "eq 9 = A alpha^2 + 2 B alpha + C (eqs 11-13)")
    As, Bs, Cs = sp.symbols("A B C", real=True)
    quad = lambda x, c=Cs: As * x ** 2 + 2 * Bs * x + c  # noqa: E731
    p.zero(quad(eq10(As, Bs, Cs)), "eq 10 is a root of the quadratic")
    r0 = sp.solve(quad(a, 0), a)
    p.holds(set(r0) == {0, -2 * Bs / As}, "C = 0: roots {0, -2B/A}", f"roots {r0}")
    p.zero(eq10_c0(As, Bs) - sp.Max(*r0), "C = 0: alpha_s = max(0, -2B/A), the larger root")
    b = sp.Symbol("b", positive=True)
    p.zero(sp.limit(eq10(As, -b, Cs), As, 0) - eq14(-b, Cs), "A -> 0 (B < 0): eq 10 -> -C/(2B) (eq 14)")
    p.zero(2 * Bs * eq14(Bs, Cs) + Cs, "eq 14 solves 2 B alpha + C = 0")
    syms = list(f) + list(d) + [K.f_n, K.d_zeta, K.mu, K.k_n, K.k_t]
    fABC = generate([A, B, C], syms, "numpy", cse=False, products=False, raw=True)
    g = rng(7)
    n = 10 * samples
    F = g.normal(size=(2, n)) * 0.5
    D, fn, dz = g.normal(size=(2, n)), g.uniform(0.5, 2, n), g.normal(size=n) * 0.3
    mu_, kn, kt = g.uniform(0.2, 1, n), g.uniform(0.5, 2, n), g.uniform(0.5, 2, n)
    Av, Bv, Cv = (np.asarray(x, float) for x in fABC(*F, *D, fn, dz, mu_, kn, kt))
    disc = Bv ** 2 - Av * Cv
    f10 = generate(eq10(As, Bs, Cs), (As, Bs, Cs), "numpy", cse=False, products=False, raw=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        al = np.asarray(f10(Av, Bv, np.where(disc > 0, Cv, 0.0)), float)
    keep = np.flatnonzero((Cv > 0) & (disc > 0) & (np.abs(Av) > 1e-6))

    def first_root(j):
        rts = np.roots([Av[j], 2 * Bv[j], Cv[j]])
        rts = rts[(abs(rts.imag) < 1e-12) & (rts.real > 0)].real
        return rts.min() if rts.size else np.nan

    cases = [(j, al[j], first_root(j)) for j in keep[:samples]]
    p.sweep(lambda c: (np.isnan(c[2]) and not c[1] > 0) or abs(c[1] - c[2]) <= 1e-9 * max(1, abs(c[2])),
            cases, "numeric: eq 10 = first positive crossing whenever the limit is reached")
    return p


@check("kuhn-force-direction", "K eqs 16-18",
       "Eq 18 (with c_1, c_2) solves ODE 16 with f_n(alpha) of eq 17; for c_2 -> 0 its last "
       "term tends to 1/c_1, which solves ODE 16 with constant f_n")
def kuhn_force_direction(eq16=K.theta_rate, eq17=K.normal_force_alpha, eq18=K.theta_relation,
                         eq18_c0=K.theta_relation_c2_zero, c1=K.c1, c2=K.c2):
    """Eq 18 applied to the partial step [0, alpha] (eq 4: Delta_xi -> alpha Delta_xi,
    Delta_zeta -> alpha Delta_zeta in c_1, c_2) defines theta(alpha) implicitly by
    R(theta, alpha) = 0.  On theta in (0, pi) the absolute values drop (SymPy checks
    csc - cot = tan(theta/2) and 1 + alpha c_2 = f_n(alpha)/f_n); the implicit
    derivative -R_alpha/R_theta equals ODE 16 with eq 17 identically (``trigsimp``),
    and R(theta_t, alpha) -> 0 as alpha -> 0 (initial condition).  c_2 -> 0: the limit
    of ln(1 + c_2)/(c_1 c_2) is 1/c_1, and the c_2 = 0 relation solves ODE 16 with
    Delta_zeta = 0."""
    p = Proof()
    th = sp.Symbol("theta", positive=True)
    dxi, dz, fn = K.dxi_norm, K.d_zeta, K.f_n
    u = sp.Symbol("u", positive=True)  # theta = 2 u, tan(u) > 0 on (0, pi/2)
    half = (sp.csc(2 * u) - sp.cot(2 * u) - sp.tan(u)).rewrite(sp.tan)
    p.zero(sp.expand_trig(half), "csc - cot = tan(theta/2) > 0 on (0, pi)")
    p.zero(1 + c2(fn, K.k_n, a * dz) - eq17(a, fn, K.k_n, dz) / fn, "1 + alpha c_2 = f_n(alpha)/f_n > 0")

    def implicit_rate(R):
        R = R.replace(sp.Abs, lambda x: x)
        return -sp.diff(R, a) / sp.diff(R, th)

    R = eq18(th, K.theta_t, c1(fn, K.k_t, a * dxi, K.mu), c2(fn, K.k_n, a * dz))
    p.zero(implicit_rate(R) - eq16(th, a, fn, K.k_n, dz, K.k_t, dxi, K.mu),
           "d theta/d alpha from eq 18 = ODE 16 with eq 17", simplifier=sp.trigsimp)
    R0 = R.replace(sp.Abs, lambda x: x).subs(th, K.theta_t)
    p.zero(sp.limit(R0, a, 0, "+"), "theta(0) = theta^t")
    p.zero(sp.limit(sp.log(1 + K.c_2) / (K.c_1 * K.c_2), K.c_2, 0) - 1 / K.c_1,
           "c_2 -> 0: ln(1 + c_2)/(c_1 c_2) -> 1/c_1")
    p.zero(sp.limit(eq18(th, K.theta_t, K.c_1, K.c_2) - eq18_c0(th, K.theta_t, K.c_1), K.c_2, 0),
           "eq 18 -> its c_2 = 0 form")
    R = eq18_c0(th, K.theta_t, c1(fn, K.k_t, a * dxi, K.mu))
    p.zero(implicit_rate(R) - eq16(th, a, fn, K.k_n, 0, K.k_t, dxi, K.mu),
           "c_2 = 0 form solves ODE 16 with constant f_n", simplifier=sp.trigsimp)
    return p


@check("kuhn-twirl-objectivity", "K eqs 22-23",
       "Projection (eq 22) then twirl (eq 23) turn a tangential force exactly as a rigid "
       "rotation of the pair does, to first order in the rotation")
def kuhn_twirl(eq22=K.project, eq23=K.twirl):
    """A rigid rotation of both particles by the rotation vector omega w (w arbitrary,
    Delta theta^p = Delta theta^q = omega w) carries the normal n to R(omega) n and
    should carry the force f to R(omega) f; R is SymPy's quaternion rotation matrix,
    R = 1 + omega W0 + O(omega^2) with W0 f = w x f.  n = (n_1, n_2, n_3) is symbolic
    and f = n x h (h arbitrary) is tangential; there is no relative movement, so only
    eqs 22-23 (with the new normal, needed to first order: n + omega W0 n) change f.
    The differences at omega = 0 and in the first derivative at omega = 0 are
    polynomials; their remainders modulo |n|^2 - 1 (``reduced``, lex order) are 0, so
    they vanish for every unit normal.  (Projection alone, without eq 23, leaves a
    non-zero remainder: Fig 6c.)"""
    p = Proof()
    n, h, w = vec("n", 3, real=True), vec("h", 3, real=True), vec("w", 3, real=True)
    f = n.cross(h)
    om = sp.Symbol("omega", real=True)
    Rm = sp.Quaternion.from_axis_angle(tuple(w), om * sp.sqrt(norm2(w))).to_rotation_matrix()
    W0 = Rm.diff(om).subs(om, 0).applyfunc(sp.cancel)
    p.equal(Rm.subs(om, 0), sp.eye(3), "R(0) = identity")
    p.equal(W0 * f, w.cross(f), "d/d omega R(omega) f at 0 = w x f")
    n1 = n + om * W0 * n
    f_dem = eq23(eq22(f, n1), n1, om * w, om * w)
    gens = [n[2], n[0], n[1]] + list(h) + list(w)

    def on_sphere(vec_expr):
        return sp.Matrix([sp.reduced(sp.expand(e), [norm2(n) - 1], *gens, order="lex")[1]
                          for e in vec_expr])

    p.equal(on_sphere(f_dem.subs(om, 0) - f), sp.zeros(3, 1), "omega = 0: force unchanged")
    p.equal(on_sphere(f_dem.diff(om).subs(om, 0) - W0 * f), sp.zeros(3, 1),
            "first order: eqs 22-23 = rigid rotation of f (on |n| = 1)")
    return p


@check("kuhn-work-split", "K Fig 1 (lines 45, 51-53), eq 16",
       "Tangential work = elastic (|f|^2/(2 k_t) increment) + dissipated: zero dissipation for "
       "elastic movement; while sliding (eq 16) the slip is along f and dissipates mu f_n |slip|")
def kuhn_work(elastic=K.elastic_work, trapezoid=K.slip_work, dissipated=K.dissipated_work,
              eq16=K.theta_rate, eq17=K.normal_force_alpha):
    """Elastic step: along f(alpha) = f_0 + alpha k_t Delta_xi the exact work
    int_0^1 f . Delta_xi d alpha equals the elastic increment (line 52), the dissipated
    increment (line 53) is 0, and the trapezoid rule of line 45 is exact.  Sliding
    (continuous law): in the frame of Fig 3, f = mu f_n(alpha) (cos theta, sin theta),
    d xi/d alpha = |Delta_xi| (1, 0), theta' from ODE 16 and f_n from eq 17; the slip
    rate d xi/d alpha - f'/k_t has no component normal to f (normality <=> eq 16), and
    f . d xi = d(|f|^2/(2 k_t)) + mu f_n (slip rate along f) identically: elastic plus
    dissipated equals the total."""
    p = Proof()
    f0, d = vec("f", 2, real=True), vec("dxi", 2, real=True)
    f1 = f0 + K.k_t * d
    W = sp.integrate(dot(f0 + a * K.k_t * d, d), (a, 0, 1))
    p.zero(W - elastic(f0, f1), "elastic step: work = (|f_1|^2 - |f_0|^2)/(2 k_t) (line 52)")
    p.zero(dissipated(W, elastic(f0, f1)), "elastic step: dissipated increment = 0 (line 53)")
    p.zero(trapezoid(d, f0, f1) - W, "elastic step: trapezoid rule (line 45) exact")
    th = sp.Function("theta")(a)
    fn_a = eq17(a, K.f_n, K.k_n, K.d_zeta)
    ef, eperp = sp.Matrix([sp.cos(th), sp.sin(th)]), sp.Matrix([-sp.sin(th), sp.cos(th)])
    f = K.mu * fn_a * ef
    dxi = sp.Matrix([K.dxi_norm, 0])
    rate = eq16(th, a, K.f_n, K.k_n, K.d_zeta, K.k_t, K.dxi_norm, K.mu)
    df = f.diff(a).subs(sp.Derivative(th, a), rate)
    slip = dxi - df / K.k_t
    p.zero(dot(slip, eperp), "sliding: slip rate parallel to f (eq 16)", simplifier=sp.trigsimp)
    el_rate = sp.diff(elastic(f.subs(a, 0), f), a).subs(sp.Derivative(th, a), rate)
    diss_rate = K.mu * fn_a * dot(slip, ef)
    p.zero(dot(f, dxi) - el_rate - diss_rate, "sliding: f.dxi = d(|f|^2/(2 k_t)) + mu f_n |slip|",
           simplifier=sp.trigsimp)
    return p
