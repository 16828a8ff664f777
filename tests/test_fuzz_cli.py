"""Fuzz table of the ``nsfric`` command and the API (issue 12, item 7).

Every CLI case runs the command in its own process and asserts: an exit code in
{0, 1, 2} (the one the table expects), exactly one line on stderr on failure and
nothing on success, no traceback, no raw warning, no new or changed file after a
failure, no temporary file left, finite numbers in every CSV/JSON written, and an end
within the process timeout (the bound on time; no timing assertion).

To keep the file fast, most cases are run in a *forked* copy of the test process with
nsfric already imported (a separate process with its own file descriptors, exit code
and signal handlers, calling ``nsfric.cli.main`` exactly as ``python -m nsfric.cli``
does); the cases marked ``real`` run ``python -m nsfric.cli`` itself.
"""
from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 120  # seconds: the time bound of every case

REF = ["reference", "sliding-plates", "--t-end", "0.5", "--samples", "5", "--no-cross-check",
       "--max-seconds", "60"]
SIM = ["simulate", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "--t-end", "0.5"]
CONV = ["converge", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "0.05", "--t-end", "0.5"]
OUT = ["--out", "new.csv"]

OK, USAGE, FAIL = {0}, {2}, {1}


def setopt(base, opt, value):
    """``base`` with ``opt`` set to ``value`` (replaced where ``base`` has it: a
    single-valued option given twice is itself a usage error)."""
    argv = list(base)
    if opt in argv:
        argv[argv.index(opt) + 1] = value
        return argv
    return argv + [opt, value]
ERR = {1, 2}
BAD_NUMBERS = ["nan", "inf", "-inf", "0", "-1", "abc", ""]


