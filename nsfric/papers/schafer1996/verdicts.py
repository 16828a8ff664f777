"""Verdicts and captions of Schäfer, Dippel & Wolf (1996), *Force schemes in simulations of
granular materials*: ``normal-impact`` (§2, eqs 2-10, Fig 2).  The oblique-impact claims
(§3, Figs 3-8) are declared the same way, with ``@verdicts_for("oblique-impact")``."""
from __future__ import annotations

import numpy as np

from nsfric.cases.verdicts import Reading, Sheet, captions_for, exponent, verdicts_for

SOURCE = "Schäfer, Dippel & Wolf (1996)"


@verdicts_for("normal-impact")
def normal_impact(out_dir: str) -> list:
    s = Sheet("normal-impact", SOURCE, out_dir)
    o = s.out
    f2 = lambda: o.csv("fig2.csv")  # noqa: E731
    summ = lambda law: o.json(f"reference-{law}.json")["summary"]  # noqa: E731
    # the paper's parameters are chosen to give e_n = 0.87 and t_n = 1e-5 s: inputs read back
    s.input("eqs 3-4", "linear spring-dashpot e_n (k_n = 7.32e6 N/m, gamma_n = 2.06 kg/s)", 0.87,
            lambda: summ("linear-dashpot")["e_n"], tol=5e-3, note="the paper's k_n, gamma_n are chosen for e_n = 0.87")
    s.input("eqs 3-4", "linear spring-dashpot contact duration t_n [s]", 1e-5,
            lambda: summ("linear-dashpot")["t_n"], rtol=0.01, note="the paper's k_n, gamma_n are chosen for t_n = 1e-5 s")
    s.claim("eq 3, Fig 2", "linear spring-dashpot: e_n independent of v_n^i, equal to eq 3",
            "e_n = exp(-gamma_n t_n/(2 m_eff)) for every impact speed",
            lambda: float(np.max(np.abs(f2()["e_n linear-dashpot"] - f2()["e_n linear-dashpot eq 3"]))),
            lambda d: d <= 1e-9, note="max |e_n(reference) - eq 3| over 1e-2..1e2 m/s")
    s.number("eq 7, §2", "Hertz contact duration t_n at v_n^i = 100 m/s [s]", 1.88e-5,
             lambda: float(np.interp(100.0, f2()["v_n"], f2()["t_n hertz"])), rtol=0.01)
    s.number("eq 7", "Hertz t_n ~ v_n^i to the power", -0.2,
             lambda: exponent(f2()["v_n"], f2()["t_n hertz"], 1e-2, 1e2), tol=1e-6)
    s.claim("eq 7", "Hertz t_n: the constant 3.21 of eq 7 (exact: 3.2181...)",
            "t_n = 3.21 (m_eff/k_n_tilde)^(2/5) v^(-1/5)",
            lambda: float(np.max(np.abs(f2()["t_n hertz"] / f2()["t_n hertz eq 7 exact"] - 1))),
            lambda d: d <= 1e-8, note="max relative |t_n(reference)/eq 7 exact - 1|; 3.21 is the rounded constant")
    s.readings("eq 8, Fig 2", "Hertz with linear damping (gamma_n = 0.35 kg/s): mean e_n over Foerster's velocity "
               "range (within 0.02 of 0.87)", 0.87, [
                   Reading("0.29-1.2 m/s", "Foerster et al.'s range as the paper states it (§2: 0.29 m/s <= v_n^i <= "
                           "1.2 m/s); the points of fig2.csv inside it",
                           lambda: float(np.mean(_within(f2(), "e_n hertz-damped", 0.29, 1.2))),
                           lambda e: abs(e - 0.87) <= 0.02, "more than 0.02 from 0.87"),
                   Reading("0.3-3 m/s", "a wider range (nsfric's former reading of 'the velocity range covered by "
                           "Foerster's measurements')",
                           lambda: float(np.mean(_within(f2(), "e_n hertz-damped", 0.3, 3.0))),
                           lambda e: abs(e - 0.87) <= 0.02, "more than 0.02 from 0.87"),
               ], id="eq8-e_n-over-foerster-range")
    s.claim("eq 8, Fig 2", "Hertz with linear damping: e_n grows with v_n^i and tends to 0 for small v",
            "collisions become more elastic as the impact velocity increases",
            lambda: f2()["e_n hertz-damped"], lambda e: bool(np.all(np.diff(e) > 0)))
    s.claim("eq 9, Fig 2", "Kuwabara-Kono: e_n decreases with v_n^i",
            "e_n decreases with increasing v_n^i", lambda: f2()["e_n kuwabara-kono"],
            lambda e: bool(np.all(np.diff(e) < 0)))
    s.number("eq 9", "Kuwabara-Kono: exponent of 1 - e_n in v_n^i for e_n close to 1 (v <= 0.1 m/s)",
             0.2, lambda: exponent(f2()["v_n"], 1 - f2()["e_n kuwabara-kono"], 1e-2, 0.1), tol=0.02)
    s.claim("eq 10", "Walton-Braun: e_n equals the closed form (s v (m_eff/k_1)^(1/2) + 1)^(-1/2)",
            "e_n = sqrt(k_1/k_2), k_2 = k_1 + s F_max",
            lambda: float(np.max(np.abs(f2()["e_n walton-braun"] - f2()["e_n walton-braun closed form"]))),
            lambda d: d <= 1e-9, note="max |e_n(reference) - closed form| over 1e-2..1e2 m/s")
    s.claim("eq 10, Fig 2", "Walton-Braun: e_n decreases with v_n^i",
            "e_n a decreasing function of v_n^i", lambda: f2()["e_n walton-braun"],
            lambda e: bool(np.all(np.diff(e) < 0)))
    _gear_claim(s)
    return s.items


