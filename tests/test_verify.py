"""``nsfric verify`` and ``nsfric.verify`` (issue 25, item 1): another code's results
measured against nsfric's exact reference.

The "other code" is a user's scheme written here as a plain function: semi-implicit
Euler on the sliding plates (Führer et al. §3) with the D-SDS's reset (the spring set
back onto the Coulomb bound when the force exceeds it), run to t = 3 at four steps.
Its results go in as a callable, as a CSV file and through the command line."""
from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

import nsfric
from nsfric.cli import main
from nsfric.conventions import CONVENTIONS, Convention
from nsfric.io import csv_text
from nsfric.study.verify import CONVERGES, DIVERGES, ELSEWHERE
from nsfric.study.verify_limit import extrapolate

CASE = "sliding-plates"
DTS = [0.04, 0.02, 0.01, 0.005]
T_END = 3.0


def plates(reset=1.0):
    """The user's code: semi-implicit Euler + D-SDS; ``reset`` scales the spring's reset
    (1: correct; 0.9: the deliberate bug)."""
    def runner(dt, p):
        k, gamma, f_max, m = p["k"], p["gamma"], p["F_max"], p["m"]
        xi, v = p["xi0"], p["v0"]
        e0 = 0.5 * m * v * v
        for _ in range(round(p["t_end"] / dt)):
            f = -(k * xi + gamma * v)
            if abs(f) > f_max:
                f = math.copysign(f_max, f)
                xi = reset * (-f - gamma * v) / k
            v += dt * f / m
            xi += dt * v
        return {"xi_end": xi, "v_end": v, "E_kin_before": e0, "E_kin_after": 0.5 * m * v * v}
    return runner


def table(runner, params=None):
    """The CSV columns of ``runner`` at :data:`DTS` (what the user's code would write)."""
    p = {**nsfric.get_case(CASE).bind("d-sds", params or {}), "t_end": T_END}
    rows = [runner(dt, dict(p)) for dt in DTS]
    return {"dt": np.array(DTS), **{k: np.array([r[k] for r in rows]) for k in ("xi_end", "v_end")}}


@pytest.fixture(scope="module")
def correct():
    return nsfric.verify(CASE, "d-sds", runner=plates(), dts=DTS, t_end=T_END, observables=["xi_end", "v_end"])


def test_a_correct_dsds_code_converges_to_dsds_at_first_order(correct):
    assert [p.observable for p in correct.points] == ["xi_end", "v_end"]
    for p in correct.points:
        d = p.laws["d-sds"]
        assert p.status == CONVERGES.format(law="d-sds") == "converges to d-sds", p.verdict()
        assert p.converges_to == "d-sds"
        assert d["order"].ok and abs(d["order"].order - 1) < 0.03, d["order"]
        assert abs(d["offset"]) <= d["offset_uncertainty"] < 1e-4
        assert np.allclose(d["errors"], np.array(p.values) - d["exact"])
        assert 0 < d["exact_uncertainty"] < 1e-9  # the reference's own verified error
    assert "converges to d-sds" in correct.summary().splitlines()[0]


def test_a_reset_bug_converges_to_something_else():
    res = nsfric.verify(CASE, "d-sds", runner=plates(reset=0.9), dts=DTS, t_end=T_END,
                        observables=["xi_end", "v_end"])
    for p in res.points:
        d = p.laws["d-sds"]
        assert p.status == ELSEWHERE, p.verdict()
        assert p.converges_to is None
        assert abs(d["offset"]) > 1e3 * d["offset_uncertainty"] and abs(d["offset"]) > 0.05
        assert not d["order"].ok and "does not decrease" in d["order"].reason  # the error stalls
    xi = res.points[0]
    assert xi.limit.order.ok and abs(xi.limit.order.order - 1) < 0.03  # it converges, to a wrong value


