"""benchmarks/output.py in a small mode (the CI smoke test; no timing asserted): the CSV
writer writes the baseline's bytes, both point stores serve a warm sweep, and the batch's
kept rows are what ``store`` says."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "benchmarks"))
import output  # noqa: E402


def test_small_output_benchmark_measures_every_store():
    res = output.bench(200, 40, 20, 1)
    assert set(res["csv"]) == {"real columns", "real and text columns"}
    cache = res["cache"]
    assert cache["one file per point (before)"]["files"] == 40  # the baseline is the old layout
    assert 0 < cache["chunks (now)"]["files"] <= 16
    batch = res["batch"]
    assert batch["'final'"]["y_MiB"] * 1001 == batch["'all'"]["y_MiB"]
    text = output.report(res)
    assert "| chunks (now) |" in text and "| 'final' |" in text
