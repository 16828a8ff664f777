"""Verdicts and captions of Kuhn, Suzuki & Daouadji, *3D linear-frictional contact*:
``kuhn-contact`` (Fig 4, eqs 7-23).  nsfric's values come from ``nsfric run kuhn-contact``."""
from __future__ import annotations

import numpy as np

from nsfric.cases.verdicts import Reading, Sheet, captions_for, verdicts_for

SOURCE = "Kuhn, Suzuki & Daouadji"


def _fig4_closed_form(cols):
    """theta(K) of Fig 4 from tan(-theta/2) = exp(-K), K = k_t |dxi| / (mu f_n) (degrees)."""
    return -np.degrees(2 * np.arctan(np.exp(-cols["ratio"])))


@verdicts_for("kuhn-contact")
def kuhn_contact(out_dir: str) -> list:
    s = Sheet("kuhn-contact", SOURCE, out_dir)
    o = s.out
    f4 = lambda: o.csv("fig4.csv")  # noqa: E731
    s.claim("Fig 4, eqs 16-21", "one step of the algorithm follows tan(-theta/2) = exp(-K) exactly",
            "the force direction turns along the exact curve",
            lambda: float(np.max(np.abs(f4()["theta_algorithm_deg"] - _fig4_closed_form(f4())))),
            lambda d: d <= 1e-9, note="max |theta - closed form| [deg] over K = 0.01..5")
    s.claim("Fig 4", "the exact reference (many small steps) follows the same curve",
            "the force rotates as the movement grows",
            lambda: float(np.max(np.abs(f4()["theta_reference_deg"] - _fig4_closed_form(f4())))),
            lambda d: d <= 1e-6, note="max |theta_reference - closed form| [deg]")
    s.claim("Fig 4", "small movement: theta stays near -90 deg; large: approaches 0 deg",
            "theta from -90 deg (small |dxi|) to 0 deg (large |dxi|)",
            lambda: [float(f4()["theta_algorithm_deg"][0]), float(f4()["theta_algorithm_deg"][-1])],
            lambda th: abs(th[0] + 90) < 1 and abs(th[1]) < 1)
    s.claim("Fig 4", "add-and-project differs from the exact direction",
            "the common approximation ignores the progressive change of direction",
            lambda: float(np.max(np.abs(f4()["theta_project_deg"] - f4()["theta_reference_deg"]))),
            lambda d: d > 1.0, note="max |theta_project - theta_exact| [deg]")
    def step_error(column):
        return max(float(np.max(np.abs(o.csv(f"fig4-{w}.csv")[column] - o.csv(f"fig4-{w}.csv")["theta_reference_deg"])))
                   for w in ("growing", "shrinking"))

    s.readings("Fig 1, eqs 10-13", "one step with f_n +30 % and -30 % over the step (nsfric's test of the paper's "
               "claim): max |theta - theta_exact| [deg] of the algorithm, by the two ways the paper gives alpha_s "
               "for a contact at the friction limit (C = 0)",
               "the algorithm follows the exact force path within a step", [
                   Reading("eq 10 with C = 0", "alpha_s = (-B - sqrt(B^2))/A: 0 when B < 0, -2B/A when B > 0 "
                           "(nsfric's 'corrected' rules; their atan2 of line 32 plays no part here: the step starts "
                           "at theta^t = -90 deg)", lambda: step_error("theta_algorithm_corrected_deg"),
                           lambda d: d <= 1e-6),
                   Reading("prose after eq 13 (line 25)", "alpha_s = the larger of 0 and -2B/A (the paper's "
                           "shortcut, the algorithm as printed)", lambda: step_error("theta_algorithm_deg"),
                           lambda d: d <= 1e-6,
                           "the shortcut is wrong when A > 0 and B < 0 (a normal force shrinking faster than the "
                           "tangential loading): it reports an elastic stretch up to -2B/A where eq 10 gives 0 "
                           "(the force leaves the shrinking circle at once); eq 10 itself is right"),
               ], id="kuhn-one-step-exact-with-changing-f_n")
    ref = lambda: o.rows("refinements.csv", variant="all refinements")  # noqa: E731
    s.claim("eqs 7-21", "the algorithm is exact on straight increments (one step = reference)",
            "exact for a straight movement within a step", lambda: float(ref()["straight_max_error"][0]),
            lambda e: e <= 1e-10, note="max error / (mu f_n) over straight movements")
    s.claim("eqs 7-21", "without the refinements (add and project) straight increments are not exact",
            "each refinement is needed", lambda: float(o.rows("refinements.csv", variant="none (add and project)")["straight_max_error"][0]),
            lambda e: e > 1e-3)
    conv = lambda: o.json("convergence.json")["observed_orders"]  # noqa: E731
    s.claim("§3 (algorithm)", "the algorithm converges faster than add-and-project along a circle",
            "more accurate than the conventional approach",
            lambda: {k: conv()[k] for k in ("force_paper", "force_conventional")},
            lambda d: d["force_paper"] > d["force_conventional"] + 0.5,
            note="observed orders of the force error: ~2 against ~1")
    rot = lambda name: float(o.rows("rotation.csv", frame=name)["force_error"][0])  # noqa: E731
    s.claim("eqs 22-23", "objectivity under a rigid rotation: projection + twirl keep the force",
            "an observer rotating with the pair sees no rotation of the force",
            lambda: {k: rot(k) for k in ("none", "projection", "projection+twirl", "rotate")},
            lambda d: d["projection+twirl"] < 1e-2 * d["none"] and d["rotate"] < 1e-10,
            note="force error after a 90 deg rotation in 1000 steps")
    s.missing("§4", "triaxial compression of 10,648 sphere clusters", "stress-strain response",
              "assemblies are not modelled")
    return s.items