def of_order(x: float, power: int) -> bool:
    """``x`` is "of the order ``10**power``": ``log10 x`` rounds to ``power`` (``10**(power -
    1/2) <= x < 10**(power + 1/2)``)."""
    return bool(np.isfinite(x) and x > 0 and round(float(np.log10(x))) == power)


#: phases of the contact start strictly inside a step (phase 0 puts the contact start, and
#: at dt = t_n/k also its end, on a step point: a degenerate case of measure zero)
INSIDE = (0.25, 0.5, 0.75)


def _gear_claim(s):
    """§2 after eq 4: Gear at dt ~ t_n/100 reproduces e_n "with relative errors of the order
    1e-4" (eq 2), tried under the readings of the step and of where e_n is read."""
    o = s.out
    step = lambda: o.json("schemes.json")["paper_step"]  # noqa: E731

    def at_paper_step(reading):
        d = step()
        return float(np.mean([e for p, e in zip(d["phases"], d[f"err_{reading}"]) if p in INSIDE]))

    def at_k(reading, phases):
        rows = o.rows("schemes.csv", law="linear-dashpot", scheme="gear5", k=100.0)
        return float(np.mean([rows[f"err_{reading}_phase_{p:g}"][0] for p in phases]))

    holds = lambda x: of_order(x, -4)  # noqa: E731
    why = "not of the order 1e-4 (log10 of the error does not round to -4)"
    inside = "the contact starting inside a step (mean over phases 0.25, 0.5, 0.75)"
    s.readings("§2, after eq 4", "Gear (5th order, as DEM codes run it) at dt ~ t_n/100, linear spring-dashpot: "
               "relative error of e_n (set by how far t_n is from a whole number of steps: the force of eq 2 "
               "jumps at xi = 0; schemes.json 'paper_step', schemes.csv)", "of the order 1e-4", [
                   Reading("paper's step, e_n after separation",
                           f"dt = 1e-7 s (the paper's t_n = 1e-5 s over 100; eq 4 gives t_n = 9.9985e-6 s, so the "
                           f"contact lasts 99.985 steps), {inside}, e_n from v after the separation",
                           lambda: at_paper_step("final"), holds, why),
                   Reading("paper's step, e_n at the crossing",
                           f"dt = 1e-7 s, {inside}, e_n from v interpolated where the overlap crosses zero",
                           lambda: at_paper_step("cross"), holds, why),
                   Reading("dt = t_n/100 exactly, e_n after separation",
                           f"dt = t_n/100 with eq 4's t_n (the contact lasts exactly 100 steps), {inside}",
                           lambda: at_k("final", INSIDE), holds, why),
                   Reading("dt = t_n/100 exactly, mean over 4 phases",
                           "dt = t_n/100, e_n at the crossing, mean over phases 0, 0.25, 0.5, 0.75 (phase 0: the "
                           "contact starts and ends on step points, a degenerate case that dominates the mean)",
                           lambda: at_k("cross", (0.0,) + INSIDE), holds, why),
               ], id="gear-error-at-t_n-over-100")


