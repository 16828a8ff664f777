"""Verdicts and captions of Krengel & Matuttis, *Comparing numerically exact and modelled
static friction*: ``dry-oscillator`` (§3, eqs 3-14, Fig 1), ``slope-block`` (§4,
Table 1, Figs 2-5) and ``km-heap`` (§5, eqs 21-22, Figs 6-7).  nsfric's values are read from the outputs of ``nsfric run``."""
from __future__ import annotations

import math

import numpy as np

from nsfric.cases.verdicts import Sheet, captions_for, verdicts_for

SOURCE = "Krengel & Matuttis"


@verdicts_for("dry-oscillator")
def dry_oscillator(out_dir: str) -> list:
    s = Sheet("dry-oscillator", SOURCE, out_dir)
    o = s.out
    meta = lambda: o.json("reference-coulomb.json")  # noqa: E731
    par = lambda: meta()["parameters"]  # noqa: E731

    def half_periods():
        t = [0.0] + [e["t"] for e in meta()["events"]]
        return np.diff(t)

    half = lambda: math.pi * math.sqrt(par()["m"] / par()["k"])  # noqa: E731

    def worst_half_period():
        hp = half_periods()
        return float(hp[np.argmax(np.abs(hp - half()))])

    s.number("eq 3, Fig 1", "duration of each half oscillation, paper: pi sqrt(m/k)", half,
             worst_half_period, rtol=1e-9, note="the worst half period of the exact reference")
    s.claim("eqs 9-14, Fig 1", "the mass sticks for good once a turning point lies in |x| < mu F_N/k",
            "static friction: the flow pushes into x' = 0 for |x| < mu F_N / k",
            lambda: {"events": [e["kind"] for e in meta()["events"]],
                     "x_end": float(o.csv("reference-coulomb.csv")["x"][-1]),
                     "v_end": float(o.csv("reference-coulomb.csv")["v"][-1])},
            lambda d: (d["events"][-1] == "stick" and d["v_end"] == 0.0
                       and abs(d["x_end"]) < par()["mu"] * par()["F_N"] / par()["k"]))
    s.claim("Fig 1", "reversals (dynamic friction) only outside |x| <= mu F_N/k",
            "a_I a_II < 0: the flow crosses x' = 0 for |x| > mu F_N / k",
            lambda: [float(np.interp(e["t"], o.csv("reference-coulomb.csv")["t"], o.csv("reference-coulomb.csv")["x"]))
                     for e in meta()["events"] if e["kind"] == "reversal"],
            lambda xs: len(xs) > 0 and all(abs(x) > par()["mu"] * par()["F_N"] / par()["k"] for x in xs))
    s.claim("eq 17", "delta approximation: the drift while stuck vanishes with dt (first order)",
            "delta-approximated static friction approaches exact sticking",
            lambda: {k: float(o.rows("delta-orders.csv", scheme=k)["drift_order"][0])
                     for k in ("delta-heun", "delta-bdf2", "delta-bdf5")},
            lambda d: all(0.8 <= v <= 1.3 for v in d.values()),
            note="observed drift orders ~1: the stick transition is resolved to the step only")
    return s.items


def _first_stick(o, fig, damping, label):
    return o.json("summary.json")[fig][f"damping={damping}"][label]["first_stick"]


def _fig4_drift(o, scheme, dt):
    rows = [r for r in o.json("summary.json")["fig4"]["rows"] if r["scheme"] == scheme and r["dt"] == dt]
    return abs(rows[0]["mean_abs"])


def _fig5(o, scheme, excess=False):
    """Sizes and mean |drift| of ``scheme`` in Fig 5; ``excess``: less the exact reference's own
    |displacement| over the window at that size (the rotating block still rocks there)."""
    rows = o.json("summary.json")["fig5"]["rows"]
    exact = {r["l"]: abs(r["drift"]) for r in rows if r["integrator"] == "exact"} if excess else {}
    rows = [r for r in rows if r["scheme"] == scheme and not r["diverged"]]
    return np.array([r["l"] for r in rows]), np.array([r["mean_abs"] - exact.get(r["l"], 0.0) for r in rows])


