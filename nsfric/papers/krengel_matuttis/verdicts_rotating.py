"""Verdicts and captions of Krengel & Matuttis §4 for ``slope-block-rotating``: the block
as a rotating square on its two lower corners (Table 1, Figs 2-5, eqs 18-22).  The
paper's block is a rotating polygon, so every statement of §4 applies to it; nsfric's
values are read from the outputs of ``nsfric run slope-block-rotating``."""
from __future__ import annotations

import numpy as np

from nsfric.cases.verdicts import Reading, Sheet, captions_for, verdicts_for
from nsfric.papers.krengel_matuttis import verdicts as V
from nsfric.papers.krengel_matuttis.verdicts import SOURCE, drift_claims, grip_claims

#: the damped column of Figs 2-3 (normal and tangential damping, Table 1)
DAMPED = "normal+tangential"

BDF_REASON = ("with rotation, too, BDF drifts at least as much as Heun under this reading: while stuck the "
              "tangential acceleration is zero, Heun keeps the velocity of the sticking step, the BDF corrector "
              "continues its history (drift-mechanism.csv: the same ingredient changed on both blocks)")
BDF2_REASON = "nsfric's BDF2 and BDF5 drifts agree within a few per cent (the same residual velocity at sticking)"
SIZE_REASON = ("the drift is the residual velocity of the sticking step, ~ a dt with the deceleration a = "
               "g (mu cos - sin) independent of l, times the time stuck; l enters through omega_n dt = "
               "sqrt(Y/rho) dt / l (stability of small blocks) and the rocking's period (~ l): the raw drift "
               "of the 1 m block rises because x, the lower face's centre, follows its slow rocking while the "
               "contact is stuck, as the exact reference's does over the same window; less that, the drift is "
               "flat (the paper's polygon contact at the overlap centroid is not modelled)")
CS_REASON = ("the exact CS law's own amplitude over 10-20 ms (no scheme involved): gt_ratio = 0 switches only "
             "the tangential damping off; on the rotating block the tangential force turns the block, so "
             "the spring's oscillation feeds the rocking, which the corner dampers (eq 18) dissipate; "
             "switching them off too is outside the bilateral corner contacts (a corner pulls)")


def _mechanism(o, variant) -> dict:
    """``{scheme: BDF/Heun}`` of the rotating block's ``variant`` (drift-mechanism.csv)."""
    rows = o.rows("drift-mechanism.csv", block="rotating", variant=variant)
    ratio = dict(zip(rows["scheme"], rows["ratio_to_heun"]))
    return {k: float(ratio[k]) for k in ("delta-bdf2", "delta-bdf5")}


def _corner_mechanism(o, variant) -> dict:
    """``{scheme: BDF/Heun}`` per corner at dt = 5e-6 s, ``variant`` of drift-mechanism-corners.csv."""
    from nsfric.papers.krengel_matuttis.slope_block_table import _corner_row

    rows = o.records("drift-mechanism-corners.csv")
    out = {k: float(_corner_row(rows, PAPER_DT, variant, k)["ratio_to_heun"]) for k in ("delta-bdf2", "delta-bdf5")}
    return out


GROWTH_CSV = "fig4-drift-dt-rotating-rules.csv"
#: the brake rule's drift grows with dt up to this step [s] (the translating block's Fig 4 range)
GROWTH_DT_FIG4 = 1e-5


def largest_fall(g: dict) -> str:
    """The largest fall of the mean drift from one step to the next larger in
    :func:`~nsfric.papers.krengel_matuttis.slope_block_readings.growth`'s ``g``, in words
    with its size in standard errors of the difference ("" where it never falls)."""
    m, se, dt = (np.asarray(g[k]) for k in ("mean_abs", "sem_abs", "dt"))
    fall = -np.diff(m)
    if not (fall > 0).any():
        return ""
    k = int(np.argmax(fall))
    return (f"the mean drift falls from {m[k]:.3g} m at dt = {dt[k]:.3g} s to {m[k + 1]:.3g} m at {dt[k + 1]:.3g} s, "
            f"{fall[k] / np.hypot(se[k], se[k + 1]):.1f} standard errors of the difference over the grid phases")


