"""Schäfer et al. after eq 22: "changing zeta_0 to 1e-7 m or 1e-9 m does not visibly alter
the curve" (Fig 3f) -- tried on the whole curve (issue 28)."""
import numpy as np

from nsfric.cases import get_case
from nsfric.cases.verdicts import case_verdicts
from nsfric.papers.schafer1996.oblique_impact_figures import (PANELS, PSI_SAWTOOTH, ImpactPoint, _write,
                                                              sawtooth_zeta0)

CASE = get_case("oblique-impact")


def test_zeta0_1e7_visibly_alters_the_reversal_region():
    """psi_i = 0.5: psi_f = -0.2145 (1e-7 m) against -0.3456 (1e-8 m), exact."""
    point = ImpactPoint(CASE, "saw-tooth", {}, max_events=100000)
    a, b = (point({"zeta_0": z, "psi_i": 0.5})["psi_f"] for z in (1e-7, 1e-8))
    assert abs(a - (-0.2145)) < 1e-3 and abs(b - (-0.3456)) < 1e-3, (a, b)


def test_every_zeta0_is_computed_on_the_whole_curve():
    law, name, values, _, grids = PANELS["f"]
    assert values == (1e-8, 1e-7, 1e-9)
    assert [len(g) for g in grids] == [10, 10, 10]
    assert all(np.array_equal(g, PSI_SAWTOOTH) for g in grids)


def _columns(psi_f):
    cols = {}
    for z, ys in psi_f.items():
        label = f"f saw-tooth zeta_0={z:.4g}"
        cols[f"psi_i {label}"] = PSI_SAWTOOTH[:len(ys)]
        cols[f"psi_f {label}"] = np.array(ys)
    return cols


def test_sawtooth_table_and_verdict(tmp_path):
    """The table aligns the curves on the 1e-8 m grid; the verdict names the largest
    difference and is 'differs' beyond 0.05, 'match' below."""
    base = list(np.linspace(-0.35, 2.0, 10))
    cols = _columns({1e-8: base, 1e-7: [y + 0.01 for y in base], 1e-9: [base[0], base[1] + 0.13, base[2], base[3]]})
    table = sawtooth_zeta0(cols)
    assert np.isnan(table["psi_f zeta_0=1e-09"][4]) and abs(table["psi_f zeta_0=1e-09 - psi_f zeta_0=1e-08"][1] - 0.13) < 1e-12
    _write(CASE, str(tmp_path), "sawtooth-zeta0", table, {}, {})
    (v,) = [v for v in case_verdicts("oblique-impact", str(tmp_path)) if v["id"] == "sawtooth-zeta0-invisible"]
    assert v["status"] == "differs" and "1e-09 m alters it visibly (largest difference 0.13 at psi_i = 0.556" in v["note"], v
    assert "zeta_0=1e-07 m does not" in v["note"], v
    assert v["nsfric"]["zeta_0=1e-09"]["psi_i computed"] == 4
    cols = _columns({1e-8: base, 1e-7: [y + 0.01 for y in base], 1e-9: base[:4]})
    _write(CASE, str(tmp_path), "sawtooth-zeta0", sawtooth_zeta0(cols), {}, {})
    (v,) = [v for v in case_verdicts("oblique-impact", str(tmp_path)) if v["id"] == "sawtooth-zeta0-invisible"]
    assert v["status"] == "match", v
