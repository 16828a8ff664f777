"""Sliding plates: Führer et al. Figs 1-4 and the studies beyond the paper (issue 3)."""
import csv
import json
import os

import numpy as np
import pytest

import nsfric
from nsfric.papers.fuhrer2024 import sliding_plates_figures as figs
from nsfric.papers.fuhrer2024 import sliding_plates_study as study

PLATES = nsfric.get_case("sliding-plates")


def test_fig1_dsds_euler_stick_slip():
    d = figs.fig1_data(PLATES)
    s = figs.fig1_summary(d)
    assert s["xi_after_first_step"] == -7.0            # eq 18 at v(0) = 4
    assert s["mode_switches"] >= 10                    # alternating sliding/sticking steps
    assert s["v_at_last_sliding_step"] > s["eq20_threshold"] == 2.0
    fine = d["runs"]["D-SDS, Δt = 0.001"]
    ex = d["exact"]["d-sds"]
    # dt = 1e-3 follows the D-SDS solution to O(dt); the C-SDS is continuous: no jump in xi
    assert np.max(np.abs(fine["v"][1:] - ex(fine.t[1:])[1])) < 0.01
    c = d["runs"]["C-SDS, Δt = 0.1"]
    assert np.max(np.abs(np.diff(c["xi"]))) < 0.1 and np.all(c["xi"] >= -1e-12)


def test_fig2_kinetic_energy_excess():
    d = figs.fig2_data(PLATES)["columns"]
    assert d["dE_kin"].max() > 0.3 and d["dE_kin"][:25].min() >= 0
    assert abs(d["dE_kin"][-1]) < 1e-3


def test_fig3_error_collapses_when_rescaled():
    d = figs.fig3_data(PLATES, dts=(0.1, 0.05, 0.025))
    for s in figs.FIG3_SCHEMES:
        peaks = [np.max(np.abs(d["curves"][(s, dt)]["scaled_error"])) for dt in (0.1, 0.05, 0.025)]
        assert max(peaks) / min(peaks) < 1.3, (s, peaks)  # c (v - v_exact) is dt-independent


def test_fig4_midpoint():
    d = figs.fig4_data(PLATES)
    s = figs.fig4_summary(d)
    assert s["max_v_error"] > 2.0 and 7.6 <= s["states_violate_coulomb_until"] <= 8.4
    c = d["columns"]
    assert set(np.unique(c["stage"])) == {0, 1}
    assert np.allclose(c["t"][c["stage"] == 1] % 0.2, 0.1)  # half-integer t/dt


def test_saturation_is_the_kink_at_the_stick_transition():
    sat = study.saturation_data(PLATES, dts=[0.2 / 2 ** j for j in range(5)])
    assert abs(sat["kink_fit"].order - 2) < 0.15          # one step across t*: O(dt^2)
    assert abs(sat["smooth_fit"].order - 5) < 0.2         # one RK4 step elsewhere: O(dt^5)
    assert abs(sat["t_star"] - 3.92991922641) < 1e-9
    scan = sat["theta_scan"]
    assert scan.min() < 0.2 * scan.max()                 # the constant depends on where t* falls
    e_plain = sat["curves"]["rk4"][1]
    e_event = sat["curves"]["rk4-event"][1]
    assert e_plain.max() > 100 * e_event.max()


def test_energy_created_by_the_dsds_is_quadratic_in_v0():
    en = study.energy_data(PLATES, v0s=(4.0, 8.0, 16.0, 32.0))
    f = en["fits"]
    assert abs(f["E_created_reset_vs_excess"].order - 2) < 1e-9   # (gamma v0 - F_max)^2/(2k)
    assert 2.0 < f["E_created_reset"].order < 2.2
    assert abs(f["max_dE_kin_euler"].order - 2) < 0.15
    c = en["columns"]
    assert np.allclose(c["E_created_reset"], (2 * c["v0"] - 1) ** 2 / 2)


def test_sanity_checks_along_the_exact_csds():
    san = study.sanity_data(PLATES, samples=801)["summary"]
    assert san["eq11_max_abs_residual"] < 1e-13
    assert san["eq11_integrated_abs_residual"] < 1e-12
    assert san["eq11_integrated_budget_max_abs"] < 1e-11
    assert san["eq15_min_margin"] >= 0 and san["eq15_loading_time"] > 3.5
    assert san["eq17_max_abs_residual"] < 1e-13
    assert abs(san["dissipated_total"] - 8.0) < 1e-3       # all of E(0) = 8 is dissipated


@pytest.mark.slow
def test_run_writes_every_figure_with_its_csv(tmp_path):
    out = tmp_path / "plates"
    res = figs.run(PLATES, str(out), jobs=2, quick=True)
    names = set(os.listdir(out))
    for stem in ("fig1", "fig2", "fig3", "fig4", "saturation", "energy-created", "sanity-c-sds"):
        assert {f"{stem}.png", f"{stem}.csv"} <= names, stem
    assert {"reference-c-sds.csv", "reference-d-sds.csv", "reference.png", "orders.csv",
            "convergence.csv", "summary.json", "convergence-c-sds.png"} <= names
    rows = list(csv.DictReader(open(out / "orders.csv")))
    assert {(r["law"], r["error_on"]) for r in rows} == {("c-sds", "xi, v"), ("d-sds", "v"), ("d-sds", "xi")}
    assert list(rows[0])[:5] == ["law", "error_on", "scheme", "order", "order_stderr"]
    summary = json.load(open(out / "summary.json"))
    assert summary["fig1"]["xi_after_first_step"] == -7.0
    assert res["summary"]["sanity_c_sds"]["eq15_min_margin"] >= 0
    assert all(os.path.getsize(p) > 0 for p in res["written"])


def test_case_run_is_hooked():
    assert PLATES.run.__func__ is not nsfric.cases.base.Case.run


def test_run_takes_jobs_for_its_convergence_study(tmp_path, monkeypatch):
    """``nsfric run sliding-plates --jobs N``: the number of processes reaches the
    convergence study (the run's only parallel part); the run is stopped there."""
    from nsfric.cli import main
    from nsfric.papers.fuhrer2024 import sliding_plates_study as study

    seen = []

    def stop(case, out_dir, summary, progress=None, jobs=None, quick=False):
        seen.append(jobs)
        raise KeyboardInterrupt  # nothing further to compute: the folder is not kept

    monkeypatch.setattr(study, "run_studies", stop)
    assert main(["run", "sliding-plates", "--jobs", "3", "--out", str(tmp_path / "a")]) != 0  # interrupted
    assert seen == [3] and not (tmp_path / "a").exists()
