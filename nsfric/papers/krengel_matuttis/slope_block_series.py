"""Figs 2-3 (Krengel & Matuttis §4) on the rotating block with one frictional contact per
corner: horizontal position against time, 1 cm block at 15 and 30 deg, dt = 5e-6 s, 20 ms.

The series of :func:`nsfric.papers.krengel_matuttis.slope_block_study.time_series` on the per-corner model
(:class:`~nsfric.papers.krengel_matuttis.block_corners.BlockCorners`, unilateral corners that may lift
off): ``DAE delta-Heun`` (``delta-heun`` on ``coulomb-corners``, eq 9 per stuck corner),
``CS Heun`` and ``CS viscous Heun`` (``heun`` on a Cundall-Strack spring per corner, eqs
19-20 or the instantaneous ``-gamma_t v``; :mod:`nsfric.schemes.corners`) and ``exact
static friction`` (the event-driven :class:`~nsfric.solvers.contacts.PileSolver`, solver
``filippov``, cross-checked against IDA).  The damping variants are the paper's "with and
without damping": normal and tangential damping (Table 1), the tangential damping off
alone (``gt_ratio = 0``) and both off (``damping = 0``) -- the last one the shared-surface
block cannot show (a corner's normal force would go below zero; here the corner lifts
off).  A reference that fails (Zeno, budget) gives no data: its series has no rows and its
reason is in the legend and the caption.

Read from the data, per series: ``first_stick`` (first row or event with a corner stuck),
``grip`` (from when on a corner at least stays stuck to the end: the paper's lasting
"onset of static friction", :func:`grip_time`), ``settle_time``
(:func:`~nsfric.papers.krengel_matuttis.slope_block_study.settle_time`), ``x_end``, ``drift`` (``x(t_end) -
x(t_end/2)``: what moves after grip) and the lift-offs.  ``nsfric run
slope-block-rotating`` writes ``fig2-slope-15deg-rotating-corners.csv/.png`` and
``fig3-slope-30deg-rotating-corners.csv/.png`` (:func:`write_figures`).
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.errors import BudgetError, SolverFailure, ZenoError
from nsfric.symbolic.contacts import STICK
from nsfric.papers.krengel_matuttis import slope_block_study as S

LAW = "coulomb-corners"
#: label, law, scheme (None: the exact per-corner reference)
SERIES = (
    ("DAE delta-Heun", LAW, "delta-heun"),
    ("CS Heun", "cundall-strack-corners", "heun"),
    ("CS viscous Heun", "cundall-strack-viscous-corners", "heun"),
    ("exact static friction", LAW, None),
)
#: the damping variants ``(key, params)``: with damping, tangential off, both off
VARIANTS = S.DAMPING_SEPARATE + (("none (damping=0)", {"damping": 0.0}),)
DAMPED, UNDAMPED = VARIANTS[0][0], VARIANTS[-1][0]
#: CPU-time budget of one exact reference [s] (a Zeno or budget failure: no data)
REFERENCE_SECONDS = 60.0
LIFT_OFF = ("lift-off", "contact-end")


def _why(e) -> str:
    """A reference's failure in one line."""
    return f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"


def corner_reference(case, law, params, t_end, max_seconds=REFERENCE_SECONDS) -> dict:
    """The exact per-corner series of Figs 2-3: the event-driven reference (``filippov``)
    on 4001 samples with its mode ``phases`` ``[(t, mode), ...]`` and its cross-check
    against ``ida`` (max ``|x_filippov - x_ida|`` on the samples, the events of each).
    A failing event-driven reference gives an empty series with the reason (``failed``)."""
    opts = dict(params=params, t_end=t_end, samples=4001, max_seconds=max_seconds)
    empty = np.array([])
    try:
        sol = case.reference_solution(law, solver="filippov", **opts)
    except (ZenoError, SolverFailure, BudgetError) as e:
        return {"t": empty, "x_h": empty, "x": empty, "events": [], "phases": [], "law": law,
                "scheme": "exact (no data)", "failed": _why(e)}
    out = {"t": sol.t, "x_h": sol["x_h"], "x": sol["x"], "events": [(e.kind, e.t) for e in sol.events],
           "phases": [(seg.t0, seg.mode) for seg in sol.segments], "law": law, "scheme": f"exact ({sol.solver})"}
    try:
        ida = case.reference_solution(law, solver="ida", **opts)
        out["crosscheck"] = {"against": ida.solver, "x": float(np.max(np.abs(sol["x"] - ida(sol.t)[0]))),
                             "events": [len(sol.events), len(ida.events)]}
    except (ZenoError, SolverFailure, BudgetError) as e:
        out["crosscheck"] = {"failed": f"ida: {_why(e)}"}
    return out