def _cases():
    c = []  # (id, argv, expected exit codes, real subprocess)
    add = lambda i, argv, rc, real=False: c.append(pytest.param(argv, rc, real, id=i))
    # -- top level and list ---------------------------------------------------------
    add("no-command", [], USAGE, True)
    add("unknown-command", ["frobnicate"], USAGE)
    add("list", ["list"], OK, True)
    add("list-extra-arg", ["list", "extra"], USAGE)
    add("list-bad-option", ["list", "--bogus"], USAGE)
    add("help", ["--help"], OK)
    # -- reference: names -------------------------------------------------------------
    for i, name in enumerate(["nope", "", "SLIDING-PLATES", "sliding plates", "../x", "ßliding", "-"]):
        add(f"ref-case-{i}", ["reference", name] + OUT, USAGE)
    for i, law in enumerate(["nope", "", "C-SDS", "coulomb"]):
        add(f"ref-law-{i}", REF + ["--law", law] + OUT, USAGE)
    add("ref-solver-unknown", REF + ["--solver", "nope"] + OUT, USAGE)
    add("ref-method-unknown", REF + ["--method", "nope"] + OUT, USAGE)
    add("ref-method-not-filippov", REF + ["--solver", "analytic", "--method", "RK45"] + OUT, USAGE)
    add("ref-ok", REF + OUT, OK, True)
    add("ref-ok-replaces-old", REF + ["--out", "old.csv"], OK)  # written by nsfric: replaced
    add("ref-user-file-refused", REF + ["--out", "user.csv"], USAGE)  # issue 24: never overwritten
    add("ref-ok-analytic", REF + ["--solver", "analytic"] + OUT, OK)
    add("ref-ok-radau", REF + ["--method", "Radau", "--law", "d-sds"] + OUT, OK)
    add("ref-ok-dry-oscillator", ["reference", "dry-oscillator", "--t-end", "0.5", "--samples", "3"] + OUT, OK)
    add("ref-ok-samples-2", ["reference", "sliding-plates", "--t-end", "0.1", "--samples", "2",
                             "--no-cross-check"] + OUT, OK)
    # -- reference: parameters (NaN/inf/0/negative/huge/tiny/text) --------------------
    breaking = {"m=1e-300", "k=1e300", "xi0=1e308", "v0=1e300", "v0=1e308"}  # issue 12
    for p in ("k", "gamma", "F_max", "m", "xi0", "v0"):
        for v in BAD_NUMBERS + ["1e300", "1e-300", "1e308"]:
            rc = ERR if f"{p}={v}" in breaking else ERR | OK
            add(f"ref-param-{p}={v}", REF + ["--param", f"{p}={v}"] + OUT, rc)
    for i, item in enumerate(["m", "=1", "nope=1", "m=1=2", "m=0x10"]):
        add(f"ref-param-format-{i}", REF + ["--param", item] + OUT, USAGE)
    add("ref-param-duplicate", REF + ["--param", "m=1", "--param", "m=2"] + OUT, USAGE)
    # a single-valued option given twice (argparse would keep the last silently)
    add("ref-solver-duplicate", REF + ["--solver", "ida", "--solver", "filippov"] + OUT, USAGE)
    add("ref-out-duplicate", REF + ["--out", "a.csv"] + OUT, USAGE)
    add("sim-dt-duplicate", SIM + ["--dt", "0.2"] + OUT, USAGE)
    add("ref-param-v0-huge-cross-checked", REF[:-3] + ["--param", "v0=1e300"] + OUT, ERR)
    # -- reference: options -------------------------------------------------------------
    for v in BAD_NUMBERS + ["1e-300", "1e400"]:
        add(f"ref-t-end={v}", ["reference", "sliding-plates", "--t-end", v, "--samples", "5",
                               "--no-cross-check"] + OUT, USAGE)
    # stiff phases: the default stepper (method auto) switches to LSODA and finishes;
    # DOP853 forced on them stalls and the wall-time budget stops it
    # issue 12: once refused as chattering, solved since (sticks at t = 4.000000123)
    add("ref-dsds-stiff-sticks", ["reference", "sliding-plates", "--law", "d-sds", "--param", "k=1e6", "--param",
                                  "gamma=1e-3", "--t-end", "5", "--samples", "5", "--no-cross-check"] + OUT, OK)
    add("ref-t-end-huge", ["reference", "sliding-plates", "--t-end", "1e12", "--samples", "5",
                           "--no-cross-check", "--max-seconds", "60"] + OUT, OK)
    add("ref-stiff-gamma", ["reference", "sliding-plates", "--param", "gamma=1e-9",
                            "--no-cross-check", "--max-seconds", "60"] + OUT, OK)
    add("ref-t-end-huge-dop853-budget", ["reference", "sliding-plates", "--t-end", "1e12", "--samples", "5",
                                         "--method", "DOP853", "--no-cross-check", "--max-seconds", "3"] + OUT,
        FAIL, True)
    add("ref-stiff-gamma-dop853-budget", ["reference", "sliding-plates", "--param", "gamma=1e-9", "--method",
                                          "DOP853", "--no-cross-check", "--max-seconds", "3"] + OUT, FAIL)
    for v in ["0", "1", "-5", "2.5", "abc", "1e9", ""]:
        add(f"ref-samples={v}", ["reference", "sliding-plates", "--t-end", "0.5", "--samples", v,
                                 "--no-cross-check"] + OUT, USAGE)
    add("ref-samples-memory", ["reference", "sliding-plates", "--samples", "10000000"] + OUT, FAIL)  # beyond: usage
    for opt in ("--rtol", "--atol", "--max-seconds"):
        for v in ["0", "-1", "nan", "inf", "abc"]:
            add(f"ref{opt}={v}", setopt(REF, opt, v) + OUT, USAGE)
    add("ref-rtol=1", REF + ["--rtol", "1"] + OUT, USAGE)
    add("ref-atol-tiny", REF + ["--atol", "1e-300"] + OUT, ERR)
    add("ref-rtol-tiny", REF + ["--rtol", "1e-300"] + OUT, ERR | OK)
    for opt, lo in (("--max-events", 1), ("--zeno-window", 2)):
        for v in dict.fromkeys(["0", "-3", "1.5", "abc", str(lo - 1)]):
            add(f"ref{opt}={v}", REF + [opt, v] + OUT, USAGE)
    add("ref-duplicate-solver", REF + ["--solver", "ida", "--solver", "analytic"] + OUT, USAGE)
    # -- reference: output paths --------------------------------------------------------
    add("ref-out-missing", REF, USAGE)
    add("ref-out-dir", REF + ["--out", "adir"], USAGE)
    add("ref-out-no-suffix", REF + ["--out", "new.txt"], USAGE)
    add("ref-out-proc", REF + ["--out", "/proc/new.csv"], USAGE)
    add("ref-out-sys", REF + ["--out", "/sys/new.csv"], USAGE)
    add("ref-out-under-file", REF + ["--out", "afile/new.csv"], USAGE)
    add("ref-out-long-name", REF + ["--out", "x" * 300 + ".csv"], USAGE)
    add("ref-out-sidecar-is-dir", REF + ["--out", "sidecar.csv"], USAGE)
    add("ref-out-empty", REF + ["--out", ""], USAGE)
    add("ref-out-dev-full", REF + ["--out", "/dev/full"], USAGE)
    # -- simulate -----------------------------------------------------------------------
    add("sim-ok", SIM + OUT, OK, True)
    add("sim-ok-stages", ["simulate", "sliding-plates", "--scheme", "rk4", "--dt", "0.1", "--t-end", "0.5",
                          "--stages"] + OUT, OK)
    add("sim-ok-event", ["simulate", "sliding-plates", "--scheme", "rk4-event", "--dt", "0.05",
                         "--t-end", "0.5"] + OUT, OK)
    for i, s in enumerate(["nope", "", "EULER"]):
        add(f"sim-scheme-{i}", ["simulate", "sliding-plates", "--scheme", s, "--dt", "0.1"] + OUT, USAGE)
    add("sim-scheme-missing", ["simulate", "sliding-plates", "--dt", "0.1"] + OUT, USAGE)
    add("sim-case-unknown", ["simulate", "nope", "--scheme", "euler", "--dt", "0.1"] + OUT, USAGE)
    add("sim-law-unknown", SIM + ["--law", "nope"] + OUT, USAGE)
    for v in BAD_NUMBERS + ["1e400"]:
        add(f"sim-dt={v}", ["simulate", "sliding-plates", "--scheme", "euler", "--dt", v] + OUT, USAGE)
    add("sim-dt-exceeds-t-end", setopt(SIM, "--dt", "10") + OUT, USAGE)
    add("sim-dt-memory", ["simulate", "sliding-plates", "--scheme", "euler", "--dt", "1e-9"] + OUT, FAIL, True)
    add("sim-dt-max-steps", ["simulate", "sliding-plates", "--scheme", "euler", "--dt", "1e-7",
                             "--max-steps", "1000"] + OUT, FAIL)
    add("sim-dt-max-seconds", ["simulate", "sliding-plates", "--scheme", "euler", "--dt", "1e-6",
                               "--max-seconds", "1"] + OUT, FAIL)
    add("sim-dry-oscillator-no-dt", ["simulate", "dry-oscillator", "--scheme", "euler"] + OUT, USAGE)
    add("sim-diverges", ["simulate", "sliding-plates", "--scheme", "euler", "--dt", "0.5", "--t-end", "200",
                         "--param", "k=1000"] + OUT, FAIL)
    for v in ["0", "-1", "1.5", "abc"]:
        add(f"sim-max-steps={v}", SIM + ["--max-steps", v] + OUT, USAGE)
    for v in ["0", "-1", "nan", "abc"]:
        add(f"sim-max-seconds={v}", SIM + ["--max-seconds", v] + OUT, USAGE)
    for v in BAD_NUMBERS + ["1e-300", "1e400"]:
        add(f"sim-t-end={v}", setopt(SIM, "--t-end", v) + OUT, USAGE)
    for p in ("k", "m", "gamma", "v0", "xi0"):
        for v in ["nan", "inf", "0", "-1", "1e300", "1e-300"]:
            rc = ERR if v in ("nan", "inf") or f"{p}={v}" in breaking else ERR | OK
            add(f"sim-param-{p}={v}", SIM + ["--param", f"{p}={v}"] + OUT, rc)
    add("sim-out-dir", SIM + ["--out", "adir"], USAGE)
    add("sim-out-proc", SIM + ["--out", "/proc/x.csv"], USAGE)
    add("sim-out-under-file", SIM + ["--out", "afile/x.csv"], USAGE)
    add("sim-out-existing-ok", SIM + ["--out", "old.csv"], OK)
    # -- converge ------------------------------------------------------------------------
    add("conv-ok", CONV + ["--out", "conv"], OK)
    # budgets of converge (issue 12): refused before any work, or stopped by the wall clock
    add("conv-max-steps-refuses", ["converge", "sliding-plates", "--scheme", "euler", "--dt", "1e-6",
                                   "2e-6", "--max-steps", "1000", "--out", "conv"], FAIL)
    add("conv-max-seconds-stops", ["converge", "sliding-plates", "--scheme", "euler", "--dt", "1e-5",
                                   "2e-5", "--max-seconds", "0.2", "--out", "conv"], FAIL)
    add("conv-max-steps-bad", CONV + ["--max-steps", "0", "--out", "conv"], USAGE)
    add("conv-max-steps-ok", CONV + ["--max-steps", "100", "--out", "conv"], OK)
    add("conv-duplicate-scheme", CONV + ["--scheme", "euler", "--out", "conv"], USAGE)
    add("conv-duplicate-dt", ["converge", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "0.1",
                              "0.1", "--t-end", "0.5", "--out", "conv"], USAGE)
    add("conv-duplicate-law", CONV + ["--law", "c-sds", "--law", "c-sds", "--out", "conv"], USAGE)
    for v in ["0", "-1", "nan", "abc"]:
        add(f"conv-dt={v}", ["converge", "sliding-plates", "--scheme", "euler", "--dt", v, "--out", "conv"], USAGE)
    add("conv-scheme-unknown", ["converge", "sliding-plates", "--scheme", "nope", "--out", "conv"], USAGE)
    add("conv-case-unknown", ["converge", "nope", "--scheme", "euler", "--out", "conv"], USAGE)
    add("conv-jobs-0", CONV + ["--jobs", "0", "--out", "conv"], USAGE)
    add("conv-fit-range-bad", CONV + ["--fit-range", "0", "1", "--out", "conv"], USAGE)
    add("conv-var-unknown", CONV + ["--var", "nope", "--out", "conv"], USAGE)
    add("conv-time-nan", CONV + ["--time", "nan", "--out", "conv"], ERR)
    add("conv-out-file", CONV + ["--out", "afile"], USAGE)
    add("conv-out-proc", CONV + ["--out", "/proc/conv"], USAGE)
    add("conv-param-nan", CONV + ["--param", "m=nan", "--out", "conv"], USAGE)
    add("conv-t-end-inf", CONV[:-2] + ["--t-end", "inf", "--out", "conv"], USAGE)
    # -- run, check, report --------------------------------------------------------------
    add("run-case-unknown", ["run", "nope", "--out", "runout"], USAGE)
    add("run-out-file", ["run", "sliding-plates", "--out", "afile"], USAGE)
    add("run-out-proc", ["run", "sliding-plates", "--out", "/proc/runout"], USAGE)
    add("run-out-under-file", ["run", "sliding-plates", "--out", "afile/sub"], USAGE)
    add("run-out-long", ["run", "sliding-plates", "--out", "y" * 300], USAGE)
    add("check-no-match", ["check", "--only", "zzz-no-such-check"], USAGE)
    add("check-ok", ["check", "--only", "dsds-reset"], OK)
    add("check-ok-json", ["check", "--only", "dsds-reset", "--json"], OK)
    add("report-out-file", ["report", "--out", "afile", "--no-checks", "--cases", "sliding-plates"], USAGE)
    add("report-out-proc", ["report", "--out", "/proc/rep", "--no-checks"], USAGE)
    add("report-case-unknown", ["report", "--out", "rep", "--no-checks", "--cases", "nope"], USAGE)
    return c


