"""Schäfer et al. §4, Fig 8 (brake failure) under the readings the paper leaves open
(issue 28): the normal force with or without its dashpot, and the rule that reads the
transition speed off the curve."""
import json

import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.cases.verdicts import case_verdicts
from nsfric.papers.schafer1996.oblique_impact_figures import asymptote_speed, brake_data, high_speed_exponent

CASE = get_case("oblique-impact")


def test_read_off_rules_on_a_broken_power_law():
    """Plateau 0.02 up to 10 m/s, then ~v^-2: the asymptotes meet at 10 m/s, the exponent is -2."""
    v = np.logspace(-1, 3, 25)
    r = 0.02 / (1 + (v / 10.0) ** 2)
    assert abs(high_speed_exponent(v, r, 100.0) + 2) < 0.01
    assert abs(asymptote_speed(v, r, 100.0) - 10.0) < 0.1
    assert np.isnan(high_speed_exponent(v, r, 1e4))


@pytest.fixture(scope="module")
def fig8(tmp_path_factory):
    out = tmp_path_factory.mktemp("fig8")
    bf = brake_data(CASE)
    meta = {"v_bf_eq25": bf["v_bf_eq25"], "v_bf_read": bf["v_bf_read"], "v_bf_read_rules": bf["v_bf_read_rules"],
            "high_speed_exponent": bf["high_speed_exponent"]}
    (out / "fig8.json").write_text(json.dumps(meta))
    return out, bf


def test_exponent_is_minus_one_with_the_dashpot_and_minus_two_without(fig8):
    _, bf = fig8
    assert abs(bf["high_speed_exponent"]["dashpot"]["0.0001"] + 1) < 0.1
    assert abs(bf["high_speed_exponent"]["gamma_n=0"]["0.0001"] + 2) < 0.01


def test_fig8_verdicts_name_the_readings(fig8):
    out, _ = fig8
    by = {v["id"]: v for v in case_verdicts("oblique-impact", str(out))}
    slope = by["fig8-high-speed-exponent"]
    assert slope["status"] == "depends on reading" and slope["holds_under"] == ["gamma_n=0"], slope
    fast = by["fig8-transition-speed-t_n=1e-05"]
    assert fast["status"] == "depends on reading"
    assert fast["holds_under"] == ["dashpot, half plateau", "gamma_n=0, half plateau", "gamma_n=0, asymptotes"], fast
    ratio = by["fig8-tenfold-decrease"]
    assert ratio["status"] == "match" and ratio["paper"] == 10.0 and len(ratio["readings"]) == 4
    assert all(9.5 < r["value"] < 10 for r in ratio["readings"]), ratio["readings"]
    assert not any(v["paper"] == 2.7 for v in by.values())
