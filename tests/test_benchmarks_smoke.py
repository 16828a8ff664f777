"""The batched-scheme benchmark in its quick mode (the CI smoke test; no timing asserted)."""
import os
import sys

import pytest

pytest.importorskip("numba")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "benchmarks"))
import batch  # noqa: E402


def test_quick_batch_benchmark_runs_all_runners_at_equal_error():
    res = batch.bench(20, 1, cold=False, single_t_end=1.0)
    rows = res["rows"]
    assert set(rows) == {"nsfric batch, numba kernel", "nsfric batch, NumPy fallback",
                         "hand-written NumPy loop over contacts", "hand-written numba loop over contacts"}
    for r in rows.values():  # the same method: the same numbers, so the same error
        assert r["max_diff"] <= 1e-12 and r["ns_per_contact_step"] > 0
    assert res["single"]["max_diff"] == 0.0
    assert 0 < res["error_member0"] < 1e-3
    text = batch.report(res)
    assert "ns per contact-step" in text and "One contact" in text


def test_quick_startup_benchmark_times_every_command_against_the_numpy_import():
    import startup

    res = startup.bench(1)
    assert set(res) == {"import numpy (baseline)", "list", "bad input", "cold reference (empty cache)",
                        "warm reference (disk cache)", "cold simulate (empty cache)", "warm simulate (disk cache)",
                        "cold batched simulate (empty cache)", "warm batched simulate (disk cache)"}
    assert res["import numpy (baseline)"]["ratio"] == 1.0
    assert all(r["seconds"] > 0 and r["cpu"] > 0 for r in res.values())
    assert "| list |" in startup.report(res)


def test_quick_delta_benchmark_runs_the_compiled_loop_against_a_hand_written_one():
    """The slope-block benchmark of the delta scheme (benchmarks/delta.py) in its quick
    mode: the three runners compute the same method (rows equal to round-off)."""
    import delta

    res = delta.bench(2, 1, 300)
    rows = res["rows"]
    assert set(rows) == {"nsfric delta kernel (compiled)", "nsfric NumPy fallback (per-step path)",
                         "hand-written numba loop"}
    assert rows["nsfric NumPy fallback (per-step path)"]["max_diff"] == 0.0
    assert rows["hand-written numba loop"]["max_diff"] < 1e-15  # metres: the same scheme
    assert all(r["ns_per_contact_step"] > 0 for r in rows.values())
    assert "ns per contact-step" in delta.report(res)


def test_quick_pile_lcp_benchmark_decides_as_the_enumeration():
    """benchmarks/pile_lcp.py in its quick mode: the LCP decides a leaning column of 3 and
    4 discs as the enumeration does, with a few checks against 3^k."""
    import pile_lcp

    res = pile_lcp.bench((3, 4), 4, 1)
    for k, r in res["rows"].items():
        assert r["same"] and r["enum_checks"] == 3 ** k and r["lcp_checks"] <= k + 3 and r["pivots"] > 0
        assert 0 < r["mode"].count("s") < k  # a mixed decision: some contacts slide
    assert "| 4 |" in pile_lcp.report(res)


def test_the_reference_benchmark_measures_what_a_plain_process_gets(tmp_path):
    """benchmarks/run.py loads no numba before nsfric's first solve, names the stepper
    every row ran on (nsfric's as its Solution records it: SciPy's DOP853 with nothing
    compiled on disk; a tanh baseline's with the tolerance it ran at) and states the
    machine load."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
    script = ("import json, os, sys\n"
              f"sys.path.insert(0, {os.path.join(here, 'benchmarks')!r})\n"
              "import run as B\n"
              "B.FILIPPOV_RTOL = B.HAND_RTOL = (1e-6,); B.TANH_EPS = (1e-2,)\n"
              "rhs = B.bench_rhs(10, 1)\n"
              "pre = 'numba' in sys.modules\n"
              "data = B.curves(1)\n"
              "rows = B.ratios(data) + B.ratios(data, B.NSFRIC_SCIPY)\n"
              "where = B.machine(pre, os.getloadavg(), os.getloadavg())\n"
              "text = B.report(rhs, data, {}, rows, B.reverse_ratios(data), [], 'test', where)\n"
              "print(json.dumps([pre, {k: [p['stepper'] for p in v] for k, v in data.items()}, text]))\n")
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(tmp_path), PYTHONPATH=os.path.abspath(here))
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    pre, steppers, text = json.loads(out.stdout.strip().splitlines()[-1])
    assert pre is False
    tanh = {k: steppers.pop(k) for k in ("tanh law on LSODA", "tanh law on Radau")}
    assert steppers == {"nsfric filippov": ["DOP853"], "nsfric filippov, SciPy DOP853": ["DOP853"],
                        "hand-written event loop": ["DOP853 (solve_ivp)"]}
    # each tanh baseline at the loosest tolerance reaching its regularisation error (eps = 1e-2:
    # looser than the 1e-6 of a fixed rule)
    for method, (cell,) in (("LSODA", tanh["tanh law on LSODA"]), ("Radau", tanh["tanh law on Radau"])):
        assert cell.startswith(f"{method} (rtol ") and float(cell.split("rtol ")[1].rstrip(")")) > 1e-6
    assert "| nsfric filippov | DOP853 | 1e-06 |" in text and "| auto (default) | DOP853 | 1e-06 |" in text
    assert "Machine load (`os.getloadavg()`" in text and "numba loaded then: no" in text


def test_quick_km_heap_benchmark_runs_both_contact_searches_to_the_same_rows():
    """benchmarks/km_heap.py in its quick mode: the neighbour list and the all-pairs loop
    give the same rows; the list holds a fraction of the slots."""
    import km_heap

    res = km_heap.bench((20, 40), 2, 0.05, 1, 0.005)
    for r in res["rows"].values():
        assert r["same"] and 0 < r["candidates"] < r["slots"] / 4
    assert "neighbour list: ms / step" in km_heap.report(res)
