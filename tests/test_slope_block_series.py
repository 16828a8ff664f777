"""Figs 2-3 of Krengel & Matuttis on the rotating block with one frictional contact per corner
(nsfric.papers.krengel_matuttis.slope_block_series): grip times read from the modes, the figures and their
captions, the per-corner verdicts on synthetic summaries, the event-driven reference's
landing inside a long flight step, and the tested reason why the undamped block walks
downhill."""
import json
from functools import partial

import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.papers.krengel_matuttis import slope_block_series as C
from nsfric.papers.krengel_matuttis.verdicts_rotating import corner_drift_order, corner_grip_claims

CASE = get_case("slope-block-rotating")
LAW = "coulomb-corners"


def test_grip_is_from_when_on_a_corner_stays_stuck():
    phases = [(0.0, "++"), (1.0, "+s"), (2.0, "++"), (3.0, "s+"), (4.0, "ss"), (5.0, "+s")]
    assert C.grip_time(phases) == 3.0 and C.first_stick(phases) == 1.0
    assert C.grip_time(phases + [(6.0, "o+")]) is None      # not stuck at the end: no grip
    assert C.grip_time([(0.0, "oo"), (0.1, "ss")]) == 0.1     # a CS spring sticks from its first step
    assert C.grip_time([(0.0, "ss")]) == 0.0 and C.grip_time([]) is None
    assert C.first_stick([(0.0, "++"), (1.0, "o+")]) is None
    rows = {"t": np.array([0.0, 1.0, 2.0, 3.0]), "modes": ["oo", "++", "++", "s+"]}
    assert C.phases_of(rows) == [(0.0, "oo"), (1.0, "++"), (3.0, "s+")]


def test_event_driven_reference_sees_a_corner_landing_inside_a_long_flight_step():
    """Undamped at 15 deg both corners leave the plane at 1.958 ms; DOP853 steps over the
    smooth flight in one 5.8 ms step, and the downhill corner lands 70 us later, between
    the step's first two guard checks: the reference must see it (as IDA does) -- without
    the scan of the guards that started at zero it lands on the uphill corner alone 27 us
    later and the block sinks through the plane on the other one."""
    p = {"alpha": 15.0, "damping": 0.0}
    ev = CASE.reference_solution(LAW, solver="filippov", params=p, t_end=0.008, samples=801)
    ida = CASE.reference_solution(LAW, solver="ida", params=p, t_end=0.008, samples=801)
    flight = next(k for k, e in enumerate(ev.events) if e.to_mode == "oo")
    landing = ev.events[flight + 1]
    assert landing.kind == "contact-begin" and landing.to_mode == "o+"
    assert abs(landing.t - 2.028028e-3) < 1e-8
    early = [k for k, e in enumerate(ev.events) if e.t < 3e-3]  # IDA adds a grazing blip at 3.14 ms
    assert [(ev.events[k].kind, ev.events[k].to_mode) for k in early] == \
        [(ida.events[k].kind, ida.events[k].to_mode) for k in early]
    assert max(abs(ev.events[k].t - ida.events[k].t) for k in early) < 1e-9
    assert np.max(np.abs(ev["x"] - ida(ev.t)[0])) < 1e-11