def test_with_two_laws_it_tells_which_one_the_code_converges_to(correct):
    res = nsfric.verify(CASE, ["c-sds", "d-sds"], runner=plates(), dts=DTS, t_end=T_END,
                        observables=["xi_end", "v_end"])
    auto = nsfric.verify(CASE, "auto", runner=plates(), dts=DTS, t_end=T_END, observables=["xi_end"])
    assert auto.laws == ["c-sds", "d-sds"]
    for p in res.points + auto.points:
        assert p.converges_to == "d-sds" and p.status == "converges to d-sds", p.verdict()
        assert p.laws["c-sds"]["status"] == ELSEWHERE and abs(p.laws["c-sds"]["offset"]) > 0.05
    assert res.to_dict()["points"][0]["laws"]["d-sds"]["offset"] == correct.points[0].laws["d-sds"]["offset"]


def test_the_csv_route_gives_the_callable_routes_result(correct, tmp_path):
    path = tmp_path / "code.csv"
    path.write_text(csv_text(table(plates())))
    res = nsfric.verify(CASE, "d-sds", input=str(path), t_end=T_END)
    a, b = res.to_dict(), correct.to_dict()
    assert a["points"] == b["points"] and a["input"] == str(path)


def test_parameter_points_a_convention_and_the_files(tmp_path):
    conv = Convention("test-plates-fast", CASE, {"v0": 5.0}, ("d-sds",), "a test", "v0 = 5")
    pts = [{"gamma": 2.0}, {"gamma": 3.0}]
    res = nsfric.verify(CASE, runner=plates(), dts=DTS, points=pts, convention=conv, t_end=T_END,
                        observables=["v_end"], out=str(tmp_path / "v"))
    assert [p.params for p in res.points] == pts
    assert all(p.status == "converges to d-sds" for p in res.points), res.summary()
    data = json.loads((tmp_path / "v" / "verify.json").read_text())
    assert data["convention"] == "test-plates-fast" and data["params"] == {"v0": 5.0}
    assert [p["gamma"] for p in data["points"]] == [2.0, 3.0]  # the point's parameters as top-level keys
    ref = nsfric.get_case(CASE).reference_solution("d-sds", params={"v0": 5.0, "gamma": 3.0}, t_end=T_END, samples=2)
    assert abs(data["points"][1]["exact"] - ref["v"][-1]) < 1e-9  # the convention's v0 reached the reference
    assert (tmp_path / "v" / "verify.png").stat().st_size > 0
    df = res.to_dataframe()
    assert len(df) == 2 * len(DTS) and set(df["gamma"]) == {2.0, 3.0}
    cols = {"gamma": [], "dt": [], "v_end": []}  # the same runs as a CSV with a parameter column
    for point in pts:
        for dt in DTS:
            full = {**nsfric.get_case(CASE).bind("d-sds", {"v0": 5.0, **point}), "t_end": T_END}
            cols["gamma"].append(point["gamma"]), cols["dt"].append(dt)
            cols["v_end"].append(plates()(dt, full)["v_end"])
    path = tmp_path / "code.csv"
    path.write_text(csv_text({k: np.array(v) for k, v in cols.items()}))
    again = nsfric.verify(CASE, input=str(path), convention=conv, t_end=T_END)
    assert again.to_dict()["points"] == res.to_dict()["points"]
    with pytest.raises(ValueError, match="contradicts convention"):
        nsfric.verify(CASE, runner=plates(), dts=DTS, convention=conv, params={"v0": 4.0})


def test_an_energy_gain_is_flagged(tmp_path):
    cols = {**table(plates()), "E_kin_before": np.full(4, 8.0), "E_kin_after": np.array([1.0, 1.0, 9.0, 1.0])}
    res = nsfric.verify(CASE, "d-sds", input=cols, t_end=T_END)
    assert all(p.energy_gain == [0.01] for p in res.points)
    assert "ENERGY GAIN" in res.summary()
    runner = nsfric.verify(CASE, "d-sds", runner=plates(), dts=DTS, t_end=T_END)  # energies returned, none gained
    assert [p.observable for p in runner.points] == ["xi_end", "v_end"] and not runner.points[0].energy_gain


