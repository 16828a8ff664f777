"""Fuzz cases of issue 24 (tracebacks, signals, wrong refusals, unclear errors, API values).

Classes: a closed standard output; SIGTERM and SIGINT at several moments (real
subprocesses: a signal needs a process of its own); listed cases and valid inputs that
were refused; errors that blamed the wrong thing; values the API accepted silently (one
validator, :mod:`nsfric.arguments`, behind every entry point); the reason of a fit whose
runs all diverged.  Everything that does not need a process of its own runs in-process
(``nsfric.cli.main([...])`` with ``capsys``).
"""
from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import nsfric
from nsfric.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = [sys.executable, "-m", "nsfric.cli"]
IMPACT = nsfric.get_case("normal-impact")


def _env(tmp_path, **extra):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               NSFRIC_CACHE_DIR=str(tmp_path / "cache"))
    env.update(extra)
    return env


def _sh(cmd: str, tmp_path, timeout=120):
    """``cmd`` through ``sh -c`` (so ``>&-`` really closes the descriptor), in ``tmp_path``."""
    return subprocess.run(["sh", "-c", cmd], cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                          text=True, timeout=timeout)


def _one_line(text: str):
    assert "Traceback" not in text, text
    assert text.count("\n") == 1 and text.startswith("nsfric: "), text


def _run_cli(argv, capsys):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


# -- closed standard output -------------------------------------------------------------
NSFRIC = f"'{sys.executable}' -m nsfric.cli"


@pytest.mark.parametrize("cmd,rc", [
    ("list >&-", 0),
    ("list >&- 2>&-", 0),
    ("--version >&-", 0),
    ("list --bogus >&-", 2),
    ("simulate sliding-plates --scheme euler --dt 0.1 --t-end 0.5 --out sim.csv >&-", 0),
], ids=["list", "list-no-stderr", "version", "usage-error", "simulate-writes"])
def test_closed_stdout_no_traceback(cmd, rc, tmp_path):
    """A closed stdout (``>&-``): the command runs, writes its files, prints nothing to
    stdout, and exits with its own status; no traceback."""
    r = _sh(f"{NSFRIC} {cmd}", tmp_path)
    assert r.returncode == rc, r.stderr
    assert "Traceback" not in r.stderr and "Error" not in r.stderr.replace("nsfric: error", ""), r.stderr
    if rc == 2:
        _one_line(r.stderr)
    if "simulate" in cmd:
        with open(tmp_path / "sim.csv") as f:
            rows = list(csv.reader(f))
        assert rows[0][0] == "t" and len(rows) == 7  # t = 0, 0.1, ..., 0.5
        assert (tmp_path / "sim.json").exists()