SIZE_REASON = ("nsfric's drift is the residual velocity left at the stick transition (~ a dt, a = mu F_n/m - "
               "g sin alpha, independent of the size) times the time stuck; the paper's polygon DEM has "
               "further error sources (rotation, contact geometry) that nsfric's translating block lacks")


@verdicts_for("slope-block")
def slope_block(out_dir: str) -> list:
    from nsfric.papers.krengel_matuttis.slope_block import SlopeBlock

    s = Sheet("slope-block", SOURCE, out_dir)
    o = s.out
    par = lambda: o.json("reference-coulomb.json")["parameters"]  # noqa: E731
    cs = lambda: o.json("reference-cundall-strack.json")["parameters"]  # noqa: E731
    s.number("§4", "critical angle arctan(mu) [deg] for mu = 0.6", 30.96,
             lambda: SlopeBlock.numbers(par())["critical_angle"], tol=0.005,
             note="the paper: 'approx 31 deg'; arctan(0.6) = 30.964 deg")
    for name, value, getter in (("dt [s]", 5e-6, lambda: par()["dt"]),
                                ("rho [kg/m^3]", 5000.0, lambda: par()["rho"]),
                                ("Y [kg/(m s^2)]", 5e7, lambda: par()["Y"]),
                                ("mu", 0.6, lambda: par()["mu"]),
                                ("gamma (D of eq 18)", 1.5, lambda: par()["D"]),
                                ("k_t / Y", 2 / 7, lambda: cs()["kt_ratio"]),
                                ("gamma_t / sqrt(k_t m_eff,tan)", 0.25, lambda: cs()["gt_ratio"])):
        s.number("Table 1", f"parameter {name}", value, getter, rtol=1e-12)
    grip_claims(s, o, 1)
    s.claim("Fig 3", "30 deg: the damped exact friction sticks before every other configuration",
            "the damped DAE has a significantly earlier onset than any other configuration",
            lambda: {f"{k}, damping={d}": _first_stick(o, "fig3", d, k) for d in (1, 0)
                     for k in ("exact static friction", "exact CS law")},
            lambda d: all(v is None or v >= d["exact static friction, damping=1"] for v in d.values()),
            reason="the undamped exact friction first sticks earlier (it slips again once per normal "
                   "period, when F_n touches 0); the damped one is the first to stay stuck")
    drift_claims(s, o, (1e-6, 2e-6, 5e-6, 1e-5), BDF_REASON, BDF2_REASON, SIZE_REASON)
    cs_amplitude_claim(s, o)
    return s.items


BDF_REASON = ("BDF2/BDF5 predictor-corrector leave ~2x the residual velocity of Heun at the stick "
              "transition (-2.8 dt vs -1.3 dt): " + SIZE_REASON)
BDF2_REASON = ("nsfric's BDF2 and BDF5 drifts agree within a few per cent (same residual "
               "velocity at the stick transition)")


def grip_claims(s, o, damped):
    """Figs 2-3 (both blocks): coming to rest at 30 deg, DAE against CS drift at 15 deg, CS's
    later grip at 30 deg; ``damped`` the key of the damped column in ``summary.json``."""
    s.claim("§4, Fig 3", "at alpha = 30 deg (below the critical angle) the block comes to rest",
            "the block should come to rest", lambda: _first_stick(o, "fig3", damped, "exact static friction"),
            lambda t: t is not None and t > 0, note="exact static friction: stick time [s]")
    s.claim("Fig 2", "15 deg: the 'DAE' friction drifts more than Cundall-Strack (x at 20 ms)",
            "DAE shows stronger drift far from the critical angle than CS",
            lambda: {k: o.json("summary.json")["fig2"][f"damping={damped}"][k]["x_end"]
                     for k in ("DAE delta-Heun", "CS Heun")},
            lambda d: abs(d["DAE delta-Heun"]) > abs(d["CS Heun"]))
    s.claim("Fig 3", "30 deg: Cundall-Strack grips later than exact static friction",
            "CS shows a later onset of static friction than DAE",
            lambda: {"exact CS law": _first_stick(o, "fig3", damped, "exact CS law"),
                     "exact static friction": _first_stick(o, "fig3", damped, "exact static friction")},
            lambda d: d["exact CS law"] > d["exact static friction"])


