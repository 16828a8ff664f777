"""Parameter sweeps (issue 14): grid syntax, values equal to the single references, the
same Dataset on every executor (a real Dask LocalCluster included, with a worker killed
mid-sweep), the content-hash cache (resume, corrupt entries, --force), the outputs and
the one-line errors of ``nsfric sweep``."""
import csv
import functools
import json
import os
import re
import signal
import subprocess
import sys

import cloudpickle
import numpy as np
import pytest
import xarray as xr

import nsfric
from nsfric.study.cache import PointCache, model_hash
from nsfric.study.grid import parse_axis, parse_grid
from nsfric.study.results import sweep_columns, write_sweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = nsfric.get_case("normal-impact")
SPEEDS = [0.5, 2.0, 8.0]


# -- grid syntax -------------------------------------------------------------------------
def test_grid_syntax():
    assert parse_axis("v_i=0.5,2") == ("v_i", [0.5, 2.0])
    assert parse_axis("mu=0:1:5")[1] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert parse_axis("v_i=logspace:-2:2:33")[1] == list(np.logspace(-2, 2, 33))
    assert parse_axis("law=hertz, walton-braun")[1] == ["hertz", "walton-braun"]
    assert list(parse_grid(["b=1", "a=2,3"])) == ["b", "a"]  # order = dimensions


@pytest.mark.parametrize("item,msg", [
    ("v_i", "NAME=VALUES"), ("v_i=", "no values"), ("v_i=1:2", "START:STOP:NUM"),
    ("v_i=0:1:0", "NUM must be"), ("v_i=logspace:1:2", "logspace:A:B:NUM"), ("v_i=1,x", "not a number"),
    ("v_i=1,inf", "finite"),
])
def test_grid_syntax_errors(item, msg):
    with pytest.raises(ValueError, match=msg):
        parse_grid([item])


def test_bad_input_names_the_allowed_values():
    with pytest.raises(ValueError, match=r"unknown grid name\(s\) \['x'\].*'v_i'"):
        nsfric.sweep(CASE, "hertz", {"x": [1.0]}, ["e_n"])
    with pytest.raises(ValueError, match=r"unknown observable\(s\) \['zz'\].*'e_n', 't_n', 'xi_max'"):
        nsfric.sweep(CASE, "hertz", {"v_i": [1.0]}, ["zz"], estimate=False)
    with pytest.raises(ValueError, match="unknown law 'foo'.*'hertz'"):
        nsfric.sweep(CASE, "foo", {"v_i": [1.0]}, ["e_n"])
    with pytest.raises(ValueError, match=r"v_i.*must (lie|be a finite number) in"):
        nsfric.sweep(CASE, "hertz", {"v_i": [1.0, -1.0]}, ["e_n"])
    with pytest.raises(ValueError, match="given more than once"):
        nsfric.sweep(CASE, "hertz", {"v_i": [1.0, 1.0]}, ["e_n"])
    with pytest.raises(ValueError, match="unknown solver"):
        nsfric.sweep(CASE, "hertz", {"v_i": [1.0]}, ["e_n"], solver="nope")
    with pytest.raises(ValueError, match="unknown case"):
        nsfric.sweep("no-such-case", None, {"v_i": [1.0]}, ["e_n"])


# -- values ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def serial():
    return nsfric.sweep("normal-impact", grid={"law": ["hertz", "walton-braun"], "v_i": SPEEDS},
                        observables=["e_n", "t_n"])


def test_values_equal_the_single_references(serial):
    ds = serial
    assert list(ds.sizes.items()) == [("law", 2), ("v_i", 3)]
    for law in ("hertz", "walton-braun"):
        for v in SPEEDS:
            sol = CASE.reference_solution(law, params={"v_i": v}, samples=2)
            point = ds.sel(law=law, v_i=v)
            assert float(point.e_n) == sol.summary["e_n"] and float(point.t_n) == sol.summary["t_n"]
            assert int(point.nfev) == sol.stats["nfev"] and int(point.nevents) == sol.stats["nevents"]
            loose = CASE.reference_solution(law, params={"v_i": v}, samples=2, rtol=1e-10, atol=1e-12)
            assert float(point.error_estimate_e_n) == abs(sol.summary["e_n"] - loose.summary["e_n"])
    assert 0 < float(ds.error_estimate_e_n.max()) < 1e-6
    assert ds.v_i.attrs["units"] == "m/s" and ds.t_n.attrs["units"] == "s" and ds.e_n.attrs["units"] == "1"
    assert ds.attrs["case"] == "normal-impact" and json.loads(ds.attrs["versions"])["nsfric"] == nsfric.__version__
    assert list(ds.to_dataframe().index.names) == ["law", "v_i"]