def test_undamped_block_walks_downhill_from_the_start_without_overlap_not_from_its_rest_overlap():
    """The caption's reason why the undamped per-corner block never grips at 15 deg: the
    normal oscillation excited by the start without overlap (amplitude = the static
    deflection, so a corner's F_n reaches zero) lifts corners off, and each landing slides
    the block.  Started at its rest overlap (a 1e-6 rad tilt: the exactly flat pressed
    block is statically indeterminate) the undamped exact block neither lifts off nor
    slides."""
    y_rest = -CASE.numbers(CASE.bind("coulomb", {"alpha": 15.0}))["F_n_eq"] / CASE.bind(LAW, {})["Y"]
    runs = {}
    for y0, theta0 in ((0.0, 0.0), (y_rest, 1e-6)):
        runs[y0] = CASE.reference_solution(LAW, params={"alpha": 15.0, "damping": 0.0, "y0": y0, "theta0": theta0},
                                           t_end=0.005, samples=501)
    hop, rest = runs[0.0], runs[y_rest]
    assert any(e.kind == "contact-end" for e in hop.events) and hop["x"][-1] - hop["x"][0] > 5e-7
    assert not any(e.kind == "contact-end" for e in rest.events)
    assert all(C.STICK in seg.mode for seg in rest.segments)          # a corner stuck throughout
    assert min(rest["F_n_1"].min(), rest["F_n_2"].min()) > 0.5
    assert abs(rest["x"][-1] - rest["x"][0]) < 1e-7


def _numbers(drift_dae=5e-8, drift_cs=3e-10, grips=None):
    """Synthetic per-corner summaries: fig2 drifts, fig3 grips ``{(series, variant): grip}``."""
    variants = [k for k, _ in C.VARIANTS]
    fig2 = {f"damping={v}": {"DAE delta-Heun": {"drift": drift_dae}, "CS Heun": {"drift": drift_cs},
                             "CS viscous Heun": {"drift": -drift_cs}} for v in variants}
    base = {("DAE delta-Heun", v): 7.6e-4 for v in variants[:2]}
    base.update({("CS Heun", v): 5.5e-3 for v in variants[:2]})
    base.update({("CS viscous Heun", v): 2.4e-3 for v in variants[:2]})
    base.update({(s, variants[2]): None for s in ("DAE delta-Heun", "CS Heun", "CS viscous Heun")})
    base.update(grips or {})
    fig3 = {f"damping={v}": {s: {"grip": base[(s, v)]} for s in ("DAE delta-Heun", "CS Heun", "CS viscous Heun")}
            for v in variants}
    return fig2, fig3


def test_corner_claims_on_synthetic_numbers():
    fig2, fig3 = _numbers()
    assert set(corner_drift_order(fig2).values()) == {True}
    got = corner_grip_claims(fig3)
    assert got["cs_later"] and got["damped_dae_first"] and got["earliest"] == "DAE delta-Heun, normal+tangential"
    fig2, _ = _numbers(drift_dae=1e-10)
    assert set(corner_drift_order(fig2).values()) == {False}
    # CS viscous gripping before the damped DAE breaks both claims; the undamped DAE gripping first only the second
    got = corner_grip_claims(_numbers(grips={("CS viscous Heun", "normal+tangential"): 5e-4})[1])
    assert not got["cs_later"] and not got["damped_dae_first"] and got["earliest"].startswith("CS viscous")
    got = corner_grip_claims(_numbers(grips={("DAE delta-Heun", "none (damping=0)"): 7e-4})[1])
    assert got["cs_later"] and not got["damped_dae_first"]
    assert not corner_grip_claims(_numbers(grips={("DAE delta-Heun", "normal+tangential"): None})[1])["cs_later"]


@pytest.mark.parametrize("change, status", [({}, ("match", "match")),
                                            ({"drift_dae": 1e-10}, ("differs", "match")),
                                            ({"grips": {("CS Heun", "none (damping=0)"): 1e-4}}, ("match", "differs"))])
def test_corner_verdicts_read_the_summary(tmp_path, change, status):
    fig2, fig3 = _numbers(**change)
    (tmp_path / "summary.json").write_text(json.dumps({"fig2_corners": fig2, "fig3_corners": fig3}))
    by = {v["id"]: v for v in CASE.verdicts(str(tmp_path))}  # one verdict per claim, per corner a reading (issue 28)

    def corner(id_):
        return next(r["status"] for r in by[id_]["readings"] if r["name"].startswith("per corner"))
    later, first = corner("fig3/cs-grips-later"), corner("fig3/damped-exact-friction-grips-first")
    got = (corner("fig2/dae-drifts-more-than-cs"), "match" if later == first == "match" else "differs")
    assert got == status