CASES = _cases()


def _setup(d):
    """The working folder of one case: files a failure must leave untouched (old.csv and
    old.json an earlier output of nsfric, listed in the folder's manifest; the others
    the user's)."""
    from nsfric.io import write_csv_with_sidecar

    write_csv_with_sidecar(os.path.join(d, "old.csv"), {"t": [0.0, 1.0]}, {"old": True})
    for name, text in (("afile", "a file\n"), ("user.csv", "the user's\n")):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    for name in ("adir", "sidecar.json"):
        os.mkdir(os.path.join(d, name))


def _snapshot(d):
    snap = {}
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            p = os.path.join(root, name)
            st_ = os.lstat(p)
            digest = None
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()
            snap[os.path.relpath(p, d)] = (st_.st_mode, digest)
    return snap


def _forked(argv, cwd):
    """Run ``nsfric.cli.main(argv)`` in a forked process; ``(rc, stdout, stderr)``."""
    from nsfric.cli import main

    out_path, err_path = os.path.join(cwd, "..", "stdout"), os.path.join(cwd, "..", "stderr")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        rc = 99
        try:
            os.chdir(cwd)
            for fd, path in ((1, out_path), (2, err_path)):
                h = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(h, fd)
                os.close(h)
            sys.stdout = open(1, "w", closefd=False)
            sys.stderr = open(2, "w", closefd=False)
            import importlib
            import warnings

            importlib.reload(warnings)  # leave pytest's warning capture: print as python would
            warnings.resetwarnings()
            warnings.simplefilter("default")
            try:
                rc = main(argv)
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 1
            except BaseException:
                import traceback

                traceback.print_exc()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(rc)
    deadline = time.monotonic() + TIMEOUT
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"nsfric {' '.join(argv)} did not end within {TIMEOUT} s")
        time.sleep(0.01)
    with open(out_path) as f, open(err_path) as g:
        return os.waitstatus_to_exitcode(status), f.read(), g.read()


