"""The grazing regime of ``sds-elastic-test`` (the limit of LIGGGHTS's and YADE's step,
:mod:`nsfric.symbolic.slip_rule_laws`): where the spring held at its cap would leave it
(the cap, without dashpot, turns the sticking rate of the elastic part inward) but the
sticking mode (with dashpot) would return to it at once, LIGGGHTS's step switches
between capped and sticking about every other step; as ``dt -> 0`` the contact point's
velocity follows the rate at which the cap moves and the dashpot is on in a fixed
fraction of the steps.  Two points of the slip-rule zoo's sweep: 25 deg, mu 0.1,
e_n 0.5 and 65 deg, mu 0.6, e_n 0.9."""
import numpy as np
import pytest

from nsfric.cases.slip_rule_zoo import contact_time, standard_impact
from nsfric.schemes.slip_rule_impact import run_impact

POINTS = ((25.0, 0.1, 0.5), (65.0, 0.6, 0.9))


def chattering(p, n):
    """LIGGGHTS's step at ``dt = t_n/n`` on the impact ``p``: the longest run of steps in
    which capped (no dashpot) and sticking (dashpot) steps alternate with at most 6 steps
    between switches; returns ``(e_t, switches, dashpot-on fraction, max |v - v_cap|,
    (t_start, t_end))`` over it, ``v`` the contact point's tangential velocity and
    ``v_cap`` the rate at which the cap ``mu F_n/k_t`` moves (central differences of the
    step's own normal force, inside the run)."""
    dt = contact_time(p) / n
    r = run_impact("liggghts-history", p, dt, record=True)
    t, vx, vy, w, delta, hist, Ft, Fn = r["trace"].T
    capped = np.abs(np.abs(Ft) - p["mu"] * np.abs(Fn)) < 1e-9 * np.abs(Fn)
    sw = np.nonzero(capped[1:] != capped[:-1])[0]
    runs, start = [], sw[0]
    for a, b in zip(sw[:-1], sw[1:]):
        if b - a > 6:
            runs.append((start, a))
            start = b
    runs.append((start, sw[-1]))
    a, b = max(runs, key=lambda ab: ab[1] - ab[0])
    inside = slice(a + 1, b + 1)
    inner = slice(a + 2, b - 1)  # the clamped F_n has a kink at the run's end
    v = (vx + p["R"] * w)[inner]
    v_cap = np.sign(hist[inner]) * p["mu"] * (Fn[a + 3:b] - Fn[a + 1:b - 2]) / (2 * dt) / p["k_t"]
    n_sw = int(np.sum((sw >= a) & (sw <= b)))
    return r["e_t"], n_sw, 1.0 - float(np.mean(capped[inside])), float(np.max(np.abs(v - v_cap))), (t[a], t[b])


@pytest.mark.parametrize("theta, mu, e_n", POINTS)
def test_liggghts_step_chatters_on_the_cap_with_a_fixed_dashpot_fraction(theta, mu, e_n):
    """On ``dt = t_n/800 ... t_n/12800`` the chattering run holds switches growing as
    ``1/dt``, the dashpot on in a fraction of its steps that converges (to 4/7 here: with
    ``k_t/k_n = m_eff/m = 2/7`` and ``gamma_t = gamma_n/2`` the fraction that keeps
    ``v = v_cap`` is ``(2/7) gamma_n/gamma_t``, a constant), ``v - v_cap`` falling at
    first order and ``e_t`` converging."""
    p = standard_impact(theta, mu=mu, e_n=e_n)
    out = [chattering(p, n) for n in (800, 3200, 12800)]
    e_t, switches, on, dv, span = (np.array(c, dtype=object) for c in zip(*out))
    assert switches[0] > 20 and all(switches[1:] > 3.5 * switches[:-1]), switches
    assert all(abs(f - 4 / 7) < 0.01 for f in on), on
    assert abs(on[-1] - 4 / 7) < 1e-3, on
    assert all(dv[1:] < dv[:-1] / 3.5) and dv[-1] < 2e-5, dv
    assert abs(e_t[2] - e_t[1]) < abs(e_t[1] - e_t[0]), e_t
    assert span[-1][1] - span[-1][0] > 0.05 * contact_time(p)  # a regime, not a few steps
