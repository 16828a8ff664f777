"""Normal impact of two cellulose-acetate spheres, Schäfer, Dippel & Wolf (1996) §2, eqs 2-10.

Relative coordinate: overlap ``xi`` (positive in contact), ``v = dxi/dt`` (positive
approaching), ``m_eff dv/dt = F(xi, v)`` with one of the paper's normal laws: the
linear spring-dashpot (eq 2, ``k_n = 7.32e6 N/m``, ``gamma_n = 2.06 kg/s``, so
``e_n = 0.87`` and ``t_n = 1e-5 s`` by eqs 3-4), Hertz (eq 6, ``k_n_tilde = 9.0e7``),
Hertz with linear damping (eq 8, ``gamma_n = 0.35 kg/s``), Kuwabara-Kono (eq 9,
``gamma_n_tilde = 190``) and Walton-Braun (eq 10, ``k_1 = 7.32e6 N/m``,
``k_2 = k_1 + s F_max``, ``s = 2e5 /m``).  Two spheres of ``m = 1.48e-4 kg``:
``m_eff = 7.4e-5 kg``.  The impact speed is the parameter ``v_i``.

Each law ``NAME`` ends the contact when the overlap returns to zero (as eqs 3-4
assume); ``NAME-force-end`` ends it when the repulsive force vanishes.  For Hertz both
coincide; the Walton-Braun force vanishes at the plastic overlap ``xi_0 > 0``, after
which the spheres fly apart freely, so ``walton-braun`` (zero overlap) has the same
``e_n`` and a longer ``t_n`` than ``walton-braun-force-end``.

Observables (:meth:`NormalImpact.observables`, in every reference's ``summary``):
``e_n = -v_f/v_i`` at the contact end, the contact duration ``t_n`` and the largest
overlap ``xi_max`` (the event where ``v`` crosses zero: the model splits the contact
there, see :func:`~nsfric.symbolic.normal.with_turning_point`).  Fig 2 is in
:mod:`nsfric.papers.schafer1996.normal_impact_figures`.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.optimize import brentq

from nsfric.symbolic.codegen import generate
from nsfric.symbolic import impact_laws as IL
from nsfric.papers.schafer1996 import systems
from nsfric.cases.base import Case

from nsfric.papers.schafer1996.systems import m_eff  # noqa: F401  (re-exported)

#: closed forms of Schäfer et al. by name (SymPy expressions, :mod:`nsfric.symbolic.impact_laws`)
CLOSED_FORMS = {
    "linear-dashpot e_n": IL.linear_dashpot_restitution,      # eq 3
    "linear-dashpot t_n": IL.linear_dashpot_duration,         # eq 4
    "walton-braun e_n": IL.walton_braun_restitution_velocity,  # text after eq 10
    "hertz t_n": IL.hertz_duration_exact,                     # eq 7, exact constant
}


@lru_cache(maxsize=16)
def _lambdified(name):
    expr = CLOSED_FORMS[name]()
    syms = sorted(expr.free_symbols, key=str)
    return [s.name for s in syms], generate(expr, syms, "numpy", cse=False, products=False, raw=True)


def closed_form(name: str, values: dict):
    """Evaluate the closed form ``name`` (a key of :data:`CLOSED_FORMS`) at the parameter
    values (``v_i`` may be an array)."""
    args, f = _lambdified(name)
    return f(*[values[a] for a in args])


def end_criterion(law: str) -> str:
    """``"force"`` for ``NAME-force-end`` laws, else ``"overlap"``."""
    return "force" if law.endswith("-force-end") else "overlap"


class NormalImpact(Case):
    name = "normal-impact"
    reference = "Schäfer, Dippel & Wolf (1996) §2, eqs 2-10, Fig 2"
    laws = systems.NORMAL_IMPACT_CASE_LAWS
    default_law = "linear-dashpot"
    #: end time of the linear spring-dashpot (t_n = 1e-5 s); the other laws get
    #: :meth:`contact_t_end`
    t_end = 2e-5
    initial = {"xi": "xi0", "v": "v_i"}
    unit = "s"
    observable_names = ("e_n", "t_n", "xi_max")
    units = {"xi": "m", "xi_max": "m", "v": "m/s", "F": "N", "F_n": "N", "E_kin": "J", "E_el": "J",
             "e_n": "1", "t_n": "s"}

    def build(self, law: str):
        return systems.normal_impact(law)

    def contact_t_end(self, law: str, values: dict) -> float:
        """Default end time: long enough for the contact to end at ``v_i``.

        Linear dashpot: :attr:`t_end`; Hertz-type laws: 2 elastic Hertz durations (eq 7;
        the damped contacts of eqs 8-9 last at most 5 % longer at the default parameters);
        Walton-Braun: loading and unloading (2 pi (m_eff/k_1)^(1/2)) plus the free flight
        from the plastic overlap back to zero overlap, bounded by ``1/e_n`` of the
        closed form times the loading time."""
        if law.startswith("linear-dashpot"):
            return self.t_end
        if law.startswith("walton-braun"):
            t_load = np.pi * np.sqrt(values["m_eff"] / values["k_1"])
            return float(2 * t_load * (1 + 1 / closed_form("walton-braun e_n", values)))
        return float(2 * closed_form("hertz t_n", values))

    def default_t_end(self, law: str, values: dict) -> float:
        return self.contact_t_end(law, values)

    # -- observables -------------------------------------------------------------------
    def observables(self, law: str, sol) -> dict:
        """``e_n``, ``t_n`` and ``xi_max`` of one impact (see the module docstring);
        ``{}`` where the contact did not end before the solution's end."""
        try:
            return self.restitution(sol, law)
        except ValueError:
            return {}

    def why_no_observables(self, law: str, sol) -> str:
        """No impact (the bodies never touched), or the contact did not end, before
        ``t_end``; ``""`` if the impact's observables exist."""
        try:
            self.restitution(sol, law)
            return ""
        except ValueError as e:
            t_end = sol.t_span[1]
            if not sol.events and sol.segments and sol.segments[0].mode == "free":
                gap = -float(sol.segments[0].y0[sol.model.state_names.index("xi")])
                return (f"no impact before t_end = {t_end:g} s: the gap of {gap:g} m is not closed "
                        f"at v_i = {sol.params['v_i']:g} m/s; choose a longer t_end (--t-end) or a "
                        "smaller gap (xi0)")
            return f"{str(e).split(';')[0]} = {t_end:g} s; choose a longer t_end (--t-end)"

    def restitution(self, sol, law: str | None = None) -> dict:
        """``e_n = -v_f/v_i`` and ``t_n`` at the contact end of ``law``'s criterion, and
        the largest overlap ``xi_max`` (at the event ``v = 0``), from a reference solution.

        Raises
        ------
        ValueError
            If the contact did not end before the solution's end time.
        """
        law = law or sol.model.name.split("/", 1)[1]
        i_xi, i_v = (sol.model.state_names.index(q) for q in ("xi", "v"))
        ends = [e for e in sol.events if e.kind == "contact-end"]
        if not ends:
            raise ValueError("the contact did not end before t_end; increase t_end")
        t_c, y_c = ends[0].t, np.asarray(ends[0].y)
        xi_scale = max(abs(seg.y0[i_xi]) + abs(seg.y1[i_xi]) for seg in sol.segments)
        if end_criterion(law) == "overlap" and y_c[i_xi] > 1e-9 * xi_scale:
            # the law's contact ended at zero force with xi > 0 (Walton-Braun): free
            # flight until the overlap returns to zero
            seg = next(s for s in sol.segments if s.t0 >= t_c and s.t1 > s.t0)
            if seg.y1[i_xi] > 0:
                raise ValueError("the overlap did not return to zero before t_end; increase t_end")
            t_c = brentq(lambda t: seg(t)[i_xi], seg.t0, seg.t1, xtol=1e-15 * seg.t1, rtol=1e-15)
            y_c = seg(t_c)
        turning = [e for e in sol.events if e.t < t_c and e.kind in ("max-overlap", "unloading")]
        if not turning:
            raise ValueError("v did not cross zero during the contact")
        return {"e_n": float(-y_c[i_v] / sol.params["v_i"]), "t_n": float(t_c - sol.t_span[0]),
                "xi_max": float(turning[0].y[i_xi])}

    def restitution_closed_form(self, values: dict) -> dict:
        """``e_n`` and ``t_n`` of the linear spring-dashpot, Schäfer et al. eqs 3-4
        (contact ending at zero overlap)."""
        return {"e_n": float(closed_form("linear-dashpot e_n", values)),
                "t_n": float(closed_form("linear-dashpot t_n", values))}

    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        """The references of every law (CSV + JSON with ``summary``; on ``jobs`` local
        processes), their figure,
        Fig 2 (``fig2.png``, ``fig2.csv`` + sidecar) and the discrete schemes' error of
        ``e_n`` (:mod:`~nsfric.papers.schafer1996.normal_impact_schemes`)."""
        from nsfric.papers.schafer1996.normal_impact_figures import write_fig2
        from nsfric.papers.schafer1996.normal_impact_schemes import write_schemes

        out = super().run(out_dir, progress, jobs=jobs)
        out["written"] += write_fig2(self, out_dir, progress)
        out["written"] += write_schemes(self, out_dir, progress)
        return out
