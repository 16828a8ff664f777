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


from ..symbolic import systems
from .base import Case, register_case

from ..symbolic.systems import f_ext  # noqa: F401  (re-exported)


@register_case
class SlidingPlates2D(Case):
    name = "sliding-plates-2d"
    reference = "Führer, Brendel & Wolf (2024) eqs 1, 8-11, vector form"
    laws = ("c-sds-2d",)
    default_law = "c-sds-2d"
    t_end = 10.0
    initial = {"v_1": "v0"}

    def build(self, law: str):
        return systems.sliding_plates_2d(law)