"""Table 1 of Krengel & Matuttis with its derived values, as a CSV and a caption line.

The derived values (``m``, ``I``, ``m_eff,tan``, ``k_t``, ``gamma_t``, the normal damping
coefficient of eq 18 and the critical angle ``arctan(mu) = 30.96 deg``) are evaluated
from their symbolic derivation (:func:`nsfric.symbolic.systems.slope_numbers`), never
restated here; the table gives each value's expression next to it.
"""
from __future__ import annotations

import numpy as np

from ..symbolic import systems

#: (quantity, parameter or derived key, unit, source)
ROWS = (
    ("dt", "dt", "s", "Table 1"),
    ("rho", "rho", "kg/m^3", "Table 1"),
    ("Y", "Y", "kg/(m s^2)", "Table 1 (2D Young's modulus)"),
    ("mu", "mu", "1", "Table 1"),
    ("gamma (D of eq 18)", "D", "1", "Table 1"),
    ("l", "l", "m", "§4 (1 cm block)"),
    ("alpha", "alpha", "deg", "§4 (Fig 2: 15 deg)"),
    ("k_t", "k_t", "N/m^2", "Table 1: 2/7 Y"),
    ("gamma_t", "gamma_t", "kg/(m s)", "Table 1: 1/4 sqrt(k_t m_eff,tan)"),
    ("m", "m", "kg/m", "rho l^2 (2D, per unit depth)"),
    ("I", "I", "kg m", "m l^2/6 (square)"),
    ("m_eff,tan", "m_eff_tan", "kg/m", "eq 21 (derived from the kinematics)"),
    ("c_n", "c_n", "kg/(m s)", "eq 18: D sqrt(Y m_eff,tan)"),
    ("omega_n", "omega_n", "rad/s", "sqrt(Y/m)"),
    ("F_n at rest", "F_n_eq", "N/m", "dvy/dt = 0"),
    ("critical angle", "critical_angle", "deg", "slip+ acceleration at rest = 0 (lam = 0)"),
)


def table1(case, values=None) -> tuple[dict, dict]:
    """``(columns, meta)`` of Table 1 for ``case`` (``values``: its bound parameters)."""
    values = case.bind("coulomb", values)
    rot = bool(getattr(case, "rotating", False))
    nums = case.numbers(values)
    exprs = systems.slope_numbers("slope-block-rotating" if rot else "slope-block")
    cols = {"quantity": [], "expression": [], "value": [], "unit": [], "source": []}
    for q, key, unit, src in ROWS:
        cols["quantity"].append(q)
        cols["expression"].append(str(exprs[key]) if key in exprs else key)
        cols["value"].append(float(nums[key] if key in nums else values[key]))
        cols["unit"].append(unit)
        cols["source"].append(src)
    out = {k: (np.asarray(v, dtype=float) if k == "value" else np.array(v, dtype=object)) for k, v in cols.items()}
    meta = {"case": case.name, "reference": "Krengel & Matuttis Table 1", "rotating": rot,
            "params": {k: values[k] for k in sorted(values)}}
    return out, meta


def caption(case, values=None) -> str:
    """One line: Table 1 and its derived values, for the figure captions."""
    cols, _ = table1(case, values)
    v = dict(zip(cols["quantity"], cols["value"]))
    return (f"Table 1: dt = {v['dt']:g} s, rho = {v['rho']:g}, Y = {v['Y']:g}, mu = {v['mu']:g}, "
            f"gamma = {v['gamma (D of eq 18)']:g}; derived: m = {v['m']:.3g} kg/m, "
            f"m_eff,tan = {v['m_eff,tan']:.3g} kg/m, k_t = 2/7 Y = {v['k_t']:.4g}, "
            f"gamma_t = {v['gamma_t']:.4g}, critical angle {v['critical angle']:.2f}°")
