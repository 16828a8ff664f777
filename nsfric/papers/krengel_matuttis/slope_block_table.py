"""Table 1 of Krengel & Matuttis with its derived values, as a CSV and a caption line.

The derived values (``m``, ``I``, ``m_eff,tan``, ``k_t``, ``gamma_t``, the normal damping
coefficient of eq 18 and the critical angle ``arctan(mu) = 30.96 deg``) are evaluated
from their symbolic derivation (:func:`nsfric.symbolic.systems.slope_numbers`), never
restated here; the table gives each value's expression next to it.
"""
from __future__ import annotations

import numpy as np

from nsfric.papers.krengel_matuttis.slope_block import number_texts

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
    exprs = number_texts(rot)  # str of each expression of systems.slope_numbers
    cols = {"quantity": [], "expression": [], "value": [], "unit": [], "source": []}
    for q, key, unit, src in ROWS:
        cols["quantity"].append(q)
        cols["expression"].append(exprs[key] if key in exprs else key)
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


# -- captions: Table 1 and, where a figure differs from the paper, how and why -----------
def _mean(rows, key, value, dt=None, field="mean_abs"):
    for r in rows:
        if r.get(key) == value and (dt is None or abs(r.get("dt", r.get("l", 0)) - dt) < 1e-15):
            return r[field]
    return float("nan")


def time_series_caption(case, table) -> list:
    """Caption of Figs 2-3."""
    rot = bool(getattr(case, "rotating", False))
    what = ("Rotating square on its two lower corners (I = m l^2/6; eq 18 and gamma_t with m_eff,tan of eq 21); "
            "tangential damping gamma_t switched off alone (right). Normal damping off is not shown here: the "
            "undamped rocking pulls a corner (F_n < 0), outside the bilateral corner contacts; with one contact "
            "per corner (unilateral, lifting off) it is: fig2-slope-15deg-rotating-corners.png, "
            "fig3-slope-30deg-rotating-corners.png."
            if rot else "Translating block (m_eff,tan = m); 'without damping' = normal D and tangential gamma_t "
            "both off (each alone: --param D=0 / gt_ratio=0, see slope-block-rotating).")
    return [table, what]


def stick_rule_line() -> str:
    """The caption line naming the stick-entry rule of the delta schemes (the default of
    :mod:`nsfric.schemes.stick_rules`)."""
    from nsfric.schemes.stick_rules import stick_rule

    rule = stick_rule()
    return f"Stick-entry rule of the delta schemes: '{rule.name}' -- {rule.doc} (nsfric.schemes.stick_rules)."


def fig4_caption(case, table, rows4, mech=(), corners=()) -> list:
    """Caption of Fig 4: the BDF/Heun drift ratio against the paper's, and why; with the
    per-corner table's rows ``corners`` (fig4-drift-dt-rotating-corners.csv) the ratios
    with one contact per corner."""
    h = _mean(rows4, "scheme", "delta-heun", 5e-6)
    r2, r5 = _mean(rows4, "scheme", "delta-bdf2", 5e-6) / h, _mean(rows4, "scheme", "delta-bdf5", 5e-6) / h
    ratios = (f"at dt = 5e-6 s delta-BDF2/BDF5 drift {r2:.2f}x/{r5:.2f}x as much as delta-Heun (mean over grid "
              "phases)")
    if max(r2, r5) < 1:
        return [table, f"As in the paper (BDF below Heun): {ratios}.", stick_rule_line()]
    lines = [table,
             f"Differs from the paper: {ratios}; the paper has BDF below Heun.", stick_rule_line(),
             "Why (tested: tests/test_slope_block_mechanism.py; drift-mechanism.csv of nsfric run "
             "slope-block-rotating): while stuck the tangential acceleration is zero, so Heun keeps the "
             "velocity of the sticking step,",
             "but the BDF corrector continues its history and extrapolates the deceleration before sticking. "
             "Restarting that history on sticking removes a large part of the excess (all of it for BDF5 on the "
             "rotating block); more corrections change nothing; rotation alone does not bring BDF below Heun."]
    if mech:
        def ratio(block, variant, scheme):
            return next((r["ratio_to_heun"] for r in mech if (r["block"], r["variant"], r["scheme"])
                         == (block, variant, scheme)), float("nan"))
        lines.append("BDF2/Heun, BDF5/Heun: translating "
                     f"{ratio('translating', 'plain', 'delta-bdf2'):.2f}, {ratio('translating', 'plain', 'delta-bdf5'):.2f}; "
                     f"rotating {ratio('rotating', 'plain', 'delta-bdf2'):.2f}, {ratio('rotating', 'plain', 'delta-bdf5'):.2f}; "
                     "history restarted (rotating) "
                     f"{ratio('rotating', 'history restarted on sticking', 'delta-bdf2'):.2f}, "
                     f"{ratio('rotating', 'history restarted on sticking', 'delta-bdf5'):.2f}; "
                     "no normal damping (translating, stick-slip) "
                     f"{ratio('translating', 'no normal damping', 'delta-bdf2'):.2f}, "
                     f"{ratio('translating', 'no normal damping', 'delta-bdf5'):.2f}.")
    if corners:
        from nsfric.papers.krengel_matuttis.verdicts_rotating import corner_ratios

        ratios = corner_ratios(corners)

        def text(dt):
            got = ratios[dt]
            return ", ".join(f"{got[k]:.2f}" if k in got else "not stuck" for k in ("delta-bdf2", "delta-bdf5"))
        below = [f"{dt:g}" for dt, got in sorted(ratios.items()) if len(got) == 2 and max(got.values()) < 1]
        lines.append("With one contact per corner (law coulomb-corners, fig4-drift-dt-rotating-corners.csv) "
                     "BDF2/Heun, BDF5/Heun: " + "; ".join(f"{dt:g} s: {text(dt)}" for dt in sorted(ratios))
                     + f" -- BDF below Heun at dt = {', '.join(below) or 'none'} s.")
    return lines


