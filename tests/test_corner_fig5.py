"""Fig 5 with one contact per corner (issue 13; nsfric.papers.krengel_matuttis.slope_block_corners): the rows
of fig5-drift-size-rotating-corners.csv, the self-similarity that sets their shape, the
caption line and the verdicts (synthetic tables)."""
import numpy as np
import pytest

from nsfric.cases.base import get_case
from nsfric.papers.krengel_matuttis.slope_block_corners import corner_batch_drifts, corner_size_rows, fig5_caption_line
from nsfric.papers.krengel_matuttis.verdicts_rotating import CORNER_SIZE_CSV, corner_size_shape

CASE = get_case("slope-block-rotating")


def heun_drift_per_dt(l, dt, window=(0.01, 0.03), n_phases=4):
    d, stuck = corner_batch_drifts(CASE, "delta-heun", dt, window, [{"alpha": 15.0, "l": l}], n_phases)
    assert stuck.all()
    return np.abs(d).mean() / dt


def test_the_per_corner_drift_depends_on_the_size_only_through_omega_n_dt():
    """The per-corner block is self-similar: lengths l, times ~ l/sqrt(Y/rho), g fixed, so
    the drift over a window after sticking is window g dt F(omega_n dt) with omega_n dt =
    sqrt(Y/rho) dt/l.  Equal omega_n dt (0.25: 2 mm at 5e-6 s, 1 cm at 2.5e-5 s) gives
    equal drift per dt; at the paper's step F is least near 2 mm and rises on both sides
    (1 mm: omega_n dt = 0.5, towards the stability limit; 1 cm: 0.05) -- Heun's U of Fig 5."""
    ref = heun_drift_per_dt(2e-3, 5e-6)
    assert heun_drift_per_dt(1e-2, 2.5e-5) == pytest.approx(ref, rel=1e-3)
    assert heun_drift_per_dt(1e-3, 5e-6) > 3 * ref
    assert heun_drift_per_dt(1e-2, 5e-6) > 2 * ref


def test_rows_have_every_scheme_and_size_and_the_exact_reference():
    """One batch per scheme; the exact per-corner reference per size (event-driven) is
    stuck with no drift; BDF rows carry their ratio to Heun's mean drift."""
    rows = corner_size_rows(CASE, sizes=(2e-3, 1e-2), window=(0.004, 0.005), n_phases=2)
    schemes = ("delta-heun", "delta-bdf2", "delta-bdf5", "exact (filippov)")
    assert [(r["scheme"], r["l"]) for r in rows] == [(s, l) for s in schemes for l in (2e-3, 1e-2)]
    for r in rows:
        if r["integrator"] == "exact":
            assert r["both_stuck"] and abs(r["drift"]) < 1e-15
        else:
            assert r["both_stuck"] and 0 < r["mean_abs"] < 1e-6
            heun = next(h for h in rows if h["scheme"] == "delta-heun" and h["l"] == r["l"])
            assert r["ratio_to_heun"] == pytest.approx(r["mean_abs"] / heun["mean_abs"])


def table(heun, bdf2, bdf5, exact, sizes=(1e-3, 2e-3, 1e-2, 0.1, 1.0)):
    rows = [{"integrator": s.removeprefix("delta-"), "scheme": s, "l": l, "drift": v, "mean_abs": v, "both_stuck": 1.0}
            for s, vals in (("delta-heun", heun), ("delta-bdf2", bdf2), ("delta-bdf5", bdf5))
            for l, v in zip(sizes, vals)]
    return rows + [{"integrator": "exact", "scheme": "exact (filippov)", "l": l, "drift": e, "mean_abs": abs(e),
                    "both_stuck": float(e == 0)} for l, e in zip(sizes, exact)]


EXACT = (0.0, 0.0, 0.0, 0.0, 1.4e-5)
PAPER = table((4e-6, 6e-7, 1.8e-6, 2.2e-6, 1.7e-5), (1e-6, 1e-6, 1.1e-6, 1.2e-6, 1.7e-5),
              (1e-6, 1e-6, 1.1e-6, 1.2e-6, 1.7e-5), EXACT)