def _real(argv, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        p = subprocess.run([sys.executable, "-m", "nsfric.cli"] + argv, cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"nsfric {' '.join(argv)} did not end within {TIMEOUT} s")
    return p.returncode, p.stdout, p.stderr


def _strict_json(text):
    def bad(c):
        raise ValueError(f"non-strict JSON constant {c}")
    return json.loads(text, parse_constant=bad)


def _check_outputs(d):
    """No temporary file; finite numbers in every CSV and JSON written."""
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            assert not name.startswith((".tmp-", ".old-")), f"temporary file left: {name}"
        for name in files:
            p = os.path.join(root, name)
            if name.endswith(".csv") and name not in ("old.csv", "user.csv"):
                with open(p) as f:
                    rows = list(csv.reader(f))
                assert len(rows) >= 2, f"{name}: no data rows"
                head = rows[0]
                for row in rows[1:]:
                    if "reason" in head and row[head.index("reason")].startswith("no order"):
                        continue  # a study's "no order" row: NaN order, the reason says why
                    for cell in row:
                        try:
                            x = float(cell)
                        except ValueError:
                            continue
                        assert math.isfinite(x), f"{name}: non-finite value {cell!r}"
            elif name.endswith(".json") and name != "old.json":
                with open(p) as f:
                    _strict_json(f.read())


@pytest.mark.parametrize("argv,expected,real", CASES)
def test_cli_fuzz(argv, expected, real, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    _setup(str(work))
    before = _snapshot(str(work))
    rc, out, err = (_real if real else _forked)(argv, str(work))
    assert "Traceback" not in err and "Traceback" not in out, err
    assert "Warning" not in err, f"raw warning printed: {err}"
    assert "Zeno" not in err, f"no case of the table accumulates events: {err}"
    assert rc in {0, 1, 2}, (rc, err)
    assert rc in expected, (rc, err)
    if rc == 0:
        assert err == "", err
        _check_outputs(str(work))
    else:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("nsfric: "), err
        assert _snapshot(str(work)) == before, "a failed command changed the folder"


def test_fuzz_table_size():
    assert len(CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


# -- the API: hypothesis strategies ---------------------------------------------------------
@pytest.fixture(scope="module")
def solutions():
    import nsfric

    ref = nsfric.get_case("sliding-plates").reference_solution("c-sds", t_end=1.0, samples=5)
    disc = nsfric.simulate("sliding-plates", "c-sds", "euler", dt=0.1, t_end=0.95)
    return ref, disc


outside = st.one_of(st.floats(max_value=-1e-6), st.floats(min_value=1.0 + 1e-6),
                    st.just(float("nan")), st.just(float("inf")))


@settings(max_examples=40, deadline=None)
@given(t=outside, which=st.sampled_from([0, 1]), as_array=st.booleans())
def test_solution_outside_span_raises(solutions, t, which, as_array):
    sol = solutions[which]
    a, b = sol.span
    with pytest.raises(ValueError, match="outside the solution's span"):
        sol(np.array([a, t]) if as_array else t)
    with pytest.raises(ValueError, match="outside the solution's span"):
        sol.mode_at(t)


def test_discrete_span_ends_on_last_row(solutions):
    _, disc = solutions
    assert disc.span[1] == pytest.approx(0.9)
    with pytest.raises(ValueError, match=r"span \[0, 0.9"):
        disc(0.93)
    assert np.all(np.isfinite(disc(np.linspace(0.0, 0.9, 7))))


bad_t_eval = st.one_of(
    st.just([]), st.just([0.5, 0.2]), st.just([0.1, 0.1]), st.just([0.0, float("nan")]),
    st.lists(st.floats(min_value=1.0001, max_value=1e6), min_size=1, max_size=4),
    st.lists(st.floats(max_value=-1e-3, min_value=-1e6), min_size=1, max_size=4),
    st.just([[0.0, 0.5]]))


@settings(max_examples=25, deadline=None)
@given(t_eval=bad_t_eval)
def test_bad_t_eval_raises(t_eval):
    import nsfric

    with pytest.raises(ValueError, match="t_eval"):
        nsfric.get_case("sliding-plates").reference_solution("c-sds", t_end=1.0, t_eval=t_eval)


@settings(max_examples=20, deadline=None)
@given(samples=st.one_of(st.integers(max_value=1), st.floats(allow_nan=True).filter(
    lambda x: not (x == x and x.is_integer() and x >= 2)), st.just("5"), st.just(True)))
def test_bad_samples_raise(samples):
    import nsfric

    with pytest.raises(ValueError, match="samples"):
        nsfric.get_case("sliding-plates").reference_solution("c-sds", t_end=1.0, samples=samples)


@settings(max_examples=20, deadline=None)
@given(t_end=st.one_of(st.just(float("inf")), st.just(float("nan")), st.floats(max_value=0.0),
                       st.just(-float("inf"))))
def test_bad_t_end_raises(t_end):
    import nsfric

    with pytest.raises(ValueError, match="t_end"):
        nsfric.get_case("sliding-plates").reference_solution("c-sds", t_end=t_end, samples=3)


option_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12).filter(
    lambda s: s not in {"method", "n_check", "jacobian", "maxord", "max_steps", "max_events", "zeno_window",
                        "max_seconds", "rtol", "atol"})


@settings(max_examples=25, deadline=None)
@given(solver=st.sampled_from(["filippov", "analytic", "ida", "radau5dae"]), name=option_names)
def test_unknown_solver_option_raises(solver, name):
    from nsfric.solvers import get_solver

    with pytest.raises(ValueError, match=f"unknown option.*{name}.*allowed: .*max_events"):
        get_solver(solver, **{name: 1})


@pytest.mark.parametrize("kw,match", [({"max_steps": 10}, "max_steps = 10"),
                                      ({"dt": 1e-10}, "memory limit")])
def test_simulate_budgets(kw, match):
    import nsfric
    from nsfric.errors import BudgetError

    with pytest.raises(BudgetError, match=match):
        nsfric.simulate("sliding-plates", "c-sds", "euler", **{"dt": 0.01, **kw})


def test_wall_time_budget_stops_a_stiff_reference():
    import nsfric
    from nsfric.errors import BudgetError

    with pytest.raises(BudgetError, match="max_seconds = 0.5.*--max-seconds"):
        nsfric.get_case("sliding-plates").reference_solution(  # DOP853 in a stiff phase stalls
            "c-sds", params={"gamma": 1e-9}, samples=3, max_seconds=0.5, method="DOP853")


def test_solver_failure_names_the_parameter():
    import nsfric
    from nsfric.errors import SolverFailure, ZenoError

    # a failure (the chattering diagnosis or another solver failure) that names the
    # extreme parameter, within seconds (on 14cdfd8 this ran past the 900 s timeout)
    with pytest.raises((SolverFailure, ZenoError), match="m = 1e-300"):
        nsfric.get_case("sliding-plates").reference_solution("c-sds", params={"m": 1e-300}, samples=3)
