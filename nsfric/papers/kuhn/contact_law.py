"""The 3D linear-frictional contact of Kuhn, Suzuki & Daouadji, declared in SymPy.

Within one DEM step the contact movement is parametrised by ``alpha`` in [0, 1]
(eq 4: ``d zeta = alpha Delta_zeta``, ``d xi = alpha Delta_xi``).  Normal force
``f_n = k_n zeta`` (eq 1); tangential force ``f_t += k_t Delta_xi`` with
``|f_t| <= mu f_n`` (eq 2).  The functions below are the paper's refinements:
fresh contact ``alpha_o`` (eqs 7-8), slip onset ``alpha_s`` (eqs 9-15), the change
of force direction during slip (ODE 16 with eq 17, solution eqs 18-21), projection
and twirl (eqs 22-23), and the work increments of the algorithm (Fig 1, lines 45,
51-53).  Vectors are SymPy column matrices in the contact's tangent plane (2
components) or in space (3 components, eqs 22-23).

Symbols carry the paper's names: ``f_n`` is ``f^{n,t}`` (normal force at the start of
the (sub)step), ``Delta_zeta``, ``zeta_end`` (``zeta^{t+Delta t}``), ``k_n``, ``k_t``,
``mu``, ``alpha``, ``theta`` (angle between the movement direction and the force).
"""
from __future__ import annotations

import sympy as sp

from nsfric.symbolic.codegen import generate
from nsfric.symbolic.laws import k_n, mu

k_t = sp.Symbol("k_t", positive=True)
f_n = sp.Symbol("f_n", positive=True)
d_zeta = sp.Symbol("Delta_zeta", real=True)
zeta_end = sp.Symbol("zeta_end", real=True)
alpha = sp.Symbol("alpha", nonnegative=True)
theta, theta_t, theta_end = sp.symbols("theta theta_t theta_end", real=True)
dxi_norm = sp.Symbol("|Delta_xi|", positive=True)
c_1, c_2 = sp.symbols("c_1 c_2", real=True)


def _dot(a, b):
    return (sp.Matrix(a).T * sp.Matrix(b))[0, 0]


def normal_force(zeta, kn=k_n):
    """``f_n = k_n zeta``, eq 1."""
    return kn * zeta


def contact_onset(zeta_end_=zeta_end, dz=d_zeta):
    """Fraction of the step at which a fresh contact first touches,
    ``alpha_o = 1 - zeta^{t+Delta t}/Delta_zeta``, eq 7."""
    return 1 - zeta_end_ / dz


def after_onset(dxi, dz, alpha_o):
    """Movements after first touch, ``((1 - alpha_o) Delta_xi, (1 - alpha_o) Delta_zeta)``, eq 8."""
    return (1 - alpha_o) * sp.Matrix(dxi), (1 - alpha_o) * dz


def friction_limit_residual(a, f_t, dxi, fn=f_n, dz=d_zeta, mu_=mu, kn=k_n, kt=k_t):
    """Eq 9 as ``lhs - rhs``: ``(mu f_n + a mu k_n Delta_zeta)^2 - |f_t + a k_t Delta_xi|^2``
    written by the law of cosines, ``|f_t|^2 + |a k_t Delta_xi|^2 + 2 a k_t f_t.Delta_xi``."""
    f_t, dxi = sp.Matrix(f_t), sp.Matrix(dxi)
    lhs = (mu_ * fn + a * mu_ * kn * dz) ** 2
    rhs = _dot(f_t, f_t) + a ** 2 * kt ** 2 * _dot(dxi, dxi) + 2 * a * kt * _dot(f_t, dxi)
    return lhs - rhs


def slip_coefficients(f_t, dxi, fn=f_n, dz=d_zeta, mu_=mu, kn=k_n, kt=k_t):
    """``(A, B, C)`` of eqs 11-13:
    ``A = (mu k_n Delta_zeta)^2 - |k_t Delta_xi|^2``,
    ``B = mu^2 k_n f_n Delta_zeta - k_t (f_t . Delta_xi)``,
    ``C = (mu f_n)^2 - |f_t|^2``."""
    f_t, dxi = sp.Matrix(f_t), sp.Matrix(dxi)
    A = (mu_ * kn * dz) ** 2 - kt ** 2 * _dot(dxi, dxi)
    B = mu_ ** 2 * kn * fn * dz - kt * _dot(f_t, dxi)
    C = (mu_ * fn) ** 2 - _dot(f_t, f_t)
    return A, B, C


def slip_onset(A, B, C):
    """Onset of slip within the step, ``alpha_s = (-B - sqrt(B^2 - A C))/A``, eq 10."""
    return (-B - sp.sqrt(B ** 2 - A * C)) / A


