"""A smooth test problem with a closed form, for checking schemes on known orders.

``m x'' = -k x - c x'`` (one region, no switching): the ``analytic`` solver gives the
exact solution; ``undamped`` has position-dependent forces only, ``damped`` a
velocity-dependent force (the velocity Verlet drops to first order there).
"""
import sympy as sp

from nsfric.cases.base import Case
from nsfric.symbolic import laws as L
from nsfric.symbolic.model import HybridModel, Region

c_damp = sp.Symbol("c", nonnegative=True)
x0, v0 = sp.symbols("x0 v0", real=True)


class Oscillator(Case):
    """Harmonic oscillator, undamped and damped (not registered: tests only)."""

    name = "test-oscillator"
    reference = "m x'' = -k x - c x'"
    laws = ("undamped", "damped")
    default_law = "undamped"
    t_end = 5.0
    initial = {"x": "x0", "v": "v0"}

    def build(self, law):
        x, v, k, m = L.x, L.v, L.k, L.m
        F = -k * x - c_damp * v
        params = (L.P(k, 1.0, 0, lo_open=True), L.P(m, 1.0, 0, lo_open=True),
                  L.P(c_damp, 0.0 if law == "undamped" else 0.5, 0),
                  L.P(x0, 1.0), L.P(v0, 0.0))
        region = Region("free", {}, {x: v, v: F / m}, {"F": F}, "free")
        return HybridModel(f"{self.name}/{law}", (x, v), params, {}, (region,),
                           common_outputs={"E": m * v ** 2 / 2 + k * x ** 2 / 2},
                           reference=self.reference)


OSCILLATOR = Oscillator()
