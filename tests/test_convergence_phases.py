"""The convergence engine on nonsmooth problems (issue 28, item 5): errors averaged (and
their maximum kept) over grid phases of the switching events, a ladder that reaches the
asymptotic range by itself within a budget, and "no order" only with the reason the
data give.

The C-SDS plates stick at t* = 3.93: the error of Heun and the midpoint rule depends on
where t* falls in the step, so the errors of one grid (phase 0) give local slopes
1.7, 2.3, 1.7, ... and no order; averaged over the phases they fall at order 2."""
import csv
import math

import numpy as np
import pytest

import nsfric
from nsfric.cli import main
from nsfric.errors import BudgetError

PLATES = nsfric.get_case("sliding-plates")


def _orders(path):
    return {r["scheme"]: r for r in csv.DictReader(open(path / "orders.csv"))}


def test_cli_csds_plates_heun_and_midpoint_give_order_two_with_the_default_ladder(tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["converge", "sliding-plates", "--law", "c-sds", "--var", "v", "--scheme", "heun",
                 "--scheme", "midpoint", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    orders = _orders(out)
    for scheme in ("heun", "midpoint"):
        o = orders[scheme]
        assert o["reason"] == "" and abs(float(o["order"]) - 2) < 0.15, o
        assert float(o["order_stderr"]) < 0.05, o
        line = next(ln for ln in text.splitlines() if ln.startswith(f"c-sds {scheme} "))
        assert "no order" not in line.split("  ")[1] and f"{float(o['order']):.2f}" in line, line
    rows = list(csv.DictReader(open(out / "convergence.csv")))
    assert {r["n_phases"] for r in rows} == {"8"}  # the reference has a switching event
    for r in rows:  # the maximum over the phases is kept beside the mean
        assert float(r["error_max"]) >= float(r["error"]) > 0


def test_phase_mean_and_max_and_phase_zero_is_the_plain_run():
    """phases=1 is the plain run from t = 0 (the old errors); the phase mean lies between
    the smallest and the largest phase error; the max over phases has its own fit."""
    dts = [0.2, 0.1]
    one = nsfric.converge(PLATES, "c-sds", ["heun"], dts=dts, variables=["v"], phases=1)
    many = nsfric.converge(PLATES, "c-sds", ["heun"], dts=dts, variables=["v"], phases=4)
    for r1, r4 in zip(one.rows, many.rows):
        assert r1["n_phases"] == 1 and r4["n_phases"] == 4
        assert r1["error_max"] == r1["error"]
        # the phases put the stick at different places in the step: their errors differ
        assert r4["error_max"] > r4["error"] and r4["error_max"] >= r1["error"] and r4["error"] != r1["error"]
        assert r4["n_rhs"] == r1["n_rhs"]  # the work is that of one run over the window
    assert {o["scheme"]: "order_max" in o for o in many.orders()} == {"heun": True}


def test_dry_oscillator_gives_order_one_or_an_honest_reason():
    """Coulomb friction with stick (Krengel & Matuttis §3): the plain schemes lose their
    order at the reversals and the stick; the asymptotic order is 1."""
    res = nsfric.converge("dry-oscillator", schemes=["heun", "euler"], variables=["x"])
    assert {r["n_phases"] for r in res.rows} == {8}
    for o in res.orders():
        if o["reason"]:
            assert o["reason"].startswith("no order: ") and len(o["reason"]) > 20
        else:
            assert abs(o["order"] - 1) < 0.1, o
    assert any(not o["reason"] for o in res.orders())


def test_smooth_control_gives_the_classical_orders():
    """No switch in the window (t_end = 3.5 < t* = 3.93): one phase suffices, and RK4,
    whose fine steps reach the round-off floor, gets its order 4 from coarser steps that
    the ladder adds by itself."""
    res = nsfric.converge(PLATES, "c-sds", ["heun", "rk4"], t_end=3.5)
    assert {r["n_phases"] for r in res.rows} == {1}
    orders = {o["scheme"]: o for o in res.orders()}
    assert abs(orders["heun"]["order"] - 2) < 0.15, orders["heun"]
    assert abs(orders["rk4"]["order"] - 4) < 0.15, orders["rk4"]
    assert max(r["dt"] for r in res.select(scheme="rk4")) > 3.5 / 50  # coarser steps added


def test_no_order_says_why_when_the_budget_ends_the_ladder():
    """One phase: the local slopes of Heun on the C-SDS keep oscillating however far the
    ladder goes; with a small step budget the study stops and says so."""
    res = nsfric.converge(PLATES, "c-sds", ["heun"], variables=["v"], phases=1, max_steps=12800)
    (o,) = res.orders()
    assert math.isnan(o["order"]), o
    assert "scatter" in o["reason"] and "budget" in o["reason"], o["reason"]
    assert max(r["n_steps"] for r in res.rows) <= 12800
    assert min(r["dt"] for r in res.rows) < 10.0 / 3200  # it did extend the ladder
    # without a step budget: three steps added, then the scatter is the data's own
    (o,) = nsfric.converge(PLATES, "c-sds", ["heun"], variables=["v"], phases=1).orders()
    assert math.isnan(o["order"]) and "scatter" in o["reason"] and "3 steps added" in o["reason"], o


def test_round_off_floor_is_named():
    """Errors all at the round-off floor: "no order" says so (no extension helps)."""
    res = nsfric.converge(PLATES, "c-sds", ["rk4"], t_end=0.3, variables=["v"], dts=[0.01, 0.005, 0.0025, 0.00125])
    (o,) = res.orders()
    assert math.isnan(o["order"]) and "round-off" in o["reason"], o


@pytest.mark.parametrize("argv,needle", [
    (["--phases", "0"], "--phases must be >= 1, got 0"),
    (["--ladder-seconds", "-1"], "--ladder-seconds must be > 0"),
])
def test_cli_bad_phase_and_budget_options(tmp_path, capsys, argv, needle):
    target = tmp_path / "out"
    assert main(["converge", "sliding-plates", "--scheme", "heun", *argv, "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nsfric: error:") and err.count("\n") == 1 and needle in err
    assert not target.exists()


def test_api_bad_phases():
    with pytest.raises(ValueError, match="phases"):
        nsfric.converge(PLATES, "c-sds", ["heun"], dts=[0.1], phases=0)
    with pytest.raises(ValueError, match="ladder_seconds"):
        nsfric.converge(PLATES, "c-sds", ["heun"], dts=[0.1], ladder_seconds=0)


def test_the_ladder_charges_its_added_steps_with_their_own_cpu_time():
    """The ladder's budget is the CPU time of the runs it added (wherever they ran), not
    the wall time since it began: a slow machine does not shorten it, and the runs'
    cost ends it."""
    from nsfric.study import ladder
    from nsfric.study.timing import REPEATS

    dts = [0.1 / 2 ** k for k in range(5)]
    rows = [{"law": "l", "scheme": "s", "dt": dt, "error": dt ** 1.3 * (1 + 0.1 * (-1) ** k),
             "seconds": 0.001, "n_phases": 1} for k, dt in enumerate(dts)]
    added = []

    def run(batch):
        for (_, _, dt) in batch:
            rows.append({"law": "l", "scheme": "s", "dt": dt, "error": dt ** 1.3 * (1 + 0.1 * (-1) ** len(rows)),
                         "seconds": 1.0, "n_phases": 1})
            added.append(dt)

    stops = ladder.extend_ladder(rows, ["l"], ["s"], 1.0, {"l": 1e-16}, 0.1, 10 ** 9, 1.0 + REPEATS + 0.5,
                                 lambda lw, s, dt: (lw, s, dt), run)
    # the first added step costs 1 s x (1 phase + repeats); the next, estimated at twice
    # that on top, exceeds the budget however fast the wall clock runs
    assert len(added) == 1, added
    assert "ladder_seconds" in stops[("l", "s")], stops
    assert ladder._spent(rows[5:]) == pytest.approx(1.0 + REPEATS)