def drift_claims(s, o, dts, bdf_reason, bdf2_reason, size_reason, excess=False):
    """Figs 4-5 (both blocks): the drift's growth with ``dts``, BDF against Heun, BDF2
    against BDF5, and the size dependence (``excess``: of the drift in excess of the exact
    reference's own displacement); the reasons where nsfric differs."""
    what = " (in excess of the exact reference's displacement)" if excess else ""
    s.claim("Fig 4", f"drift of the delta-Heun block at 15 deg grows with dt ({_e(dts[0])}..{_e(dts[-1])} s)",
            "the drift increases with the timestep (the text also says 'decreases')",
            lambda: [_fig4_drift(o, "delta-heun", dt) for dt in dts],
            lambda d: all(np.diff(d) > 0),
            note="the paper's text says both 'the drift decreases with the timestep' and 'the drift "
                 "increases with the timestep'; nsfric: it grows ~ dt")
    s.claim("Fig 4", "BDF (Gear predictor-corrector) drifts less than Heun (dt = 5e-6 s)",
            "BDF show less drift than the explicit Heun integrator",
            lambda: {k: _fig4_drift(o, k, 5e-6) for k in ("delta-heun", "delta-bdf2", "delta-bdf5")},
            lambda d: d["delta-bdf2"] < d["delta-heun"] and d["delta-bdf5"] < d["delta-heun"],
            reason=bdf_reason)
    s.claim("Fig 4", "BDF2 drifts less than BDF5 (dt = 5e-6 s)",
            "the second order BDF is more accurate than the fifth order one",
            lambda: {k: _fig4_drift(o, k, 5e-6) for k in ("delta-bdf2", "delta-bdf5")},
            lambda d: d["delta-bdf2"] < d["delta-bdf5"], reason=bdf2_reason)
    s.claim("Fig 5", f"BDF drift{what} grows only for block sizes l > 0.1 m",
            "only larger particle sizes (> 0.1 m) increase the drift of the BDF integrators",
            lambda: (lambda l, d: float(np.max(d[l > 0.1]) / np.median(d[(l >= 0.005) & (l <= 0.1)])))(
                *_fig5(o, "delta-bdf2", excess)),
            lambda ratio: ratio > 1.5, reason="nsfric's drift does not depend on the size: " + size_reason)
    s.claim("Fig 5", f"Heun drift{what} grows for very small and very large blocks",
            "the Heun drift increases both for very small and very large particle sizes",
            lambda: (lambda l, d: [float(d[0] / np.median(d)), float(d[-1] / np.median(d))])(
                *_fig5(o, "delta-heun", excess)),
            lambda r: r[0] > 1.5 and r[1] > 1.5, reason="nsfric's drift does not depend on the size: " + size_reason)


def _e(x) -> str:
    return f"{x:g}".replace("e-0", "e-")


def cs_amplitude_claim(s, o, reason=""):
    """After eq 19 (both blocks): the undamped CS spring's amplitude about its equilibrium."""
    s.claim("after eq 19", "undamped CS spring oscillates about equilibrium, amplitude m g sin(alpha)/k_t",
            "without dissipation the particle oscillates around the equilibrium position",
            lambda: o.json("summary.json")["cs_amplitude"][0]["ratio_exact"],
            lambda r: abs(r - 1) < 1e-3, reason=reason,
            note="amplitude / (m g sin alpha / k_t), exact CS law, gt_ratio = 0")


def _heap_runs(o) -> dict:
    return {(r["method"], r["dt"]): r for r in o.json("fig7.json")["summary"]["runs"]}


HEAP_CREEP = ("the exact-friction heap keeps the residual tangential velocity of every stick transition; "
              "stuck contacts slide on at it, do work (the total energy rises, see fig7.json "
              "E_total_rise_max) and after ~0.1 s set off stick-slip rearrangements whose timing is "
              "chaotic, so the late drift no longer orders with dt")


