"""C-SDS in the tangential plane with a turning velocity: independent solvers agree and
the energy balance (Führer et al. eq 11) holds along the whole trajectory."""
import numpy as np
from scipy.integrate import quad

import nsfric
from nsfric.solvers.crosscheck import disagreement
from nsfric.symbolic.derive import derive, param_vector

CASE = nsfric.get_case("sliding-plates-2d")


def test_filippov_ida_radau_agree_and_stick():
    sols = {s: CASE.reference_solution(solver=s) for s in ("filippov", "ida", "radau5dae")}
    for other in ("ida", "radau5dae"):
        d = disagreement(sols["filippov"], sols[other])
        assert d["events_match"] and d["max_abs"] < 1e-8 and d["event_dt"] < 1e-9, d
    sol = sols["filippov"]
    assert [e.kind for e in sol.events] == ["stick"]
    # the velocity turned: v_2 grew while sliding; at the end the static force balances f_ext
    assert np.max(sol["v_2"]) > 0.7
    assert abs(sol["F_2"][-1] + sol.params["f_ext"]) < 0.02


def test_energy_balance_eq11_along_trajectory():
    """E(t) - E(0) = int f_ext v_2 dt - int (gamma |xi'|^2 - F . s) dt, s = v - xi'."""
    sol = CASE.reference_solution(solver="filippov")
    model, d = sol.model, derive(sol.model)
    p = param_vector(model, sol.params)
    gamma, f_ext = sol.params["gamma"], sol.params["f_ext"]

    def power(t, seg):
        y = seg(t)
        rate = d.rhs(seg.mode)(y, p)
        names, fo = d.outputs(seg.mode)
        out = dict(zip(names, fo(y, p)))
        xi_dot, v = rate[:2], y[2:]
        F = np.array([out["F_1"], out["F_2"]])
        s = v - xi_dot
        return f_ext * v[1] - (gamma * xi_dot @ xi_dot - F @ s)

    work = sum(quad(power, seg.t0, seg.t1, args=(seg,), epsabs=1e-13, epsrel=1e-13, limit=200)[0]
               for seg in sol.segments if seg.t1 > seg.t0)
    E = sol["E_kin"] + sol["E_el"]
    assert abs(E[-1] - E[0] - work) < 1e-9, E[-1] - E[0] - work


def test_run_checks_the_papers_statements_in_the_plane(tmp_path):
    """``run`` writes balance.csv/json/png; every declared verdict (§2.2.1, eqs 8-9, the
    single smooth stick; eq 11 is an identity, a check) matches, and the budget equals the quadrature above."""
    import json

    written = CASE.run(str(tmp_path))["written"]
    assert {"balance.csv", "balance.json", "balance.png"} <= {p.split("/")[-1] for p in written}
    s = json.loads((tmp_path / "balance.json").read_text())["summary"]
    assert s["eq11_max_abs_residual"] < 1e-13 and s["energy_budget_max_abs"] < 1e-10
    assert s["min_dissipation_rate"] >= 0 and s["eq8_9_max_slip_residual"] < 1e-13
    assert s["events"] == ["stick"] and s["ida_events_match"] and s["ida_max_abs_difference"] < 1e-8
    assert 60 < s["slip_direction_turn_deg"] < 90  # f_ext turns the slip, not all the way to 90 deg
    vs = CASE.verdicts(str(tmp_path))
    assert len(vs) == 3 and all(v["status"] == "match" for v in vs), vs