def test_scattered_first_order_errors_still_converge(correct):
    """The grid phase of a switch makes a nonsmooth problem's errors erratic: the finest
    local slopes disagree, the fit over the whole ladder gives the order."""
    exact = correct.points[0].laws["d-sds"]["exact"]
    h = np.array([0.04, 0.02, 0.01, 0.005, 0.0025, 0.00125])
    scatter = np.array([1.0, 1.3, 0.8, 1.25, 0.75, 1.2])
    cols = {"dt": h, "xi_end": exact + 0.4 * h * scatter}
    p = nsfric.verify(CASE, "d-sds", input=cols, t_end=T_END).points[0]
    d = p.laws["d-sds"]
    assert p.status == "converges to d-sds", p.verdict()
    assert not d["order"].automatic and abs(d["order"].order - 1) < 0.2
    assert abs(d["offset"]) <= d["offset_uncertainty"] < 0.4 * h[0] / 2  # the scatter widens it


def test_values_that_do_not_converge():
    cols = {**table(plates()), "v_end": np.array([1.2, 0.9, 1.3, 0.8])}
    res = nsfric.verify(CASE, "d-sds", input=cols, t_end=T_END, observables=["v_end"])
    assert res.points[0].status == DIVERGES and "no order" in res.points[0].limit.reason()


def test_an_error_that_falls_while_changing_sign_converges_without_an_order(correct):
    """A nonsmooth problem's error can change sign with the grid phase as it shrinks (the
    Kratos Hertz law on t_n/100 ... t_n/800: 3.5e-5 ... 1.5e-6): no order fits, but the
    code converges -- to the law when its finest value is within the tail of its
    differences, elsewhere when it is not; values whose differences do not fall stay
    "does not converge" (:func:`test_values_that_do_not_converge`)."""
    exact = correct.points[0].laws["d-sds"]["exact"]
    h = np.array([0.04, 0.02, 0.01, 0.005])
    errors = np.array([3.5e-5, -4e-6, 9e-6, -1.5e-6])
    p = nsfric.verify(CASE, "d-sds", input={"dt": h, "xi_end": exact + errors}, t_end=T_END).points[0]
    d = p.laws["d-sds"]
    assert p.status == "converges to d-sds", p.verdict()
    assert not d["order"].ok and not p.limit.order.ok and p.limit.shrinking
    assert p.limit.value == exact + errors[-1]  # the finest value
    assert 1.3e-5 < p.limit.uncertainty < 2e-5  # the tail of the finest differences, 1.05e-5 and 1.3e-5
    assert "no order" in p.verdict() and "fall with the step" in p.verdict()
    off = nsfric.verify(CASE, "d-sds", input={"dt": h, "xi_end": exact + 1e-3 + errors}, t_end=T_END).points[0]
    assert off.status == ELSEWHERE and off.limit.shrinking, off.verdict()


def test_the_limit_of_closed_form_sequences():
    h = np.array([0.04, 0.02, 0.01, 0.005])
    for y, limit in ((1.0 + 0.43 * h + 2.3 * h ** 2, 1.0), (-2.0 + 0.5 * h ** 2 - 3 * h ** 3, -2.0)):
        lim = extrapolate(h, y)
        assert lim.converges and abs(lim.value - limit) <= lim.uncertainty < 1e-3
    three = extrapolate(h[:3], 1.0 + 0.43 * h[:3])  # three steps: nothing checks the model C h^p
    assert abs(three.value - 1.0) < 1e-12 and three.uncertainty >= 0.43 * h[2] and math.isnan(three.order.stderr)
    const = extrapolate(h, np.full(4, 0.25))
    assert const.constant and const.value == 0.25


