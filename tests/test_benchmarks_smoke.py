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
