"""Hangs, budgets, silent cross-checks and sizes (issue 24): plug-in laws whose force is
not finite end at once with one line naming the law, the mode and the time; every
long path has a wall-time budget, checked inside steps, with a default its message
names; a failed cross-check fails the command; sizes are refused before any work; a
CSV reference keeps its event-time tolerance; ``sweep --scheduler`` at a port that is
not Dask ends within ``--connect-timeout`` with one line.

Every test that could hang is bounded by ``pytest.mark.timeout``: a regression fails
instead of stalling the suite.
"""
from __future__ import annotations

import json
import math
import os
import socket
import threading
import time

import numpy as np
import pytest
import sympy as sp

import nsfric
from nsfric.cli import main
from nsfric.errors import BudgetError, SolverFailure

x, v, x0, v0 = sp.symbols("x v x0 v0", real=True)
m, k, gamma, mu, F_N, c = sp.symbols("m k gamma mu F_N c", positive=True)
P = nsfric.Param

#: plug-in defects: the force added in the ``viscous`` mode (the oscillator starts there)
DEFECTS = {
    "nan": sp.nan,
    "zero-over-zero": (x - x) / (x - x),
    "log-negative": sp.log(-1 - x ** 2),
    "infinite": sp.oo * v,
    "overflow": sp.exp(sp.exp(sp.exp(10 * x))),
    "nan-later": sp.sqrt(x - sp.Rational(1, 2)),  # finite until x falls below 1/2 (t ~ 2.03)
}
_CASES: dict = {}


def bad_case(defect: str):
    """A viscous-Coulomb oscillator (examples/new_law.py) whose viscous force carries
    ``DEFECTS[defect]``, as a registered plug-in law and case ``bad-<defect>``."""
    if defect in _CASES:
        return _CASES[defect]
    name = f"bad-{defect}"
    guard_scale = sp.sqrt(c) if defect == "guard" else 1
    extra = 0 if defect == "guard" else DEFECTS[defect]
    law = nsfric.TangentialLaw(
        name, "F = -min(gamma |v|, mu F_N) sign(v) + a defect", (),
        (P(gamma, 0.2, 0, lo_open=True), P(mu, 0.4, 0, lo_open=True), P(F_N, 1.0, 0, lo_open=True), P(c, 1.0)),
        {"h_plus": gamma * v - mu * F_N * guard_scale, "h_minus": gamma * v + mu * F_N * guard_scale},
        {"slip+": ({"h_plus": 1}, -mu * F_N), "viscous": ({"h_plus": -1, "h_minus": 1}, -gamma * v + extra),
         "slip-": ({"h_minus": -1}, mu * F_N)}, velocity=v, normal_force=F_N)
    spring = nsfric.Slider(v, position=x, mass=m, stiffness=k,
                           params=(P(m, 1.0, 0, lo_open=True), P(k, 1.0, 0, lo_open=True)))
    model = nsfric.couple(spring, tangential=law, name=f"{name}-oscillator", params=(P(x0, 1.0), P(v0, 0.0)))

    class Oscillator(nsfric.Case):
        laws, default_law, t_end = (name,), name, 10.0
        initial = {"x": "x0", "v": "v0"}

        def build(self, law):
            return model

    Oscillator.name = f"{name}-oscillator"
    _CASES[defect] = Oscillator
    return Oscillator


def one_line_failure(capsys, rc, expected=(1,)):
    err = capsys.readouterr().err
    assert rc in expected, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# -- non-finite right-hand sides, residuals and guards ---------------------------------------