def slip_onset_at_limit(A, B):
    """``alpha_s`` when the contact starts at the friction limit (``C = 0``):
    the larger of 0 and ``-2B/A`` (text after eq 13)."""
    return sp.Max(0, -2 * B / A)


def slip_onset_linear(B, C):
    """``alpha_s = -C/(2B)`` when ``A = 0`` (L'Hôpital), eq 14."""
    return -C / (2 * B)


def forces_at_slip(a_s, f_t, dxi, fn=f_n, dz=d_zeta, kn=k_n, kt=k_t):
    """Normal and tangential force when slip starts, eq 15."""
    return fn + a_s * kn * dz, sp.Matrix(f_t) + a_s * kt * sp.Matrix(dxi)


def normal_force_alpha(a=alpha, fn=f_n, kn=k_n, dz=d_zeta):
    """Normal force during the step, ``f_n(alpha) = f^{n,t} + alpha k_n Delta_zeta``, eq 17."""
    return fn + a * kn * dz


def theta_rate(th=theta, a=alpha, fn=f_n, kn=k_n, dz=d_zeta, kt=k_t, dxi=dxi_norm, mu_=mu):
    """ODE 16, ``|Delta_xi d alpha| = -mu f_n(alpha)/(k_t sin theta) d theta``, solved for
    ``d theta/d alpha = -k_t |Delta_xi| sin(theta)/(mu f_n(alpha))`` (``f_n`` of eq 17)."""
    return -kt * dxi * sp.sin(th) / (mu_ * normal_force_alpha(a, fn, kn, dz))


def c1(fn=f_n, kt=k_t, dxi=dxi_norm, mu_=mu):
    """``c_1 = mu f^{n,t}/(k_t |Delta_xi|)`` (after eq 19)."""
    return mu_ * fn / (kt * dxi)


def c2(fn=f_n, kn=k_n, dz=d_zeta):
    """``c_2 = k_n Delta_zeta/f^{n,t}`` (after eq 19)."""
    return kn * dz / fn


def theta_relation(th_end=theta_end, th_t=theta_t, c1_=c_1, c2_=c_2):
    """Eq 18 as ``lhs - rhs``:
    ``ln|csc th_end - cot th_end| - ln|csc th_t - cot th_t| + ln|1 + c_2|/(c_1 c_2)``."""
    def G(x):
        return sp.log(sp.Abs(sp.csc(x) - sp.cot(x)))
    return G(th_end) - G(th_t) + sp.log(sp.Abs(1 + c2_)) / (c1_ * c2_)


def theta_relation_c2_zero(th_end=theta_end, th_t=theta_t, c1_=c_1):
    """Eq 18 for ``c_2 = 0`` (constant normal force): the last term is ``1/c_1``."""
    def G(x):
        return sp.log(sp.Abs(sp.csc(x) - sp.cot(x)))
    return G(th_end) - G(th_t) + 1 / c1_


def force_direction(th_end, m_dxi, m_perp):
    """Final force direction ``sin(th) m_perp + cos(th) m_dxi``, eq 20."""
    return sp.sin(th_end) * sp.Matrix(m_perp) + sp.cos(th_end) * sp.Matrix(m_dxi)


def final_force(th_end, m_dxi, m_perp, fn_end, mu_=mu):
    """``f_t = mu f^{n,t+Delta t} m^{f,t+Delta t}``, eq 21."""
    return mu_ * fn_end * force_direction(th_end, m_dxi, m_perp)


def project(f, n):
    """Projection onto the new tangent plane, ``f <- f - (f . n) n``, eq 22."""
    f, n = sp.Matrix(f), sp.Matrix(n)
    return f - _dot(f, n) * n


def twirl(f, n, dtheta_p, dtheta_q):
    """Twirl about the normal, ``f <- f - 1/2 [(dtheta_p + dtheta_q) . n] (f x n)``, eq 23."""
    f, n = sp.Matrix(f), sp.Matrix(n)
    spin = _dot(sp.Matrix(dtheta_p) + sp.Matrix(dtheta_q), n)
    return f - sp.Rational(1, 2) * spin * f.cross(n)


def rescale(f_new, f_old):
    """Project-and-rescale (the history rotation of LAMMPS' granular pair styles): the
    projected force ``f_new`` scaled back to the magnitude of ``f_old``,
    ``f_new |f_old|/|f_new|`` (not in the paper; a common alternative to eq 23)."""
    f_new, f_old = sp.Matrix(f_new), sp.Matrix(f_old)
    return f_new * sp.sqrt(_dot(f_old, f_old)) / sp.sqrt(_dot(f_new, f_new))