def write(tmp_path, rows):
    head = "integrator,scheme,l,drift,mean_abs,min_abs,max_abs,rate,both_stuck,ratio_to_heun\n"
    lines = [f"{r['integrator']},{r['scheme']},{r['l']},{r['drift']},{r['mean_abs']},{r['mean_abs']},{r['mean_abs']},"
             f"0,{r['both_stuck']},1\n" for r in rows]
    (tmp_path / CORNER_SIZE_CSV).write_text(head + "".join(lines))
    by = {v["id"]: v for v in CASE.verdicts(str(tmp_path))}

    def corner(id_):  # the per-corner reading of the Fig 5 claim (one verdict per claim, issue 28)
        return next(r for r in by[id_]["readings"] if r["name"].startswith("per corner"))
    return corner("fig5/bdf-drift-grows-above-0.1m"), corner("fig5/heun-drift-grows-for-small-and-large")


def test_verdicts_read_the_drift_in_excess_of_the_exact_reference(tmp_path):
    """Synthetic tables: the paper's shape (BDF flat up to 0.1 m and higher above, Heun a U)
    matches; in excess of the exact block's own motion (1.4e-5 m at 1 m); a flat Heun or a
    BDF rising at 1 mm differs; a failed exact reference (NaN) is not reproduced."""
    bdf, heun = write(tmp_path, PAPER)
    assert bdf["status"] == "match" and heun["status"] == "match"
    assert heun["value"]["delta-heun"] == pytest.approx([4e-6 / 6e-7, 3e-6 / 6e-7])
    flat = table((6e-7,) * 4 + (6e-7 + 1.4e-5,), (1e-6,) * 4 + (1e-6 + 1.4e-5,), (1e-6,) * 4 + (1e-6 + 1.4e-5,), EXACT)
    bdf, heun = write(tmp_path, flat)  # raw rise at 1 m, all of it the exact block's own motion
    assert bdf["status"] == "differs" and heun["status"] == "differs"
    unstable = table((4e-6, 6e-7, 1.8e-6, 2.2e-6, 1.7e-5), (1e-6, 1e-6, 1.1e-6, 1.2e-6, 1.7e-5),
                     (5e-2, 1e-6, 1.1e-6, 1.2e-6, 1.7e-5), EXACT)
    assert write(tmp_path, unstable)[0]["status"] == "differs"
    failed = table(*[(4e-6, 6e-7, 1.8e-6, 2.2e-6, 1.7e-5)] * 3, (np.nan,) + EXACT[1:])
    assert {v["status"] for v in write(tmp_path, failed)} == {"not reproduced"}


def test_caption_line_states_the_shape_against_the_paper():
    line = fig5_caption_line(PAPER)[0]
    assert "BDF rises only above 0.1 m, as in the paper" in line and "U-shaped, as in the paper" in line
    assert "the exact block itself moves at 1 m (1.4e-05 m)" in line
    flat = fig5_caption_line(table((6e-7,) * 5, (1e-6,) * 5, (1e-6,) * 5, (0.0,) * 5))[0]
    assert "not U-shaped" in flat and "does not rise only above 0.1 m" in flat
    assert fig5_caption_line(()) == []
    assert corner_size_shape(PAPER)["delta-heun"] == pytest.approx([4e-6 / 6e-7, 3e-6 / 6e-7])


def test_a_reference_stopped_by_its_budget_is_a_failed_point_not_a_failed_case():
    """``exact_corner_drift`` tries the next solver, then gives NaN naming the failures,
    when a solver stops at its budget (IDA on a loaded machine): the case goes on."""
    from nsfric.errors import BudgetError
    from nsfric.papers.krengel_matuttis.slope_block_corners import exact_corner_drift

    class Stopped:
        def reference_solution(self, *a, **k):
            raise BudgetError("ida: stopped after the default budget of 600 s")

    out = exact_corner_drift(Stopped(), {}, (0.1, 0.3))
    assert out["solver"] is None and out["failed"] == ["filippov: BudgetError", "ida: BudgetError"]
    assert out["drift"] != out["drift"]  # NaN: never drawn
