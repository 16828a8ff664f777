"""Why, with one contact per corner, delta-BDF drifts less than delta-Heun at the paper's
step 5e-6 s but not at 2e-5 s (nsfric.papers.krengel_matuttis.slope_block_corners_mechanism): the
ingredients switched one at a time, over 16 grid phases."""
import numpy as np
import pytest

import nsfric
from nsfric.papers.krengel_matuttis import slope_block_corners_mechanism as M
from nsfric.papers.krengel_matuttis.slope_block_corners import corner_drifts
from nsfric.papers.krengel_matuttis.slope_block_table import corners_mechanism_reason, fig4_corners_mechanism_caption

CASE = nsfric.get_case("slope-block-rotating")
W = 0.04  # the length of Fig 4's window (10-50 ms)


@pytest.fixture(scope="module")
def rows():
    return M.mechanism_rows(CASE, dts=(5e-6, 2e-5), n_phases=16,
                            variants=("plain", "early-stick rule off", "history restarted on sticking",
                                      "BDF started by Heun", "1 Gauss-Seidel pass", "weakest corner first",
                                      "rotation frozen"))


def get(rows, dt, variant, scheme, key="ratio_to_heun"):
    return next(r[key] for r in rows if r["dt"] == dt and r["variant"] == variant and r["scheme"] == scheme)


def test_below_heun_at_the_paper_step_because_the_corners_stick_before_crossing(rows):
    """At 5e-6 s both ratios lie below 1 in every interleaved 4-phase subset (not phase
    noise); the early-stick rule sticks the corners before v_t crosses 0 and BDF's history
    continuation (the stuck part, < 0) carries v_t on towards 0.  The rule off (sticking
    after the crossing, as the shared surface): BDF ~2x Heun, the continuation adds;
    the history restarted on sticking: BDF = Heun."""
    for s in ("delta-bdf2", "delta-bdf5"):
        assert get(rows, 5e-6, "plain", s) < 0.75 and get(rows, 5e-6, "plain", s, "ratio4_max") < 1
        assert get(rows, 5e-6, "plain", s, "stuck_part") < -0.2 * get(rows, 5e-6, "plain", s, "stick_part")
        assert get(rows, 5e-6, "early-stick rule off", s) > 1.8
        assert get(rows, 5e-6, "early-stick rule off", s, "stuck_part") > 0
        assert get(rows, 5e-6, "history restarted on sticking", s) == pytest.approx(1.0, abs=0.05)
    heun = get(rows, 5e-6, "plain", "delta-heun", "stuck_part")
    assert abs(heun) < 1e-4 * get(rows, 5e-6, "plain", "delta-heun", "stick_part")  # Heun keeps v_stick
    assert all(get(rows, 5e-6, v, s, "both_stuck") for v in ("plain", "early-stick rule off",
                                                              "history restarted on sticking")
               for s in M.SCHEMES)


def test_bdf5_below_bdf2_because_its_continuation_removes_more(rows):
    p2, p5 = (get(rows, 5e-6, "plain", s) for s in ("delta-bdf2", "delta-bdf5"))
    assert p5 < p2
    assert get(rows, 5e-6, "plain", "delta-bdf5", "stuck_part") < get(rows, 5e-6, "plain", "delta-bdf2", "stuck_part")
    r2, r5 = (get(rows, 5e-6, "history restarted on sticking", s) for s in ("delta-bdf2", "delta-bdf5"))
    assert abs(r5 - r2) < 0.05


def test_not_below_heun_at_2e5_because_the_corners_stick_in_the_first_step(rows):
    """At 2e-5 s the corners stick in step 1 of the landing: BDF's history holds no
    sliding state (the stuck part ~ 0, restarting it changes nothing) and the ratio > 1
    in every 4-phase subset is RK4's (BDF's start) residual against Heun's: started by
    Heun, BDF = Heun."""
    for s in ("delta-bdf2", "delta-bdf5"):
        assert get(rows, 2e-5, "plain", s, "stick_step") == 1
        assert abs(get(rows, 2e-5, "plain", s, "stuck_part")) < 0.02 * get(rows, 2e-5, "plain", s, "stick_part")
        assert 1.03 < get(rows, 2e-5, "plain", s) < 1.2 and get(rows, 2e-5, "plain", s, "ratio4_min") > 1
        assert get(rows, 2e-5, "history restarted on sticking", s) == pytest.approx(get(rows, 2e-5, "plain", s),
                                                                                    abs=0.02)
        assert get(rows, 2e-5, "BDF started by Heun", s) == pytest.approx(1.0, abs=0.03)
    assert get(rows, 5e-6, "plain", "delta-bdf2", "stick_step") >= 5


