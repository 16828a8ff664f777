"""Discrete DEM schemes and the laws' stage-wise adjustments (issue 3).

Führer et al. Appendix A (eqs 22-28), eq 18 (Euler D-SDS), Fig 1 and Fig 4.
"""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nsfric
from nsfric.schemes import (CORE_SCHEMES, EVENT_SCHEMES, SCHEMES, DiscreteField,
                                    partition, simulate)
from nsfric.schemes.rk import ExplicitRK

from smooth_cases import OSCILLATOR

F = Fraction
PLATES = nsfric.get_case("sliding-plates")
NOMINAL = {"euler": 1, "symplectic-euler": 1, "velocity-verlet": 2, "midpoint": 2, "heun": 2,
           "rk4": 4, "gear5": 5, "bdf2": 2, "implicit-euler": 1}


def test_registry_declares_orders():
    for name, order in NOMINAL.items():
        assert SCHEMES[name].order == order
        assert SCHEMES[f"{name}-event"].order == order
    assert tuple(NOMINAL) == CORE_SCHEMES
    assert SCHEMES["velocity-verlet"].damped_order == 1
    assert all(SCHEMES[n].describe() for n in CORE_SCHEMES + EVENT_SCHEMES)


def test_rk4_assignment_form_is_fuhrer_eqs_22_24():
    rk4 = SCHEMES["rk4"]
    # u1 = u + f(u) h/2, u2 = u + f(u1) h/2, u3 = u + f(u2) h, u4 = u + f(u3) h/2
    assert rk4.assignments == [(F(1, 2), 0), (F(1, 2), 1), (F(1), 2), (F(1, 2), 3)]
    # u^{n+1} = (u1 + 2 u2 + u3 + u4 - 2 u^n)/3
    assert rk4.weights == [F(-2, 3), F(1, 3), F(2, 3), F(1, 3), F(1, 3)]
    mid, heun = SCHEMES["midpoint"], SCHEMES["heun"]
    assert mid.assignments == [(F(1, 2), 0), (F(1), 1)] and mid.weights == [0, 0, 1]      # eqs 25-26
    assert heun.assignments == [(F(1), 0), (F(1), 1)] and heun.weights == [0, F(1, 2), F(1, 2)]  # 27-28


@pytest.mark.parametrize("name", ["euler", "midpoint", "heun", "rk4"])
def test_tableau_order_conditions(name):
    s = SCHEMES[name]
    b, c, A = s.b, s.c, s.A
    assert sum(b) == 1
    assert all(sum(A[i]) == c[i] for i in range(len(b)))
    if s.order >= 2:
        assert sum(bi * ci for bi, ci in zip(b, c)) == F(1, 2)
    if s.order >= 4:
        assert sum(bi * ci ** 3 for bi, ci in zip(b, c)) == F(1, 4)
        assert sum(b[i] * A[i][j] * A[j][k] * c[k] for i in range(4) for j in range(4)
                   for k in range(4)) == F(1, 24)


class _PlainField:
    """A field without adjustments: f(u) = M u + q."""

    def __init__(self, M, q):
        self.M, self.q = M, q

    def f(self, u):
        from nsfric.schemes.field import Eval
        return Eval(self.M @ u + self.q, "free", None)

    def apply(self, base, hc, ev, comps=None):
        return base + hc * ev.k, False

    def assign(self, base, hc, u, comps=None):
        ev = self.f(u)
        return base + hc * ev.k, ev, False


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=9, max_size=9), st.floats(0.01, 0.5))
def test_assignment_form_equals_butcher_tableau(vals, h):
    """Without adjustments the rewriting of Appendix A is an identity."""
    M = np.array(vals[:4]).reshape(2, 2)
    q = np.array(vals[4:6])
    u = np.array(vals[6:8])
    fld = _PlainField(M, q)
    for name in ("euler", "midpoint", "heun", "rk4"):
        s = SCHEMES[name]
        new, _ = s.step(fld, 0.0, u, h, None)
        ref = s.butcher_step(lambda y: M @ y + q, u, h)
        assert np.allclose(new, ref, rtol=1e-13, atol=1e-13)


