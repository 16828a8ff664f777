"""Krengel & Matuttis: each Fig 4/5 claim is one verdict, tried under the readings the
paper leaves open (stick-entry rule x BDF history; the drift's definition), and Table 1's
inputs are inputs, not verdicts (issue 28)."""
from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from nsfric.cases.base import get_case
from nsfric.cases.verdicts import case_verdicts, claims, inputs, merge_claims

RULES = ("end", "crossing", "brake", "step")


def _write(tmp_path, ratios, fig4=(1.0, 2.0, 2.1)):
    """A slope-block output dir holding only Fig 4's rows (Heun, BDF2, BDF5 at 5e-6 s) and
    the readings' table with BDF2/Heun, BDF5/Heun ``ratios[(rule, history)]``."""
    rows = [{"scheme": s, "dt": 5e-6, "mean_abs": v} for s, v in zip(("delta-heun", "delta-bdf2", "delta-bdf5"), fig4)]
    (tmp_path / "summary.json").write_text(json.dumps({"fig4": {"rows": rows}}))
    with open(tmp_path / "fig4-drift-dt-readings.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["stick_rule", "history", "scheme", "dt", "n_phases", "mean_abs", "max_abs", "ratio_to_heun"])
        for (rule, history), (r2, r5) in ratios.items():
            for dt in (5e-6, 1e-5):
                w.writerow([rule, "kept", "delta-heun", dt, 8, 1e-6, 1e-6, 1.0])
                w.writerow([rule, history, "delta-bdf2", dt, 8, r2 * 1e-6, r2 * 1e-6, r2])
                w.writerow([rule, history, "delta-bdf5", dt, 8, r5 * 1e-6, r5 * 1e-6, r5])
    return str(tmp_path)


def _by_id(verdicts, id_):
    got = [v for v in verdicts if v["id"] == id_]
    assert len(got) == 1, f"{len(got)} verdicts with id {id_}"
    return got[0]


def test_bdf_below_heun_is_one_verdict_with_the_stick_rule_readings(tmp_path):
    ratios = {(r, h): ((0.8, 0.75) if r in ("brake", "step") and h == "kept" else (2.3, 2.4))
              for r in RULES for h in ("kept", "restarted")}
    vs = case_verdicts("slope-block", _write(tmp_path, ratios))
    v = _by_id(vs, "fig4/bdf-drifts-less-than-heun")
    assert v["status"] == "depends on reading"
    names = [r["name"] for r in v["readings"]]
    assert len(names) == 1 + 2 * len(RULES)  # the Fig 4 run and rule x history
    assert sorted(n.split(" (")[0] for n in v["holds_under"]) == ["stick-entry brake, BDF history kept",
                                                                   "stick-entry step, BDF history kept"]
    held = [r for r in v["readings"] if r["name"] in v["holds_under"]]
    assert all(max(r["value"].values()) < 1 for r in held)
    assert "at dt = 1e-5 s" in held[0]["meaning"]
    # BDF2 below BDF5 is one verdict, too, read from the same table
    v2 = _by_id(vs, "fig4/bdf2-drifts-less-than-bdf5")
    assert v2["status"] == "depends on reading" and len(v2["readings"]) == 1 + 2 * len(RULES)


def test_bdf_below_heun_holds_under_every_reading_is_match(tmp_path):
    ratios = {(r, h): (0.5, 0.6) for r in RULES for h in ("kept", "restarted")}
    v = _by_id(case_verdicts("slope-block", _write(tmp_path, ratios, fig4=(1.0, 0.5, 0.6))),
               "fig4/bdf-drifts-less-than-heun")
    assert v["status"] == "match"


def test_the_two_blocks_share_the_fig4_claims(tmp_path):
    ratios = {(r, h): (2.3, 2.4) for r in RULES for h in ("kept", "restarted")}
    out = _write(tmp_path, ratios)
    vs = merge_claims(case_verdicts("slope-block", out) + case_verdicts("slope-block-rotating", out))
    for id_ in ("fig4/bdf-drifts-less-than-heun", "fig4/bdf2-drifts-less-than-bdf5", "fig4/drift-grows-with-dt",
                "fig5/bdf-drift-grows-above-0.1m", "fig5/heun-drift-grows-for-small-and-large",
                "eq19/undamped-cs-oscillates", "fig2/dae-drifts-more-than-cs", "fig3/cs-grips-later",
                "fig3/damped-exact-friction-grips-first", "fig3/block-comes-to-rest"):
        v = _by_id(vs, id_)
        assert v["cases"] == ["slope-block", "slope-block-rotating"], id_
    # within a case every claim is one verdict (the per-corner figures are readings of it)
    for case in ("slope-block", "slope-block-rotating"):
        ids = [v["id"] for v in case_verdicts(case, out)]
        assert len(ids) == len(set(ids)), case
    # per-corner and mechanism rows are readings of the rotating case's one verdict, not verdicts
    assert not [v for v in vs if v["case"] == "slope-block-rotating" and "BDF show less drift" in str(v["paper"])
                and v["id"] != "fig4/bdf-drifts-less-than-heun"]


def test_table1_inputs_are_not_verdicts(tmp_path):
    par = {"dt": 5e-6, "rho": 5000.0, "Y": 5e7, "mu": 0.6, "D": 1.5, "alpha": 15.0, "l": 0.01}
    (tmp_path / "reference-coulomb.json").write_text(json.dumps({"parameters": par}))
    (tmp_path / "reference-cundall-strack.json").write_text(json.dumps(
        {"parameters": dict(par, kt_ratio=2 / 7, gt_ratio=0.25)}))
    vs = case_verdicts("slope-block", str(tmp_path))
    got = {v["quantity"]: v for v in inputs(vs)}
    assert len(got) == 8 and "critical angle arctan(mu) [deg] for mu = 0.6" in got
    assert all(v["status"] == "match" for k, v in got.items() if k.startswith("parameter"))
    assert not [v for v in claims(vs) if v["place"] == "Table 1" or "arctan" in v["quantity"]]


def test_grip_first_is_read_as_a_lasting_stick(tmp_path):
    def cfg(first, settle):
        return {"first_stick": first, "settle_time": settle}
    fig3 = {"damping=1": {"exact static friction": cfg(3.2e-4, 3.2e-4), "exact CS law": cfg(3.8e-3, 6.0e-3)},
            "damping=0": {"exact static friction": cfg(3.0e-4, None), "exact CS law": cfg(7.3e-4, None)}}
    (tmp_path / "summary.json").write_text(json.dumps({"fig3": fig3}))
    v = _by_id(case_verdicts("slope-block", str(tmp_path)), "fig3/damped-exact-friction-grips-first")
    assert v["status"] == "depends on reading"
    assert v["holds_under"] == ["grip = a lasting stick"]


def test_rotating_undamped_cs_is_not_reproduced(tmp_path):
    (tmp_path / "summary.json").write_text(json.dumps({"cs_amplitude": [{"ratio_exact": 1.0}]}))
    v = _by_id(case_verdicts("slope-block-rotating", str(tmp_path)), "eq19/undamped-cs-oscillates")
    assert v["status"] == "not reproduced" and "normal" in v["note"]


def test_fig5_from_the_start_reading(tmp_path):
    """The drift from the start adds the landing slide (~ l^2): Fig 5's claims are read both ways."""
    ls = np.array([1e-3, 1e-2, 0.1, 1.0])
    rows = [{"integrator": i, "scheme": f"delta-{i}", "l": float(l), "mean_abs": 5e-7, "diverged": 0,
             "drift": 5e-7, "from_start_abs": 5e-7 + 2e-5 * l ** 2}
            for i in ("heun", "bdf2", "bdf5") for l in ls]
    (tmp_path / "summary.json").write_text(json.dumps({"fig5": {"rows": rows}}))
    vs = case_verdicts("slope-block", str(tmp_path))
    v = _by_id(vs, "fig5/bdf-drift-grows-above-0.1m")
    assert v["status"] == "depends on reading" and v["holds_under"] == ["drift = displacement from the start"]
    assert _by_id(vs, "fig5/heun-drift-grows-for-small-and-large")["status"] == "differs"


def test_reading_rows_measure_rule_and_history():
    """The real runs: under 'crossing' BDF drifts more than Heun, under 'step' less (8
    grid phases, dt = 5e-6 s), and the readings' table has a row per rule x history x scheme."""
    from nsfric.papers.krengel_matuttis.slope_block_readings import ratios, reading_rows

    rows = reading_rows(get_case("slope-block"), dts=(5e-6,), rules=("crossing", "step"), histories=("kept",))
    assert len(rows) == 2 * 3 and {r["n_phases"] for r in rows} == {8}
    assert min(ratios(rows, "crossing", "kept", 5e-6).values()) > 1.5
    assert max(ratios(rows, "step", "kept", 5e-6).values()) < 1
    with pytest.raises(KeyError, match="brake"):
        ratios(rows, "brake", "kept", 5e-6)


def test_delta_drifts_from_start_adds_the_landing_slide():
    from nsfric.papers.krengel_matuttis import slope_block_study as S

    case = get_case("slope-block")
    values = case.bind("coulomb", {"alpha": 15.0})
    d, stick, start = S.delta_drifts(case, "heun", [values], 5e-6, S.WINDOW_1CM, 2, from_start=True)
    # stuck from the stick time on, the block drifts at a constant rate: from the start it
    # has drifted that rate over (t1 - t_stick), over the window over (t1 - t0)
    t0, t1 = S.WINDOW_1CM
    np.testing.assert_allclose(start, d * (t1 - stick) / (t1 - t0), rtol=0.05)
    assert np.all(np.abs(start) > 1.2 * np.abs(d))


def test_km_pile_equilibrium_says_it_rests_on_an_lcp(tmp_path):
    (tmp_path / "pile-events.json").write_text(json.dumps({"summary": {"com_drift": 0.0, "max_stuck_v_t": 0.0}}))
    (tmp_path / "pile-ida.json").write_text(json.dumps({"summary": {"com_drift": 0.0}}))
    v = next(v for v in case_verdicts("km-pile", str(tmp_path)) if "static equilibrium" in v["paper"])
    assert v["status"] == "match" and "LCP" in v["note"] and "avoids" in v["note"]


@pytest.mark.parametrize("case, name", [("slope-block", "fig4-drift-dt.png"),
                                        ("slope-block-rotating", "fig4-drift-dt-rotating.png"),
                                        ("dry-oscillator", "delta-convergence.png")])
def test_captions_of_the_delta_figures_name_the_stick_entry_rule(case, name):
    from nsfric.cases.verdicts import case_captions
    from nsfric.schemes.stick_rules import DEFAULT_STICK_RULE

    text = case_captions(case)[name]
    assert f"stick-entry rule '{DEFAULT_STICK_RULE}'" in text or f"Stick-entry rule of the delta schemes: " \
        f"'{DEFAULT_STICK_RULE}'" in text
    assert "BDF above Heun" not in text