def test_a_later_stick_brings_bdf2_below_heun_at_2e5_too(rows):
    """Rotation frozen, the landing takes longer: the corners stick in step >= 3 at
    2e-5 s, BDF2's history holds sliding states, its continuation acts (the stuck part
    < 0) and BDF2 drifts less than Heun there too (a corner slips again in one or two of
    the phases of this variant, so its rows are a corroboration, not the mechanism's
    test)."""
    assert get(rows, 2e-5, "rotation frozen", "delta-bdf2", "stick_step") >= 3
    assert get(rows, 2e-5, "rotation frozen", "delta-bdf2") < 0.8
    assert get(rows, 2e-5, "rotation frozen", "delta-bdf2", "stuck_part") < 0


def test_gauss_seidel_passes_and_corner_order_do_not_set_bdf2_over_heun(rows):
    for dt in (5e-6, 2e-5):
        assert get(rows, dt, "1 Gauss-Seidel pass", "delta-bdf2") == pytest.approx(
            get(rows, dt, "plain", "delta-bdf2"), rel=1e-3)
    assert get(rows, 5e-6, "weakest corner first", "delta-bdf2") == pytest.approx(
        get(rows, 5e-6, "plain", "delta-bdf2"), rel=1e-3)


def test_held_velocity_times_window_is_fig4s_drift():
    """The decomposition's drift ``|v_held| W`` (1 ms runs) equals the drift of Fig 4's
    window (50 ms runs) per phase."""
    window = (0.01, 0.05)
    for s in ("delta-heun", "delta-bdf2"):
        d, both = corner_drifts(CASE, s, 2e-5, window, n_phases=2)
        r = M.corner_phase_runs(CASE, s, 2e-5, n_phases=2)
        assert both and np.all(r["both_stuck"])
        np.testing.assert_allclose(np.abs(r["v_held"]) * W, np.abs(d), rtol=1e-4)


def test_restart_replaces_the_history_when_a_corner_sticks(monkeypatch):
    from nsfric.schemes.gear import BDFPredictorCorrector

    class Field:
        stuck = np.array([False, False])

    seen = []
    monkeypatch.setattr(BDFPredictorCorrector, "step", lambda self, f, t, u, h, hist, record=None: seen.append(hist))
    integ, u = M.RestartOnCornerStick(2), np.array([1.0, 2.0])
    old = [np.array([5.0, 6.0]), np.array([7.0, 8.0])]
    integ.step(Field(), 0.0, u, 1e-3, old)
    Field.stuck = np.array([False, True])
    integ.step(Field(), 0.0, u, 1e-3, old)
    integ.step(Field(), 0.0, u, 1e-3, old)  # still stuck: not new
    assert [h[0].tolist() for h in seen] == [[5.0, 6.0], [1.0, 2.0], [5.0, 6.0]]


def test_unknown_variant_is_named():
    with pytest.raises(ValueError, match="variant must be one of"):
        M.corner_phase_runs(CASE, "delta-heun", 2e-5, "no friction", n_phases=1)


def test_caption_and_verdict_state_the_reason_from_the_rows(tmp_path, rows):
    from nsfric.papers.krengel_matuttis.slope_block_figures import _rows_columns
    from nsfric.cases.verdicts import Outputs
    from nsfric.papers.krengel_matuttis.verdicts_rotating import _corners_reason
    from nsfric.io import write_csv_with_sidecar

    line = " ".join(fig4_corners_mechanism_caption(rows))
    assert "early-stick rule off " + ", ".join(f"{get(rows, 5e-6, 'early-stick rule off', s):.2f}"
                                               for s in ("delta-bdf2", "delta-bdf5")) in line
    assert "stick in step 1 of the landing" in line and "not phase noise" in line
    assert fig4_corners_mechanism_caption([r for r in rows if r["dt"] == 2e-5]) == []
    later = [dict(r, stick_step=3) if r["dt"] == 2e-5 else r for r in rows]
    assert "no sliding state" not in corners_mechanism_reason(later)
    noisy = [dict(r, ratio4_max=1.2) if r["variant"] == "plain" else r for r in rows]
    assert "within phase noise" in corners_mechanism_reason(noisy)
    write_csv_with_sidecar(str(tmp_path / "drift-mechanism-corners.csv"), _rows_columns(rows, M.COLUMNS), {})
    assert _corners_reason(Outputs(str(tmp_path))) == corners_mechanism_reason(rows)
    assert "missing" in _corners_reason(Outputs(str(tmp_path / "none")))