def test_the_command_line_writes_verify_json(tmp_path, capsys):
    path = tmp_path / "code.csv"
    path.write_text(csv_text(table(plates())))
    out = tmp_path / "v"
    rc = main(["verify", CASE, "--law", "d-sds", "--law", "c-sds", "--input", str(path), "--t-end", str(T_END),
               "--out", str(out)])
    text = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert text[0].startswith("xi_end: converges to d-sds") and text[1].startswith("v_end: converges to d-sds")
    data = json.loads((out / "verify.json").read_text())
    assert [p["converges_to"] for p in data["points"]] == ["d-sds", "d-sds"]
    assert sorted(os.listdir(out)) == [".nsfric-manifest.json", "verify.csv", "verify.json", "verify.png"]


def test_the_command_line_takes_a_registered_convention(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(CONVENTIONS, "test-plates", Convention("test-plates", CASE, {}, ("d-sds",)))
    path = tmp_path / "code.csv"
    path.write_text(csv_text(table(plates(reset=0.9))))
    assert main(["verify", CASE, "--convention", "test-plates", "--input", str(path), "--t-end", str(T_END),
                 "--observable", "v_end", "--out", str(tmp_path / "v")]) == 0
    assert capsys.readouterr().out.startswith("v_end: converges to something else")


def _bad_csvs(tmp_path):
    good = table(plates())
    yield "no-dt", {k: v for k, v in good.items() if k != "dt"}, [], "no 'dt' column"
    yield "unknown-observable", {**good, "psi_q": good["v_end"]}, [], "unknown observable(s) ['psi_q']"
    yield "unknown-law", good, ["--law", "no-such-law"], "unknown law 'no-such-law'"
    yield "two-dts", {k: v[:2] for k, v in good.items()}, [], "2 distinct dt"
    yield "nan", {**good, "v_end": np.array([1.0, np.nan, 1.0, 1.0])}, [], "non-finite value"
    yield "inf-dt", {**good, "dt": np.array([0.04, np.inf, 0.01, 0.005])}, [], "non-finite value"


@pytest.mark.parametrize("name", ["no-dt", "unknown-observable", "unknown-law", "two-dts", "nan", "inf-dt"])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, name):
    _, cols, extra, expected = next(c for c in _bad_csvs(tmp_path) if c[0] == name)
    path = tmp_path / "code.csv"
    path.write_text(csv_text(cols))
    out = tmp_path / "v"
    rc = main(["verify", CASE, *(extra or ["--law", "d-sds"]), "--input", str(path), "--t-end", str(T_END),
               "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and expected in err, err
    assert err.startswith("nsfric: error: ")
    assert not out.exists()  # nothing written


def test_bad_api_input_names_the_parameter():
    with pytest.raises(ValueError, match="at least 3 are needed"):
        nsfric.verify(CASE, "d-sds", runner=plates(), dts=[0.1, 0.05, 0.1])
    with pytest.raises(ValueError, match="must return a dict"):
        nsfric.verify(CASE, "d-sds", runner=lambda dt, p: 1.0, dts=DTS)
    with pytest.raises(ValueError, match="input= .* or runner="):
        nsfric.verify(CASE, "d-sds")
    with pytest.raises(ValueError, match="unknown parameter"):
        nsfric.verify(CASE, "d-sds", runner=plates(), dts=DTS, params={"nope": 1.0})


def test_a_file_nsfric_did_not_write_is_never_replaced(tmp_path, capsys):
    path = tmp_path / "code.csv"
    path.write_text(csv_text(table(plates())))
    out = tmp_path / "v"
    out.mkdir()
    (out / "verify.json").write_text("mine")
    argv = ["verify", CASE, "--law", "d-sds", "--input", str(path), "--t-end", str(T_END), "--out", str(out)]
    assert main(argv) == 2 and "nsfric: error: --out" in capsys.readouterr().err
    assert main(argv + ["--beside-existing"]) == 2 and "did not write it" in capsys.readouterr().err
    assert os.listdir(out) == ["verify.json"] and (out / "verify.json").read_text() == "mine"
    with pytest.raises(ValueError, match="out"):
        nsfric.verify(CASE, "d-sds", input=str(path), t_end=T_END, out=str(out))
    assert os.listdir(out) == ["verify.json"]
