"""Normal impacts of Schäfer, Dippel & Wolf (1996) §2: the laws of eqs 2-10 as case laws,
their observables e_n, t_n, xi_max (Solution.summary and the sidecars) against the
paper's closed forms, two reference solvers, and Fig 2's data."""
import json
import math

import mpmath
import numpy as np
import pytest

import nsfric
from nsfric.papers.schafer1996.normal_impact import closed_form
from nsfric.papers.schafer1996.normal_impact_figures import fig2_data
from nsfric.cli import main
from nsfric.symbolic import impact_laws as IL

from conftest import EXACT

CASE = nsfric.get_case("normal-impact")
_CACHE = {}


def summary(law, v_i=1.0, solver="filippov"):
    key = (law, v_i, solver)
    if key not in _CACHE:
        sol = CASE.reference_solution(law, solver=solver, params={"v_i": v_i}, samples=3, **EXACT[solver])
        _CACHE[key] = sol.summary
    return _CACHE[key]


@pytest.mark.parametrize("v_i", [0.01, 1.0, 100.0])
def test_linear_dashpot_eqs_3_4(v_i):
    values = {**CASE.bind("linear-dashpot"), "v_i": v_i}
    s = summary("linear-dashpot", v_i)
    assert abs(s["e_n"] - closed_form("linear-dashpot e_n", values)) < 1e-10
    t_n = closed_form("linear-dashpot t_n", values)
    assert abs(s["t_n"] - t_n) < 1e-10 * t_n
    # eq 5: xi_max < v_i t_n/pi (equality only if elastic)
    assert 0.9 * v_i * t_n / math.pi < s["xi_max"] < v_i * t_n / math.pi
    # the paper's numbers
    assert abs(s["e_n"] - 0.87) < 1e-3 and abs(t_n - 1e-5) < 1e-8


@pytest.mark.parametrize("v_i", [0.01, 0.3, 3.0, 100.0])
def test_walton_braun_closed_form(v_i):
    values = {**CASE.bind("walton-braun"), "v_i": v_i}
    want = closed_form("walton-braun e_n", values)
    for law in ("walton-braun", "walton-braun-force-end"):
        assert abs(summary(law, v_i)["e_n"] - want) < 1e-9
    # the loading is the linear spring k_1: xi_max = v_i (m_eff/k_1)^(1/2)
    xm = v_i * math.sqrt(values["m_eff"] / values["k_1"])
    assert abs(summary("walton-braun", v_i)["xi_max"] - xm) < 1e-9 * xm
    # overlap end: free flight from the plastic overlap xi_0 = xi_max (1 - k_1/k_2) at e_n v_i
    xi0 = xm * (1 - want ** 2)
    dt = summary("walton-braun", v_i)["t_n"] - summary("walton-braun-force-end", v_i)["t_n"]
    assert abs(dt - xi0 / (want * v_i)) < 1e-9 * dt


def test_hertz_collision_time_eq_7():
    # the exact constant, independently by quadrature: t_n = 2 (xi_m/v) int_0^1 du/sqrt(1 - u^(5/2))
    with mpmath.workdps(30):
        C = 2 * mpmath.mpf(1.25) ** mpmath.mpf(0.4) * mpmath.quad(lambda u: (1 - u ** 2.5) ** -0.5, [0, 1])
    assert abs(float(IL.hertz_constant()) - float(C)) < 1e-12 and round(float(C), 4) == 3.2181
    s = summary("hertz", 100.0)
    assert round(s["t_n"], 7) == 1.88e-5                  # the paper: 1.88e-5 s at 100 m/s
    for v_i in (0.01, 1.0, 100.0):
        want = closed_form("hertz t_n", {**CASE.bind("hertz"), "v_i": v_i})
        assert abs(summary("hertz", v_i)["t_n"] - want) < 1e-9 * want
        # elastic: e_n = 1; xi_max = (5 m_eff v^2/(4 k_n_tilde))^(2/5); force end = overlap end
        assert abs(summary("hertz", v_i)["e_n"] - 1) < 1e-10
        xm = (5 * 7.4e-5 * v_i ** 2 / (4 * 9.0e7)) ** 0.4
        assert abs(summary("hertz", v_i)["xi_max"] - xm) < 1e-9 * xm
        assert summary("hertz-force-end", v_i) == summary("hertz", v_i)


@pytest.mark.parametrize("law", nsfric.get_case("normal-impact").laws)
def test_two_solvers_agree(law):
    a, b = summary(law, 1.0, "filippov"), summary(law, 1.0, "ida")
    assert set(a) == {"e_n", "t_n", "xi_max"} == set(b)
    for q in a:
        assert abs(a[q] - b[q]) < 1e-9 * abs(a[q]), (q, a[q], b[q])


@pytest.mark.parametrize("law", ["linear-dashpot", "hertz-damped", "kuwabara-kono"])
def test_force_end_earlier(law):
    """Ending at zero repulsive force is earlier and less dissipative than at zero overlap;
    the largest overlap is the same (the laws agree until the force vanishes)."""
    o, f = summary(law), summary(f"{law}-force-end")
    assert f["t_n"] < o["t_n"] and f["e_n"] > o["e_n"]
    assert abs(f["xi_max"] - o["xi_max"]) < 1e-12 * o["xi_max"]


def test_viscoelastic_trends():
    """Fig 2's shapes: Kuwabara-Kono 1 - e_n ~ v^(1/5) at small v (the paper, after eq 9);
    Hertz with linear damping e_n rising with v, ~0.87 at 0.3-1.2 m/s."""
    v = (1e-3, 1e-2)
    slope = math.log((1 - summary("kuwabara-kono", v[1])["e_n"]) / (1 - summary("kuwabara-kono", v[0])["e_n"])) / math.log(10)
    assert abs(slope - 0.2) < 0.01
    e = [summary("hertz-damped", x)["e_n"] for x in (0.3, 1.2)]
    assert e[0] < e[1] and all(abs(x - 0.87) < 0.03 for x in e)


def test_fig2_data():
    cols = fig2_data(CASE, speeds=[0.05, 5.0])
    assert np.all(np.abs(cols["e_n linear-dashpot"] - cols["e_n linear-dashpot eq 3"]) < 1e-10)
    assert np.all(np.abs(cols["e_n walton-braun"] - cols["e_n walton-braun closed form"]) < 1e-9)
    assert np.all(np.abs(cols["t_n hertz"] / cols["t_n hertz eq 7 exact"] - 1) < 1e-9)
    assert np.all(np.diff(cols["e_n kuwabara-kono"]) < 0) and np.all(np.diff(cols["e_n hertz-damped"]) > 0)


def test_sidecar_summary(tmp_path):
    out = tmp_path / "wb.csv"
    assert main(["reference", "normal-impact", "--law", "walton-braun", "--param", "v_i=3",
                 "--out", str(out), "--no-cross-check"]) == 0
    side = json.loads(out.with_suffix(".json").read_text())
    sol = CASE.reference_solution("walton-braun", params={"v_i": 3.0}, samples=5)
    assert set(side["summary"]) == {"e_n", "t_n", "xi_max"}
    for q, x in sol.summary.items():
        assert abs(side["summary"][q] - x) <= 1e-12 * abs(x)


def test_short_t_end_has_no_restitution():
    sol = CASE.reference_solution("linear-dashpot", t_end=5e-6, samples=3)
    assert sol.summary == {}
    with pytest.raises(ValueError, match="did not end"):
        CASE.restitution(sol)