def growth_readings(o) -> list:
    """The readings of "the drift increases with the timestep" on the rotating block
    (``fig4-drift-dt-rotating-rules.csv``): delta-Heun's mean drift over 8 grid phases
    per stick-entry rule, nsfric's default up to 1e-5 s (the translating block's Fig 4
    range) and every rule up to 5e-5 s (the stability limit); each holds when the drift
    grows beyond the phase noise
    (:func:`~nsfric.papers.krengel_matuttis.slope_block_readings.grows`)."""
    from nsfric.papers.krengel_matuttis.slope_block_readings import RULES, growth, grows
    from nsfric.schemes.stick_rules import STICK_RULES

    rows = lambda: o.records(GROWTH_CSV)  # noqa: E731

    def why(rule, dt_max=np.inf):
        try:
            fall = largest_fall(growth(rows(), rule, dt_max))
        except (OSError, KeyError, ValueError):
            fall = ""
        return ((f"{fall}: a real dip, not phase noise; " if fall else "")
                + "the drift is the residual velocity the sticking step leaves, and which step sticks is the "
                  "stick-entry rule's choice: under 'brake' (stick once dynamic friction would stop the block within "
                  "the step) it saturates above 1e-5 s on both blocks (measured on the translating block: peak at "
                  "1.5e-5 s), before it rises again at the stability limit; why it saturates is not established")

    def meaning(rule, upto):
        return (f"{STICK_RULES[rule].doc}; delta-Heun's mean |drift| over the grid phases ({GROWTH_CSV}) at "
                f"dt = 1e-6 s ... {upto}; holds when no larger step lowers it by more than 2 standard errors and it "
                "grows over the range")

    default = V.DEFAULT_STICK_RULE
    out = [Reading(f"stick-entry {default} (nsfric's default), dt up to 1e-5 s",
                   meaning(default, "1e-5 s (the translating block's Fig 4 range)"),
                   lambda: growth(rows(), default, GROWTH_DT_FIG4), grows, why(default, GROWTH_DT_FIG4))]
    for rule in sorted(RULES, key=lambda r: r != default):  # nsfric's default first
        mark = " (nsfric's default)" if rule == default else ""
        out.append(Reading(f"stick-entry {rule}{mark}, dt up to 5e-5 s",
                           meaning(rule, "5e-5 s (the stability limit)"),
                           lambda rule=rule: growth(rows(), rule), grows, why(rule)))
    return out


#: the readings of the rotating block's Fig 4 BDF claims: (name, meaning, value getter)
def fig4_readings(o, holds, reason) -> list:
    """The rotating block's readings of a Fig 4 BDF claim: the shared surface with the
    ingredients of drift-mechanism.csv, one contact per corner (fig4-drift-dt-rotating-corners.csv)
    and its ingredients (drift-mechanism-corners.csv), each ``{scheme: BDF/Heun}`` at dt = 5e-6 s."""
    mech = {"plain": "BDF history kept (nsfric's default stick-entry rule)",
            "history restarted on sticking": "BDF history restarted on sticking",
            "3 corrections": "PE(CE)^3 instead of PE(CE)"}
    out = [Reading(f"shared surface: {meaning}", f"drift-mechanism.csv, rotating, {variant}, mean over its grid phases",
                   lambda variant=variant: _mechanism(o, variant), holds, reason) for variant, meaning in mech.items()]
    out.append(Reading("per corner: stick-entry brake, BDF history kept", "one contact per corner "
                       "(fig4-drift-dt-rotating-corners.csv) at dt = 5e-6 s",
                       lambda: {k: _corner_ratios(o)[PAPER_DT][k] for k in ("delta-bdf2", "delta-bdf5")}, holds,
                       "with one contact per corner BDF does not drift less than Heun at the paper's step: "
                       + _corners_reason(o)))
    corners = {"early-stick rule off": "stick-entry crossing, BDF history kept",
               "history restarted on sticking": "stick-entry brake, BDF history restarted"}
    out += [Reading(f"per corner: {meaning}", f"drift-mechanism-corners.csv, {variant}, dt = 5e-6 s",
                    lambda variant=variant: _corner_mechanism(o, variant), holds, reason)
            for variant, meaning in corners.items()]
    return out


#: the step of the paper's Figs 2, 3 and 5 [s]
PAPER_DT = 5e-6