def fig5_caption(case, table, rows5) -> list:
    """Caption of Fig 5: flat in the block size, and why."""
    def at(integ, l):
        return next((r["mean_abs"] for r in rows5 if r["integrator"] == integ and abs(r["l"] - l) < 1e-12),
                    float("nan"))
    h = [at("heun", l) for l in (0.01, 1.0)]
    b = [at("bdf2", l) for l in (0.01, 1.0)]
    own = abs(at("exact", 1.0))
    rocking = []
    if own > 0.05 * min(h[1], b[1]):  # the exact block itself still moves in the window
        rocking = [f"At 1 m the exact block itself still rocks and moves {own:.2g} m in the window (the dashed "
                   f"line); less that motion the drift at 1 m is {h[1] - own:.2g} m (delta-Heun) and "
                   f"{b[1] - own:.2g} m (delta-BDF2): flat in l."]
    return [table,
            f"Differs from the paper: flat in l (delta-Heun {h[0]:.2g} m at 1 cm, {h[1]:.2g} m at 1 m; delta-BDF2 "
            f"{b[0]:.2g}, {b[1]:.2g}); the paper rises above 0.1 m for BDF and is U-shaped for Heun.", *rocking,
            "Why (tested: tests/test_slope_block_mechanism.py): the drift is the residual velocity of the "
            "sticking step, ~ a dt with the deceleration a = g (mu cos - sin) independent of l;",
            "l enters only through omega_n dt = sqrt(Y/rho) dt / l, which destabilises the explicit schemes "
            "for small blocks (BDF5 diverges at 1 mm) and vanishes for large ones: nothing here grows with l.",
            stick_rule_line()]


def _corner_row(rows, dt, variant, scheme) -> dict:
    return next((r for r in rows if abs(float(r["dt"]) - dt) < 1e-15 and r["variant"] == variant
                 and r["scheme"] == scheme), {})


def corners_mechanism_reason(rows) -> str:
    """Why BDF drifts less than Heun per corner at 5e-6 s and not at 2e-5 s, with the
    numbers of the rows of ``drift-mechanism-corners.csv``
    (:mod:`nsfric.papers.krengel_matuttis.slope_block_corners_mechanism`; tests/test_slope_block_corners_mechanism.py
    tests the statement); '' without the plain rows at 5e-6 s."""
    return "; ".join(_corner_reason_parts(rows))


def _corner_reason_parts(rows) -> list:
    """The reason at 5e-6 s and, with rows at 2e-5 s, why not there (see above)."""
    p = _corner_row(rows, 5e-6, "plain", "delta-bdf2")
    p5 = _corner_row(rows, 5e-6, "plain", "delta-bdf5")
    if not p or not p5:
        return []

    def q(dt, variant, key="ratio_to_heun"):
        return ", ".join(f"{float(_corner_row(rows, dt, variant, s).get(key, float('nan'))):.2f}"
                         for s in ("delta-bdf2", "delta-bdf5"))
    late = _corner_row(rows, 2e-5, "plain", "delta-bdf2")
    top = max(float(r.get("ratio4_max", float("nan"))) for r in (p, p5))
    noise = "every subset below 1, not phase noise" if top < 1 else "some subsets reach 1: within phase noise"
    parts = [f"the corners stick before v_t crosses 0 (stick-entry rule 'brake': |v_t| <= h mu F_n/m_eff,tan) and the "
             f"BDF corrector, stuck, continues its history (the deceleration before sticking), which carries v_t "
             f"on towards 0 (Heun keeps it): at dt = 5e-6 s BDF2/Heun, BDF5/Heun {q(5e-6, 'plain')} over "
             f"{int(float(p.get('n_phases', 0)))} grid phases (4-phase subsets {q(5e-6, 'plain', 'ratio4_min')} to "
             f"{q(5e-6, 'plain', 'ratio4_max')}: {noise}); early-stick rule off "
             f"{q(5e-6, 'early-stick rule off')} (stick-entry rule 'crossing': sticking after the crossing, ~2); "
             f"history restarted on sticking {q(5e-6, 'history restarted on sticking')}; BDF5 below BDF2 because its "
             f"continuation removes more (while stuck {float(p5.get('stuck_part', float('nan'))):.2g} m against "
             f"{float(p.get('stuck_part', float('nan'))):.2g} m)"]
    if late:
        step = float(late["stick_step"])
        why = ("so BDF's history holds no sliding state and the ratio {} is its RK4 start's residual against Heun's"
               if step <= 1 else "ratio {}")
        parts.append(f"at 2e-5 s the corners stick in step {step:.0f} of the landing, " + why.format(q(2e-5, "plain"))
                     + f" (BDF started by Heun: {q(2e-5, 'BDF started by Heun')}; history restarted: "
                     f"{q(2e-5, 'history restarted on sticking')})")
    return parts


def fig4_corners_mechanism_caption(rows) -> list:
    """The Fig 4 caption's line on why BDF drifts less than Heun per corner (from the
    rows of ``drift-mechanism-corners.csv``; none without rows)."""
    parts = _corner_reason_parts(rows)
    heads = ("Why BDF below Heun per corner (tested: tests/test_slope_block_corners_mechanism.py; "
             "drift-mechanism-corners.csv): ", "Per corner, why not at every dt: ")
    return [f"{head}{part}." for head, part in zip(heads, parts)]