def _within(cols, name, lo, hi):
    v = cols["v_n"]
    return cols[name][(v >= lo) & (v <= hi)]


@verdicts_for("normal-impact")
def oblique_placeholder(out_dir: str) -> list:
    """The oblique impacts (§3) until their case declares its own verdicts."""
    from nsfric.cases import CASES

    if "oblique-impact" in CASES:
        return []
    s = Sheet("normal-impact", SOURCE, out_dir)
    s.missing("§3, Figs 3-8", "oblique impacts: psi^f against psi^i for the tangential laws",
              "Figs 3-8", "no oblique-impact case yet")
    return s.items


@verdicts_for("oblique-impact")
def oblique_impact(out_dir: str) -> list:
    """§3: oblique impacts (Figs 3 and 8) from the figures' CSVs and sidecars."""
    s = Sheet("oblique-impact", SOURCE, out_dir)
    f3 = lambda: s.out.csv("fig3.csv")  # noqa: E731
    f8 = lambda: s.out.json("fig8.json")  # noqa: E731

    def curve(label):
        c = f3()
        x, y = np.asarray(c[f"psi_i {label}"], float), np.asarray(c[f"psi_f {label}"], float)
        ok = np.isfinite(x) & np.isfinite(y)
        return x[ok], y[ok]

    def reversal_end(label):  # psi_i where psi_f crosses zero upwards for the last time
        x, y = curve(label)
        i = int(np.nonzero(y < 0)[0][-1])
        return float(x[i] - y[i] * (x[i + 1] - x[i]) / (y[i + 1] - y[i]))

    s.number("§3, Fig 3d", "Cundall-Strack (k_s/k_n = 2/7): psi_i where the reversal region (psi_f < 0) ends",
             1.6, lambda: reversal_end("d cundall-strack ks_ratio=0.2857"), rtol=0.05,
             note="linear interpolation between the exact points of fig3.csv; the paper: theta ~ 58 deg")
    s.claim("§3, Fig 3a", "Coulomb (mu = 0.25): rolling branch psi_f = 0 below the sliding threshold",
            "psi_f = 0 (rolling) for small psi_i; the paper's time stepping makes F_s jump sign there",
            lambda: float(np.max(np.abs(curve("a coulomb mu=0.25")[1][curve("a coulomb mu=0.25")[0] < 1.0]))),
            lambda d: d <= 1e-12, note="max |psi_f| for psi_i < 1 (exact Filippov rolling)")
    _sawtooth_claim(s)
    _brake_failure_claims(s, f8)
    return s.items


#: Fig 8's normal force models and read-off rules (:mod:`...oblique_impact_figures`)
_MODELS = {"dashpot": "with eq 2's dashpot (gamma_n of the case; divided by 10 at t_n = 1e-4 s, nsfric's "
                      "choice: the same e_n)",
           "gamma_n=0": "without the dashpot (gamma_n = 0: an elastic normal force)"}
_RULES = {"half plateau": "where -Delta v_x/v^i has fallen to half its low-speed plateau",
          "asymptotes": "where the low-speed plateau meets the power law fitted over the top decade of the "
                        "t_n = 1e-5 s curve (1e-3 m <= v^i t_n <= 1e-2 m)"}


