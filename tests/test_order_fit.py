"""The observed-order fit (issue 8, item 7): exact standard error, the asymptotic
(small-step) range, and "no order" with its reason instead of a meaningless number."""
import csv
import math
import re

import numpy as np
import pytest

from nsfric.cli import main
from nsfric.study import fit as F
from nsfric.study.convergence import ConvergenceResult, fit_order


def test_standard_error_is_the_hand_computed_one_with_n_minus_2():
    """x = log dt = 0, 1, 2, 3 and y = 2x + d (1, -1, -1, 1): the residual vector is
    orthogonal to 1 and x, so the slope is exactly 2 and the residuals are exactly
    +-d: se = sqrt(4 d^2 / (n - 2) / Sxx) with Sxx = 5, i.e. d sqrt(0.4)
    (dividing by n instead would give d sqrt(0.2))."""
    d = 0.01
    x = np.arange(4.0)
    y = 2 * x + d * np.array([1, -1, -1, 1])
    for fit in (fit_order(np.exp(x), np.exp(y)),
                fit_order(np.exp(x), np.exp(y), fit_range=(1.0, math.exp(3)))):
        assert fit.ok and fit.n_points == 4
        assert abs(fit.order - 2) < 1e-12
        assert abs(fit.stderr - d * math.sqrt(0.4)) < 1e-13, fit.stderr
    assert math.isnan(F._linfit(x[:2], y[:2])[1])  # two points: no standard error


def test_automatic_range_is_the_asymptotic_one_not_the_pre_asymptotic_one():
    """e = dt^2 (1 + 1e6 dt^2) + round-off growing like dt^-1/2: slope 4 over many large
    steps (pre-asymptotic), slope 2 over the small ones (asymptotic), then round-off.
    The long slope-4 run agrees with itself just as well; the fit must still take the
    small steps, above the round-off tail."""
    k = np.arange(-8, 25)
    dt = 2.0 ** -k
    err = dt ** 2 * (1 + 1e6 * dt ** 2) + 1e-16 * dt ** -0.5 * (1 + 0.3 * np.sin(3.0 * k))
    # the data really have a long consistent pre-asymptotic run: fitted alone it gives 4
    coarse = dt >= 2.0 ** -8
    pre = fit_order(dt[coarse], err[coarse])
    assert pre.ok and abs(pre.order - 4) < 0.02 and pre.n_points >= 12
    fit = fit_order(dt, err, floor=1e-14)
    assert fit.ok, fit
    assert abs(fit.order - 2) < 0.05, fit
    assert fit.dt_max < 1e-3          # no pre-asymptotic step in the range
    assert fit.dt_min <= 2.0 ** -19   # the range reaches down to the round-off tail ...
    assert fit.dt_min >= 2.0 ** -21   # ... and leaves the tail (errors rising again) out
    assert fit.n_points >= 8


@pytest.mark.parametrize("errors,why", [
    ([1e-1, 2.5e-2, 6.25e-3], r"3 step\(s\) in the asymptotic range, at least 4 needed"),
    ([2.50, 2.49, 2.47, 2.46, 2.45], r"does not decrease with the step .*slope -?0\.0"),
    ([0.0279, 0.005, 3.8e-4, 9.46e-5, 2.18e-3, 1.48e-6][::-1], r"local slopes .* over 2 steps only"),
])
def test_no_order_with_the_reason(errors, why):
    dts = 0.2 / 2.0 ** np.arange(len(errors))[::-1]  # ascending: finest first
    fit = fit_order(dts, errors)
    assert math.isnan(fit.order) and math.isnan(fit.stderr) and not fit.ok
    assert fit.reason.startswith("no order: ") and re.search(why, fit.reason), fit.reason
    assert fit.label() == "no order" and fit.as_dict()["reason"] == fit.reason