def phases_of(s) -> list:
    """``[(t, mode), ...]`` where the series' mode changes (the exact one's segments, a
    discrete run's rows)."""
    if "phases" in s:
        return list(s["phases"])
    out = []
    for t, m in zip(s["t"], s.get("modes", ())):
        if m is not None and (not out or out[-1][1] != m):
            out.append((float(t), m))
    return out


def grip_time(phases):
    """From when on a corner at least is stuck to the end (the start of the phase after the
    last one without a stuck corner): the block grips.  With one corner stuck the rigid
    block can only turn about it (the other corner's slip is ``omega l sin(theta)``,
    microscopic); the exact per-corner block rocks with one corner stuck and the other
    micro-sliding, corners swapping every half normal period.  None while no corner is
    stuck at the end (sliding, or in flight) or with no phases."""
    if not phases or STICK not in phases[-1][1]:
        return None
    loose = [k for k, (_, m) in enumerate(phases) if STICK not in m]
    return float(phases[loose[-1] + 1][0]) if loose else float(phases[0][0])


def first_stick(phases):
    """First time a corner is stuck (for Cundall-Strack: its spring below the bound, from
    the first step on)."""
    return next((float(t) for t, m in phases if STICK in m), None)


def series_summary(s) -> dict:
    """The numbers of one series read from its data (see the module)."""
    if not len(s["t"]):
        return {"failed": s.get("failed", "no data"), "x_end": None, "grip": None, "first_stick": None,
                "settle_time": None, "drift": None, "lift_offs": [], "n_events": 0}
    t, x = np.asarray(s["t"]), np.asarray(s["x"])
    ph = phases_of(s)
    return {"x_end": float(x[-1]), "grip": grip_time(ph), "first_stick": first_stick(ph),
            "settle_time": S.settle_time(t, x), "drift": float(x[-1] - S.at(t, x, t[-1] / 2)),
            "lift_offs": [float(tt) for k, tt in s["events"] if k in LIFT_OFF], "n_events": len(s["events"]),
            **({"crosscheck": s["crosscheck"]} if "crosscheck" in s else {})}


def corner_series(case, alpha, t_end=0.02, progress=None, reference=corner_reference) -> dict:
    """``(data, summary)``: :func:`~nsfric.papers.krengel_matuttis.slope_block_study.time_series` of
    :data:`SERIES` over :data:`VARIANTS`, and ``{"damping=<key>": {label: numbers}}``."""
    data = S.time_series(case, alpha, t_end=t_end, series=SERIES, progress=progress, variants=VARIANTS,
                         reference=reference)
    summary = {f"damping={key}": {label: series_summary(s) for label, s in cur.items()}
               for key, cur in data.items()}
    return data, summary


def _ms(t) -> str:
    return "-" if t is None else f"{t * 1e3:.3g} ms"


def caption_lines(summary, alpha) -> list:
    """The caption's lines read from the data: per damping variant and series the first
    stick, grip, settle time, x_end, drift over the second half and the lift-offs; the
    reference's cross-check; what matches the paper's Fig 2/Fig 3 claim and what differs."""
    lines = ["One frictional contact per corner (unilateral, may lift off; laws coulomb-corners, "
             "cundall-strack[-viscous]-corners). Per series: first stick (CS: its springs stick from the first step) / "
             "grip (a corner stays stuck after) / "
             "settle / x_end / drift x(t_end) - x(t_end/2):"]
    for key, cur in summary.items():
        parts = []
        for label, r in cur.items():
            if r.get("failed"):
                parts.append(f"{label}: no data ({r['failed']})")
                continue
            lift = (f", {len(r['lift_offs'])} lift-offs from {_ms(r['lift_offs'][0])}" if r["lift_offs"] else "")
            parts.append(f"{label}: {_ms(r['first_stick'])} / {_ms(r['grip'])} / {_ms(r['settle_time'])} / "
                         f"{r['x_end'] * 1e6:.3g} µm / {r['drift']:.2g} m{lift}")
        lines.append(f"{key.removeprefix('damping=')}: " + "; ".join(parts))
    checks = [f"{k.removeprefix('damping=')}: " + (c["failed"] if "failed" in c else
              f"|dx| <= {c['x']:.1g} m, {c['events'][0]}/{c['events'][1]} events")
              for k, cur in summary.items() if (c := cur["exact static friction"].get("crosscheck"))]
    if checks:
        lines.append("Exact reference (event-driven) against IDA: " + "; ".join(checks))
    lines += fig2_comparison(summary) if alpha < 20 else fig3_comparison(summary)
    return lines + undamped_lines(summary)


