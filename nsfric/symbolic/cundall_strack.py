"""Cundall-Strack tangential spring with cut-off, declared once in SymPy.

Krengel & Matuttis eqs 19-20 (Schäfer, Dippel & Wolf 1996 eqs 16-17): the tangential
force is *incremented* with the relative tangential motion,

    dF = -k_t v dt - gamma_t dv            (eq 19 spring, eq 20 incremental damping)

and cut off at ``mu F_N``.  Integrated over a sticking phase this is
``F = -k_t xi - gamma_t v`` with the spring displacement ``xi`` (``dxi/dt = v``), the
internal state of the law; at the cut-off the force stays on the Coulomb bound
``|F| = mu F_N`` and the spring state follows it (``xi`` is tied to the bound, an
algebraic state: a *constrained* sliding mode).  Grip returns when the sticking
dynamics stop pushing ``|F|`` beyond the bound.  In continuous time this is the same
structure as the discontinuous spring-dashpot-slider of Führer et al. (eqs 1-3) with
``k = k_t``, ``gamma = gamma_t`` and ``F_max = mu F_N``; without damping
(``gamma_t = 0``) the law is the classical Cundall-Strack spring, which "integrates out
to a harmonic oscillator ``F = -k_t x``" below the cut-off (K-M §4).

``F_N`` may be a parameter (1D use) or any expression in the states of the coupled
system (the block on a slope passes its penalty normal force); the velocity symbol is
chosen by the caller as well.
"""
from __future__ import annotations

import sympy as sp

from .laws import TANGENTIAL_LAWS, Branch, Law, LawSliding, P, F_N, mu, v, xi

k_t, gamma_t = sp.symbols("k_t gamma_t", nonnegative=True)

REFERENCE = "Krengel & Matuttis eqs 19-20; Cundall & Strack (1979); Schäfer, Dippel & Wolf (1996) eqs 16-17"


def cundall_strack(velocity=v, normal_force=F_N, k=k_t, gamma=gamma_t, params=None) -> Law:
    """Cundall-Strack spring (eq 19) with incremental damping (eq 20), cut off at ``mu F_N``.

    Parameters
    ----------
    velocity : sympy expression
        The relative tangential velocity ``v`` (a state of the coupled system).
    normal_force : sympy expression
        ``F_N``: the parameter ``F_N`` (default) or an expression in the states.
    k, gamma : sympy expressions
        Tangential stiffness ``k_t`` and damping ``gamma_t`` (default: parameters).
    params : tuple of Param, optional
        The law's parameters (default: ``k_t``, ``gamma_t``, ``mu``, ``F_N``).

    Modes: ``stick`` (``F = -k xi - gamma v``, ``dxi/dt = v``) between the switching
    functions ``h_plus = F_S - mu F_N`` and ``h_minus = F_S + mu F_N``; ``slip+`` /
    ``slip-`` on them with ``F = +-mu F_N`` and ``xi`` algebraic (the cut-off).
    """
    F_S = -k * xi - gamma * velocity
    bound = mu * normal_force
    sw = {"h_plus": F_S - bound, "h_minus": F_S + bound}
    branches = {"stick": Branch({"h_plus": -1, "h_minus": 1}, F_S, {xi: velocity}, "stick")}
    slidings = {
        "slip+": LawSliding("h_plus", "constrained", xi, None, "stick", F=bound, entry_kind="slip"),
        "slip-": LawSliding("h_minus", "constrained", xi, "stick", None, F=-bound, entry_kind="slip"),
    }
    if params is None:
        params = (
            P(k_t, 1.0, 0, lo_open=True, doc="tangential spring stiffness k_t", unit="n.u."),
            P(gamma_t, 0.0, 0, doc="tangential damping gamma_t (eq 20)", unit="n.u."),
            P(mu, 0.4, 0, doc="friction coefficient"),
            P(F_N, 1.0, 0, doc="normal force"),
        )
    return Law("cundall-strack", REFERENCE, (xi,), tuple(params), sw, branches, slidings,
               doc=cundall_strack.__doc__)


TANGENTIAL_LAWS.setdefault("cundall-strack", cundall_strack)