def test_tableau_without_assignment_form_is_refused():
    with pytest.raises(ValueError, match="assignment form"):
        ExplicitRK("ralston3", [[0, 0, 0], [F(1, 2), 0, 0], [F(1, 4), F(1, 2), 0]],
                   [F(2, 9), F(1, 3), F(4, 9)], [0, F(1, 2), F(3, 4)], 3)


def test_partition_from_the_model():
    for law in ("c-sds", "d-sds"):
        Q, V = partition(PLATES.model(law))
        assert list(Q) == [0] and list(V) == [1]  # xi' = v while sticking: xi is a position
    Q, V = partition(OSCILLATOR.model("damped"))
    assert list(Q) == [0] and list(V) == [1]
    from nsfric.symbolic.model import HybridModel, Region

    xi = PLATES.model("c-sds").states[0]
    lone = HybridModel("no-split", (xi,), (), {}, (Region("r", {}, {xi: -xi}),))
    with pytest.raises(ValueError, match="position/velocity split"):
        partition(lone)


# -- D-SDS with explicit Euler: Fig 1, eqs 18-20 ----------------------------------------------
def test_dsds_euler_first_step_is_eq18_and_stick_slip_alternates():
    r = simulate(PLATES, "d-sds", "euler", 0.1)
    p = r.params
    xi, v, F_S = r["xi"], r["v"], r["F_S"]
    assert r.t[0] == 0 and np.isclose(r.t[-1], 10.0) and len(r.t) == 101
    assert xi[0] == 0 and xi[1] == -7.0                  # eq 18: -(gamma v0 - F_max)/k
    assert np.isclose(v[1], 4 - 0.1 * p["F_max"] / p["m"])
    sliding = np.array([m != "stick" for m in r.modes])
    assert list(sliding[:6]) == [True, False, True, False, True, False]
    # every sliding step i (v_i > 0): xi_{i+1} by eq 18 and |F_S|(i+1) by eq 19
    for i in np.nonzero(sliding[:-1] & (v[:-1] > 0))[0]:
        assert np.isclose(xi[i + 1], -(p["gamma"] * v[i] - p["F_max"]) / p["k"], atol=1e-14)
        assert np.isclose(abs(F_S[i + 1]), p["F_max"] - p["gamma"] * (v[i] - v[i + 1]))
        assert abs(F_S[i + 1]) < p["F_max"]              # it sticks right after sliding
    assert np.all(r["F"][sliding] == -p["F_max"]) and np.all(r["F"][~sliding] > -p["F_max"])
    assert sliding.sum() >= 5 and (~sliding[:20]).sum() >= 5
    # eq 20: no sliding once v < gamma F_max/(m k)
    v_c = p["gamma"] * p["F_max"] / (p["m"] * p["k"])
    assert not np.any(sliding & (v < v_c))


def test_dsds_stick_slip_amplitude_scales_with_dt():
    amp = []
    for dt in (0.01, 0.001):
        r = simulate(PLATES, "d-sds", "euler", dt, t_end=1.0)
        amp.append(np.ptp(r["F"][1:]))  # F oscillates between -F_max and -F_max + gamma dt...
    assert 8 < amp[0] / amp[1] < 12


def test_midpoint_fig4_adjustment_is_lost():
    """Eqs 25-26: the half-step states are set by eq 3 from v^n; the full states never."""
    dt = 0.2
    r = simulate(PLATES, "d-sds", "midpoint", dt, stages=True)
    p = r.params
    st_t, st_y, labels, _ = r.stage_arrays()
    assert labels == [1] * r.n_steps and np.allclose(st_t, r.t[:-1] + dt / 2)
    forb = np.abs(r["F_S"][:-1]) > p["F_max"]
    # auxiliary states of forbidden u^n lie on the eq 3 line of v^n (linear lower envelope)
    xi_D = -(-p["F_max"] + p["gamma"] * r["v"][:-1]) / p["k"]
    assert np.allclose(st_y[0][forb], xi_D[forb])
    # the full states are integrated (xi' = v at the sticking half-step), never adjusted
    assert np.allclose(r["xi"][1:][forb], r["xi"][:-1][forb] + dt * st_y[1][forb])
    last = r.t[:-1][forb].max()
    assert 7.6 <= last <= 8.4  # "violated in the states u^n for up to t ~ 8"
    cols = r.columns(stages=True)
    assert list(cols)[:10] == ["t", "xi", "v", "F", "F_S", "E_kin", "E_el", "F_t_el", "E_t", "mode"]
    assert cols["stage"].sum() == r.n_steps and len(cols["t"]) == 2 * r.n_steps + 1