def test_discrete_points_equal_the_convergence_rows():
    ds = nsfric.sweep(CASE, "hertz", {"scheme": ["euler", "heun"], "dt": [2e-6, 1e-6]},
                      ["error", "error_xi"], solver="filippov")
    res = nsfric.converge(CASE, "hertz", ["euler", "heun"], dts=[2e-6, 1e-6], reference="filippov")
    for row in res.rows:
        point = ds.sel(scheme=row["scheme"], dt=row["dt"])
        assert float(point.error) == row["error"] and float(point.error_xi) == row["error_xi"]
        assert int(point.n_rhs) == row["n_rhs"]


def test_fig2_computes_through_sweep():
    """Fig 2's columns (now one sweep) equal the per-law references it used to loop over."""
    from nsfric.papers.schafer1996.normal_impact_figures import FIG2_LAWS, fig2_data

    cols = fig2_data(CASE, speeds=[0.1, 10.0], jobs=2)
    for law in FIG2_LAWS:
        want = [CASE.restitution(CASE.reference_solution(law, params={"v_i": v}, samples=2), law)["e_n"]
                for v in (0.1, 10.0)]
        assert list(cols[f"e_n {law}"]) == want
    assert list(cols["t_n hertz"]) == [CASE.reference_solution("hertz", params={"v_i": v}, samples=2)
                                       .summary["t_n"] for v in (0.1, 10.0)]


# -- executors ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the point functions below
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def test_every_executor_gives_the_same_dataset(serial, client):
    from concurrent.futures import ThreadPoolExecutor

    args = dict(grid={"law": ["hertz", "walton-braun"], "v_i": SPEEDS}, observables=["e_n", "t_n"])
    runs = {"jobs=2": nsfric.sweep(CASE, jobs=2, **args),
            "dask": nsfric.sweep(CASE, executor=client, chunksize=1, **args)}
    with ThreadPoolExecutor(2) as ex:
        runs["threads"] = nsfric.sweep(CASE, executor=ex, **args)
    for name, ds in runs.items():
        xr.testing.assert_equal(ds, serial)  # values, coordinates, dimensions (not timings)
        assert ds.e_n.dtype == serial.e_n.dtype, name


def test_cli_sweep_on_an_existing_cluster(serial, client, tmp_path, capsys):
    from nsfric.cli import main

    out = tmp_path / "d"
    rc = main(["sweep", "normal-impact", "--grid", "law=hertz,walton-braun", "--grid", "v_i=0.5,2,8",
               "--observable", "e_n", "--observable", "t_n", "--no-cache", "--scheduler", client.scheduler.address,
               "--out", str(out)])
    assert rc == 0 and "6 points (6 computed" in capsys.readouterr().out
    xr.testing.assert_equal(xr.open_dataset(out / "sweep.nc").load(), serial)


def e_n_at(point):
    """A point function: ``e_n`` of a Hertz impact at ``v_i``."""
    return {"e_n": nsfric.get_case("normal-impact").reference_solution(
        "hertz", params={"v_i": point["v_i"]}, samples=2).summary["e_n"]}


