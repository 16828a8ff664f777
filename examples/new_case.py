"""
A new case from outside the package
===================================

A new case written from outside the package, with ``import nsfric`` alone.

A sphere (radius ``R``, mass ``m``, ``I = 2/5 m R^2``) on a slope of angle ``alpha``
with exact Coulomb friction (static and dynamic, Krengel & Matuttis eqs 3-14): its
kinematics is a small :class:`nsfric.Kinematics` written here (``x``, ``u`` down the
slope, spin ``omega``; contact-point slip ``u - R omega``), the normal force is the
expression ``m g cos(alpha)`` bound by ``couple(..., normal_force=...)``, and the case is
registered by :func:`nsfric.register_case`.

Thrown down the slope with backspin (``u(0) = u0 > 0``, ``omega(0) = w0 < 0``) the
sphere slips: ``u' = g (sin a - mu cos a)``, ``R omega' = 5/2 mu g cos a``, so the slip
``s = u - R omega`` falls at the constant rate ``g (7/2 mu cos a - sin a)`` and the
sphere sticks -- rolls without slipping -- at

    t* = (u0 - R w0) / (g (7/2 mu cos a - sin a)),   u* = u0 + g (sin a - mu cos a) t*,

for good when ``mu > 2/7 tan a`` (static friction ``2/7 m g sin a`` holds it); then
``u' = 5/7 g sin a``.  The reference (``filippov``) and an event-aware scheme
(``rk4-event``: in the rolling mode the guards are constants) meet both to 1e-9.
The last line printed is the largest relative error.
"""
import numpy as np
import sympy as sp

import nsfric

x, u, omega, x0, u0, w0 = sp.symbols("x u omega x0 u0 w0", real=True)
m, R, g, alpha = sp.symbols("m R g alpha", positive=True)
P = nsfric.Param


class SphereOnSlope(nsfric.Kinematics):
    """A sphere rolling or slipping down a slope: the friction ``F`` acts at the
    contact point, on ``u`` and, with the lever arm ``R``, on ``omega``."""

    states, tangential_velocity, sliding_state = (x, u, omega), u - R * omega, omega
    params = (P(m, 0.2, 0, lo_open=True), P(R, 0.05, 0, lo_open=True), P(g, 9.81, 0, lo_open=True),
              P(alpha, 0.5, 0, np.pi / 2, lo_open=True))

    def rates(self, F_t, F_n):
        return {x: u, u: g * sp.sin(alpha) + F_t / m, omega: -R * F_t / (sp.Rational(2, 5) * m * R ** 2)}


@nsfric.register_case
class RollingSphere(nsfric.Case):
    name, laws, default_law, t_end = "rolling-sphere", ("coulomb",), "coulomb", 1.0
    reference = "sphere on a slope, exact Coulomb friction (Krengel & Matuttis eqs 3-14)"
    initial = {"x": "x0", "u": "u0", "omega": "w0"}

    def build(self, law):
        return nsfric.couple(SphereOnSlope(), tangential=nsfric.get_law(law), normal_force=m * g * sp.cos(alpha),
                             name=self.name, params=(P(x0, 0.0), P(u0, 2.0), P(w0, -20.0)))


case = nsfric.get_case("rolling-sphere")
p = {q.name: q.default for q in case.model().params}
a, G, mu = p["alpha"], p["g"], p["mu"]
t_stick = (p["u0"] - p["R"] * p["w0"]) / (G * (3.5 * mu * np.cos(a) - np.sin(a)))
u_stick = p["u0"] + G * (np.sin(a) - mu * np.cos(a)) * t_stick
u_end = u_stick + 5 / 7 * G * np.sin(a) * (case.t_end - t_stick)
errors = []
for run in (case.reference_solution(solver="filippov"), nsfric.simulate(case, scheme="rk4-event", dt=0.05)):
    (t,) = [e.t for e in run.events if e.to_mode == "stick"]
    u_t, u_T, w_T = run(t)[1], run(case.t_end)[1], run(case.t_end)[2]
    errors += [abs(t / t_stick - 1), abs(u_t / u_stick - 1), abs(u_T / u_end - 1), abs(u_T - p["R"] * w_T) / u_end]
    print(f"{run.solver}: sticks at t = {t:.15f} (closed form {t_stick:.15f}) with u = {u_t:.15f} "
          f"({u_stick:.15f}); rolls, slip at the end {u_T - p['R'] * w_T:.1e}")
    assert run.events[-1].to_mode == "stick" and run.modes[-1] == "stick"  # and rolls to the end
assert max(errors) < 1e-9, errors
print(f"max relative error against the closed form: {max(errors):.3e}")