@verdicts_for("km-heap")
def km_heap(out_dir: str) -> list:
    s = Sheet("km-heap", SOURCE, out_dir)
    o = s.out
    runs = lambda: _heap_runs(o)  # noqa: E731
    s.claim("§5, Fig 7", "drift of the centre of mass at the end of the observation: Cundall-Strack "
            "(dt 1e-5 s) against exact friction (dt 1e-5, 5e-6 s) [m]",
            "for the CS model the drift is considerably smaller",
            lambda: {f"{m} dt={dt:g}": r["com_drift_end"] for (m, dt), r in runs().items()
                     if m in ("exact", "cundall-strack")},
            lambda d: min(d["exact dt=1e-05"], d["exact dt=5e-06"]) > 10 * d["cundall-strack dt=1e-05"],
            reason="the Cundall-Strack heap drifts at least a tenth of the exact friction's",
            note="the springs stretch once to carry the load (~2e-8 m) and hold; exact friction creeps")
    for when, times in (("10 and 50 ms after the start", ("0.01", "0.05")), ("the end (0.25 s)", None)):
        s.claim("§5, Fig 7", f"exact friction: drift of the centre of mass at {when}, dt = 1e-5 against 5e-6 s [m]",
                "the drift of the DAE approach depends on the time step (it decreases with dt, §4)",
                lambda times=times: {f"dt={dt:g}": ([r["com_drift_at"][t] for t in times] if times else
                                                    [r["com_drift_end"]])
                                     for (m, dt), r in runs().items() if m == "exact"},
                lambda d: all(a < b for a, b in zip(d["dt=5e-06"], d["dt=1e-05"])),
                reason=HEAP_CREEP,
                note="while the heap holds still the drift shrinks with dt (three discs: exactly ~ dt, tested)")
    s.claim("§6", "exact friction with velocity projection of the stuck contacts: drift of the centre of "
            "mass at the end, against exact friction without it and Cundall-Strack (dt 1e-5 s) [m]",
            "the drift can be eliminated by stabilisation by projection (in particular velocity projection)",
            lambda: {m: runs()[(m, 1e-5)]["com_drift_end"] for m in ("velocity-projection", "exact", "cundall-strack")},
            lambda d: d["velocity-projection"] < 1e-2 * d["exact"] and d["velocity-projection"] < d["cundall-strack"],
            reason="the projected heap still drifts more than a hundredth of the unprojected one",
            note="one sweep of tangential impulses -m_eff,tan v_t over the stuck contacts after every step")
    s.number("§5, Fig 6", "flank angle of the deposited heap [deg]", 30.0,
             lambda: o.json("fig7.json")["summary"]["deposit"]["slope_deg"]["mean"], tol=5.0,
             reason="a few dozen discs without rolling resistance, collapsed from a column onto a rough "
                    "floor, form a flatter heap than the paper's 1625 polygons (5-10 corners) from a hopper")
    return s.items


_FIGS = ("1 cm block, Table 1 parameters, dt = 5e-6 s, 20 ms: horizontal position (top) and position x "
         "along the slope (bottom), with damping (left) and without (right); exact static friction "
         "(Filippov) and the exact Cundall-Strack law beside the delta-Heun ('DAE') and CS Heun schemes.")