def test_errors_at_round_off_give_no_order():
    fit = fit_order([0.1, 0.05, 0.025, 0.0125], [1e-15, 0.0, 3e-16, float("nan")], floor=1e-14)
    assert not fit.ok and "round-off floor 1e-14" in fit.reason and fit.n_points == 0


def test_poor_fit_in_a_given_range_is_no_order():
    """A given range is fitted as it is; scatter shows in the standard error, and a
    standard error above 10 % of the slope is no order."""
    dt = 0.1 / 2.0 ** np.arange(8)
    wiggle = np.exp(0.1 * np.cos(np.arange(8) * 2.0))
    fine = fit_order(dt, dt * wiggle, fit_range=(dt.min(), dt.max()))
    assert fine.ok and 0.005 < fine.stderr < 0.1 and not fine.automatic
    rough = fit_order(dt, dt * wiggle ** 8, fit_range=(dt.min(), dt.max()))
    assert not rough.ok and "standard error" in rough.reason and "10%" in rough.reason
    few = fit_order(dt, dt, fit_range=(dt[2], dt[0]))
    assert not few.ok and "3 step(s) in the given range" in few.reason


def test_bad_arguments():
    with pytest.raises(ValueError, match="min_points"):
        fit_order([1, 2, 3], [1, 2, 3], min_points=2)
    with pytest.raises(ValueError, match="same length"):
        fit_order([1, 2, 3], [1, 2])


def _result(fits_from):
    rows = [{"law": "d-sds", "scheme": s, "dt": float(dt), "error": float(e), "n_rhs": int(1 / dt),
             "seconds": 1e-3 / dt} for s, (dts, errs) in fits_from.items() for dt, e in zip(dts, errs)]
    fits = {("d-sds", s): fit_order(*de) for s, de in fits_from.items()}
    return ConvergenceResult("synthetic", rows, fits, ["v"])


def test_tables_and_plot_say_no_order(tmp_path):
    dts = 0.2 / 2.0 ** np.arange(6)
    res = _result({"euler": (dts, 0.5 * dts), "gear5": (dts, [0.03, 5e-3, 3.8e-4, 9.5e-5, 2.2e-3, 1.5e-6])})
    by = {o["scheme"]: o for o in res.orders()}
    assert by["euler"]["reason"] == "" and abs(by["euler"]["order"] - 1) < 1e-12
    assert math.isnan(by["gear5"]["order"]) and by["gear5"]["reason"].startswith("no order")
    res.write(str(tmp_path))
    rows = {r["scheme"]: r for r in csv.DictReader(open(tmp_path / "orders.csv"))}
    assert rows["gear5"]["order"] == "nan" and rows["gear5"]["reason"].startswith("no order: ")
    assert rows["euler"]["reason"] == ""
    import matplotlib.pyplot as plt

    fig = res.plot()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    plt.close(fig)
    assert "gear5 (no order)" in labels, labels
    assert any(lab.startswith("euler (p = 1.00") for lab in labels), labels


def test_cli_dsds_gear5_reports_no_order(tmp_path, capsys):
    """The issue's example: `nsfric converge sliding-plates --law d-sds --scheme gear5`
    printed 10.06 +- 4.65; its errors jump by orders of magnitude between steps."""
    assert main(["converge", "sliding-plates", "--law", "d-sds", "--scheme", "gear5",
                 "--scheme", "euler", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    (line,) = [ln for ln in out if ln.startswith("d-sds gear5")]
    assert "no order" in line and "local slopes" in line, line
    assert not re.search(r"\d\.\d\d\s+\d\.\d{3}\s+\[", line), line  # no order, no stderr, no range
    (line,) = [ln for ln in out if ln.startswith("d-sds euler")]
    assert re.search(r"\s(0\.9\d|1\.0\d)\s+0\.0\d\d\s+\[", line), line
    rows = {r["scheme"]: r for r in csv.DictReader(open(tmp_path / "orders.csv"))}
    assert rows["gear5"]["order"] == "nan" and "at least 4" in rows["gear5"]["reason"]
