"""Sliding plates in the tangential plane with a turning relative velocity (beyond
Führer et al. §3, which is 1D).

The C-SDS with vector ``xi`` and ``v`` (eqs 1, 8-10) decelerates a plate that slides
with ``v(0) = (v0, 0)`` while a constant external tangential force ``(0, f_ext)``
turns its velocity: the slip direction (eq 8) rotates during sliding, the spring
loads in a turning direction, and the contact finally sticks with the static force
balancing ``f_ext`` (``|f_ext| < F_max``).  No closed form: the reference is the
agreement of the event-driven and DAE solvers, and the energy balance eq 11 integrated
along the trajectory.
"""
from __future__ import annotations

import os

from nsfric.io import csv_text, json_text, write_text
from nsfric.papers.fuhrer2024 import systems
from nsfric.cases.base import Case

from nsfric.papers.fuhrer2024.systems import f_ext  # noqa: F401  (re-exported)


class SlidingPlates2D(Case):
    name = "sliding-plates-2d"
    reference = "Führer, Brendel & Wolf (2024) eqs 1, 8-11, vector form"
    laws = ("c-sds-2d",)
    default_law = "c-sds-2d"
    t_end = 10.0
    initial = {"v_1": "v0"}

    def build(self, law: str):
        return systems.sliding_plates_2d(law)

    def run(self, out_dir: str, progress=None) -> dict:
        """The exact references and figure of :meth:`Case.run`, then Führer et al.'s
        statements checked in the plane (:mod:`.sliding_plates_2d_study`):
        ``balance.csv`` + ``balance.json`` and ``balance.png``."""
        from nsfric.plotting import save  # matplotlib only when figures are drawn
        from nsfric.papers.fuhrer2024.sliding_plates_2d_study import balance_data, plot_balance

        written = super().run(out_dir, progress)["written"]
        if progress:
            progress(f"{self.name}: eq 11, energy budget and eqs 8-9 along the reference (+ ida)")
        data = balance_data(self)
        path = os.path.join(out_dir, "balance.csv")
        write_text(path, csv_text(data["columns"]))
        side = os.path.join(out_dir, "balance.json")
        write_text(side, json_text({"case": self.name, "law": self.default_law, "parameters": data["params"],
                                    "summary": data["summary"]}))
        written += [path, side, save(plot_balance(data), os.path.join(out_dir, "balance.png"))]
        return {"written": written}