def corner_ratios(rows) -> dict:
    """``{dt: {scheme: BDF/Heun ratio}}`` of the per-corner Fig 4 rows (the run's summary
    or fig4-drift-dt-rotating-corners.csv): every dt, with the BDF2 and BDF5 schemes that
    stayed stuck in the window (both corners)."""
    out = {}
    for r in rows:
        got = out.setdefault(float(r["dt"]), {})
        if r["scheme"] in ("delta-bdf2", "delta-bdf5") and float(r["both_stuck"]) == 1.0:
            got[str(r["scheme"])] = float(r["ratio_to_heun"])
    return out


def _corner_ratios(o) -> dict:
    """:func:`corner_ratios` of fig4-drift-dt-rotating-corners.csv."""
    return corner_ratios(o.records("fig4-drift-dt-rotating-corners.csv"))


#: the per-corner Figs 2-3 (nsfric.papers.krengel_matuttis.slope_block_series): the DAE scheme and the CS schemes
CORNER_DAE, CORNER_CS = "DAE delta-Heun", ("CS Heun", "CS viscous Heun")


def corner_drift_order(fig2) -> dict:
    """``{variant: True/False/None}`` of the per-corner Fig 2 numbers (``summary.json``
    ``fig2_corners``): whether DAE's drift after grip, ``|x(t_end) - x(t_end/2)|``,
    exceeds that of every CS scheme (None: a series without data)."""
    out = {}
    for key, cur in fig2.items():
        d = [cur[k]["drift"] for k in (CORNER_DAE,) + CORNER_CS]
        out[key.removeprefix("damping=")] = None if None in d else abs(d[0]) > max(map(abs, d[1:]))
    return out


def corner_grip_claims(fig3) -> dict:
    """Fig 3's two claims on the per-corner numbers (``fig3_corners``): ``grips``
    ``{"<series>, <variant>": grip time or None (still sliding)}`` of the DAE and CS
    schemes; ``cs_later``: with damping every CS scheme grips later than DAE (or never);
    ``damped_dae_first``: the damped DAE grips before every other configuration -- every
    CS scheme with every damping and DAE without damping (DAE with the tangential damping
    off alone is the same run: exact friction has no tangential damping); ``earliest``:
    the configuration gripping first."""
    grips = {f"{label}, {key.removeprefix('damping=')}": cur[label]["grip"]
             for key, cur in fig3.items() for label in (CORNER_DAE,) + CORNER_CS}
    variants = [k.removeprefix("damping=") for k in fig3]
    damped, undamped = variants[0], variants[-1]
    dae = grips[f"{CORNER_DAE}, {damped}"]

    def later(g):
        return dae is not None and (g is None or g > dae)
    others = [f"{c}, {v}" for c in CORNER_CS for v in variants] + [f"{CORNER_DAE}, {undamped}"]
    timed = {k: g for k, g in grips.items() if g is not None}
    return {"grips": grips, "cs_later": all(later(grips[f"{c}, {damped}"]) for c in CORNER_CS),
            "damped_dae_first": all(later(grips[k]) for k in others),
            "earliest": min(timed, key=timed.get) if timed else "none grips"}


def _corners_reason(o) -> str:
    """The tested reason of the per-corner BDF/Heun ratios, from drift-mechanism-corners.csv
    (:func:`~nsfric.papers.krengel_matuttis.slope_block_table.corners_mechanism_reason`)."""
    from nsfric.papers.krengel_matuttis.slope_block_table import corners_mechanism_reason
    from nsfric.cases.verdicts import _MISSING

    try:
        reason = corners_mechanism_reason(o.records("drift-mechanism-corners.csv"))
        return reason or "not evaluated, drift-mechanism-corners.csv has no plain rows at dt = 5e-6 s"
    except _MISSING as e:
        return f"not evaluated, drift-mechanism-corners.csv missing or unreadable ({type(e).__name__})"


CORNER_SIZE_CSV = "fig5-drift-size-rotating-corners.csv"
CORNER_SIZE_REASON = ("with one contact per corner the block is self-similar: the drift over a window after "
                      "sticking is window x g dt x F(omega_n dt), the size entering only through omega_n dt = "
                      "sqrt(Y/rho) dt/l (tested: equal drift/dt for equal omega_n dt); the shape against l at "
                      "fixed dt is the shape of F, which for each scheme has its least value near omega_n dt = "
                      "0.25 (l = 2 mm at 5e-6 s) and rises towards the stability limit (small l) and towards the "
                      "well-resolved landing (large l); BDF5's predictor-corrector loses stability at 1 mm")


