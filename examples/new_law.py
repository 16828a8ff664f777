"""
A new contact law in 30 lines
=============================

A new contact law written from outside the package, with ``import nsfric`` alone.

Viscous-Coulomb friction ``F = -min(gamma |v|, mu F_N) sign(v)`` (three modes:
``slip+``, ``viscous``, ``slip-``) on a spring oscillator ``m x'' = F - k x``: the law is
declared once in SymPy as a :class:`nsfric.TangentialLaw`, coupled to a
:class:`nsfric.Slider` by :func:`nsfric.couple`, wrapped in a tiny :class:`nsfric.Case`,
solved by two reference solvers (``filippov``, ``ida``) and measured by a convergence
study of two discrete schemes.

Closed form: from ``x(0) = 1``, ``v(0) = 0`` with ``m = k = 1``, ``gamma = 0.2``,
``mu F_N = 0.4`` the speed stays below 1, so ``gamma |v| < mu F_N`` for all time: the
motion is the damped oscillator ``x'' + gamma x' + x = 0``,
``x = exp(-beta t) (cos(w t) + beta/w sin(w t))`` with ``beta = gamma/2``,
``w = sqrt(1 - beta^2)``.  The last line printed is the largest error of both reference
solvers against it.
"""
import numpy as np
import sympy as sp

import nsfric

x, v, x0, v0 = sp.symbols("x v x0 v0", real=True)
m, k, gamma, mu, F_N = sp.symbols("m k gamma mu F_N", positive=True)  # signs: the modes provably do not overlap
P = nsfric.Param
law = nsfric.TangentialLaw(
    "viscous-coulomb", "F = -min(gamma |v|, mu F_N) sign(v)", (),
    (P(gamma, 0.2, 0, lo_open=True), P(mu, 0.4, 0, lo_open=True), P(F_N, 1.0, 0, lo_open=True)),
    {"h_plus": gamma * v - mu * F_N, "h_minus": gamma * v + mu * F_N},
    {"slip+": ({"h_plus": 1}, -mu * F_N), "viscous": ({"h_plus": -1, "h_minus": 1}, -gamma * v),
     "slip-": ({"h_minus": -1}, mu * F_N)}, velocity=v, normal_force=F_N)
spring = nsfric.Slider(v, position=x, mass=m, stiffness=k, params=(P(m, 1.0, 0, lo_open=True), P(k, 1.0, 0, lo_open=True)))
model = nsfric.couple(spring, tangential=law, name="viscous-coulomb-oscillator", params=(P(x0, 1.0), P(v0, 0.0)))


class Oscillator(nsfric.Case):
    name, laws, default_law, t_end = "viscous-coulomb-oscillator", ("viscous-coulomb",), "viscous-coulomb", 10.0
    initial = {"x": "x0", "v": "v0"}

    def build(self, law):
        return model


case, t = Oscillator(), np.linspace(0.0, 10.0, 1001)
beta, w = 0.1, np.sqrt(1 - 0.1 ** 2)
exact = np.exp(-beta * t) * (np.cos(w * t) + beta / w * np.sin(w * t))
errors = []
for solver in ("filippov", "ida"):
    sol = case.reference_solution(solver=solver, rtol=1e-12, atol=1e-14)
    errors.append(np.max(np.abs(sol(t)[0] - exact)))
    print(f"{solver}: modes {[s.mode for s in sol.segments]}, max error {errors[-1]:.2e}")
for fit in nsfric.converge(case, schemes=("heun", "rk4"), dts=[0.1, 0.05, 0.025, 0.0125, 0.00625]).orders():
    print(f"{fit['scheme']}: observed order {fit['order']:.2f} (nominal {fit['nominal_order']})")
print(f"max error against the closed form: {max(errors):.3e}")
