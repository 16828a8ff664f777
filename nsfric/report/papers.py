"""The papers the report is organised by: what each claims, in a few sentences, and which
cases reproduce it.  The keys are the ``source`` of the verdicts
(:mod:`nsfric.cases.verdicts`)."""
from __future__ import annotations

PAPERS = {
    "Führer, Brendel & Wolf (2024)": {
        "title": "Führer, Brendel & Wolf (2024): a continuous spring-dashpot-slider (C-SDS)",
        "cases": ("sliding-plates", "sliding-plates-2d"),
        "claims": "The discontinuous spring-dashpot-slider (D-SDS) resets the spring at every "
                  "sliding step (eq 3): it chatters between sticking and sliding, creates energy "
                  "that scales with the square of the initial velocity, and limits every "
                  "integration scheme to first order. The continuous C-SDS (eq 10) loads the "
                  "spring by a differential equation, satisfies the energy balance eq 11 exactly "
                  "and passes smoothly into sticking. Test: two plates sliding apart (m = k = "
                  "F_max = 1, gamma = 2, v(0) = 4).",
    },
    "Krengel & Matuttis": {
        "title": "Krengel & Matuttis: numerically exact and modelled static friction",
        "cases": ("dry-oscillator", "slope-block"),
        "claims": "Static friction is a constraint on a Filippov surface (x' = 0): a dry-friction "
                  "oscillator sticks exactly once a turning point lies inside |x| < mu F_N/k "
                  "(Fig 1). A delta-approximation (eqs 15-17) makes it a DEM force; on a block on a "
                  "slope (Table 1) it is compared with Cundall-Strack: CS grips later at the "
                  "critical angle, the approximated 'DAE' friction drifts, more for larger dt; "
                  "BDF integrators drift less than Heun and the drift depends on the block size "
                  "(Figs 2-5).",
    },
    "Schäfer, Dippel & Wolf (1996)": {
        "title": "Schäfer, Dippel & Wolf (1996): force schemes in simulations of granular materials",
        "cases": ("normal-impact", "oblique-impact", "column-detachment"),
        "claims": "Normal force laws set the restitution e_n(v) of an impact: the linear "
                  "spring-dashpot gives a constant e_n (eq 3, 0.87 with t_n = 1e-5 s), Hertz with "
                  "linear damping an e_n rising with v, Kuwabara-Kono and Walton-Braun an e_n "
                  "falling with v (Fig 2); the Hertz contact lasts t_n ~ v^(-1/5) (eq 7, 1.88e-5 s "
                  "at 100 m/s). Tangential laws are compared on oblique impacts (Figs 3-8).",
    },
    "Kuhn, Suzuki & Daouadji": {
        "title": "Kuhn, Suzuki & Daouadji: 3D linear-frictional contact",
        "cases": ("kuhn-contact",),
        "claims": "An incremental algorithm for the linear-frictional contact with four "
                  "refinements (onset of slip, partial slip, the change of direction within the "
                  "step, objective rotation of the force) that is exact for straight increments; "
                  "a movement orthogonal to a force at the limit turns the force along "
                  "tan(-theta/2) = exp(-K) (Fig 4), which the usual add-and-project misses.",
    },
}


def paper_of(case_name: str) -> str | None:
    """The key of the paper ``case_name`` belongs to, or None."""
    for key, p in PAPERS.items():
        if case_name in p["cases"]:
            return key
    return None
