"""The explanations on the slope-block figures, tested: why delta-BDF drifts more than
delta-Heun here (the paper: less), why the drift is flat in the block size, and that no
marker is drawn where there is no data."""
import math
import numpy as np
import pytest

import nsfric
from nsfric.papers.krengel_matuttis import slope_block_study as S
from nsfric.papers.krengel_matuttis.slope_block_mechanism import RestartOnStick, mechanism_drift

TR = nsfric.get_case("slope-block")
ROT = nsfric.get_case("slope-block-rotating")
WINDOW = (0.005, 0.01)


def drift(case, integ, variant="plain", stick_rule="crossing"):
    return abs(mechanism_drift(case, integ, variant, {"alpha": 15.0}, S.DT_PAPER, WINDOW, 1, stick_rule)[1])


@pytest.mark.parametrize("case", [TR, ROT], ids=["translating", "rotating"])
def test_bdf_drifts_more_than_heun_because_it_continues_its_history(case):
    """Stuck, the slope is zero: Heun keeps v_n, BDF extrapolates its history. Restarting
    the history on sticking removes a large part of BDF's excess over Heun; more
    corrections (closer to the implicit corrector) change nothing; rotation does not
    bring BDF below Heun.  All under the stick-entry rule ``crossing`` (stick after v has
    crossed 0): under the default ``brake`` the residual has the approach's sign and BDF
    drifts less than Heun (tests/test_stick_rules.py)."""
    heun, bdf2, bdf5 = (drift(case, i) for i in ("heun", "bdf2", "bdf5"))
    assert bdf2 > 1.5 * heun and bdf5 > 1.5 * heun
    for integ, plain in (("bdf2", bdf2), ("bdf5", bdf5)):
        restarted = drift(case, integ, "history restarted on sticking")
        assert restarted - heun < 0.7 * (plain - heun), (integ, plain, restarted, heun)
        assert drift(case, integ, "3 corrections") == pytest.approx(plain, rel=1e-3)


def test_restart_on_stick_replaces_only_the_new_members_history(monkeypatch):
    from nsfric.schemes.gear import BDFPredictorCorrector

    class Field:
        stuck = np.array([True, False])

    captured = {}

    def fake_step(self, field, t, u, h, hist, record=None):
        captured["hist"] = hist
        return u, hist

    monkeypatch.setattr(BDFPredictorCorrector, "step", fake_step)
    u = np.array([[1.0, 2.0]])
    RestartOnStick(2).step(Field(), 0.0, u, 1e-3, [np.array([[5.0, 6.0]]), np.array([[7.0, 8.0]])])
    assert [h.tolist() for h in captured["hist"]] == [[[1.0, 6.0]], [[1.0, 8.0]]]


@pytest.mark.slow
def test_drift_is_flat_in_the_block_size_because_the_residual_velocity_is():
    """The residual velocity of the sticking step is ~ a dt with a = g (mu cos - sin),
    independent of l: the delta-Heun and BDF2 drifts of 1 cm, 10 cm and 1 m blocks agree
    within a factor 1.6 (the paper: rising above 0.1 m; measured, one grid phase, stick-entry
    rule ``brake``: 1.51 for BDF2, not monotone in l -- its residual lies anywhere below
    ``dt mu g cos``, so one phase is noisier than under ``crossing``, 1.5)."""
    rows = S.drift_vs_size(TR, (0.01, 0.1, 1.0), integrators=("heun", "bdf2"), window=(0.1, 0.15),
                           n_phases=1, with_exact=False)
    for integ in ("heun", "bdf2"):
        d = np.array([abs(r["drift"]) for r in rows if r["integrator"] == integ])
        assert np.all(d > 0) and d.max() < 1.6 * d.min(), (integ, d)


def test_no_marker_where_there_is_no_data():
    from nsfric.papers.krengel_matuttis.slope_block_figures import FLOOR, plot_drift_size

    rows = [{"integrator": "heun", "l": l, "drift": d, "mean_abs": d, "min_abs": d, "max_abs": d}
            for l, d in ((0.001, float("nan")), (0.01, 3e-6), (0.1, 3.5e-6))]
    fig = plot_drift_size(rows, (0.1, 0.3), 5e-6, caption=["c"])
    ax = fig.axes[0]
    ys = np.concatenate([np.asarray(line.get_ydata(), dtype=float) for line in ax.lines])
    xs = np.concatenate([np.asarray(line.get_xdata(), dtype=float) for line in ax.lines])
    assert 0.001 not in xs and FLOOR * 10 not in ys  # nothing drawn at the diverged size
    assert sorted(set(xs)) == [0.01, 0.1]
    assert_diverged_named_beside_the_data(fig, "delta-heun: diverged at l = 0.001")