captions_for("kuhn-contact", {
    "fig4.png": "Kuhn et al. Fig 4: final direction theta of the tangential force after one movement "
                "dxi orthogonal to a force at the friction limit (theta_t = -90 deg, k_n = k_t = 1, "
                "mu = 0.5), against K = k_t |dxi|/(mu f_n), for f_n constant (left, exact: tan(-theta/2) = "
                "exp(-K)), growing and shrinking by 30 % over the step: the paper's algorithm as printed, "
                "with corrected rules, and add-and-project. Look at the gap of add-and-project and at the "
                "printed algorithm leaving the exact curve in the right panel.",
    "objectivity.png": "Fig 6 analogue (not the paper's assembly): the Love-Weber stress of a random packing "
                       "with generated contact forces after a rigid 90 deg rotation in 1000 increments, restored "
                       "by eq 24, for each frame adjustment. The forces are not in equilibrium: the stress is not "
                       "symmetric and q/p is about 0.12, against about 0.8 for the paper's sheared assembly "
                       "(objectivity.json 'stress_state'). Look at projection + twirl restoring the stress to "
                       "1e-4 and the others missing it by 10 %.",
    "convergence.png": "Force and work error against the number of steps N along a circular "
                       "movement: the paper's algorithm second order, add-and-project first order.",
    "orders.png": "Force error at the end against the number of increments N along four curved movements "
                  "(circle, f_n +30 %; figure eight, f_n loading and unloading; each with the pair fixed and "
                  "rolling+twirling 90 deg): the paper's algorithm (as stated, corrected, refinements off one at "
                  "a time), add-and-project, and the history rules (d): project only, project and rescale, "
                  "rotation with twist, add-and-project + rescale (LAMMPS), and Führer et al.'s C-SDS in 3D with "
                  "its elongation rotated with twist (gamma_t = 0 against the elastic-frictional reference, "
                  "gamma_t = 0.05 against the continuous C-SDS). Look at the slopes: 2 for the paper's algorithm "
                  "(pair fixed, or turned exactly), 1 for add-and-project, eqs 22-23 and the C-SDS, flat for the "
                  "rules that never turn the force about the normal.",
})
