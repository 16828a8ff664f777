"""
A new discrete scheme: Ralston's RK2
====================================

A new discrete scheme written from outside the package, with ``import nsfric`` alone.

Ralston's second-order Runge-Kutta method (Ralston 1962, the RK2 of least truncation
error bound) is its Butcher tableau ``A = [[0, 0], [2/3, 0]]``, ``b = (1/4, 3/4)``,
``c = (0, 2/3)``: one :class:`nsfric.ExplicitRK`, registered by
:func:`nsfric.register_scheme`.  It then has, with nothing more written, its
event-aware variant ``ralston-event``, the compiled batch (array-valued parameters run
as one batch) and a place in ``nsfric list``.  A convergence study on a smooth problem
(a viscously damped spring oscillator, Schäfer et al. eq 14, against its closed form)
fits its observed order: 2.

The last line printed is the largest difference between the compiled batch's members
and the single runs of the same scheme (they must agree to rounding).
"""
import contextlib
import io

import numpy as np
import sympy as sp

import nsfric
import nsfric.cli

ralston = nsfric.register_scheme(nsfric.ExplicitRK(
    "ralston", [[0, 0], ["2/3", 0]], ["1/4", "3/4"], [0, "2/3"],
    order=2, reference="Ralston (1962), Math. Comp. 16, 431", doc="Ralston's RK2: order 2, two stages."))
assert "ralston-event" in nsfric.SCHEMES and nsfric.SCHEMES["ralston-event"].order == 2

listing = io.StringIO()
with contextlib.redirect_stdout(listing):
    assert nsfric.cli.main(["list"]) == 0
schemes = listing.getvalue().split("schemes:")[1].split()
assert "ralston" in schemes and "ralston-event" in schemes, schemes

x, v, x0 = sp.symbols("x v x0", real=True)
m, k = sp.symbols("m k", positive=True)
P = nsfric.Param
spring = nsfric.Slider(v, position=x, mass=m, stiffness=k, params=(P(m, 1.0, 0, lo_open=True),
                                                                   P(k, 4.0, 0, lo_open=True)))
model = nsfric.couple(spring, tangential=nsfric.get_law("viscous"), name="damped-oscillator", params=(P(x0, 1.0),))


class DampedOscillator(nsfric.Case):
    name, laws, default_law, t_end = "damped-oscillator", ("viscous",), "viscous", 5.0
    initial = {"x": "x0"}

    def build(self, law):
        return model


case = DampedOscillator()
fit = nsfric.converge(case, schemes=("ralston",), dts=[0.1, 0.05, 0.025, 0.0125, 0.00625]).orders()[0]
print(f"ralston: observed order {fit['order']:.3f} +- {fit['order_stderr']:.1g} (nominal {fit['nominal_order']})")
assert abs(fit["order"] - 2) < 0.05, fit

starts = np.array([1.0, 0.5, -0.25])
batch = nsfric.simulate(case, scheme="ralston", dt=0.01, params={"x0": starts})
singles = [nsfric.simulate(case, scheme="ralston", dt=0.01, params={"x0": s}).y for s in starts]
print(f"batch path: {batch.info['backend']}")
diff = max(np.max(np.abs(batch.y[:, i] - y)) for i, y in enumerate(singles))
print(f"max error of the batch against the single runs: {diff:.3e}")