# -- signals ----------------------------------------------------------------------------
def _default_signals():
    """In the child before exec: SIGINT at its default, as in a terminal.  A test run
    started in the background by a non-interactive shell inherits SIGINT ignored, and
    nsfric (as Python) rightly leaves an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _signal_after(argv, sig, tmp_path, ready, timeout=120, env=None):
    """Start ``nsfric argv``; once ``ready(stderr so far)`` is true (or the time given as
    ``ready`` has passed), send ``sig``; return the completed process."""
    p = subprocess.Popen(CLI + argv, cwd=tmp_path, env=env or _env(tmp_path), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=_default_signals)
    t0 = time.monotonic()
    try:
        while time.monotonic() - t0 < ready:
            if p.poll() is not None:
                break
            time.sleep(0.05)
        p.send_signal(sig)
        out, err = p.communicate(timeout=timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    return p.returncode, out, err


def test_sigterm_during_numba_compilation(tmp_path):
    """SIGTERM while numba compiles the DOP853 stepper's kernel on a cold cache: one line, exit 143,
    no traceback, no output file."""
    code = ("import os, signal, threading, nsfric.cli as c\n"
            "import numba.core.compiler as nc\n"
            "orig = nc.compile_extra\n"
            "def slow(*a, **k):\n"  # compilation has started: tell the test, then let it run
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "    return orig(*a, **k)\n"
            "nc.compile_extra = slow\n"
            "raise SystemExit(c.main(['reference', 'sliding-plates', '--method', 'dop853-numba', '--t-end',"
            " '0.5', '--samples', '5', '--no-cross-check', '--out', 'x.csv']))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 143, r.stderr
    _one_line(r.stderr)
    assert "terminated" in r.stderr
    assert not (tmp_path / "x.csv").exists()


LONG_SWEEP = ["sweep", "normal-impact", "--grid", "v_i=logspace:-1:1:5000", "--observable", "e_n",
              "--no-cache", "--no-estimate", "--out", "sw"]


@pytest.mark.parametrize("sig,rc,word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
                         ids=["SIGTERM", "SIGINT"])
def test_signal_during_a_serial_sweep(sig, rc, word, tmp_path):
    """A signal while the points of a sweep run in the process: one line, the
    conventional status (128 + the signal), no output folder."""
    code, out, err = _signal_after(LONG_SWEEP, sig, tmp_path, ready=5.0)
    assert code == rc and out == "", err
    _one_line(err)
    assert word in err and not (tmp_path / "sw").exists()


def test_sigint_with_dask_local_is_one_line(tmp_path):
    """Ctrl-C while a ``--dask-local`` sweep runs: one line, exit 130, no worker
    tracebacks, no output folder."""
    pytest.importorskip("distributed")
    # long enough not to finish before the signal on a fast, idle machine (400 points did)
    argv = ["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=logspace:-1:1:20000", "--observable",
            "e_n", "--dask-local", "2", "--no-cache", "--no-estimate", "--out", "sw"]
    rc, out, err = _signal_after(argv, signal.SIGINT, tmp_path, ready=12.0, timeout=60)
    assert rc == 130, err
    _one_line(err)
    assert "interrupted" in err and not (tmp_path / "sw").exists()


# -- wrong refusals ---------------------------------------------------------------------
def test_reference_column_detachment_works_and_is_the_case_s_own(tmp_path, capsys):
    """``nsfric reference column-detachment`` (a listed case): the trajectory of the
    case's exact solver, the sidecar's e_tot that of the case's own run, kinetic energy
    never rising (a dashpot only dissipates) and the final velocities those of the CSV."""
    out = tmp_path / "col.csv"
    rc, stdout, err = _run_cli(["reference", "column-detachment", "--param", "N=3", "--samples", "201",
                                "--out", out], capsys)
    assert rc == 0, err
    meta = json.loads((tmp_path / "col.json").read_text())
    own = nsfric.get_case("column-detachment").reference_solution(params={"N": 3}, samples=201)
    assert meta["solver"] == "contacts" and meta["summary"]["e_tot"] == own.summary["e_tot"]
    assert 0 < meta["summary"]["e_tot"] < 1
    with open(out) as f:
        rows = list(csv.DictReader(f))
    t = np.array([float(r["t"]) for r in rows])
    np.testing.assert_array_equal(t, own.t)
    E = np.array([float(r["E_kin"]) for r in rows])
    v_f = np.array([float(rows[-1][f"v_{i}"]) for i in (1, 2, 3)])
    assert E[-1] < E[0] and 0 < v_f[0] <= v_f[1] <= v_f[2]  # dissipated, separated, moving away
    assert abs(v_f.sum() / (3 * 1.0) - meta["summary"]["e_tot"]) < 1e-12  # v_0 = 1 m/s
    assert "contacts" in stdout


@pytest.mark.parametrize("extra,msg", [(["--solver", "ida"], "--solver ida"),
                                       (["--rtol", "1e-6"], "--rtol"),
                                       (["--method", "RK45"], "--method")])
def test_reference_column_detachment_refuses_what_does_not_apply(extra, msg, tmp_path, capsys):
    rc, out, err = _run_cli(["reference", "column-detachment", *extra, "--out", tmp_path / "c.csv"], capsys)
    assert rc == 2 and msg in err and "contacts" in err
    _one_line(err)
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("v_i", [1e-12, 1e-9, 1e-6])
def test_slow_normal_impact_is_solved_not_refused(v_i):
    """A normal impact at v_i down to 1e-12 m/s: solved (it was refused as chattering at
    any atol); e_n is the linear dashpot's closed form, which does not depend on v_i, and
    xi_max scales with v_i (the absolute atol scaled with the states, as for any solve)."""
    sol = IMPACT.reference_solution("linear-dashpot", params={"v_i": v_i}, samples=11, atol=1e-14 * v_i)
    e_n = IMPACT.reference_solution("linear-dashpot", params={"v_i": 1.0}, samples=11).summary
    from nsfric.papers.schafer1996.normal_impact import closed_form

    values = IMPACT.bind("linear-dashpot", {"v_i": v_i})
    assert abs(sol.summary["e_n"] - float(closed_form("linear-dashpot e_n", values))) < 1e-8
    assert abs(sol.summary["xi_max"] / v_i - e_n["xi_max"]) < 1e-8 * e_n["xi_max"]
    assert [e.kind for e in sol.events] == ["max-overlap", "contact-end"]


# -- sweep errors name the real cause ---------------------------------------------------
SWEEP = ["sweep", "normal-impact", "--grid", "v_i=0.5,2", "--observable", "e_n", "--no-cache",
         "--no-estimate"]


@pytest.mark.parametrize("extra,msg", [
    (["--t-end", "1e-6"], "--t-end"),
    (["--atol", "0.5"], "--atol"),
    (["--param", "xi0=-0.5"], "no impact"),
], ids=["t-end", "atol", "no-impact"])
def test_sweep_error_names_the_cause(extra, msg, tmp_path, capsys):
    rc, out, err = _run_cli([*SWEEP, *extra, "--out", tmp_path / "s"], capsys)
    assert rc == 1 and msg in err and "unknown observable" not in err, err
    _one_line(err)
    assert not (tmp_path / "s").exists()


def test_sweep_keep_going_keeps_going(tmp_path, capsys):
    """``--keep-going`` with a point that has no impact before ``--t-end`` (a 1 mm gap at
    1 m/s): the sweep finishes, the failed point is NaN with its reason, stdout and the
    exit status say that one failed."""
    argv = ["sweep", "normal-impact", "--grid", "xi0=-1e-3,0", "--observable", "e_n",
            "--no-cache", "--no-estimate", "--t-end", "1e-4", "--keep-going", "--out", tmp_path / "s"]
    rc, out, err = _run_cli(argv, capsys)
    assert rc == 1 and "1 of 2 points failed" in out, (out, err)
    _one_line(err)
    with open(tmp_path / "s" / "sweep.csv") as f:
        gap, touching = csv.DictReader(f)
    assert gap["e_n"] in ("", "nan") and "no impact" in gap["failure"] and "--t-end" in gap["failure"]
    assert abs(float(touching["e_n"]) - 0.8700812795) < 1e-8 and touching["failure"] == ""


def test_sweep_api_record_gives_the_reason():
    ds = nsfric.sweep("normal-impact", law="hertz", grid={"v_i": [1e-3, 10.0]}, observables=["e_n"],
                      t_end=1e-4, estimate=False, on_failure="record")
    assert np.isnan(float(ds.e_n[0])) and "did not end before t_end" in str(ds.failure.values[0])
    assert 0.99 < float(ds.e_n[1]) <= 1.0 and str(ds.failure.values[1]) == ""


# -- values the API accepted silently ---------------------------------------------------
SIM = dict(scheme="euler", dt=0.1, t_end=0.5)


@pytest.mark.parametrize("value", ["1.5", True, None, float("nan"), 1 + 2j],
                         ids=["str", "bool", "None", "nan", "complex"])
def test_parameter_values_must_be_numbers(value):
    with pytest.raises(ValueError, match="parameter 'k'"):
        nsfric.simulate("sliding-plates", params={"k": value}, **SIM)
    with pytest.raises(ValueError, match="parameter 'v_i'"):
        IMPACT.bind("linear-dashpot", {"v_i": value})


@pytest.mark.parametrize("dt", [True, False, "0.1", None, float("nan"), math.inf, 0.0, -0.1, 1j, [0.1]])
def test_simulate_dt(dt):
    with pytest.raises(ValueError, match="dt"):
        nsfric.simulate("sliding-plates", scheme="euler", dt=dt, t_end=0.5)


@pytest.mark.parametrize("name,value", [
    ("t_end", True), ("t_end", "1"), ("t_end", float("nan")), ("t_end", -1.0),
    ("max_steps", 0), ("max_steps", True), ("max_steps", 2.5),
    ("max_seconds", 0.0), ("max_seconds", True), ("max_seconds", float("nan"))])
def test_simulate_other_numbers(name, value):
    with pytest.raises(ValueError, match=name):
        nsfric.simulate("sliding-plates", **{**SIM, name: value})


CONV = dict(schemes=["euler"], dts=[0.1, 0.05, 0.025], t_end=0.5)


@pytest.mark.parametrize("name,value", [
    ("fit_range", (float("nan"), 1.0)), ("fit_range", (0.1,)), ("fit_range", (0.1, -1.0)),
    ("fit_range", (0.1, 0.1)), ("fit_range", "0.1,1"), ("fit_range", (True, 1.0)),
    ("dts", []), ("dts", [0.1, True]), ("dts", np.array([[0.1, 0.05]])), ("dts", [0.1, 0.1]),
    ("times", [0.1, 0.1]), ("times", [float("nan")]),
    ("tol", 0.0), ("tol", float("nan")), ("tol", True),
    ("jobs", 0), ("jobs", True), ("jobs", 1.5), ("max_steps", True), ("max_seconds", -1.0)])
def test_converge_values(name, value):
    with pytest.raises(ValueError, match=name):
        nsfric.converge("sliding-plates", **{**CONV, name: value})


SW = dict(grid={"v_i": [1.0]}, observables=["e_n"], estimate=False)


@pytest.mark.parametrize("name,value", [
    ("jobs", 0), ("jobs", -2), ("jobs", True), ("jobs", "2"), ("jobs", 1.5),
    ("retries", -1), ("retries", True), ("retries", 0.5),
    ("chunksize", 0), ("chunksize", True),
    ("t_end", 0.0), ("t_end", "1"), ("t_end", float("nan"))])
def test_sweep_values(name, value):
    with pytest.raises(ValueError, match=name):
        nsfric.sweep("normal-impact", **{**SW, name: value})


@pytest.mark.parametrize("grid,msg", [
    ({"v_i": np.array([[0.5, 1.0], [2.0, 4.0]])}, "one-dimensional"),
    ({"v_i": []}, "no values"),
    ({"v_i": [1.0, True]}, "v_i"),
    ({"v_i": [1.0, None]}, "v_i"),
    ({"v_i": [1.0, 1j]}, "v_i"),
])
def test_sweep_grid_values(grid, msg):
    with pytest.raises(ValueError, match=msg):
        nsfric.sweep("normal-impact", grid=grid, observables=["e_n"], estimate=False)


@pytest.mark.parametrize("name,value", [
    ("rtol", True), ("rtol", "1e-6"), ("atol", float("nan")), ("atol", 0.0),
    ("max_events", 0), ("max_events", True), ("zeno_window", 1.5), ("max_seconds", -1.0)])
def test_solver_options(name, value):
    with pytest.raises(ValueError, match=name):
        nsfric.get_solver("filippov", **{name: value})


@pytest.mark.parametrize("samples", [True, 1, 2.5, "11", float("nan")])
def test_reference_samples(samples):
    with pytest.raises(ValueError, match="samples"):
        IMPACT.reference_solution("linear-dashpot", samples=samples)


@pytest.mark.parametrize("argv,msg", [
    (["--time", "0.1", "--time", "0.1"], "--time"),
    (["--time", "nan"], "--time"),
    (["--time", "inf"], "--time"),
])
def test_cli_converge_times(argv, msg, tmp_path, capsys):
    rc, out, err = _run_cli(["converge", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "0.05",
                             "--t-end", "0.5", *argv, "--out", tmp_path / "c"], capsys)
    assert rc == 2 and msg in err, err
    _one_line(err)
    assert not (tmp_path / "c").exists()


# -- the reason of a fit whose runs diverged --------------------------------------------
def test_fit_reason_when_every_run_diverged():
    from nsfric.study.fit import fit_order

    fit = fit_order([0.1, 0.05, 0.025, 0.0125], [np.inf, np.nan, np.inf, 1e300 * 1e10], floor=1e-14)
    assert math.isnan(fit.order) and "diverged" in fit.reason and "round-off" not in fit.reason
    assert "0.1" in fit.reason and "0.0125" in fit.reason
    fit = fit_order([0.1, 0.05, 0.025, 0.0125], [np.inf, np.nan, 1e-16, 1e-17], floor=1e-14)
    assert "diverged at dt = 0.1, 0.05" in fit.reason and "round-off floor" in fit.reason
    fit = fit_order([0.1, 0.05, 0.025, 0.0125], [1e-16] * 4, floor=1e-14)
    assert "round-off floor" in fit.reason and "diverged" not in fit.reason