def undamped_lines(summary) -> list:
    """What differs without any damping, read from the undamped column, and the tested
    reason (tests/test_slope_block_series.py)."""
    cur = summary.get(f"damping={UNDAMPED}", {})
    ok = {k: r for k, r in cur.items() if not r.get("failed")}
    if not ok:
        return []
    walk = ", ".join(f"{k} {r['x_end'] * 1e6:.3g} µm" for k, r in ok.items())
    lifts = [r["lift_offs"][0] for r in ok.values() if r["lift_offs"]]
    grips = ", ".join(f"{k} {_ms(r['grip'])}" for k, r in ok.items())
    return [f"Differs from a block coming to rest: without damping ({UNDAMPED}) the block hops (first lift-off at "
            f"{_ms(min(lifts)) if lifts else '-'}) and walks downhill, x_end {walk}; grip (a corner stuck to the end) "
            f"{grips} -- the exact reference moves as far as DAE: motion, not numerical drift. The paper's text does "
            "not say what its undamped curves do.",
            "Why (tested, tests/test_slope_block_series.py): the normal oscillation the start without overlap "
            "excites never decays (a corner's F_n reaches 0 every period); from its rest overlap the undamped exact "
            "block at 15° neither lifts off nor slides."]


def fig2_comparison(summary) -> list:
    """Fig 2 (15 deg): "DAE shows stronger drift far from the critical angle than CS", per
    damping variant (the drift after grip, x(t_end) - x(t_end/2))."""
    from nsfric.papers.krengel_matuttis.verdicts_rotating import corner_drift_order

    order = corner_drift_order(summary)
    same = [k for k, v in order.items() if v]
    other = [k for k, v in order.items() if not v]
    return [f"Paper (Fig 2): DAE drifts more than CS. Per corner: |drift| DAE > CS Heun and CS viscous Heun with "
            f"damping {', '.join(same) or 'nowhere'}" + (f"; not with {', '.join(other)}" if other else "") + "."]


def fig3_comparison(summary) -> list:
    """Fig 3 (30 deg): "CS grips later than DAE; the damped DAE has a significantly
    earlier onset than any other configuration" (grip times)."""
    from nsfric.papers.krengel_matuttis.verdicts_rotating import corner_grip_claims

    got = corner_grip_claims(summary)
    return [f"Paper (Fig 3): CS grips later than DAE -- per corner {'yes' if got['cs_later'] else 'no'} "
            f"(damped: DAE {_ms(got['grips'].get('DAE delta-Heun, ' + DAMPED))}, CS Heun "
            f"{_ms(got['grips'].get('CS Heun, ' + DAMPED))}); the damped DAE earliest of all configurations -- "
            f"{'yes' if got['damped_dae_first'] else 'no'} (earliest: {got['earliest']})."]


def write_figures(case, out_dir, table, t_end=0.02, progress=None, meta=None, reference=corner_reference) -> dict:
    """Write ``fig2-slope-15deg-rotating-corners`` and ``fig3-slope-30deg-rotating-corners``
    (``.csv`` with sidecar, ``.png``); returns ``{"written", "summary"}`` (``summary``:
    ``{"fig2_corners": ..., "fig3_corners": ...}``)."""
    from nsfric.io import write_csv_with_sidecar
    from nsfric.plotting import save
    from nsfric.papers.krengel_matuttis.slope_block_figures import plot_time_series, time_series_columns

    written, summary = [], {}
    for alpha, no in ((15.0, 2), (30.0, 3)):
        data, numbers = corner_series(case, alpha, t_end, progress, reference)
        stem = os.path.join(out_dir, f"fig{no}-slope-{alpha:g}deg-rotating-corners")
        write_csv_with_sidecar(stem + ".csv", time_series_columns(data),
                               dict(meta or {}, figure=no, law=LAW, alpha=alpha, dt=S.DT_PAPER, t_end=t_end,
                                    numbers=numbers))
        fig = plot_time_series(data, alpha, no, [table] + caption_lines(numbers, alpha),
                               " (rotating block, one contact per corner)")
        written += [stem + ".csv", save(fig, stem + ".png")]
        summary[f"fig{no}_corners"] = numbers
    return {"written": written, "summary": summary}
