"""Linear oscillator with dry Coulomb friction, Krengel & Matuttis §3 (eq 3, Fig 1).

``m x'' = -mu F_N sign(x') - k x`` with ``m = 0.25``, ``k = 1``, ``mu = 0.4``,
``F_N = 1``; at ``x' = 0`` with ``|x| < mu F_N/k`` both fields push into the surface
and the mass sticks exactly (Filippov sliding, eqs 9-14).  Exact solution: half
oscillations of angular frequency ``omega = sqrt(k/m)`` about ``x = -+ mu F_N/k``, each
half period ``pi/omega`` ending with a reversal, until the turning point lies inside
the sticking segment.
"""
from __future__ import annotations


from nsfric.cases.base import Case


class DryOscillator(Case):
    name = "dry-oscillator"
    reference = "Krengel & Matuttis §3, eqs 3-14, Fig 1"
    laws = ("coulomb",)
    default_law = "coulomb"
    t_end = 10.0
    initial = {"x": "x0", "v": "v0"}

    def build(self, law: str):
        from nsfric.papers.krengel_matuttis import systems  # SymPy: only when the model is built

        return systems.dry_oscillator(law)

    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        """The default reference outputs (the laws' references on ``jobs`` local
        processes), then Fig 1 and the delta-approximation study
        (:mod:`nsfric.papers.krengel_matuttis.dry_oscillator_figures`)."""
        from nsfric.papers.krengel_matuttis.dry_oscillator_figures import run_figures

        result = super().run(out_dir, progress, jobs=jobs)
        result["written"] += run_figures(self, out_dir, progress)
        return result