captions_for("slope-block", {
    "fig2-slope-15deg.png": "Krengel & Matuttis Fig 2: position x along the slope at 15 deg (half "
                            "the critical angle). " + _FIGS + " Look at the drift of the 'DAE' "
                            "scheme after sticking (exact friction: none).",
    "fig3-slope-30deg.png": "Krengel & Matuttis Fig 3: the same at 30 deg (the critical angle "
                            "30.96 deg). " + _FIGS + " Look at the later grip of CS (3.8 ms) "
                            "against exact friction (0.32 ms).",
    "fig4-drift-dt.png": "Krengel & Matuttis Fig 4: drift while stuck against dt (1 cm, 15 deg, "
                         "window 10-50 ms; mean and spread over 8 grid phases) for delta-Heun, "
                         "delta-BDF2, delta-BDF5 and the projected Heun (no drift). Look at the "
                         "growth ~ dt and BDF above Heun (the paper: below).",
    "fig5-drift-size.png": "Krengel & Matuttis Fig 5: drift against the block size l at dt = 5e-6 s "
                           "(15 deg, window 0.1-0.3 s). Look at the flat curves: no size "
                           "dependence except where BDF5 becomes unstable (l = 1 mm).",
})
captions_for("dry-oscillator", {
    "fig1-phase-flow.png": "Krengel & Matuttis Fig 1: phase flow of the dry-friction oscillator "
                           "(m = 0.25, k = 1, mu = 0.4, F_N = 1) with exact trajectories; look at the "
                           "sticking segment |x| < 0.4 on x' = 0 where both fields push into it.",
    "reference.png": "Exact reference of the dry-friction oscillator from x0 = 2.1: two reversals "
                     "(t = pi/2, pi), then sticking at t = 3 pi/2.",
    "delta-convergence.png": "Krengel & Matuttis eqs 15-17 on the oscillator (x0 = 2.1): (left) "
                             "trajectories of delta-Heun, -BDF2, -BDF5 at dt = 0.02 against the closed "
                             "form -- they drift after sticking; (middle) max error against dt, first "
                             "order; (right) drift x(10) - x(5) while stuck, first order, zero (<= 1e-14) "
                             "with the velocity projection (dashed).",
})
captions_for("km-heap", {
    "fig7.png": "Krengel & Matuttis Fig 7 with discs: drift of the centre of mass from the start of the "
                "observation, exact static friction per contact (eqs 21-22; dt = 1e-5 s: o, 5e-6 s: v) and "
                "Cundall-Strack (dt = 1e-5 s: squares), all from the same deposited heap at rest with fresh "
                "contacts (Table 1 parameters, Heun). Look at Cundall-Strack settling at ~2e-8 m while exact "
                "friction creeps to 1e-6..1e-5 m, and at the exact drift shrinking with dt at first. Differs "
                "from the paper: the late exact drift does not order with dt (stick-slip rearrangements); "
                "a zero drift has no point on the log axes. Beside the paper's runs: exact friction with "
                "the velocity projection the paper proposes (diamonds, dotted), which holds the heap still.",
    "fig6.png": "Krengel & Matuttis Fig 6 with discs: the heap at the end of the observation (grey: the "
                "rough floor of fixed discs), exact friction (dt = 5e-6 s) and Cundall-Strack, contact "
                "forces as lines between centres (width ~ F_n; red: stuck). Differs from the paper: 60 "
                "discs collapsed from a column instead of 1625 polygons from a hopper; flank ~20 deg, not 30.",
})


@verdicts_for("km-pile")
def km_pile(out_dir: str) -> list:
    """The pile of three discs with exact static friction at six contacts."""
    s = Sheet("km-pile", SOURCE, out_dir)
    o = s.out
    summary = lambda solver: o.json(f"pile-{solver}.json")["summary"]  # noqa: E731
    s.claim("§5", "exact static friction at every contact holds a settled pile still: centre-of-mass "
            "drift over the window <= 1e-12 m (event-driven and DAE references)",
            "the equilibration of the tangential force for each contact leads to many-particle "
            "agglomerates in static equilibrium",
            lambda: {k: summary(k)["com_drift"] for k in ("events", "ida")},
            lambda d: all(v <= 1e-12 for v in d.values()),
            note="3 discs, 6 contacts (one open at rest), window [t_end/2, t_end]; the drift the paper "
                 "measures for its heap is the schemes' discretisation error, absent here")
    s.claim("§4, after Fig 5", "velocity projection onto zero relative velocity of the stuck contacts "
            "keeps them stuck: largest |v_t| of a stuck contact <= 1e-12 m/s (event-driven reference)",
            "project onto zero relative velocities for moving contacting particles",
            lambda: summary("events")["max_stuck_v_t"], lambda v: v <= 1e-12,
            note="M-orthogonal projection onto J_S v = 0 at each event; between events v_t = 0 is kept "
                 "by the stuck forces from one linear system (the IDA reference, which keeps it at the "
                 "acceleration level only, reaches ~1e-12 m/s)")
    return s.items


captions_for("km-pile", {
    "pile.png": "km-pile: three discs (m = 0.05 kg, R = 1 cm) dropped into a box tilted by 5 deg, six "
                "contacts with Schäfer's linear spring-dashpot and exact static friction (event-driven "
                "reference). Top: the pile at rest, the centre displacements, and the centre of mass's "
                "distance from its final position (log scale; the grey window gives com_drift). Below: "
                "|F_t|/(mu F_n) per contact, stuck intervals shaded. Look at the ratios staying below 1 "
                "once every closed contact is stuck, and the centre of mass settling to rounding level.",
})