@pytest.mark.timeout(60)
@pytest.mark.parametrize("defect, solver, options", [
    ("nan", "filippov", {}),
    ("nan", "ida", {}),
    ("nan", "radau5dae", {}),
    ("zero-over-zero", "filippov", {}),
    ("zero-over-zero", "ida", {}),
    ("log-negative", "filippov", {"method": "DOP853"}),
    ("log-negative", "filippov", {"method": "LSODA"}),
    ("log-negative", "ida", {}),
    ("infinite", "filippov", {}),
    ("overflow", "filippov", {"method": "RK45"}),
    ("overflow", "radau5dae", {}),
    ("nan-later", "filippov", {"method": "DOP853"}),
    ("nan-later", "ida", {}),  # the DAE residual turns NaN inside IDA's Newton iteration
    ("nan-later", "radau5dae", {}),
])
def test_non_finite_force_ends_at_once_naming_law_mode_and_time(defect, solver, options):
    case = bad_case(defect)()
    tic = time.monotonic()
    with pytest.raises(SolverFailure) as info:
        case.reference_solution(solver=solver, max_seconds=30, **options)
    msg = str(info.value)
    assert time.monotonic() - tic < 20
    assert f"law 'bad-{defect}'" in msg and "mode 'viscous'" in msg and "not finite" in msg, msg
    t = float(msg.split(" at t = ")[1].split()[0])
    if defect == "nan-later":  # x = 1/2 is reached at t = 2.03 (the damped oscillation)
        assert 2.0 < t < 7.0, msg
    else:
        assert t == 0.0, msg


@pytest.mark.timeout(300)
def test_non_finite_force_on_the_compiled_stepper():
    """The compiled DOP853 (numba) gives up after NONFINITE_TRIALS trials with a NaN stage
    (its step size loop ran for ever from a NaN initial step)."""
    pytest.importorskip("numba")
    case = bad_case("nan-later")()
    with pytest.raises(SolverFailure, match=r"law 'bad-nan-later' is not finite .* in mode 'viscous' at t = 2\.0"):
        case.reference_solution(solver="filippov", method="dop853-numba", max_seconds=250)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("solver", ["filippov", "ida"])
def test_nan_guard_is_refused(solver):
    case = bad_case("guard")()
    with pytest.raises(SolverFailure, match=r"switching functions .* not finite \(h_plus = nan"):
        case.reference_solution(solver=solver, params={"c": -1.0}, max_seconds=30)


@pytest.fixture
def plugin_case(monkeypatch):
    """Register a defective case for the command (the names table does not vouch for it)."""
    from nsfric.cases.base import CASES
    from nsfric.cli import names

    monkeypatch.setattr(names, "stored", lambda: None)
    added = []

    def register(defect):
        cls = bad_case(defect)
        nsfric.register_case(cls)
        added.append(cls.name)
        return cls.name

    yield register
    for name in added:
        dict.pop(CASES, name, None)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("solver", ["filippov", "ida"])
def test_cli_non_finite_force_is_one_line_and_writes_nothing(plugin_case, solver, tmp_path, capsys):
    name = plugin_case("log-negative")
    out = tmp_path / "r.csv"
    rc = main(["reference", name, "--solver", solver, "--out", str(out)])
    line = one_line_failure(capsys, rc)
    assert "law 'bad-log-negative'" in line and "mode 'viscous'" in line and "t = 0" in line, line
    assert list(tmp_path.iterdir()) == []


def test_field_watch_lets_a_single_non_finite_trial_pass():
    """A trial stage beyond the law's domain (a NaN among finite values) is left to the
    integrator's step rejection; only a run of them stops the solve."""
    from nsfric.errors import NonFiniteField
    from nsfric.solvers.watch import NONFINITE_RUN, FieldWatch

    values = iter([[1.0], [math.nan], [2.0]] + [[math.nan]] * NONFINITE_RUN)
    watch = FieldWatch(lambda y, p: next(values), (), None, "filippov", "law", "mode", ["x"])
    assert watch(0.0, [0.0]) == [1.0]
    assert math.isnan(watch(0.1, [0.0])[0]) and watch(0.2, [0.0]) == [2.0]
    with pytest.raises(NonFiniteField, match="law 'law'.*mode 'mode'"):
        for _ in range(NONFINITE_RUN):
            watch(0.3, [0.0])


