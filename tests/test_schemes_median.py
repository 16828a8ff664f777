"""Schäfer et al. normal impact, ``schemes.png`` (issue 28): the curves are the median over
the phases of the contact start, with the maximum as its own markers, not the mean, which
one degenerate phase makes its own.  Phase 0 at dt = t_n/100 puts the contact end on a
step point: Gear's e_n after the separation is then 2e-3 off, the other phases ~1e-6."""
import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.papers.schafer1996 import normal_impact_schemes as nis


@pytest.fixture(scope="module")
def rows():
    rows, _ = nis.scheme_study(get_case("normal-impact"), laws=("linear-dashpot",), schemes=("gear5",),
                               ladder=(50, 100), phases=nis.PHASES)
    return rows


def test_the_degenerate_phase_dominates_the_mean_not_the_median(rows):
    i = int(np.nonzero(rows["k"] == 100)[0][0])
    phases = np.array([rows[f"err_final_phase_{p:g}"][i] for p in nis.PHASES])
    assert rows["err_final_median"][i] == pytest.approx(np.median(phases), rel=1e-12)
    assert rows["err_final_max"][i] == phases[0] > 100 * np.max(phases[1:])  # phase 0: degenerate
    assert rows["err_final_mean"][i] > 100 * rows["err_final_median"][i]     # the mean is its own


def test_schemes_png_draws_the_median_and_marks_the_maximum(rows):
    fig = nis.schemes_figure(rows, laws=("linear-dashpot",), schemes=("gear5",))
    ax = fig.axes[1]  # e_n after separation
    assert "median" in ax.get_ylabel() and "max" in ax.get_ylabel() and "mean" not in ax.get_ylabel()
    gear = [ln for ln in ax.get_lines() if ln.get_label() == "gear5"]
    assert len(gear) == 1
    x, y = gear[0].get_xydata().T
    order = np.argsort(rows["dt_over_t_n"])
    np.testing.assert_allclose(x[np.argsort(x)], rows["dt_over_t_n"][order], rtol=1e-12)
    np.testing.assert_allclose(y[np.argsort(x)], rows["err_final_median"][order], rtol=1e-12)
    marks = [ln for ln in ax.get_lines() if ln.get_linestyle() in ("None", "") and ln.get_color() == gear[0].get_color()
             and ln.get_label().startswith("_")]
    assert len(marks) == 1 and np.max(marks[0].get_ydata()) == pytest.approx(np.max(rows["err_final_max"]))
