"""The delta approximation of Krengel & Matuttis is a per-step adjustment any explicit
scheme applies (issue 8, item 5): ``delta-NAME`` is exactly the registered ``NAME``
plus the adjustment; one name means one method."""
import numpy as np
import pytest

import nsfric
from nsfric.schemes import SCHEMES, get_scheme, simulate
from nsfric.schemes.delta import DeltaScheme
from nsfric.schemes.field import DiscreteField
from nsfric.schemes.rk import RK4

OSC = nsfric.get_case("dry-oscillator")
#: v0 = 5: the block slides and reverses once in [0, 0.5] but never sticks -- the delta
#: adjustment (eq 9 while stuck) stays inactive
FREE = OSC.problem("coulomb", {"v0": 5.0}, t_end=0.5)


def plain(scheme, prob, dt):
    """``scheme`` on the law's own rates, rate-only field (tableau form), no adjustment."""
    fld = DiscreteField(prob.model, prob.params)
    fld.stagewise = False
    n = int(round(prob.t_span[1] / dt))
    return get_scheme(scheme).integrate(fld, 0.0, np.asarray(prob.y0, dtype=float), dt, n)[1]


@pytest.mark.parametrize("base", ["heun", "bdf2-pc", "bdf5-pc"])
def test_delta_scheme_is_its_base_scheme_where_the_adjustment_is_inactive(base):
    res = simulate(FREE, scheme=f"delta-{base}", dt=0.01)
    assert [e.kind for e in res.events] == ["reversal"] and "stick" not in res.modes
    assert np.array_equal(res.y, plain(base, FREE, 0.01))  # bit for bit
    # the plain scheme's assignment form (Führer et al. Appendix A) is the same method:
    # it differs by rounding only
    assert np.allclose(simulate(FREE, scheme=base, dt=0.01).y, res.y, rtol=0, atol=1e-12)


def test_every_delta_name_is_delta_plus_a_registered_scheme():
    deltas = [s for s in SCHEMES.values() if isinstance(s, DeltaScheme)]
    assert len(deltas) == 6
    for s in deltas:
        base = s.name[len("delta-"):].removesuffix("-proj")
        assert s.base is SCHEMES[base] and s.projection == s.name.endswith("-proj")
        assert s.order == SCHEMES[base].order
    # bdf2 (Newton on the corrector) and bdf2-pc (one correction) are different methods
    assert SCHEMES["bdf2"].implicit and not SCHEMES["bdf2-pc"].implicit
    a = simulate(OSC.problem("coulomb"), scheme="bdf2", dt=0.05)
    b = simulate(OSC.problem("coulomb"), scheme="bdf2-pc", dt=0.05)
    assert np.max(np.abs(a.y - b.y)) > 1e-4


def test_the_adjustment_works_on_any_explicit_scheme():
    """RK4 plus the adjustment (not registered): sticks like the exact solution."""
    prob = OSC.problem("coulomb")
    exact = nsfric.get_solver("analytic").solve(prob, t_eval=np.linspace(0, 10, 5))
    res = simulate(prob, scheme=DeltaScheme(RK4), dt=0.005)
    assert [e.kind for e in res.events] == [e.kind for e in exact.events] == ["reversal", "reversal", "stick"]
    assert res.modes[-1] == "stick" and abs(res.events[-1].t - exact.events[-1].t) < 0.05
    # while stuck the convex combination (eq 9 with the lam of eqs 12, 15-17) cancels the
    # acceleration (eq 14): the residual velocity stays constant
    v = res["v"][res.t >= res.events[-1].t + 0.01]
    assert len(v) > 100 and np.ptp(v) < 1e-12
    with pytest.raises(ValueError, match="explicit"):
        DeltaScheme(SCHEMES["implicit-euler"])


def test_tableau_form_is_the_textbook_formula():
    """Rate-only adjustments step Runge-Kutta schemes as ``u + h/2 (k1 + k2)`` (Heun) and
    ``u + h/6 (k1 + 2 k2 + 2 k3 + k4)`` (RK4), exactly (the delta family's arithmetic)."""
    from nsfric.schemes.field import Eval
    from nsfric.schemes.rk import HEUN

    A = np.array([[0.3, 1.7], [-2.9, -0.31]])

    class Linear:
        stagewise = False

        def f(self, u):
            return Eval(A @ u, None, None)

    rng = np.random.default_rng(8)
    for _ in range(50):
        u, h = rng.normal(size=2), rng.uniform(1e-3, 0.3)
        k1 = A @ u
        k2 = A @ (u + h * k1)
        assert np.array_equal(HEUN.step(Linear(), 0.0, u, h, None)[0], u + h / 2 * (k1 + k2))
        k2 = A @ (u + h / 2 * k1)
        k3 = A @ (u + h / 2 * k2)
        k4 = A @ (u + h * k3)
        assert np.array_equal(RK4.step(Linear(), 0.0, u, h, None)[0], u + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))


@pytest.mark.parametrize("scheme", ["bdf2-pc", "bdf5-pc"])
def test_predictor_corrector_bdf_has_its_order_on_a_smooth_problem(scheme):
    from smooth_cases import OSCILLATOR

    prob = OSCILLATOR.problem("damped")
    ref = nsfric.get_solver("analytic").solve(prob, t_eval=np.linspace(0, 5, 3))
    errs = [np.max(np.abs(simulate(prob, scheme=scheme, dt=dt).y[:, -1] - ref(5.0))) for dt in (0.02, 0.01)]
    assert np.log2(errs[0] / errs[1]) == pytest.approx(SCHEMES[scheme].order, abs=0.3)


def test_cli_takes_the_papers_label_and_writes_the_method_it_ran(tmp_path):
    import json

    from nsfric.cli import main

    out = tmp_path / "sim.csv"
    assert main(["simulate", "dry-oscillator", "--scheme", "delta-bdf2", "--dt", "0.01",
                 "--t-end", "1", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["scheme"] == "delta-bdf2-pc" and meta["order"] == 2
    assert np.array_equal(np.loadtxt(out, delimiter=",", skiprows=1, usecols=(1, 2)).T,
                          simulate(OSC.problem("coulomb", t_end=1.0), scheme="delta-bdf2", dt=0.01).y)
