"""Tangential contact laws: ``F(v_t, F_N; history)``, each a :class:`TangentialLaw`.

Führer, Brendel & Wolf (2024): C-SDS (eq 10, also in the tangential plane) and D-SDS
(eqs 1-3); Krengel & Matuttis: dry Coulomb friction with exact static friction (eqs
3-14) and the Cundall-Strack spring (eqs 19-20); Schäfer, Dippel & Wolf (1996): Coulomb
(eq 13), viscous (eq 14), Coulomb-viscous minimum (eq 15), Cundall-Strack with cut-off
(eqs 16-17), Walton-Braun/Mindlin variable stiffness (eqs 20-21), Brilliantov saw-tooth
(eq 22).  Every law's argument symbols are ``v`` (relative tangential velocity; ``v_1,
v_2`` in the plane) and ``F_N`` (normal force); :func:`~nsfric.symbolic.coupling.couple`
substitutes them.  Parameters may be passed as expressions (``params=()`` then, the
coupled system declares them), as the block on a slope does.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from .laws import (Branch, F_N, F_max, LawSliding, P, TangentialLaw, delta_n, delta_n_dot, gamma, k, mu, register_law,
                   spring_outputs, test_force, v, v_1, v_2, with_outputs, xi, xi_1, xi_2)
from .normal import real_abs, step_sign

FUHRER = "Führer, Brendel & Wolf (2024)"
SCHAFER = "Schäfer, Dippel & Wolf (1996)"
k_t, gamma_t = sp.symbols("k_t gamma_t", nonnegative=True)
gamma_s = sp.Symbol("gamma_s", positive=True)
k_s0 = sp.Symbol("k_s0", positive=True)
F_s, F_s_star = sp.symbols("F_s F_s_star", real=True)
zeta = sp.Symbol("zeta", real=True)
zeta_0 = sp.Symbol("zeta_0", positive=True)


def _sds_params(default_gamma=2.0):
    return (
        P(k, 1.0, 0, lo_open=True, doc="tangential spring stiffness", unit="n.u."),
        P(gamma, default_gamma, 0, lo_open=True, doc="tangential damping", unit="n.u."),
        P(F_max, 1.0, 0, lo_open=True, doc="critical force mu F_n", unit="n.u."),
    )


def _clipped(F_S, bound):
    """Switching functions ``F_S -+ bound`` of a force clipped to ``[-bound, bound]``."""
    return {"h_plus": F_S - bound, "h_minus": F_S + bound}


def c_sds(k=k, gamma=gamma, bound=F_max, params=None) -> TangentialLaw:
    """Continuous spring-dashpot-slider, Führer et al. eq 10.

    ``F = clip(F_S, -F_max, F_max)`` with ``F_S = -k xi - gamma v`` (eq 1) and
    ``gamma dxi/dt = -(F + k xi)`` (eq 6, i.e. eq 10): the sticking branch gives
    ``dxi/dt = v`` (eq 2), the sliding branches give eq 9.  The field is continuous
    across ``|F_S| = F_max``; only its derivative jumps.  ``k``, ``gamma`` and the
    slider's limit ``bound`` (``F_max``, or ``mu F_N`` in an impact) may be expressions;
    ``params`` default: ``k, gamma, F_max``.
    """
    F_S = test_force(xi, v, k, gamma)

    def rate(F):
        return {xi: -(F + k * xi) / gamma}

    branches = {
        "slip+": ({"h_plus": 1}, bound, rate(bound), "slip"),
        "stick": ({"h_plus": -1, "h_minus": 1}, F_S, rate(F_S), "stick"),
        "slip-": ({"h_minus": -1}, -bound, rate(-bound), "slip"),
    }
    params = _sds_params() if params is None else params
    return with_outputs(TangentialLaw("c-sds", f"{FUHRER} eqs 1, 4-10", (xi,), params, _clipped(F_S, bound),
                                      branches, doc=c_sds.__doc__), spring_outputs(k))


def spring_dashpot_slider(name="d-sds", k=k, gamma=gamma, bound=F_max, params=None,
                          reference=f"{FUHRER} eqs 1-3, 18-20") -> TangentialLaw:
    """Spring-dashpot-slider with reset: the D-SDS and the Cundall-Strack law are this law.

    Sticking: ``F = F_S = -k xi - gamma v``, ``dxi/dt = v`` (Führer et al. eqs 1-2;
    K-M eqs 19-20 integrated).  Sliding: ``xi`` is tied to ``v`` so that
    ``|F_S| = bound`` (Führer et al. eq 3: ``xi_D = -(F_max sign(F_S) + gamma v)/k``) --
    in continuous time a DAE; a state with ``|F_S| > bound`` is projected onto the
    surface (the instantaneous reset of ``xi``); sticking begins when the stick dynamics
    no longer push ``|F_S|`` beyond the bound (cf. Führer et al. eq 20).

    Parameters
    ----------
    k, gamma : sympy expressions
        Spring stiffness and dashpot (``k, gamma``; ``k_t, gamma_t`` for Cundall-Strack).
    bound : sympy expression
        The slider's limit: ``F_max`` (D-SDS) or ``mu F_N`` (Cundall-Strack cut-off).
    params : tuple of Param, optional
        The law's parameters (default: the D-SDS's ``k, gamma, F_max``).
    """
    F_S = -k * xi - gamma * v
    branches = {"stick": ({"h_plus": -1, "h_minus": 1}, F_S, {xi: v}, "stick")}
    slidings = {
        "slip+": LawSliding("h_plus", "constrained", xi, None, "stick", F=bound, entry_kind="slip"),
        "slip-": LawSliding("h_minus", "constrained", xi, "stick", None, F=-bound, entry_kind="slip"),
    }
    params = _sds_params() if params is None else params
    return with_outputs(TangentialLaw(name, reference, (xi,), params, _clipped(F_S, bound), branches, slidings,
                                      doc=spring_dashpot_slider.__doc__), spring_outputs(k))


def d_sds() -> TangentialLaw:
    """Discontinuous spring-dashpot-slider (Luding; LAMMPS), Führer et al. eqs 1-3:
    :func:`spring_dashpot_slider` with ``bound = F_max``."""
    return spring_dashpot_slider()


CUNDALL_STRACK_REFERENCE = (f"Krengel & Matuttis eqs 19-20; Cundall & Strack (1979); {SCHAFER} eqs 16-17")


def cundall_strack(k=k_t, gamma=gamma_t, params=None) -> TangentialLaw:
    """Cundall-Strack spring (K-M eq 19) with incremental damping (eq 20), cut off at
    ``mu F_N`` (Schäfer et al. eqs 16-17): :func:`spring_dashpot_slider` with
    ``k = k_t``, ``gamma = gamma_t``, ``bound = mu F_N``.  Without damping
    (``gamma_t = 0``, the default) it is Schäfer's eq 16, a harmonic spring below the
    cut-off.  ``params`` default: ``k_t, gamma_t, mu, F_N``.
    """
    if params is None:
        params = (
            P(k_t, 1.0, 0, lo_open=True, doc="tangential spring stiffness k_t", unit="n.u."),
            P(gamma_t, 0.0, 0, doc="tangential damping gamma_t (eq 20)", unit="n.u."),
            P(mu, 0.4, 0, doc="friction coefficient"),
            P(F_N, 1.0, 0, doc="normal force"),
        )
    return spring_dashpot_slider("cundall-strack", k, gamma, mu * F_N, params, CUNDALL_STRACK_REFERENCE)


def cundall_strack_viscous(k=k_t, gamma=gamma_t, params=None) -> TangentialLaw:
    """Cundall-Strack spring (K-M eq 19) cut off at ``mu F_N`` with the conventional
    *instantaneous* damping ``-gamma v`` added outside the cut-off (K-M after eq 20):
    the spring-slider of :func:`spring_dashpot_slider` without dashpot, plus
    ``-gamma v`` in every mode (so ``|F|`` may exceed ``mu F_N`` by the viscous part
    while slipping).  ``params`` default: ``k_t, gamma_t, mu, F_N`` (as
    :func:`cundall_strack`).
    """
    if params is None:
        params = cundall_strack().params
    base = spring_dashpot_slider("cundall-strack-viscous", k, 0, mu * F_N, params,
                                 "Krengel & Matuttis eq 19 and the instantaneous damping after eq 20")
    visc = -gamma * v
    branches = {n: Branch(b.signs, b.F + visc, b.rates, b.kind, b.outputs) for n, b in base.branches.items()}
    slidings = {n: replace(s, F=s.F + visc) for n, s in base.slidings.items()}
    return TangentialLaw(base.name, base.reference, base.states, base.params, base.switching, branches,
                         slidings, doc=cundall_strack_viscous.__doc__)


def _coulomb_params():
    return (P(mu, 0.4, 0, doc="friction coefficient"), P(F_N, 1.0, 0, doc="normal force"))


def coulomb_static(params=None) -> TangentialLaw:
    """Dry Coulomb friction with exact static friction, Krengel & Matuttis eqs 3-14
    (Schäfer et al. eq 13 solved exactly).

    ``F = -mu F_N sign(v)`` off the surface ``g = v = 0`` (eqs 4-6); on it, the
    Filippov convex combination (eq 9) with ``lam = a_I/(a_I + a_II)`` (eq 12) makes the
    static friction compensate the external force exactly (eq 14).
    """
    branches = {"slip+": ({"g": 1}, -mu * F_N, {}, "slip"), "slip-": ({"g": -1}, mu * F_N, {}, "slip")}
    slidings = {"stick": LawSliding("g", "filippov", v, "slip+", "slip-")}
    params = _coulomb_params() if params is None else params
    return with_outputs(TangentialLaw("coulomb", "Krengel & Matuttis eqs 3-14", (), params, {"g": v}, branches,
                                      slidings, doc=coulomb_static.__doc__), spring_outputs(0))


def c_sds_2d() -> TangentialLaw:
    """C-SDS in the tangential plane, Führer et al. eqs 1, 8-10 with vectors.

    ``F_S = -k xi - gamma v`` (eq 1); sticking where ``|F_S| < F_max``
    (``F = F_S``, ``dxi/dt = v``); sliding where ``|F_S| > F_max``:
    ``F = F_max F_S/|F_S|`` and ``gamma dxi/dt = -(F + k xi)`` (eq 9, i.e. eq 10).  One
    switching function ``h = |F_S|^2 - F_max^2``; the field is continuous across it.
    The force is a vector: ``F`` is the tuple ``(F_1, F_2)``.
    """
    F_S = (test_force(xi_1, v_1), test_force(xi_2, v_2))
    norm = sp.sqrt(F_S[0] ** 2 + F_S[1] ** 2)
    F_slip = tuple(F_max * c / norm for c in F_S)

    def rate(F):
        return {xi_1: -(F[0] + k * xi_1) / gamma, xi_2: -(F[1] + k * xi_2) / gamma}

    branches = {"slip": ({"h": 1}, F_slip, rate(F_slip), "slip"), "stick": ({"h": -1}, F_S, rate(F_S), "stick")}
    return TangentialLaw("c-sds-2d", f"{FUHRER} eqs 1, 8-10 (vector form)", (xi_1, xi_2), _sds_params(),
                         {"h": F_S[0] ** 2 + F_S[1] ** 2 - F_max ** 2}, branches, doc=c_sds_2d.__doc__,
                         velocity=(v_1, v_2))


# -- Schäfer, Dippel & Wolf (1996) -------------------------------------------------------
def viscous() -> TangentialLaw:
    """Viscous shear friction ``F = -gamma_s v``, Schäfer et al. eq 14 (one smooth mode)."""
    return TangentialLaw("viscous", f"{SCHAFER} eq 14", (), (P(gamma_s, 1.0, 0, lo_open=True,
                         doc="shear damping", unit="kg/s"),), {}, {"viscous": ({}, -gamma_s * v)},
                         doc=viscous.__doc__)


def coulomb_viscous(params=None, gamma=gamma_s, bound=mu * F_N) -> TangentialLaw:
    """``F = -min(gamma_s |v|, mu F_N) sign(v)``, Schäfer et al. eq 15.

    Viscous where ``gamma_s |v| < mu F_N``, Coulomb beyond; the force is continuous, the
    switching functions are ``h_plus = gamma_s v - mu F_N``, ``h_minus = gamma_s v + mu F_N``.
    ``gamma`` and ``bound`` may be expressions (the damping ``gamma_t`` and the bound ``mu
    |F_n|`` of an impact: the limit of Chrono's ``OneStep`` rule, :mod:`nsfric.schemes.slip_rules`).
    """
    sw = {"h_plus": gamma * v - bound, "h_minus": gamma * v + bound}
    branches = {"slip+": ({"h_plus": 1}, -bound, {}, "slip"),
                "viscous": ({"h_plus": -1, "h_minus": 1}, -gamma * v, {}, "viscous"),
                "slip-": ({"h_minus": -1}, bound, {}, "slip")}
    if params is None:
        params = (P(gamma_s, 1.0, 0, lo_open=True, doc="shear damping", unit="kg/s"),) + _coulomb_params()
    return with_outputs(TangentialLaw("coulomb-viscous", f"{SCHAFER} eq 15", (), params, sw, branches,
                                      doc=coulomb_viscous.__doc__), spring_outputs(0))


def real_cbrt(x):
    """Real cube root ``sign(x) |x|^(1/3)``."""
    return step_sign(x) * real_abs(x) ** sp.Rational(1, 3)


def walton_braun_mindlin(k_s0=k_s0, params=None) -> TangentialLaw:
    """Walton-Braun tangential law with Mindlin-type variable stiffness, Schäfer et al. eqs 20-21.

    The force ``F_s`` (on the overlap's tangent, opposing ``v``) is a history state,
    incremented as ``dF_s/dt = -k_s v`` (eq 20) with the stiffness of eq 21 falling to
    zero at the Coulomb limit the motion heads for: ``k_s = k_s0 (1 - (F_s - F_s*)/(mu
    F_N - F_s*))^(1/3)`` while ``F_s`` grows (mode ``backward``, ``v < 0``) and ``k_s0 (1 -
    (F_s* - F_s)/(mu F_N + F_s*))^(1/3)`` while it falls (``forward``, ``v > 0``): written
    for the signed force, the paper's two lines ("v_s in the initial direction" or
    against it) are these two modes whatever the initial direction.  ``F_s_star`` is the
    force at the last reversal of ``v``: a state set on entering either mode (a reset
    map, :attr:`Branch.reset`), so ``F* <- F_s`` at every reversal and at the contact's
    beginning (``F_s = 0``).  ``F_N`` is the instantaneous normal force.  Where ``F_s``
    reaches ``mu F_N`` (``k_s = 0``) the force stays at the Coulomb limit, gross sliding,
    also while the normal force changes: the constrained modes ``slip+``/``slip-``
    (``F_s = +-mu F_N``, ``exits=False``), left only when ``v`` reverses (or the
    contact ends) -- the paper leaves this open; the cube root alone would let ``F_s``
    trail a growing limit through a non-Lipschitz field.
    """
    ks_up = k_s0 * real_cbrt(1 - (F_s - F_s_star) / (mu * F_N - F_s_star))
    ks_down = k_s0 * real_cbrt(1 - (F_s_star - F_s) / (mu * F_N + F_s_star))
    reset = {F_s_star: F_s}
    branches = {"forward": Branch({"g": 1, "c_minus": 1}, F_s, {F_s: -ks_down * v, F_s_star: sp.Integer(0)},
                                  "forward", {}, reset),
                "backward": Branch({"g": -1, "c_plus": -1}, F_s, {F_s: -ks_up * v, F_s_star: sp.Integer(0)},
                                   "backward", {}, reset)}
    slidings = {
        "slip+": LawSliding("c_plus", "constrained", F_s, None, "backward", F=mu * F_N,
                            rates={F_s_star: sp.Integer(0)}, entry_kind="slip", exits=False),
        "slip-": LawSliding("c_minus", "constrained", F_s, "forward", None, F=-mu * F_N,
                            rates={F_s_star: sp.Integer(0)}, entry_kind="slip", exits=False),
    }
    if params is None:
        params = (P(k_s0, 9.43e4, 0, lo_open=True, doc="initial tangential stiffness", unit="N/m"),) + _coulomb_params()
    return TangentialLaw("walton-braun-mindlin", f"{SCHAFER} eqs 20-21", (F_s, F_s_star), params,
                         {"g": v, "c_plus": F_s - mu * F_N, "c_minus": F_s + mu * F_N}, branches, slidings,
                         doc=walton_braun_mindlin.__doc__)


class tooth_floor(sp.floor):
    """``floor`` whose derivative is zero (it is constant on every tooth; the tooth edges
    are switching surfaces).  Printed as ``floor``."""

    def fdiff(self, argindex=1):
        return sp.Integer(0)

    def _numpycode(self, printer):
        return f"{printer._module_format('numpy.floor')}({printer._print(self.args[0])})"

    def _pythoncode(self, printer):
        return f"{printer._module_format('math.floor')}({printer._print(self.args[0])})"


def truncate(z):
    """Integer truncation towards zero ``trunc(z) = sign(z) floor(|z|)`` (Schäfer et al.
    after eq 22), with derivative zero (constant on every tooth)."""
    return step_sign(z) * tooth_floor(real_abs(z))


def tooth_index(z, parity):
    """``trunc(z)`` on the teeth whose index has the given ``parity`` (0 even, 1 odd),
    continued smoothly half a tooth beyond their edges: ``sign(z) (2 floor((|z| + 1/2 -
    parity)/2) + parity)``.  It equals :func:`truncate` on every tooth of that parity;
    an integrator stepping past a tooth edge in the mode of that tooth (before the
    event is located) sees the smooth continuation of the tooth's force, not its jump."""
    return step_sign(z) * (2 * tooth_floor((real_abs(z) + sp.Rational(1, 2) - parity) / 2) + parity)


def brilliantov_sawtooth(params=None) -> TangentialLaw:
    """Saw-tooth asperity force ``F = -mu F_N (zeta/zeta_0 - trunc(zeta/zeta_0))``, Schäfer et
    al. eq 22 (``trunc`` is the paper's integer truncation, towards zero, so the force
    opposes the displacement on both sides), with the tangential displacement
    ``dzeta/dt = v`` (eq 17) as history state.

    The tooth edges ``zeta = n zeta_0``, ``n != 0``, are the zeros of ``tooth =
    sinc(pi zeta/zeta_0)`` (``zeta = 0``, where the force is continuous and every contact
    begins, is none), so every edge is an event between the modes ``rise+`` (even
    ``trunc``) and ``rise-`` (odd).  Each mode's force takes the tooth index from
    :func:`tooth_index` of its parity: eq 22 on the mode's own teeth, continued smoothly
    half a tooth beyond their edges, so an integrator step that passes an edge before
    the event is located does not see the jump (with ``trunc`` itself in both modes it
    did: ~3 rejected steps per tooth, and an error of ~1e-12 m/s per edge in the
    accepted ones).
    """
    z = zeta / zeta_0
    branches = {"rise+": ({"tooth": 1}, -mu * F_N * (z - tooth_index(z, 0)), {zeta: v}, "tooth"),
                "rise-": ({"tooth": -1}, -mu * F_N * (z - tooth_index(z, 1)), {zeta: v}, "tooth")}
    if params is None:
        params = (P(zeta_0, 1e-5, 0, lo_open=True, doc="saw-tooth period", unit="m"),) + _coulomb_params()
    return TangentialLaw("brilliantov-sawtooth", f"{SCHAFER} eq 22", (zeta,), params,
                         {"tooth": sp.sinc(sp.pi * z)}, branches, doc=brilliantov_sawtooth.__doc__)


def cundall_strack_cutoff(k=k_t, params=None) -> TangentialLaw:
    """Cundall-Strack spring cut off at the Coulomb limit, Schäfer et al. eqs 16-17 as written.

    ``F = -min(|k_s zeta|, |mu F_N|) sign(zeta)`` with ``zeta`` the whole tangential
    displacement since the contact began, ``dzeta/dt = v`` (eq 17), also while the force
    is cut off: ``zeta`` is never reset (unlike :func:`cundall_strack`, the K-M/D-SDS
    variant that ties ``xi`` to the slider).  Modes ``spring`` (``|k zeta| < mu F_N``),
    ``cut+``/``cut-``; the force is continuous, switching functions ``h_plus = k zeta -
    mu F_N``, ``h_minus = k zeta + mu F_N``.  ``params`` default: ``k_t, mu, F_N``.
    """
    sw = {"h_plus": k * zeta - mu * F_N, "h_minus": k * zeta + mu * F_N}
    branches = {"cut+": ({"h_plus": 1}, -mu * F_N, {zeta: v}, "slip"),
                "spring": ({"h_plus": -1, "h_minus": 1}, -k * zeta, {zeta: v}, "stick"),
                "cut-": ({"h_minus": -1}, mu * F_N, {zeta: v}, "slip")}
    if params is None:
        params = (P(k_t, 1.0, 0, lo_open=True, doc="tangential spring stiffness k_s", unit="N/m"),) + _coulomb_params()
    return TangentialLaw("cundall-strack-cutoff", f"{SCHAFER} eqs 16-17", (zeta,), params, sw, branches,
                         doc=cundall_strack_cutoff.__doc__)


LAMMPS_MINDLIN = ("LAMMPS src/GRANULAR/gran_sub_mod_tangential.cpp, GranSubModTangentialMindlin::calculate_forces "
                  "(stable_22Jul2025)")
#: Hertz-Mindlin: the stiffness per unit contact radius, the effective radius and
#: the elastic tangential force (the history of ``mindlin-force``)
k_ta = sp.Symbol("k_ta", positive=True)
R_eff = sp.Symbol("R_eff", positive=True)
F_e = sp.Symbol("F_e", real=True)


def contact_radius(R=R_eff, overlap=delta_n):
    """Hertz's contact radius ``a = sqrt(R_eff delta_n)`` (of ``|delta_n|``: real where a
    step of an integrator passes the contact end, as the Hertz normal force)."""
    return sp.sqrt(R) * sp.sqrt(real_abs(overlap))


def _mindlin_params(radius=True):
    k_param = P(k_ta, 2.87e9, 0, lo_open=True, unit="N/m^2",
                doc="tangential stiffness per unit contact radius (LAMMPS mindlin kt: 8 G_eff; 2.87e9 for "
                    "k_n_tilde = 9e7 N/m^1.5 at R_eff = 1.5 mm and Poisson's ratio 0.3)")
    return ((k_param, P(gamma_t, 0.0, 0, unit="kg/s", doc="tangential damping (LAMMPS damping velocity: xt eta)"))
            + ((P(R_eff, 1.5e-3, 0, lo_open=True, unit="m", doc="effective radius R_1 R_2/(R_1 + R_2)"),)
               if radius else ())
            + (P(mu, 0.25, 0, doc="friction coefficient"),))


def _force_history(name, doc, reference, overlap_term: bool, R, params, rescale: bool = False) -> TangentialLaw:
    """A spring-dashpot-slider on the elastic force ``F_e`` with the stiffness ``k_ta a``:
    ``F_S = F_e - gamma_t v``; sticking ``dF_e/dt = -k_ta a v`` (``+ F_e (da/dt)/a`` with
    ``overlap_term``, and once more while unloading, ``+ F_e min(da/dt, 0)/a``, with
    ``rescale``); sliding ``F_e`` tied to ``|F_S| = mu F_N``."""
    a = contact_radius(R)
    F_S = F_e - gamma_t * v
    bound = mu * F_N
    rate = -k_ta * a * v
    if overlap_term:  # (da/dt)/a = (d delta_n/dt)/(2 delta_n)
        rate += F_e * delta_n_dot / (2 * real_abs(delta_n))
    if rescale:  # min(da/dt, 0)/a = min(d delta_n/dt, 0)/(2 delta_n), min(x, 0) = (x - |x|)/2
        rate += F_e * (delta_n_dot - real_abs(delta_n_dot)) / (4 * real_abs(delta_n))
    branches = {"stick": ({"h_plus": -1, "h_minus": 1}, F_S, {F_e: rate}, "stick")}
    slidings = {
        "slip+": LawSliding("h_plus", "constrained", F_e, None, "stick", F=bound, entry_kind="slip"),
        "slip-": LawSliding("h_minus", "constrained", F_e, "stick", None, F=-bound, entry_kind="slip"),
    }
    if params is None:
        params = _mindlin_params(radius=R == R_eff)
    return TangentialLaw(name, reference, (F_e,), params, _clipped(F_S, bound), branches, slidings, doc=doc)


def mindlin(R=R_eff, params=None) -> TangentialLaw:
    """Hertz-Mindlin spring on the displacement history, with reset: the limit dt -> 0 of
    LAMMPS ``pair granular ... tangential mindlin`` (with a constant tangential damping,
    ``damping velocity`` or ``mass_velocity``).

    LAMMPS's step (``GranSubModTangentialMindlin::calculate_forces``): the history
    ``xi`` grows by ``v dt``; the force is ``-k_ta a xi - gamma_t v`` with the contact
    radius ``a = sqrt(R_eff delta_n)`` (:func:`contact_radius`) at the step's overlap;
    where it exceeds ``mu F_N`` it is capped and the history reset to ``xi = -(F +
    gamma_t v)/(k_ta a)``.  As ``dt -> 0``, written on the elastic force ``F_e = -k_ta a
    xi`` (finite where the contact ends, ``a -> 0``, while ``xi`` is not): sticking
    ``dF_e/dt = -k_ta a v + F_e (da/dt)/a`` -- the elastic force follows the overlap at a
    fixed displacement, unlike :func:`mindlin_force` --, sliding ``F_e`` tied to ``|F_e -
    gamma_t v| = mu F_N``.

    The contact end (``a -> 0``, Hertz: ``mu F_N -> 0``).  With ``gamma_t > 0`` the
    sticking term ``F_e (da/dt)/a`` diverges there: the bound forces ``F_e -> gamma_t v``
    (not zero) while ``(da/dt)/a = (d delta_n/dt)/(2 delta_n) -> -inf``.  Its sign drives
    ``|F_S|`` beyond the bound, so sticking cannot be entered near the end: the law's
    exact limit slides into the contact end with ``F = -+mu F_N -> 0`` and ``F_e ->
    gamma_t v``; the diverging term enters only the stick-exit test, never the field, and
    the tangential impulse stays finite.  LAMMPS's step does the same: at the last steps
    the rescaled history gives ``F_e (a_new/a_old)``, off the bound by ``O(gamma_t v)``
    while ``mu F_N`` is small, so the force stays capped.  With ``gamma_t = 0`` the spring
    force ``k_ta a xi`` falls as ``a ~ delta_n^(1/2)``, the bound as ``delta_n^(3/2)``:
    the contact ends sliding too, unless the displacement ``xi`` vanishes there.

    ``R``: the effective radius (the parameter ``R_eff`` by default; a case binds it to
    its geometry, e.g. ``R_1 R_2/(R_1 + R_2)``, and ``R_eff`` is then not a parameter).
    """
    return _force_history("mindlin", mindlin.__doc__, LAMMPS_MINDLIN, True, R, params)


def mindlin_force(R=R_eff, params=None) -> TangentialLaw:
    """Hertz-Mindlin spring on the force history: the limit dt -> 0 of LAMMPS ``pair
    granular ... tangential mindlin/force``.

    LAMMPS's step integrates the elastic force itself, ``F_e += -k_ta a v dt``; the force is
    ``F_e - gamma_t v`` (``a = sqrt(R_eff delta_n)``), capped at ``mu F_N`` with the
    history reset to ``F_e = F + gamma_t v``.  As ``dt -> 0``: sticking ``dF_e/dt = -k_ta a
    v`` (the force does not follow the overlap at rest, unlike :func:`mindlin`), sliding
    ``F_e`` tied to ``|F_e - gamma_t v| = mu F_N``.  At the contact end nothing diverges
    (the stiffness ``k_ta a -> 0``); with ``gamma_t > 0`` the test force ``-gamma_t v``
    exceeds the vanishing bound, so the contact ends sliding, ``F_e -> gamma_t v``.
    ``R`` as for :func:`mindlin`.
    """
    return _force_history("mindlin-force", mindlin_force.__doc__, LAMMPS_MINDLIN + " (mindlin_force = 1)", False,
                          R, params)


def mindlin_rescale_force(R=R_eff, params=None) -> TangentialLaw:
    """Hertz-Mindlin spring on the force history, rescaled on unloading: the limit dt -> 0
    of LAMMPS ``pair granular ... tangential mindlin_rescale/force`` -- and of the elastic
    part of Kratos DEM's ``DEM_D_Hertz_viscous_Coulomb`` (its ``minoring_factor``).

    The step of :func:`mindlin_force`, with the stored force first scaled by ``a/a_old``
    where the contact radius shrank (LAMMPS: ``a < history[3]``; Kratos: ``sqrt(delta/
    delta_old)`` where ``previous_indentation > indentation``).  As ``dt -> 0``: sticking
    ``dF_e/dt = -k_ta a v`` while loading (as :func:`mindlin_force`) and ``-k_ta a v + F_e
    (da/dt)/a`` while unloading (as :func:`mindlin`), i.e. ``+ F_e min(da/dt, 0)/a``: the
    field has a kink where the overlap is largest.  ``R`` as for :func:`mindlin`.
    """
    return _force_history("mindlin-rescale-force", mindlin_rescale_force.__doc__,
                          LAMMPS_MINDLIN + " (mindlin_rescale = 1, mindlin_force = 1)", False, R, params, rescale=True)


def mindlin_rescale(R=R_eff, params=None) -> TangentialLaw:
    """Hertz-Mindlin spring on the displacement history, rescaled on unloading: the limit
    dt -> 0 of LAMMPS ``pair granular ... tangential mindlin_rescale``.

    The step of :func:`mindlin` with the stored displacement first scaled by ``a/a_old``
    where the contact radius shrank.  As ``dt -> 0``, on ``F_e = -k_ta a xi``: sticking
    ``dF_e/dt = -k_ta a v + F_e (da/dt)/a`` while loading (as :func:`mindlin`) and ``-k_ta
    a v + 2 F_e (da/dt)/a`` while unloading (the displacement rescaled, and the stiffness
    falling with ``a``).  ``R`` as for :func:`mindlin`.
    """
    return _force_history("mindlin-rescale", mindlin_rescale.__doc__, LAMMPS_MINDLIN + " (mindlin_rescale = 1)",
                          True, R, params, rescale=True)


F_n_signed = sp.Symbol("F_n_signed", real=True)


def with_normal_magnitude(law: TangentialLaw) -> TangentialLaw:
    """``law`` with its normal force ``F_N`` replaced by ``|F_n|``, as Schäfer et al. write
    eqs 13, 15 and 16: a linear dashpot pulls (``F_n < 0``) at the end of a contact that
    ends at zero overlap, and the friction bound stays ``mu |F_n|``.  The argument symbol
    becomes the real ``F_n_signed`` (``couple`` substitutes the normal law's repulsive
    force for it); ``F_N`` leaves the parameters."""
    sub = {law.normal_force: real_abs(F_n_signed)}

    def x(e):
        return tuple(x(c) for c in e) if isinstance(e, tuple) else sp.sympify(e).xreplace(sub)

    branches = {n: Branch(b.signs, x(b.F), {s: x(e) for s, e in b.rates.items()}, b.kind, b.outputs,
                          {s: x(e) for s, e in b.reset.items()}) for n, b in law.branches.items()}
    slidings = {n: replace(s, F=None if s.F is None else x(s.F), rates={q: x(e) for q, e in s.rates.items()})
                for n, s in law.slidings.items()}
    return replace(law, switching={n: x(e) for n, e in law.switching.items()}, branches=branches,
                   slidings=slidings, params=tuple(p for p in law.params if p.symbol != law.normal_force),
                   normal_force=F_n_signed)


# the registry, filled explicitly (plug-ins: entry points, see nsfric.symbolic.laws)
for _law in (c_sds, d_sds, cundall_strack, coulomb_static, c_sds_2d, viscous, coulomb_viscous, walton_braun_mindlin,
              brilliantov_sawtooth, cundall_strack_cutoff, cundall_strack_viscous, mindlin, mindlin_force,
              mindlin_rescale, mindlin_rescale_force):
    register_law(_law)
