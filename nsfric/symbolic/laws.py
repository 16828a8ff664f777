"""Contact laws, declared once in SymPy.

A law is data: its parameters (with allowed ranges), its internal states (the spring
displacement ``xi``), its switching functions and, per mode, the contact force ``F``
and the rates of its internal states.  A case (:mod:`nsfric.cases`) couples a law to
mechanics (``m dv/dt = F + ...``) with :func:`couple`, which yields a
:class:`~nsfric.symbolic.model.HybridModel`.

Symbols carry the papers' names: ``xi`` (spring displacement / overlap), ``v``
(relative velocity), ``k``, ``gamma``, ``F_max``, ``mu``, ``F_N``, ``m``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from .model import HybridModel, Param, Region, Sliding

# ---------------------------------------------------------------------------
# symbols, shared by every law and case (same names everywhere)
xi, v, x = sp.symbols("xi v x", real=True)
k, gamma, F_max, m = sp.symbols("k gamma F_max m", positive=True)
mu, F_N = sp.symbols("mu F_N", nonnegative=True)
k_n, gamma_n = sp.symbols("k_n gamma_n", positive=True)
lam = sp.Symbol("lam", real=True)


def P(symbol, default, lo=-sp.oo, hi=sp.oo, lo_open=False, hi_open=False, doc="", unit=""):
    """Shorthand for :class:`Param`."""
    return Param(symbol, float(default), float(lo), float(hi), lo_open, hi_open, doc, unit)


def test_force(xi_, v_, k_=k, gamma_=gamma):
    """Spring-dashpot test force ``F_S = -k xi - gamma v`` (Führer et al. eq 1)."""
    return -k_ * xi_ - gamma_ * v_


@dataclass(frozen=True)
class Branch:
    """One smooth mode of a law: sign pattern, force ``F`` and internal-state rates."""

    signs: dict
    F: sp.Expr
    rates: dict
    kind: str


@dataclass(frozen=True)
class LawSliding:
    """A law mode on a switching surface (see :class:`~nsfric.symbolic.model.Sliding`)."""

    surface: str
    kind: str
    algebraic: sp.Symbol
    plus: str | None
    minus: str | None
    F: sp.Expr | None = None
    rates: dict = field(default_factory=dict)
    entry_kind: str = "stick"


@dataclass(frozen=True)
class Law:
    """A contact law declared symbolically.

    ``branches`` and ``slidings`` are keyed by mode name.  ``reference`` cites the
    paper and equations.
    """

    name: str
    reference: str
    states: tuple
    params: tuple
    switching: dict
    branches: dict
    slidings: dict = field(default_factory=dict)
    doc: str = ""


def _sds_params(default_gamma=2.0):
    return (
        P(k, 1.0, 0, lo_open=True, doc="tangential spring stiffness", unit="n.u."),
        P(gamma, default_gamma, 0, lo_open=True, doc="tangential damping", unit="n.u."),
        P(F_max, 1.0, 0, lo_open=True, doc="critical force mu F_n", unit="n.u."),
    )


def c_sds() -> Law:
    """Continuous spring-dashpot-slider, Führer et al. eq 10.

    ``F = clip(F_S, -F_max, F_max)`` with ``F_S = -k xi - gamma v`` (eq 1) and
    ``gamma dxi/dt = -(F + k xi)`` (eq 6, i.e. eq 10): the sticking branch gives
    ``dxi/dt = v`` (eq 2), the sliding branches give eq 9.  The field is continuous
    across ``|F_S| = F_max``; only its derivative jumps.
    """
    F_S = test_force(xi, v)
    sw = {"h_plus": F_S - F_max, "h_minus": F_S + F_max}

    def rate(F):
        return {xi: -(F + k * xi) / gamma}

    branches = {
        "slip+": Branch({"h_plus": 1}, F_max, rate(F_max), "slip"),
        "stick": Branch({"h_plus": -1, "h_minus": 1}, F_S, rate(F_S), "stick"),
        "slip-": Branch({"h_minus": -1}, -F_max, rate(-F_max), "slip"),
    }
    return Law("c-sds", "Führer, Brendel & Wolf (2024) eqs 1, 4-10", (xi,), _sds_params(),
               sw, branches, doc=c_sds.__doc__)


def d_sds() -> Law:
    """Discontinuous spring-dashpot-slider (Luding; LAMMPS), Führer et al. eqs 1-3.

    Sticking: ``dxi/dt = v`` (eq 2), ``F = F_S``.  Sliding: ``xi`` is tied to ``v`` by
    eq 3, ``xi_D = -(F_max sign(F_S) + gamma v)/k``, so that ``|F_S| = F_max`` -- in
    continuous time a DAE (Appendix A).  A state with ``|F_S| > F_max`` is projected
    onto the surface (the instantaneous reset of ``xi``); sticking begins when the
    stick dynamics no longer push ``|F_S|`` above ``F_max`` (cf. eq 20).
    """
    F_S = test_force(xi, v)
    sw = {"h_plus": F_S - F_max, "h_minus": F_S + F_max}
    branches = {"stick": Branch({"h_plus": -1, "h_minus": 1}, F_S, {xi: v}, "stick")}
    slidings = {
        "slip+": LawSliding("h_plus", "constrained", xi, None, "stick", F=F_max, entry_kind="slip"),
        "slip-": LawSliding("h_minus", "constrained", xi, "stick", None, F=-F_max, entry_kind="slip"),
    }
    return Law("d-sds", "Führer, Brendel & Wolf (2024) eqs 1-3, 18-20", (xi,), _sds_params(),
               sw, branches, slidings, doc=d_sds.__doc__)


def coulomb_static() -> Law:
    """Dry Coulomb friction with exact static friction, Krengel & Matuttis eqs 3-14.

    ``F = -mu F_N sign(v)`` off the surface ``g = v = 0`` (eqs 4-6); on it, the
    Filippov convex combination (eq 9) with ``lam = a_I/(a_I + a_II)`` (eq 12) makes the
    static friction compensate the external force exactly (eq 14).
    """
    sw = {"g": v}
    branches = {
        "slip+": Branch({"g": 1}, -mu * F_N, {}, "slip"),
        "slip-": Branch({"g": -1}, mu * F_N, {}, "slip"),
    }
    slidings = {"stick": LawSliding("g", "filippov", v, "slip+", "slip-")}
    params = (
        P(mu, 0.4, 0, doc="friction coefficient"),
        P(F_N, 1.0, 0, doc="normal force"),
    )
    return Law("coulomb", "Krengel & Matuttis eqs 3-14", (), params, sw, branches, slidings,
               doc=coulomb_static.__doc__)


xi_1, xi_2, v_1, v_2 = sp.symbols("xi_1 xi_2 v_1 v_2", real=True)


def c_sds_2d() -> Law:
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

    branches = {
        "slip": Branch({"h": 1}, F_slip, rate(F_slip), "slip"),
        "stick": Branch({"h": -1}, F_S, rate(F_S), "stick"),
    }
    return Law("c-sds-2d", "Führer, Brendel & Wolf (2024) eqs 1, 8-10 (vector form)", (xi_1, xi_2),
               _sds_params(), {"h": F_S[0] ** 2 + F_S[1] ** 2 - F_max ** 2}, branches,
               doc=c_sds_2d.__doc__)


def linear_spring_dashpot() -> Law:
    """Linear spring-dashpot normal force ``F_n = -k_n xi - gamma_n dxi/dt``, Schäfer et al. eq 2.

    Here ``xi`` is the overlap (positive in contact) and ``v = dxi/dt``; ``F`` is the
    force on the relative coordinate, so ``m_eff dv/dt = F``.  The contact exists while
    the switching function (overlap, or the repulsive force, see the case) is positive.
    """
    F = -k_n * xi - gamma_n * v
    params = (
        P(k_n, 7.32e6, 0, lo_open=True, doc="normal stiffness", unit="N/m"),
        P(gamma_n, 2.06, 0, doc="normal damping", unit="kg/s"),
    )
    branches = {
        "contact": Branch({"h": 1}, F, {}, "contact-begin"),
        "free": Branch({"h": -1}, sp.Integer(0), {}, "contact-end"),
    }
    return Law("linear-dashpot", "Schäfer, Dippel & Wolf (1996) eqs 2-5", (), params,
               {"h": xi}, branches, doc=linear_spring_dashpot.__doc__)


TANGENTIAL_LAWS = {"c-sds": c_sds, "d-sds": d_sds, "coulomb": coulomb_static, "c-sds-2d": c_sds_2d}
NORMAL_LAWS = {"linear-dashpot": linear_spring_dashpot}


def couple(law: Law, name: str, mechanics: dict, extra_params=(), outputs=None,
           switching=None, reference="") -> HybridModel:
    """Couple a law to mechanics and return the :class:`HybridModel`.

    Parameters
    ----------
    mechanics : dict
        Mechanical state symbol -> rate expression in terms of the symbol ``F_c``
        (the contact force of the active mode), e.g. ``{v: F_c/m}``; for a vector
        force (a tuple ``F``) in terms of its components ``F_c1, F_c2, ...``.
    switching : dict, optional
        Rename/replace the law's switching functions (used to pick the
        contact-end criterion of a normal law).
    outputs : dict, optional
        Mode-independent derived quantities (energies).
    """
    F_c = sp.Symbol("F_c")

    def force_subs(F):
        if isinstance(F, tuple):
            return {sp.Symbol(f"F_c{i + 1}"): c for i, c in enumerate(F)}
        return {F_c: F}

    def force_outputs(F):
        if isinstance(F, tuple):
            return {f"F_{i + 1}": c for i, c in enumerate(F)}
        return {"F": F}

    sw = dict(switching if switching is not None else law.switching)
    mech_states = tuple(mechanics)
    states = tuple(law.states) + tuple(s for s in mech_states if s not in law.states)
    # order states as in the papers: internal states first, then mechanics
    regions = []
    for mname, br in law.branches.items():
        rhs = dict(br.rates)
        rhs.update({s: e.subs(force_subs(br.F)) for s, e in mechanics.items()})
        regions.append(Region(mname, dict(br.signs), rhs, force_outputs(br.F), br.kind))
    slidings = []
    for mname, sl in law.slidings.items():
        if sl.kind == "constrained":
            rhs = dict(sl.rates)
            rhs.update({s: e.subs(force_subs(sl.F)) for s, e in mechanics.items() if s != sl.algebraic})
            outs = force_outputs(sl.F)
        else:
            rhs, outs = {}, {}
        slidings.append(Sliding(mname, sl.surface, sl.kind, sl.algebraic, sl.plus, sl.minus,
                                rhs, outs, sl.entry_kind))
    params = tuple(law.params) + tuple(extra_params)
    return HybridModel(name=name, states=states, params=params, switching=sw,
                       regions=tuple(regions), slidings=tuple(slidings),
                       common_outputs=dict(outputs or {}),
                       reference=reference or law.reference)