def kill_once(point, marker):
    """``e_n_at``, but the first call anywhere kills its worker process."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return e_n_at(point)


def test_a_killed_worker_is_retried_and_the_result_unchanged(client, tmp_path):
    grid = {"v_i": [0.5, 1.0, 2.0, 4.0]}
    local = nsfric.sweep(e_n_at, grid=grid, observables=["e_n"])
    marker = str(tmp_path / "killed")
    ds = nsfric.sweep(functools.partial(kill_once, marker=marker), grid=grid, observables=["e_n"],
                      executor=client, chunksize=1)
    assert os.path.exists(marker)  # a worker did die
    xr.testing.assert_equal(ds, local)
    assert list(ds.e_n.values) == [e_n_at({"v_i": v})["e_n"] for v in grid["v_i"]]


def kill_worker_once(point, marker, parent):
    """``e_n_at``, but the first call in a worker process (not in ``parent``) kills it."""
    if os.getpid() != parent and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return e_n_at(point)


def kill_worker_always(point, parent):
    if os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    return e_n_at(point)


def test_a_killed_local_worker_is_retried_and_the_result_unchanged(tmp_path):
    """``jobs``: a worker killed mid-sweep breaks the pool; the unfinished points run on
    a new one; a worker dying every time stops the sweep after ``retries`` new pools."""
    from nsfric.errors import WorkerDied

    grid = {"v_i": [0.5, 1.0, 2.0, 4.0, 8.0]}
    local = nsfric.sweep(e_n_at, grid=grid, observables=["e_n"])
    marker = str(tmp_path / "killed")
    seen = []
    ds = nsfric.sweep(functools.partial(kill_worker_once, marker=marker, parent=os.getpid()), grid=grid,
                      observables=["e_n"], jobs=2, chunksize=1, progress=lambda done, total: seen.append(done))
    assert os.path.exists(marker)  # a worker did die
    xr.testing.assert_equal(ds, local)
    assert seen == [0, 1, 2, 3, 4, 5]  # every point delivered once
    with pytest.raises(WorkerDied, match="died 2 times .retries = 1."):
        nsfric.sweep(functools.partial(kill_worker_always, parent=os.getpid()), grid=grid,
                     observables=["e_n"], jobs=2, chunksize=1, retries=1)


def zeno_above_one(point):
    """A point function whose solver 'fails' above x = 1."""
    if point["x"] > 1:
        raise nsfric.ZenoError(f"events accumulate at x = {point['x']}\nsecond line")
    return {"y": 2 * point["x"]}


def test_failed_points_stop_the_sweep_or_are_recorded(tmp_path):
    grid = {"x": [0.5, 2.0, 1.0]}
    with pytest.raises(nsfric.ZenoError):
        nsfric.sweep(zeno_above_one, grid=grid, observables=["y"])
    ds = nsfric.sweep(zeno_above_one, grid=grid, observables=["y"], on_failure="record", cache_dir=str(tmp_path))
    assert list(ds.y.values[[0, 2]]) == [1.0, 2.0] and np.isnan(ds.y.values[1])
    assert list(ds.failure.values) == ["", "ZenoError: events accumulate at x = 2.0", ""]
    again = nsfric.sweep(zeno_above_one, grid=grid, observables=["y"], on_failure="record", cache_dir=str(tmp_path))
    assert json.loads(again.attrs["computed_points"]) == 1  # failures are not cached
    with pytest.raises(ValueError, match="on_failure"):
        nsfric.sweep(zeno_above_one, grid=grid, observables=["y"], on_failure="skip")


# -- cache -------------------------------------------------------------------------------
def _entries(root):
    """``(chunk file, line)`` of every entry of the point cache at ``root``."""
    out = []
    for path in sorted(root.rglob("*.chunk")):
        lines = path.read_text().split("\n")
        out += [(path, i) for i, line in enumerate(lines[1:], 1) if line]
    return out


def _edit_line(path, i, edit):
    lines = path.read_text().split("\n")
    changed = edit(lines[i])
    assert changed != lines[i]
    lines[i] = changed
    path.write_text("\n".join(lines))


def test_cache_resumes_refuses_corrupt_entries_and_force_recomputes(tmp_path):
    args = dict(law="hertz", grid={"v_i": [0.5, 1.0, 2.0, 4.0]}, observables=["e_n"], cache_dir=str(tmp_path))
    seen = []

    def interrupt(done, total):
        seen.append(done)
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        nsfric.sweep(CASE, progress=interrupt, **args)
    entries = _entries(tmp_path)
    assert len(entries) == 2 and not list(tmp_path.rglob(".tmp-*"))  # whole entries only
    resumed = nsfric.sweep(CASE, **args)
    assert json.loads(resumed.attrs["computed_points"]) == 2
    again = nsfric.sweep(CASE, **args)
    assert json.loads(again.attrs["computed_points"]) == 0
    xr.testing.assert_equal(again, resumed)
    (path0, i0), (path1, i1) = entries
    _edit_line(path0, i0, lambda line: line[:80])  # a torn entry
    _edit_line(path1, i1, lambda line: re.sub(r'"e_n":[0-9.e-]+', '"e_n":0.5', line))  # an edited value
    healed = nsfric.sweep(CASE, **args)
    assert json.loads(healed.attrs["computed_points"]) == 2
    xr.testing.assert_equal(healed, resumed)
    forced = nsfric.sweep(CASE, force=True, **args)
    assert json.loads(forced.attrs["computed_points"]) == 4
    xr.testing.assert_equal(forced, resumed)
    # a different tolerance is a different point
    tighter = nsfric.sweep(CASE, options={"rtol": 1e-11}, **args)
    assert json.loads(tighter.attrs["computed_points"]) == 4


def test_cache_keeps_non_finite_numbers_and_writes_atomically(tmp_path, monkeypatch):
    cache = PointCache(str(tmp_path))
    result = {"observables": {"a": float("inf"), "b": float("nan"), "c": 1.5}, "stats": {"s": "x"}}
    cache.store("ab" * 32, result)
    assert cache.flush()
    back = PointCache(str(tmp_path)).load("ab" * 32)
    assert back["observables"]["a"] == float("inf") and np.isnan(back["observables"]["b"])
    assert back["observables"]["c"] == 1.5 and back["stats"] == {"s": "x"}
    assert cache.load("cd" * 32) is None

    def fail(*a):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    cache.store("ef" * 32, result)
    assert cache.flush() is False  # skipped (noted for the sidecar), never a failed run
    assert cache.load("ef" * 32) is None and not list(tmp_path.rglob(".tmp-*"))


def test_model_hash_is_the_model_content():
    import dataclasses

    m = CASE.model("hertz")
    assert model_hash(m) != model_hash(CASE.model("hertz-force-end"))
    # every field counts, also of the modes (a new field is covered without code here)
    region = dataclasses.replace(m.regions[0], kind=m.regions[0].kind + "x")
    assert model_hash(dataclasses.replace(m, regions=(region,) + tuple(m.regions[1:]))) != model_hash(m)
    param = dataclasses.replace(m.params[0], hi=1e30)
    assert model_hash(dataclasses.replace(m, params=(param,) + tuple(m.params[1:]))) != model_hash(m)
    # the same in another process with another hash seed (no set or id ordering inside)
    code = ("import nsfric; from nsfric.study.cache import model_hash; "
            "print(model_hash(nsfric.get_case('normal-impact').model('hertz')))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, PYTHONPATH=ROOT, PYTHONHASHSEED="7")).stdout.strip()
    assert other == model_hash(m)


# -- outputs and the command -------------------------------------------------------------
def test_outputs_csv_netcdf_and_sidecar(serial, tmp_path):
    paths = write_sweep(serial, str(tmp_path))
    assert [os.path.basename(p) for p in paths] == ["sweep.csv", "sweep.nc", "sweep.json"]
    back = xr.open_dataset(paths[1])
    xr.testing.assert_identical(back.load(), serial)
    lines = open(paths[0]).read().splitlines()
    assert lines[0].startswith("law,v_i,e_n,t_n,error_estimate_e_n,error_estimate_t_n,")
    assert len(lines) == 1 + 6 and lines[4].startswith("walton-braun,0.5,")
    cols = sweep_columns(serial)
    assert float(lines[4].split(",")[2]) == cols["e_n"][3] == float(serial.e_n.sel(law="walton-braun", v_i=0.5))
    meta = json.loads(open(paths[2]).read())
    assert meta["case"] == "normal-impact" and meta["units"]["v_i"] == "m/s" and meta["columns"][0] == "law"


def _cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "nsfric.cli", "sweep", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def test_cli_sweep_writes_what_the_api_returns(tmp_path, serial, capsys):
    from nsfric.cli import main

    out = tmp_path / "d"
    args = ["normal-impact", "--law", "hertz", "--grid", "v_i=0.5,2,8", "--observable", "e_n",
            "--observable", "t_n", "--cache", str(tmp_path / "cache"), "--out", str(out)]
    r = _cli(*args, "--dask-local", "2")  # the real command, on a Dask LocalCluster of its own
    assert r.returncode == 0, r.stderr
    xr.testing.assert_equal(xr.open_dataset(out / "sweep.nc").load(), serial.sel(law="hertz", drop=True))
    assert "3 points (3 computed" in r.stdout and r.stderr == ""
    assert main(["sweep", *args]) == 0
    assert "(0 computed" in capsys.readouterr().out


def test_cli_keep_going_records_failed_points(tmp_path):
    """A point whose solver fails stops ``nsfric sweep`` (exit 1, one line, nothing
    written); with ``--keep-going`` it is a row with NaN observables and its reason, the
    others are written, and the exit status (1) and summary say that one failed."""
    args = ["normal-impact", "--law", "linear-dashpot", "--grid", "v_i=1,1e300", "--observable", "e_n",
            "--no-estimate", "--cache", str(tmp_path / "cache")]
    r = _cli(*args, "--out", str(tmp_path / "a"))
    assert r.returncode == 1 and r.stderr.startswith("nsfric: failed: filippov failed") and r.stderr.count("\n") == 1
    assert not (tmp_path / "a").exists()
    r = _cli(*args, "--keep-going", "--out", str(tmp_path / "b"))
    assert r.returncode == 1 and r.stderr.startswith("nsfric: failed: 1 of 2 points"), r.stderr
    # the stopped sweep had cached its good point; the failed one is computed again
    assert "2 points (1 computed" in r.stdout and "; 1 of 2 points failed" in r.stdout
    with open(tmp_path / "b" / "sweep.csv", newline="") as f:
        good, bad = csv.DictReader(f)
    want = CASE.reference_solution("linear-dashpot", params={"v_i": 1.0}, samples=2).summary["e_n"]
    assert float(good["e_n"]) == want and good["failure"] == ""
    assert bad["e_n"] in ("", "nan") and bad["failure"].startswith("SolverFailure: filippov failed")
    ds = xr.open_dataset(tmp_path / "b" / "sweep.nc").load()
    assert np.isnan(float(ds.e_n.sel(v_i=1e300))) and "v_i = 1e+300" in str(ds.failure.sel(v_i=1e300).values)


@pytest.mark.parametrize("args,msg", [
    (["--grid", "x=1,2", "--observable", "e_n"], "unknown grid name(s) ['x']"),
    (["--grid", "v_i=1,2", "--observable", "zz"], "unknown observable(s) ['zz']"),
    (["--law", "foo", "--grid", "v_i=1", "--observable", "e_n"], "unknown law 'foo'"),
    (["--grid", "v_i=1:2", "--observable", "e_n"], "START:STOP:NUM"),
    (["--grid", "v_i=1", "--observable", "e_n", "--jobs", "2", "--dask-local", "2"], "give one of"),
    (["--grid", "v_i=1", "--observable", "e_n", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1"],
     "cannot connect"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, args, msg, capsys):
    from nsfric.cli import main

    rc = main(["sweep", "normal-impact", *args, "--no-cache", "--out", str(tmp_path / "d")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and err.startswith("nsfric: error: ") and msg in err, err
    assert not (tmp_path / "d").exists()


def test_cases_travel_to_workers_by_name_or_by_state():
    import pickle

    assert pickle.loads(pickle.dumps(CASE)) is CASE  # a worker resolves its own registered case
    other = type(CASE)()  # an unregistered instance: class and state, without built models
    other.model("hertz")
    back = pickle.loads(pickle.dumps(other))
    assert type(back) is type(CASE) and back is not CASE and back._models == {}