def _brake_failure_claims(s, f8):
    """§4, eq 25 and Fig 8 (brake failure): eq 25's numbers, the transition speeds read
    off Fig 8 under each read-off rule and normal force, and the high-speed exponent."""
    s.number("eq 25", "brake failure speed v_bf for t_n = 1e-5 s [m/s]", 27.0,
             lambda: f8()["v_bf_eq25"]["1e-05"], rtol=0.02)
    # eq 25 gives the factor 10 by construction (v_bf ~ k_n^(1/2)); the claim is the curves'
    ratio = lambda model, rule: (f8()["v_bf_read_rules"][rule][model]["1e-05"]  # noqa: E731
                                 / f8()["v_bf_read_rules"][rule][model]["0.0001"])
    s.readings("Fig 8", "decrease of v_bf when t_n grows tenfold (k_n / 100): the transition speeds read off the "
               "two curves, v(1e-5 s)/v(1e-4 s) (within 10 %)", 10.0,
               [Reading(f"{model}, {rule}", f"{_MODELS[model]}; read {_RULES[rule]}",
                        lambda model=model, rule=rule: ratio(model, rule), lambda r: abs(r - 10) <= 1.0,
                        "more than 10 % from the paper's factor 10")
                for model in _MODELS for rule in _RULES], id="fig8-tenfold-decrease")
    for t_n, vpaper in (("1e-05", 35.0), ("0.0001", 3.5)):
        s.readings("Fig 8", f"transition speed read off the curve, t_n = {float(t_n):g} s [m/s] (within 10 %)",
                   vpaper, [Reading(f"{model}, {rule}", f"{_MODELS[model]}; read {_RULES[rule]}",
                                    lambda model=model, rule=rule, t_n=t_n: f8()["v_bf_read_rules"][rule][model][t_n],
                                    lambda v, vpaper=vpaper: abs(v - vpaper) <= 0.1 * vpaper,
                                    f"more than 10 % from the paper's {vpaper:g} m/s")
                            for model in _MODELS for rule in _RULES],
                   id=f"fig8-transition-speed-t_n={t_n}")
    s.readings("§4, Fig 8", "brake-failure regime: exponent of -Delta v_x/v^i in v^i, fitted over 1e-2 m <= v^i t_n "
               "<= 1e-1 m (t_n = 1e-4 s, 100-1000 m/s: 37-370 v_bf); Delta v_x ~ 1/v^i means -2 (within 0.1)",
               "Delta v_x ~ 1/v^i (F_x independent of v^i, t_cont ~ 1/v^i)",
               [Reading(model, _MODELS[model], lambda model=model: f8()["high_speed_exponent"][model]["0.0001"],
                        lambda p: abs(p + 2) <= 0.1,
                        "the dashpot's force grows with the normal velocity (v_n ~ v^i cos theta), so F_x is not "
                        "independent of v^i: the exponent tends to -1")
                for model in _MODELS], id="fig8-high-speed-exponent")


#: the smallest difference of psi_f visible on Fig 3 (psi_f spans about -1 .. 6 there: 1 %
#: of the axis, about a line width)
VISIBLE_PSI_F = 0.05


def _sawtooth_claim(s):
    """After eq 22: "changing zeta_0 to 1e-7 m or 1e-9 m does not visibly alter the curve"
    (Fig 3f, zeta_0 = 1e-8 m), from ``sawtooth-zeta0.csv``."""
    def worst():
        c = s.out.csv("sawtooth-zeta0.csv")
        out = {}
        for z in ("1e-07", "1e-09"):
            d = np.asarray(c[f"psi_f zeta_0={z} - psi_f zeta_0=1e-08"], float)
            ok = np.isfinite(d)
            if not ok.any():
                raise ValueError(f"no psi_f for zeta_0 = {z} m")
            i = int(np.argmax(np.where(ok, np.abs(d), -1)))
            out[f"zeta_0={z}"] = {"max |psi_f - psi_f(1e-8)|": float(abs(d[i])), "at psi_i": float(c["psi_i"][i]),
                                  "psi_i computed": int(ok.sum())}
        return out

    try:
        w = worst()
        numbers = "; ".join(f"{k} m {'alters it visibly' if v['max |psi_f - psi_f(1e-8)|'] > VISIBLE_PSI_F else 'does not'}"
                            f" (largest difference {v['max |psi_f - psi_f(1e-8)|']:.3g} at psi_i = {v['at psi_i']:.3g}, "
                            f"{v['psi_i computed']} points)" for k, v in w.items())
    except (OSError, KeyError, ValueError):
        numbers = "see sawtooth-zeta0.csv"
    s.claim("§3 after eq 22, Fig 3f", "saw-tooth (eq 22): psi_f(psi_i) for zeta_0 = 1e-7 m and 1e-9 m against "
            f"1e-8 m, the largest difference (visible: > {VISIBLE_PSI_F} in psi_f, 1 % of Fig 3's axis)",
            "changing zeta_0 to 1e-7 m or 1e-9 m does not visibly alter the curve", worst,
            lambda v: all(x["max |psi_f - psi_f(1e-8)|"] <= VISIBLE_PSI_F for x in v.values()),
            reason=f"{numbers}: in the reversal region the number of teeth passed decides where the contact "
                   "ends on a tooth (sawtooth-zeta0.csv, fig3.png panel f)",
            note=f"largest differences: {numbers}", id="sawtooth-zeta0-invisible")


