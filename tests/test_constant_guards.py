"""A mode whose guards do not depend on the state (issue 23).

A block pushed by a constant force ``f`` below ``mu F_N`` sticks for good: in the
sticking mode the Filippov exits (``lam`` leaving ``[0, 1]``) are constants of the
parameters.  Generated code returned them as scalars whatever the batch of states, and
every ``*-event`` scheme crashed (``cannot reshape``) sampling them on a step's
interpolant.
"""
import numpy as np
import pytest
import sympy as sp

import nsfric
from nsfric.symbolic.codegen import generate

x, y, a = sp.symbols("x y a", real=True)


@pytest.mark.parametrize("backend", ["numpy"])
def test_generated_constants_broadcast_to_the_batch_of_states(backend):
    f = generate([a - 1, sp.Integer(-2)], ((x, y), (a,)), backend)
    states = np.zeros((2, 3, 4))
    out = f(states, [0.5])
    assert out.shape == (2, 3, 4)
    assert np.all(out[0] == -0.5) and np.all(out[1] == -2.0)
    assert f(np.zeros(2), [0.5]).shape == (2,)
    mixed = generate([x + a, sp.Integer(3)], ((x, y), (a,)), backend)(np.ones((2, 5)), [1.0])
    assert mixed.shape == (2, 5) and np.all(mixed == [[2.0], [3.0]])


v, v0 = sp.symbols("v v0", real=True)
m, f = sp.symbols("m f", positive=True)


class PushedBlock(nsfric.Case):
    """``m v' = f - mu F_N sign(v)``, ``f = 0.2 < mu F_N = 0.4``: slip until
    ``t* = m v0 / (mu F_N - f) = 5``, then stick for good."""

    name, laws, default_law, t_end = "pushed-block", ("coulomb",), "coulomb", 8.0
    initial = {"v": "v0"}

    def build(self, law):
        P = nsfric.Param
        block = nsfric.Slider(v, mass=m, external=f, params=(P(m, 1.0, 0, lo_open=True), P(f, 0.2, 0)))
        return nsfric.couple(block, tangential=nsfric.coulomb_static(), name=self.name, params=(P(v0, 1.0),))


@pytest.mark.parametrize("scheme", ["rk4-event", "euler-event"])
def test_event_schemes_stick_a_block_pushed_below_the_friction_limit(scheme):
    case = PushedBlock()
    sol = nsfric.simulate(case.problem(None, None, None), scheme=scheme, dt=0.3)
    stick = [e.t for e in sol.events if e.to_mode == "stick"]
    assert len(stick) == 1 and stick[0] == pytest.approx(5.0, rel=1e-12)
    assert sol.modes[-1] == "stick" and abs(sol.y[0, -1]) < 1e-12