# -- wall-time budgets -----------------------------------------------------------------------
def test_default_budget_exists_and_is_named():
    from nsfric.solvers.loop import DEFAULT_MAX_SECONDS, Budget

    assert DEFAULT_MAX_SECONDS == 600
    budget = Budget(None, "filippov")
    assert budget.default and budget.max_seconds == 600
    budget.start -= 601
    with pytest.raises(BudgetError, match=r"default budget of 600 s \(--max-seconds\).*raise --max-seconds"):
        budget.check(1.5)
    lifted = Budget(math.inf, "filippov")
    lifted.start -= 1e9
    lifted.check()


@pytest.mark.parametrize("command", ["reference", "simulate", "converge"])
def test_cli_help_states_the_default_budget(command, capsys):
    from nsfric.solvers.loop import DEFAULT_MAX_SECONDS

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_MAX_SECONDS:g})" in text.split("--max-seconds S ")[-1][:80]


def test_budget_is_checked_inside_a_step():
    """FieldWatch checks the budget every CHECK_EVERY evaluations, without a step ending."""
    from nsfric.solvers.loop import Budget
    from nsfric.solvers.watch import CHECK_EVERY, FieldWatch

    budget = Budget(0.5, "ida")
    budget.start -= 1.0
    watch = FieldWatch(lambda y, p: [0.0], (), budget, "ida", "law", "stick", ["x"])
    with pytest.raises(BudgetError, match="max_seconds = 0.5"):
        for i in range(CHECK_EVERY):
            watch(0.25, [0.0])
    assert watch.calls == CHECK_EVERY


STIFF = ["reference", "sliding-plates", "--law", "d-sds", "--param", "k=1e12", "--no-cross-check"]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("solver", ["filippov", "ida"])
def test_stiff_reference_stops_at_its_budget(solver, tmp_path, capsys):
    """The issue's ``--param k=1e12`` (ran for ever; ``--solver ida`` ignored the budget)."""
    tic = time.monotonic()
    rc = main(STIFF + ["--solver", solver, "--max-seconds", "2", "--out", str(tmp_path / "r.csv")])
    line = one_line_failure(capsys, rc)
    assert f"{solver}: stopped after max_seconds = 2 s" in line and "--max-seconds" in line, line
    assert time.monotonic() - tic < 45
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(90)
def test_stiff_reference_stops_at_the_default_budget(monkeypatch, tmp_path, capsys):
    from nsfric.solvers import loop

    monkeypatch.setattr(loop, "DEFAULT_MAX_SECONDS", 2.0)
    rc = main(STIFF + ["--out", str(tmp_path / "r.csv")])
    line = one_line_failure(capsys, rc)
    assert "stopped after the default budget of 2 s (--max-seconds)" in line, line


@pytest.mark.timeout(60)
def test_simulate_has_a_default_budget(monkeypatch):
    from nsfric.solvers import loop

    monkeypatch.setattr(loop, "DEFAULT_MAX_SECONDS", 1e-9)
    with pytest.raises(BudgetError, match=r"simulate euler: stopped after the default budget"):
        nsfric.simulate("sliding-plates", "c-sds", "euler", dt=1e-3)


# -- the cross-check -------------------------------------------------------------------------
REF = ["reference", "sliding-plates", "--law", "c-sds", "--t-end", "2", "--samples", "21"]