def test_caption_reads_the_claims_from_the_data():
    fig2, fig3 = _numbers()
    for key in fig2:
        fig2[key] = {k: {"drift": v["drift"], "first_stick": 4e-5, "grip": 4e-5, "settle_time": None,
                         "x_end": 1e-7, "lift_offs": [], "n_events": 2} for k, v in fig2[key].items()}
        fig2[key]["exact static friction"] = {"failed": "ZenoError: no consistent mode"}
    fig2["damping=none (damping=0)"]["DAE delta-Heun"]["lift_offs"] = [5.3e-4, 1.1e-3]
    lines = C.caption_lines(fig2, 15.0)
    text = "\n".join(lines)
    assert "exact static friction: no data (ZenoError: no consistent mode)" in text
    assert "2 lift-offs from 0.53 ms" in text
    paper = next(k for k, line in enumerate(lines) if line.startswith("Paper (Fig 2)"))
    assert lines[paper].endswith("with damping normal+tangential, normal only (gt_ratio=0), none (damping=0).")
    assert "first lift-off at 0.53 ms" in lines[paper + 1] and "DAE delta-Heun 0.1 µm" in lines[paper + 1]
    assert lines[paper + 2].startswith("Why (tested")
    fig2["damping=none (damping=0)"]["DAE delta-Heun"]["drift"] = 0.0
    assert C.caption_lines(fig2, 15.0)[paper].endswith("; not with none (damping=0).")
    line = C.fig3_comparison(fig3)[0]
    assert "CS grips later than DAE -- per corner yes (damped: DAE 0.76 ms, CS Heun 5.5 ms)" in line
    assert "earliest of all configurations -- yes" in line


def test_figures_are_written_and_a_failed_reference_has_no_rows(tmp_path):
    """Short run (2 ms): both figures with their CSVs; an exact reference over its budget
    gives no rows and its reason in the caption and the summary."""
    import csv

    def budget_once(case, law, params, t_end):  # the undamped reference fails, the others run
        return C.corner_reference(case, law, params, t_end, max_seconds=1e-9 if params.get("damping") == 0 else 60)

    res = C.write_figures(CASE, str(tmp_path), "Table 1", t_end=0.002, reference=budget_once)
    names = {p.split("/")[-1] for p in res["written"]}
    assert names == {f"fig{n}-slope-{a}deg-rotating-corners.{e}" for n, a in ((2, 15), (3, 30)) for e in ("csv", "png")}
    rows = list(csv.DictReader(open(tmp_path / "fig2-slope-15deg-rotating-corners.csv")))
    got = {(r["damping"], r["series"]) for r in rows}
    assert len(got) == 11 and ("none (damping=0)", "exact static friction") not in got
    assert ("none (damping=0)", "DAE delta-Heun") in got
    undamped = res["summary"]["fig2_corners"]["damping=none (damping=0)"]["exact static friction"]
    assert undamped["failed"].startswith("BudgetError") and undamped["x_end"] is None
    damped = res["summary"]["fig2_corners"]["damping=normal+tangential"]
    assert damped["exact static friction"]["crosscheck"]["x"] < 1e-12
    assert damped["DAE delta-Heun"]["grip"] == pytest.approx(4e-5)


def test_shared_surface_caption_points_to_the_undamped_per_corner_figures():
    """The shared-surface Figs 2-3 cannot show normal damping off; their caption names the
    per-corner figures that do."""
    from nsfric.cases.base import get_case
    from nsfric.papers.krengel_matuttis.slope_block_table import time_series_caption

    text = " ".join(time_series_caption(get_case("slope-block-rotating"), "T"))
    assert "fig2-slope-15deg-rotating-corners.png" in text and "fig3-slope-30deg-rotating-corners.png" in text
    assert "corners.png" not in " ".join(time_series_caption(get_case("slope-block"), "T"))
