"""Führer, Brendel & Wolf (2024): the sliding plates, coupled to their laws (§3, Figs 1-4)."""
from __future__ import annotations

import sympy as sp

from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.symbolic.coupling import couple
from nsfric.symbolic.kinematics import Slider, SlopeBlock
from nsfric.symbolic.systems import effective_mass, system  # noqa: F401  (effective_mass re-exported)


# -- Führer et al. §3: two sliding plates, m dv/dt = F ---------------------------------------
PLATES_REFERENCE = "Führer, Brendel & Wolf (2024) §3, Figs 1-4"


def plates_mass(default=1.0):
    """The reduced mass parameter ``m`` of the plates (n.u.)."""
    return L.P(L.m, default, 0, lo_open=True, doc="reduced mass", unit="n.u.")


@system("sliding-plates", ("c-sds", "d-sds"))
def sliding_plates(law: str):
    """Two sliding plates, ``m dv/dt = F`` (Führer et al. §3.1), with ``c-sds`` or ``d-sds``."""
    xi0, v0 = sp.symbols("xi0 v0", real=True)
    extra = (
        L.P(xi0, 0.0, doc="initial spring displacement", unit="n.u."),
        L.P(v0, 4.0, doc="initial relative velocity", unit="n.u."),
    )
    outputs = {
        "F_S": L.test_force(L.xi, L.v),
        "E_kin": L.m * L.v ** 2 / 2,
        "E_el": L.k * L.xi ** 2 / 2,
    }
    tangential = L.get_law(law)
    return couple(Slider(params=(plates_mass(),)), tangential=tangential, name=f"sliding-plates/{law}",
                  params=extra, outputs=outputs, reference=f"{PLATES_REFERENCE}; {tangential.reference}")


f_ext = sp.Symbol("f_ext", real=True)


@system("sliding-plates-2d", ("c-sds-2d",))
def sliding_plates_2d(law: str):
    """The C-SDS in the tangential plane (Führer et al. eqs 1, 8-11, vector form), a plate
    pushed sideways by a constant ``f_ext``."""
    v0 = sp.Symbol("v0", real=True)
    extra = (
        L.P(v0, 4.0, doc="initial relative velocity along x", unit="n.u."),
        L.P(f_ext, 0.5, doc="external tangential force along y", unit="n.u."),
    )
    outputs = {
        "E_kin": L.m * (L.v_1 ** 2 + L.v_2 ** 2) / 2,
        "E_el": L.k * (L.xi_1 ** 2 + L.xi_2 ** 2) / 2,
    }
    kin = Slider(velocity=(L.v_1, L.v_2), external=(0, f_ext), params=(plates_mass(),))
    return couple(kin, tangential=T.c_sds_2d(), name=f"sliding-plates-2d/{law}", params=extra,
                  outputs=outputs, reference="Führer, Brendel & Wolf (2024) eqs 1, 8-11, vector form")