@verdicts_for("column-detachment")
def column_detachment(out_dir: str) -> list:
    """§4: a column of N grains hitting a wall (the paper gives claims, no figure)."""
    s = Sheet("column-detachment", SOURCE, out_dir)
    d = lambda: s.out.csv("detachment.csv")  # noqa: E731
    e_n = lambda: s.out.json("reference-linear-dashpot.json")["summary"]["e_n"]  # noqa: E731

    def at(N, pick):
        cols = d()
        return float(cols[f"e_tot N={N}"][pick(cols["t0_over_tn"])])

    s.claim("§4", "N = 10 grains, widely spaced (t_0/t_n = 100): e_tot considerably smaller than e_n",
            "e_tot considerably smaller than e_n for t_0 >> t_n",
            lambda: (at(10, np.argmax), e_n()), lambda v: v[0] < 0.5 * v[1],
            note="(e_tot, e_n) of the exact column")
    s.claim("§4", "N = 10 grains, closely packed (t_0/t_n = 1e-3 << 1/N): e_tot close to one",
            "the column detaches as a whole: e_tot close to 1 for t_0 << t_n/N",
            lambda: at(10, np.argmin), lambda e: e > 0.9)
    return s.items


captions_for("column-detachment", {
    "detachment.png": "Schäfer et al. §4: total restitution e_tot of a column of N grains (spacing s_0, "
                      "speed v_0, eq 2 contacts) hitting a wall, against t_0/t_n = s_0/(v_0 t_n), from the "
                      "exact event-driven reference with every pair contact a switching surface. Look at "
                      "the two regimes: e_tot near 1 for t_0 << t_n/N (the column detaches as a whole), "
                      "far below e_n for t_0 >> t_n (a sequence of binary collisions).",
    "reference.png": "The default column (N = 10): grain positions and velocities of the exact reference.",
})


captions_for("normal-impact", {
    "fig2.png": "Schäfer et al. Fig 2: (a) normal restitution e_n against the impact speed v_n^i "
                "(m_eff = 7.4e-5 kg) for the linear spring-dashpot (eq 2), Hertz with linear damping "
                "(eq 8), Kuwabara-Kono (eq 9) and Walton-Braun (eq 10); markers: exact impacts, lines: "
                "closed forms. (b) Hertz contact duration t_n against eq 7. Look at e_n = 0.87 constant "
                "for the dashpot, rising for eq 8, falling for eqs 9-10.",
    "reference.png": "Exact single impacts at v_n^i = 1 m/s for every normal law: overlap, velocity "
                     "and normal force against t.",
    "schemes.png": "Discrete schemes on the normal impact: relative error of e_n against dt/t_n per "
                   "scheme and normal law, the median over where the contact starts within a step (lines; "
                   "open markers: the largest, e.g. the degenerate phase whose contact ends on a step point, "
                   "which would dominate a mean); top: v "
                   "interpolated where the overlap crosses zero, bottom: v after separation. gear5 runs as DEM "
                   "codes run it (carried through the contact start), gear5-exact-restart restarts from exact "
                   "Taylor coefficients at every mode change. The star is the paper's 1e-4 for Gear at t_n/100 "
                   "(it holds at the paper's own step dt = 1e-7 s, schemes.json 'paper_step'). Look at the "
                   "slopes: 1 for eq 2 whatever the scheme (the force jumps at xi = 0).",
})
