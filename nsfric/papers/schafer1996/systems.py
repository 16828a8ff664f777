"""Schäfer, Dippel & Wolf (1996): the normal impact of two spheres, coupled to the normal laws (eqs 2-10)."""
from __future__ import annotations

import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import Slider, SlopeBlock
from nsfric.symbolic.systems import effective_mass, system  # noqa: F401  (effective_mass re-exported)


# -- Schäfer et al. eqs 2-5: normal impact of two spheres ---------------------------------
m_eff = sp.Symbol("m_eff", positive=True)


#: the laws of the normal impact (Schäfer et al. eqs 2, 6, 8, 9, 10): ``NAME`` ends the contact
#: when the overlap returns to zero, ``NAME-force-end`` when the repulsive force vanishes
NORMAL_IMPACT_CASE_LAWS = tuple(f"{law}{end}" for law in ("linear-dashpot", "hertz", "hertz-damped",
                                                           "kuwabara-kono", "walton-braun")
                                for end in ("", "-force-end"))
#: case law -> normal law where one model serves both end criteria: the Hertz force vanishes
#: exactly at zero overlap, and the Walton-Braun law's own contact ends where its
#: unloading force vanishes (at the plastic overlap xi_0, free flight up to zero overlap)
NORMAL_IMPACT_MODEL_LAW = {"hertz-force-end": "hertz", "walton-braun-force-end": "walton-braun"}


@system("normal-impact", NORMAL_IMPACT_CASE_LAWS)
def normal_impact(law: str):
    """Normal impact of two spheres, ``m_eff dv/dt = F(xi, v)`` along the overlap ``xi``,
    with one of Schäfer et al.'s normal laws (eqs 2, 6, 8, 9, 10); ``law`` ends the
    contact at zero overlap, ``law-force-end`` at zero repulsive force (see
    :data:`NORMAL_IMPACT_MODEL_LAW` for the laws where one model serves both).
    The contact is split at ``v = 0`` (:func:`~nsfric.symbolic.normal.with_turning_point`)
    so that the largest overlap is an event.  Outputs per mode: the force ``F`` on the overlap, the repulsive ``F_n = -F``, the
    kinetic energy ``E_kin`` and, where the law defines it, the spring energy ``E_el``."""
    xi0, v_i = sp.symbols("xi0 v_i", real=True)
    kin = Slider(position=L.xi, mass=m_eff,
                 params=(L.P(m_eff, 7.4e-5, 0, lo_open=True, doc="reduced mass m/2", unit="kg"),))
    extra = (
        L.P(xi0, 0.0, doc="initial overlap", unit="m"),
        L.P(v_i, 1.0, 0, lo_open=True, doc="impact velocity", unit="m/s"),
    )
    normal = N.with_turning_point(L.get_law(NORMAL_IMPACT_MODEL_LAW.get(law, law), "normal"))
    return couple(kin, normal=normal, name=f"normal-impact/{law}", params=extra,
                  outputs={"E_kin": m_eff * L.v ** 2 / 2},
                  reference=f"Schäfer, Dippel & Wolf (1996) §2; {normal.reference}")