def test_rk4_stage_adjustments_follow_eq3():
    r = simulate(PLATES, "d-sds", "rk4", 0.1, t_end=0.1, stages=True)
    _, Y, labels, modes = r.stage_arrays()
    assert labels == [1, 2, 3, 4]
    assert Y[0, 0] == -7.0  # u1: adjusted from u^n = (0, 4): -(gamma 4 - F_max)/k
    fld = DiscreteField(r.model, r.params)
    u = np.array([0.0, 4.0])
    for j in range(3):  # u_{j+2} = u^n + a h f(u_{j+1}), xi from u_{j+1} when it slides
        mode = fld.mode(Y[:, j])
        if mode != "stick":
            assert np.isclose(Y[0, j + 1], -(-1 + 2 * Y[1, j]))
        else:
            assert np.isclose(Y[0, j + 1], u[0] + (0.05 if j != 1 else 0.1) * Y[1, j])


def test_implicit_dsds_slides_on_the_surface_without_oscillation():
    r = simulate(PLATES, "d-sds", "implicit-euler", 0.1)
    F_S, v = r["F_S"], r["v"]
    slide = (r.t > 0) & (r.t < 2.0 - 1e-9)
    assert np.allclose(F_S[slide], -1.0, atol=1e-12)  # on |F_S| = F_max at every step
    assert np.allclose(np.diff(v[:20]), -0.1)


def test_every_scheme_runs_on_every_law_and_counts_work():
    for law in PLATES.laws:
        for name in CORE_SCHEMES + EVENT_SCHEMES:
            r = simulate(PLATES, law, name, 0.05, t_end=5.0)
            assert r.termination == "reached t_end" and np.all(np.isfinite(r.y))
            assert r.n_rhs >= r.n_steps and r.seconds > 0
            assert set(r.modes) <= set(r.model.mode_names)


def test_event_variant_lands_on_the_stick_transition():
    ref = PLATES.reference_solution("c-sds", solver="analytic")
    t_star = ref.events[0].t
    r = simulate(PLATES, "c-sds", "rk4-event", 0.05)
    (ev,) = r.events
    assert ev["kind"] == "stick" and ev["from"] == "slip-" and ev["to"] == "stick"
    assert abs(ev["t"] - t_star) < 1e-8
    assert ev["t"] in r.t and len(r.t) == 202
    d = simulate(PLATES, "d-sds", "heun-event", 0.1)
    assert [e["kind"] for e in d.events] == ["slip", "stick"]
    assert d.events[0]["t"] == 0 and abs(d.events[1]["t"] - 2.0) < 1e-9
    assert d["xi"][1] == -7.0  # the projection at t = 0 is a row


def test_bad_input_and_divergence():
    with pytest.raises(ValueError, match="dt"):
        simulate(PLATES, "c-sds", "euler", 0.0)
    with pytest.raises(ValueError, match="unknown scheme"):
        simulate(PLATES, "c-sds", "rk5", 0.1)
    with pytest.raises(ValueError, match="'gamma'"):
        simulate(PLATES, "c-sds", "euler", 0.1, params={"gamma": -1})
    with pytest.raises(ValueError, match="no step fits"):
        simulate(PLATES, "c-sds", "euler", 20.0)
    r = simulate(OSCILLATOR, "undamped", "euler", 0.01, params={"k": 1e8})
    assert r.termination.startswith("diverged") and np.isnan(r.y[:, -1]).all()
    r = simulate(OSCILLATOR, "undamped", "rk4-event", 0.01, params={"k": 1e8})
    assert r.termination.startswith("diverged")