def corner_size_excess(rows) -> dict:
    """``{scheme: (l, excess)}`` of the per-corner Fig 5 rows (the run's summary or
    fig5-drift-size-rotating-corners.csv): per delta scheme the sizes and the mean drift
    over the grid phases in excess of the exact per-corner reference's own ``|drift|`` at
    that size (the 1 m block still rocks in the window).  ValueError where a drift is
    missing (an exact reference that failed, a scheme that diverged)."""
    exact = {float(r["l"]): abs(float(r["drift"])) for r in rows if r["integrator"] == "exact"}
    out = {}
    for r in rows:
        if r["integrator"] == "exact":
            continue
        l = float(r["l"])
        v = float(r["mean_abs"]) - exact[l]
        if not np.isfinite(v):
            raise ValueError(f"{r['scheme']} at l = {l:g} m: no drift in excess of the exact reference's (NaN)")
        out.setdefault(str(r["scheme"]), []).append((l, v))
    return {k: tuple(np.array(sorted(v)).T) for k, v in out.items()}


def corner_size_shape(rows) -> dict:
    """The per-corner Fig 5 shape the paper describes, from :func:`corner_size_excess`:
    ``{scheme: [rise, spread]}`` for BDF (rise: largest excess above 0.1 m over the median
    up to 0.1 m; spread: largest over smallest up to 0.1 m) and ``{"delta-heun": [small,
    large]}`` (the smallest and the largest size's excess over the least: a U when both
    are above 1)."""
    out = {}
    for scheme, (l, d) in corner_size_excess(rows).items():
        if scheme == "delta-heun":
            out[scheme] = [float(d[0] / np.min(d)), float(d[-1] / np.min(d))]
        else:
            low = d[l <= 0.1]
            out[scheme] = [float(np.max(d[l > 0.1]) / np.median(low)), float(np.max(low) / np.min(low))]
    return out


def _corner_size_shape(o) -> dict:
    return corner_size_shape(o.records(CORNER_SIZE_CSV))


def _fig4(o, scheme) -> dict:
    return {r["dt"]: r for r in o.json("summary.json")["fig4"]["rows"] if r["scheme"] == scheme}


UNDAMPED_NOTE = ("without any damping (damping=0) nothing grips for good: the normal oscillation excited by "
                 "the start without overlap never decays, corners lift off and each landing slides the block "
                 "downhill -- the exact reference as far as DAE (tested: from its rest overlap the undamped exact "
                 "block at 15 deg neither lifts off nor slides)")


def corner_series_readings(o) -> dict:
    """Figs 2-3 with one frictional contact per corner (``summary.json`` ``fig2_corners``,
    ``fig3_corners``; :mod:`nsfric.papers.krengel_matuttis.slope_block_series`): readings of
    the paper's three claims, ``{id: [Reading]}`` (:func:`~nsfric.papers.krengel_matuttis.verdicts.grip_claims`)."""
    summary = lambda: o.json("summary.json")  # noqa: E731
    grips = lambda: corner_grip_claims(summary()["fig3_corners"])  # noqa: E731
    names = "DAE delta-Heun and CS Heun / CS viscous Heun with damping normal+tangential, normal only, none"
    return {
        V.DAE_DRIFTS_MORE: [Reading(
            "per corner: drift after grip", "one contact per corner (fig2-slope-15deg-rotating-corners.csv), 15 deg, "
            "with damping: |x(20 ms) - x(10 ms)| of DAE delta-Heun against CS Heun and CS viscous Heun [m]; also with "
            "the tangential damping off; " + UNDAMPED_NOTE,
            lambda: {k: summary()["fig2_corners"][f"damping={DAMPED}"][k]["drift"] for k in (CORNER_DAE,) + CORNER_CS},
            lambda d: corner_drift_order({"damping=x": {k: {"drift": v} for k, v in d.items()}})["x"],
            "with one contact per corner DAE drifts no more than CS after grip")],
        V.GRIPS_LATER: [Reading(
            "per corner: lasting grip", "one contact per corner (fig3-slope-30deg-rotating-corners.csv), 30 deg: grip "
            f"time (from when on a corner stays stuck; None: no lasting grip within 20 ms) of {names} [s]",
            lambda: grips()["grips"], lambda g: corner_grip_claims(_as_fig3(g))["cs_later"],
            "with one contact per corner a damped CS configuration grips no later than the damped DAE")],
        V.GRIP_FIRST: [Reading(
            "per corner: lasting grip", "one contact per corner (fig3-slope-30deg-rotating-corners.csv), 30 deg: grip "
            f"time of {names} [s]; " + UNDAMPED_NOTE,
            lambda: grips()["grips"], lambda g: corner_grip_claims(_as_fig3(g))["damped_dae_first"],
            "with one contact per corner a CS configuration or the undamped DAE grips no later than the damped DAE")],
    }