def love_weber_dyad(branch, force):
    """One contact's term of the Love-Weber (Piola) stress, ``l_i f_j``: the stress is
    ``sigma_ij = (1/V) sum_c l_i^c f_j^c`` over the contacts (branch vector ``l``, contact
    force ``f = f_n n + f_t``; the summation of section 3, Fig 6)."""
    return sp.Matrix(branch) * sp.Matrix(force).T


def restore_stress(sigma, R):
    """Eq 24: the stress after a rigid rotation ``R`` restored to the original frame,
    ``sigma^0 = R^T sigma R`` (``Omega^{-90}`` of eq 24 is the counter-rotation ``R^T``;
    an objective stress gives back the unrotated one)."""
    R = sp.Matrix(R)
    return R.T * sp.Matrix(sigma) * R


def elastic_work(f_start, f_end, kt=k_t):
    """Reversible tangential work ``(|f_end|^2 - |f_start|^2)/(2 k_t)`` (Fig 1, line 52)."""
    return (_dot(f_end, f_end) - _dot(f_start, f_start)) / (2 * kt)


def slip_work(dxi, f_slip_start, f_end):
    """Tangential work while sliding, ``Delta_xi . (f_s + f_end)/2`` (Fig 1, line 45)."""
    return _dot(dxi, (sp.Matrix(f_slip_start) + sp.Matrix(f_end)) / 2)


def dissipated_work(total, elastic):
    """Dissipated increment ``Delta W^{t,irrev} = Delta W^t - Delta W^{t,rev}`` (line 53)."""
    return total - elastic


# -- eq 18 solved for the final angle (derived from :func:`theta_relation`) ----------------
def theta_end_solution(c2_zero: bool = False):
    """Eq 18 (or its ``c_2 = 0`` form) solved for ``theta_end``, for ``0 < theta_t < pi``.

    Derived, not restated: with ``G(x) = ln|csc x - cot x|`` eq 18 reads
    ``G(theta_end) = G(theta_t) - K``, where ``G(theta_end) - K`` and ``G(theta_t)`` are
    read off :func:`theta_relation`; on ``(0, pi)`` SymPy rewrites ``csc x - cot x`` as
    ``tan(x/2)`` (checked below), so ``theta_end = 2 atan(exp(G(theta_t) - K))``.  The
    sign rule of eq 19 is applied by the caller.

    Returns
    -------
    sympy.Expr
        ``theta_end`` in ``theta_t``, ``c_1`` (and ``c_2``).
    """
    x = sp.Symbol("x", positive=True)
    relation = theta_relation_c2_zero(x, theta_t) if c2_zero else theta_relation(x, theta_t)
    G_end = sp.log(sp.Abs(sp.csc(x) - sp.cot(x)))
    rhs = sp.expand(G_end - relation)  # = G(theta_t) - K, free of x
    if x in rhs.free_symbols:
        raise ArithmeticError("eq 18 is not separable as G(theta_end) = G(theta_t) - K")
    half = (sp.csc(x) - sp.cot(x) - sp.tan(x / 2)).rewrite(sp.sin).subs(x, 2 * x)
    if sp.simplify(sp.expand_trig(half)) != 0:
        raise ArithmeticError("csc x - cot x != tan(x/2)")
    return 2 * sp.atan(sp.exp(rhs))


def slip_exponent(c2_zero: bool = False):
    """The slip exponent ``K`` of eq 18, ``G(theta_end) = G(theta_t) - K``: read off
    :func:`theta_relation` (or its ``c_2 = 0`` form) at ``theta_end = theta_t``, where
    the ``G`` terms cancel -- ``ln|1 + c_2|/(c_1 c_2)``, or ``1/c_1``."""
    x = sp.Symbol("x", positive=True)
    relation = theta_relation_c2_zero(x, x) if c2_zero else theta_relation(x, x)
    K = sp.simplify(relation)
    if x in K.free_symbols:
        raise ArithmeticError("eq 18 is not separable as G(theta_end) = G(theta_t) - K")
    return K


def theta_end_numeric():
    """NumPy functions of :func:`theta_end_solution`: ``(f(theta_t, c_1, c_2), f0(theta_t, c_1))``
    for ``c_2 != 0`` and ``c_2 = 0``; arguments ``0 < theta_t < pi``, ``c_1 > 0``."""
    f = generate(theta_end_solution(False), (theta_t, c_1, c_2), "numpy", cse=False, products=False, raw=True)
    f0 = generate(theta_end_solution(True), (theta_t, c_1), "numpy", cse=False, products=False, raw=True)
    return f, f0