def test_exact_rows_name_their_solver_and_a_size_without_data():
    """Fig 5's exact line names the solvers of its rows (the per-corner rows: the
    event-driven reference, IDA only where it fails) and a size where both failed is named,
    not drawn."""
    from nsfric.papers.krengel_matuttis.slope_block_figures import plot_drift_size

    nan = float("nan")
    rows = [{"integrator": "exact", "scheme": s, "l": l, "drift": d, "mean_abs": d, "min_abs": d, "max_abs": d}
            for s, l, d in (("exact (filippov)", 0.001, 1e-20), ("exact (ida and filippov failed)", 0.002, nan),
                            ("exact (filippov)", 0.01, 2e-17))]
    ax = plot_drift_size(rows, (0.1, 0.3), 5e-6, caption=["c"]).axes[0]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("exact static friction (filippov, ida and filippov failed): max drift 2e-17 m" in t for t in texts)
    assert any("no data at l = 0.002" in t for t in texts)
    xs = np.concatenate([np.asarray(line.get_xdata(), dtype=float)[np.isfinite(line.get_ydata())]
                         for line in ax.lines])
    assert 0.002 not in xs


def assert_diverged_named_beside_the_data(fig, note):
    """The diverged point is named in the legend (no handle), nothing is written over the
    axes, and the legend lies beside the axes: it hides neither data nor the note."""
    ax = fig.axes[0]
    assert any(note in t.get_text() for t in ax.get_legend().get_texts())
    assert not ax.texts
    fig.canvas.draw()
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1


def test_fig4_names_a_diverged_scheme_in_its_legend():
    from nsfric.papers.krengel_matuttis.slope_block_figures import plot_drift_dt

    rows = [{"scheme": s, "law": "coulomb", "dt": dt, "drift": d, "mean_abs": d, "min_abs": d, "max_abs": d}
            for s in ("delta-heun", "delta-bdf5") for dt, d in ((5e-6, 1e-6), (5e-5, float("nan")))
            if not (s == "delta-heun" and dt == 5e-5)]
    fig = plot_drift_dt(rows, {"filippov": {"drift": 0.0}}, (0.01, 0.05), caption=["c"])
    xs = np.concatenate([np.asarray(line.get_xdata(), dtype=float) for line in fig.axes[0].lines])
    assert 5e-5 not in xs
    assert_diverged_named_beside_the_data(fig, "delta-bdf5 (coulomb): diverged at dt = 5e-05")


def test_fig5_exact_row_passes_a_budget_stop_to_the_next_solver(monkeypatch):
    """A solver stopped by its budget is a failed solver, not a failed case (IDA needs
    ~1,350 s of CPU at l = 2 mm on the rotating block; a cold report stopped there): the
    next solver gives the row; where all fail the row is NaN and names each."""
    from nsfric.errors import BudgetError, SolverFailure
    from nsfric.papers.krengel_matuttis import slope_block_study as S

    assert S.SIZE_SOLVERS[0] == "filippov"
    calls = []

    def fake(case, params, window, solvers):
        (solver,) = solvers
        calls.append(solver)
        if solver in stopped:
            raise stopped[solver]("stopped")
        return {solver: {"drift": 2e-17, "events": [("stick", 0.05)]}}

    monkeypatch.setattr(S, "exact_drift", fake)
    stopped = {"filippov": BudgetError}
    row = S.exact_size_row(None, {"alpha": 15.0, "l": 0.002}, (0.1, 0.3))
    assert row["scheme"] == "exact (ida)" and row["drift"] == 2e-17 and row["stick_time"] == 0.05
    assert calls == ["filippov", "ida"]
    stopped = {"filippov": BudgetError, "ida": SolverFailure}
    row = S.exact_size_row(None, {"alpha": 15.0, "l": 0.002}, (0.1, 0.3))
    assert math.isnan(row["drift"]) and row["l"] == 0.002
    assert row["scheme"] == "exact (failed: filippov: BudgetError, ida: SolverFailure)"