def _as_fig3(grips) -> dict:
    """The ``fig3_corners`` layout of ``{"<series>, <variant>": grip}``."""
    out = {}
    for k, g in grips.items():
        label, variant = k.split(", ", 1)
        out.setdefault(f"damping={variant}", {})[label] = {"grip": g}
    return out


@verdicts_for("slope-block-rotating")
def slope_block_rotating(out_dir: str) -> list:
    from nsfric.papers.krengel_matuttis.slope_block_rotating import RotatingSlopeBlock

    s = Sheet("slope-block-rotating", SOURCE, out_dir)
    o = s.out
    summary = lambda: o.json("summary.json")  # noqa: E731
    s.number("§4", "critical angle [deg] of the rotating block (root of the slip acceleration at rest), mu = 0.6",
             30.96, lambda: o.rows("table1.csv", quantity="critical angle")["value"][0], tol=0.005,
             note="the paper: 'approx 31 deg'; derived from the rotating model's rest state")
    s.claim("§4, Fig 2", "15 deg (half the critical angle): the exact static friction sticks once and stays "
            "stuck (events of the exact reference over 20 ms)",
            "below the critical angle the block comes to rest",
            lambda: [k for k, _ in summary()["fig2"][f"damping={DAMPED}"]["exact static friction"]["events"]],
            lambda ev: ev == ["stick"], reason="the exact reference slips again after sticking")
    s.number("§4", "35 deg (above the critical angle): acceleration along the slope once the normal "
             "oscillation has died (0.03-0.05 s), the exact reference farther from g (sin a - mu cos a) "
             "of Filippov and IDA [m/s^2]",
             lambda: summary()["slide35"]["exact"],
             lambda: max((summary()["slide35"][k]["acceleration"] for k in ("filippov", "ida")),
                         key=lambda a: abs(a - summary()["slide35"]["exact"])),
             rtol=1e-6, note="nsfric's own check, not a claim of the paper (which has no 35 deg case): the block "
                             "slides; the rocking has settled (omega constant)", kind="check")
    grip_claims(s, o, DAMPED, more=corner_series_readings(o))
    s.claim("§4 after eq 20, Fig 3", "30 deg: the incremental damping of eq 20 grips later than the "
            "instantaneous -gamma_t v (settle time of x, CS on Heun) [s]",
            "the damping term of eq 19/20 retards the grip of the tangential force close to the critical angle",
            lambda: {k: summary()["fig3"][f"damping={DAMPED}"][k]["settle_time"]
                     for k in ("CS Heun", "CS viscous Heun")},
            lambda d: d["CS viscous Heun"] is not None and (d["CS Heun"] is None or d["CS Heun"] > d["CS viscous Heun"]),
            reason="the incremental damping does not settle later than the instantaneous one")
    def size_readings(schemes, stat, holds):
        def per_corner():
            got = corner_size_excess(o.records(CORNER_SIZE_CSV))
            return {k: stat(np.asarray(got[k][0]), np.asarray(got[k][1])) for k in schemes}
        return [V.from_start_reading(o, schemes, stat, holds),
                Reading("per corner: drift after sticking in excess of the exact per-corner reference's",
                        f"one contact per corner ({CORNER_SIZE_CSV}), mean |.| over its grid phases less the exact "
                        "reference's own |drift|", per_corner, holds, CORNER_SIZE_REASON)]
    drift_claims(s, o, RotatingSlopeBlock.RUN_OPTIONS["dts"], BDF_REASON, BDF2_REASON, SIZE_REASON, excess=True,
                 bdf_readings=fig4_readings(o, lambda d: max(d.values()) < 1, BDF_REASON),
                 bdf2_readings=fig4_readings(o, lambda d: d["delta-bdf2"] < d["delta-bdf5"], BDF2_REASON),
                 size_readings=size_readings, grows_readings=growth_readings(o))
    s.claim("§4 after Fig 5", "velocity projection on sticking (delta-heun-proj): drift over the Fig 4 window "
            "relative to delta-Heun's, largest over dt",
            "it would be possible to 'fix' the particle by velocity projection",
            lambda: max(abs(_fig4(o, "delta-heun-proj")[dt]["drift"]) / _fig4(o, "delta-heun")[dt]["mean_abs"]
                        for dt in _fig4(o, "delta-heun-proj")),
            lambda r: r < 1e-5, reason="the projected scheme still drifts",
            note="the velocity is set to zero on sticking; what is left is the rocking's tail inside the window")
    s.missing("after eq 19", "undamped CS spring oscillates about equilibrium, amplitude m g sin(alpha)/k_t",
              "without dissipation the particle oscillates around the equilibrium position",
              "not tested on the rotating block: the paper's claim is without dissipation, but the rotating "
              "block's normal (corner) damping stays on (without it the rocking pulls a corner, outside the "
              "bilateral corner contacts); " + CS_REASON, id=V.CS_OSCILLATES)
    return s.items