@pytest.mark.timeout(120)
def test_sidecar_records_a_passed_cross_check(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(REF + ["--out", str(out)]) == 0
    check = json.loads((tmp_path / "r.json").read_text())["cross_check"]
    assert check["solver"] == "ida" and check["passed"] is True and check["meaningful"] is True
    assert 0 < check["disagreement"] <= check["tolerance"]
    assert check["disagreement"] == check["states"][check["state"]]
    import csv
    with open(out) as f:
        scale = max(abs(float(row[check["state"]])) for row in csv.DictReader(f))
    assert check["tolerance"] == pytest.approx(check["factor"] * (check["rtol"] * scale + check["atol"]), rel=1e-6)


@pytest.mark.timeout(120)
def test_failed_cross_check_fails_the_command(monkeypatch, tmp_path, capsys):
    """The check's factor made tiny: the real disagreement of the two solves exceeds it."""
    from nsfric.solvers import crosscheck

    monkeypatch.setattr(crosscheck, "CROSS_FACTOR", 1e-6)
    rc = main(REF + ["--out", str(tmp_path / "r.csv")])
    line = one_line_failure(capsys, rc)
    assert line.startswith("nsfric: failed: cross-check failed: max |filippov - ida| in ") and "tolerance" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("opts, what", [(["--rtol", "0.5", "--atol", "1"], "--rtol 0.5 is too loose"),
                                        (["--rtol", "1e-3"], "--rtol 0.001 is too loose")])
def test_meaningless_cross_check_tolerance_is_a_usage_error(opts, what, tmp_path, capsys):
    """The issue's ``slope-block --rtol 0.5 --atol 1`` (passed with 2.83e15), refused
    before solving."""
    rc = main(["reference", "slope-block", *opts, "--out", str(tmp_path / "r.csv")])
    line = one_line_failure(capsys, rc, (2,))
    assert what in line and "--no-cross-check" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(120)
def test_loose_atol_cross_check_is_a_usage_error(tmp_path, capsys):
    rc = main(REF + ["--atol", "0.1", "--out", str(tmp_path / "r.csv")])
    line = one_line_failure(capsys, rc, (2,))
    assert "--atol 0.1 is too loose for the cross-check" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(120)
def test_export_refuses_a_failed_cross_check(monkeypatch):
    from nsfric.errors import CrossCheckFailed
    from nsfric.report.export import build_reference
    from nsfric.solvers import crosscheck

    monkeypatch.setattr(crosscheck, "CROSS_FACTOR", 1e-6)
    with pytest.raises(CrossCheckFailed, match=r"max \|filippov - ida\|"):
        build_reference(nsfric.get_case("sliding-plates"), "c-sds", t_end=2.0, samples=3)


# -- the CSV export's event-time tolerance ---------------------------------------------------
@pytest.mark.timeout(120)
def test_csv_export_without_events_keeps_the_event_time_tolerance(tmp_path):
    from nsfric.report.export import build_reference, read_reference, write_reference

    ref = build_reference(nsfric.get_case("sliding-plates"), "c-sds", t_end=0.5, samples=3)
    assert ref["events"] == [] and ref["tolerances"]["event_t"] > 0
    for fmt, name in (("csv", "r.csv"), ("yaml", "r.yaml")):
        write_reference(ref, str(tmp_path / name), fmt)
        back = read_reference(str(tmp_path / name))
        assert back["tolerances"]["event_t"] == ref["tolerances"]["event_t"], fmt


# -- sizes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, what", [
    (["export", "sliding-plates", "--samples", "100000000", "--format", "csv", "--out", "x.csv"],
     "--samples must be an integer from 2 to 1000000"),
    (["reference", "sliding-plates", "--samples", "100000000", "--out", "x.csv"],
     "--samples must be an integer from 2 to 10000000"),
    (["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=logspace:0:1:100000000", "--observable", "e_n",
      "--out", "d"], "grid v_i has 1e+08 points; a grid may have 1 to 1000000 points"),
    (["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=0:1:10000", "--grid", "mu=0:1:10000",
      "--observable", "e_n", "--out", "d"], "the grid (10000 x 10000) has 1e+08 points"),
    (["simulate", "sliding-plates", "--scheme", "euler", "--dt", "5e-324", "--out", "x.csv"],
     "dt = 4.94066e-324 is too small for the span 10"),
    (["simulate", "sliding-plates", "--scheme", "euler", "--dt", "1e-300", "--out", "x.csv"],
     "dt must be >= 1.11e-15"),
])
@pytest.mark.timeout(60)
def test_sizes_are_refused_up_front(argv, what, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    tic = time.monotonic()
    line = one_line_failure(capsys, main(argv), (2,))
    assert what in line, line
    assert time.monotonic() - tic < 30 and list(tmp_path.iterdir()) == []


def test_memory_refusal_names_the_allowed_dt(capsys, tmp_path):
    line = one_line_failure(capsys, main(["simulate", "sliding-plates", "--scheme", "euler", "--dt", "1e-9",
                                          "--out", str(tmp_path / "x.csv")]))
    assert "memory limit" in line and "choose --dt >= " in line


def test_api_sizes_are_value_errors(monkeypatch):
    from nsfric.report.export import build_reference
    from nsfric.study.grid import check_grid

    case = nsfric.get_case("sliding-plates")
    with pytest.raises(ValueError, match="samples must be an integer from 2 to 10000000"):
        case.reference_solution("c-sds", samples=10 ** 8)
    with pytest.raises(ValueError, match="samples must be an integer from 2 to 1000000"):
        build_reference(case, "c-sds", samples=10 ** 7)
    with pytest.raises(ValueError, match=r"dt = 4.94066e-324 is too small"):
        nsfric.simulate("sliding-plates", "c-sds", "euler", dt=5e-324)
    with pytest.raises(ValueError, match="grid v_i has 2e"):
        check_grid({"v_i": np.ones(2_000_000)})
    monkeypatch.setenv("NSFRIC_MAX_GRID_POINTS", "3")
    with pytest.raises(ValueError, match=r"the grid \(2 x 2\) has 4 points; a grid may have 1 to 3"):
        check_grid({"v_i": [1, 2], "mu": [0.1, 0.2]})
    assert check_grid({"v_i": [1, 2, 3]})["v_i"] == [1.0, 2.0, 3.0]


# -- sweep --scheduler at a port that is not Dask --------------------------------------------
class _Server:
    """A local TCP server in a thread: accepts, then replies ``reply`` (None: silent;
    b"": closes at once)."""

    def __init__(self, reply):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.reply, self.conns = reply, []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.reply == b"":
                conn.close()
            elif self.reply:
                conn.sendall(self.reply)

    def close(self):
        for conn in self.conns:
            conn.close()
        self.sock.close()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("reply, what", [
    (b"HTTP/1.1 400 Bad Request\r\n\r\n" * 4, "not a Dask scheduler (its first reply announces"),
    ((20).to_bytes(8, "little") + b"x" * 20, "not a Dask scheduler (an unexpected reply)"),
    (None, "no Dask handshake within --connect-timeout 1 s"),
    (b"", "cannot connect (the connection was closed)"),
])
def test_sweep_scheduler_that_is_not_dask(reply, what, tmp_path, capsys):
    server = _Server(reply)
    try:
        tic = time.monotonic()
        rc = main(["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=0.5,2", "--observable", "e_n",
                   "--no-cache", "--scheduler", f"tcp://127.0.0.1:{server.port}", "--connect-timeout", "1",
                   "--out", str(tmp_path / "d")])
        line = one_line_failure(capsys, rc, (2,))
        assert what in line and f"--scheduler tcp://127.0.0.1:{server.port}" in line, line
        assert time.monotonic() - tic < 20
        assert not os.path.exists(tmp_path / "d")
    finally:
        server.close()


def test_the_budget_counts_cpu_time_not_wall_time():
    """A run that waits (a loaded machine: other processes hold the cores) keeps its budget;
    a run that computes spends it.  With wall time a report's 270 s-of-CPU reference stopped
    at 600 s beside other jobs."""
    from nsfric.solvers.loop import Budget

    budget = Budget(0.2, "filippov")
    time.sleep(0.4)
    budget.check()  # waited, not computed: within the budget
    t0 = time.process_time()
    while time.process_time() - t0 < 0.3:
        sum(range(1000))
    with pytest.raises(BudgetError, match="max_seconds = 0.2 s of CPU time"):
        budget.check()
