"""Two sliding plates, Führer, Brendel & Wolf (2024) §3.1.

Two planar surfaces under a constant normal force; the relative tangential velocity
``v`` is decelerated by the tangential contact force ``F`` of a spring-dashpot-slider:
``m dv/dt = F``.  Natural units: ``m = k = F_max = 1``, ``gamma = 2``, ``v(0) = 4``,
``xi(0) = 0`` -- the contact slides from the start.  Laws: ``c-sds`` (eq 10) and
``d-sds`` (eqs 1-3; in continuous time a DAE whose sliding branch ties ``xi`` to ``v``).

Exact behaviour (both laws): sliding with ``v = v0 - F_max t/m`` until

* C-SDS: ``|F_S| = F_max``, i.e. ``t* = v0 + 2 W0(-exp(-v0/2)/4)`` for the defaults;
* D-SDS: the stick dynamics stop pushing ``|F_S|`` above ``F_max``, i.e.
  ``v = gamma F_max/(m k)`` (eq 20), at ``t* = 2``;

then sticking, a critically damped oscillation that never reaches ``|F_S| = F_max`` again.
"""
from __future__ import annotations


from nsfric.cases.base import Case


class SlidingPlates(Case):
    name = "sliding-plates"
    reference = "Führer, Brendel & Wolf (2024) §3, Figs 1-4"
    laws = ("c-sds", "d-sds")
    default_law = "c-sds"
    t_end = 10.0
    initial = {"xi": "xi0", "v": "v0"}

    def build(self, law: str):
        from nsfric.papers.fuhrer2024 import systems  # SymPy: only when the model is built

        return systems.sliding_plates(law)

    def run(self, out_dir, progress=None, jobs=None):  # Figs 1-4, order table, studies: sliding_plates_figures
        """Figs 1-4, the order table and the studies (:mod:`nsfric.papers.fuhrer2024.
        sliding_plates_figures`); ``jobs``: processes of the convergence study (default
        up to 4, one per core)."""
        from nsfric.papers.fuhrer2024.sliding_plates_figures import run
        return run(self, out_dir, progress, jobs=jobs)