captions_for("slope-block-rotating", {
    "fig2-slope-15deg-rotating.png": "Krengel & Matuttis Fig 2 with the rotating block (square on its two "
                                     "lower corners, I = m l^2/6, m_eff,tan = 2/5 m): 1 cm at 15 deg, dt = 5e-6 s, "
                                     "20 ms; damped (left) and tangential damping off (right). Look at the "
                                     "'DAE' drift after sticking against the resting exact friction.",
    "fig3-slope-30deg-rotating.png": "Krengel & Matuttis Fig 3 with the rotating block at 30 deg: stick-slip-"
                                     "stick of the exact friction within 0.8 ms, the later grip of CS with "
                                     "eq 20's incremental damping against the instantaneous -gamma_t v.",
    "fig4-drift-dt-rotating.png": "Krengel & Matuttis Fig 4 with the rotating block: drift while stuck "
                                  "against dt (1 cm, 15 deg, window 10-50 ms; mean and spread over 2 grid "
                                  "phases; stick-entry rule '" + V.DEFAULT_STICK_RULE + "', nsfric's default). Look "
                                  "at the growth ~ dt (whether it grows beyond the phase noise, under every "
                                  "stick-entry rule over 8 grid phases: " + GROWTH_CSV + ") and BDF against Heun (the paper: below; with one contact per "
                                  "corner, the caption's last line); a diverged scheme is named in the legend, not "
                                  "drawn.",
    "fig2-slope-15deg-rotating-corners.png": "Krengel & Matuttis Fig 2 with one frictional contact per corner "
                                             "(unilateral, may lift off): 1 cm at 15 deg, dt = 5e-6 s, 20 ms; "
                                             "damped, tangential damping off, no damping (columns). Look at the "
                                             "DAE drift after grip against the resting exact friction and CS, and "
                                             "at the undamped block hopping downhill (every series, exact too).",
    "fig3-slope-30deg-rotating-corners.png": "Krengel & Matuttis Fig 3 with one frictional contact per corner: "
                                             "30 deg; look at the damped DAE gripping first (0.8 ms) and CS later "
                                             "(several ms); without damping nothing grips for good.",
    "fig5-drift-size-rotating.png": "Krengel & Matuttis Fig 5 with the rotating block: drift against the "
                                    "block size l at dt = 5e-6 s (15 deg, window 0.1-0.3 s). Look at the flat "
                                    "curves: no rise above 0.1 m (BDF) and no U shape (Heun); the caption's "
                                    "last line gives the per-corner drifts (one contact per corner), whose "
                                    "shape is set by omega_n dt.",
    "fig5-drift-size-rotating-corners.png": "Krengel & Matuttis Fig 5 with one frictional contact per corner "
                                            "(15 deg, dt = 5e-6 s, 1 mm to 1 m, 8 grid phases). Look at Heun's U "
                                            "shape (least at 2 mm), BDF rising above 0.1 m but also at 1 mm, where "
                                            "BDF5 loses stability, and the exact block's own rocking at 1 m.",
})
