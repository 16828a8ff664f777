"""The energy account of the production slip rules (:mod:`nsfric.cases.slip_rule_energy`):
along the exact continuous limits, step by step, and the certificate over a sweep."""
from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.cases.slip_rule_energy import certificate, energy_sweep, exact_energy_account
from nsfric.cases.slip_rule_zoo import CASE_LAW, TOLERANCES, case_params, contact_time, standard_impact
from nsfric.cli import main
from nsfric.schemes.slip_rule_impact import run_impact
from nsfric.schemes.slip_rules import SLIP_RULES, get_slip_rule


@pytest.mark.parametrize("rule", ["lammps-linear-history", "liggghts-history", "kratos-linear-viscous-coulomb"])
def test_each_steps_account_converges_to_its_limits_exact_account(rule):
    """Until the normal force vanishes the step's ``W_elastic``, ``W_damping`` and
    ``E_slip`` converge at first order to the quadratures along the exact limit: two
    independent computations of one account (a sum over steps, a Gauss quadrature of the
    dense output) agree."""
    p = standard_impact(45.0)
    exact = exact_energy_account(get_slip_rule(rule).limit, p)
    assert math.isclose(exact["W_elastic"] + exact["W_damping"], exact["W_total"], rel_tol=1e-12)
    errs = []
    for n in (800, 3200):
        r = run_impact(rule, p, contact_time(p) / n)
        errs.append([abs(r[k] - exact[k]) for k in ("W_elastic", "W_damping", "E_slip")])
        assert abs(r["W_elastic"] + r["W_damping"] - exact["W_total"]) < 2e-3
    errs = np.array(errs)
    big = errs[0] > 1e-6  # a part the rule gets right at once (Kratos's slider: 0) has nothing to converge
    assert big.any()
    # dt / 4: first order divides by 4; the sums of the spring's parts (W_elastic, E_slip) do by
    # > 3, W_damping (the rest of the kinetic energy's change) by > 2 (Kratos's 2.4 at 45 deg)
    assert np.all(errs[1][big] < errs[0][big] / np.array([3.0, 2.0, 3.0])[big]), errs


def test_the_d_sds_limit_loads_its_spring_at_the_first_instant_without_work():
    """At 45 deg the dashpot alone exceeds the cap at the touch: the D-SDS resets
    ``k_t xi = -(mu F_n - gamma_t v_t)`` at once, so until its slip before the end its
    slider account is minus that spring energy, ``(gamma_t v_t - mu gamma_n v_n)^2/(2
    k_t)`` in closed form; at 5 deg the spring starts relaxed and the account is zero."""
    case = get_case("sphere-wall")
    for theta, expect_reset in ((45.0, True), (5.0, False)):
        p = standard_impact(theta)
        sol = case.reference_solution(CASE_LAW.format("d-sds"), params=case_params("d-sds", p), **TOLERANCES)
        t_slip = max(e.t for e in sol.events if e.kind == "slip")
        th = math.radians(theta)
        excess = p["gamma_t"] * p["v"] * math.sin(th) - p["mu"] * p["gamma_n"] * p["v"] * math.cos(th)
        E_t0 = 0.5 * max(excess, 0.0) ** 2 / p["k_t"] / (0.5 * p["m"] * p["v"] ** 2)
        assert (E_t0 > 1e-4) == expect_reset
        acc = exact_energy_account("d-sds", p, until=t_slip)
        assert abs(acc["E_slip"] + E_t0) < 1e-9 * max(E_t0, 1e-3), (theta, acc["E_slip"], E_t0)
        # the mechanical energy with the spring's peaks there, at the touch
        assert abs(acc["max_energy_gain"] - E_t0) < 1e-9 * max(E_t0, 1e-3), (theta, acc["max_energy_gain"])


def test_the_certificate_names_the_rules_whose_slider_creates_energy():
    rows = energy_sweep(rules=["lammps-linear-history", "liggghts-history", "chrono-smc-onestep"],
                        sweep={"theta_deg": (20.0, 45.0), "mu": (0.3,), "e_n": (0.9,), "ks_ratio": (2 / 7, 1.0)})
    assert len(rows) == 3 * 4
    cert = {c["rule"]: c for c in certificate(rows)}
    assert cert["lammps-linear-history"]["verdict"].startswith("slider creates energy")
    assert cert["lammps-linear-history"]["min_limit_E_slip"] < -1e-4
    assert cert["liggghts-history"]["verdict"] == "no energy gain"
    assert cert["chrono-smc-onestep"]["verdict"] == "no energy gain"
    assert all(c["points"] == 4 and c["max_KE_ratio"] < 1 for c in cert.values())
    assert "theta 45" in cert["lammps-linear-history"]["where_max_limit_energy_gain"]


def test_run_slip_rule_energy_writes_the_sweep_the_certificate_and_the_figure(tmp_path, capsys):
    out = tmp_path / "energy"
    args = ["run", "slip-rule-energy", "--out", str(out), "--param", "theta_deg=45", "--param", "mu=0.3",
            "--param", "e_n=0.9"]
    assert main(args + ["--param", "ks_ratio=2"]) == 0
    with open(out / "energy-certificate.csv") as f:
        cert = list(csv.DictReader(f))
    default = [n for n, r in SLIP_RULES.items() if r.in_default_run]
    assert [c["rule"] for c in cert] == default and len(default) == 12 and all(float(c["points"]) == 1 for c in cert)
    verdicts = {c["rule"]: c["verdict"] for c in cert}
    assert verdicts["yade-viscoelastic"] == verdicts["yade-hertz-mindlin"] == "no energy gain"
    for name in ("energy-sweep.csv", "energy-sweep.json", "energy-certificate.json", "energy-certificate.png"):
        assert (out / name).stat().st_size > 0
    capsys.readouterr()
    assert main(["run", "slip-rule-energy", "--out", str(tmp_path / "bad"), "--param", "e_n=1.5"]) == 2
    err = capsys.readouterr().err
    assert "e_n must be in (0, 1)" in err and "Traceback" not in err
    assert not (tmp_path / "bad" / "energy-sweep.csv").exists()


def test_the_grazing_points_are_solved_and_the_step_converges_to_their_account():
    """theta 25 deg, mu 0.1, e_n 0.5: ``sds-elastic-test`` leaves its cap through the
    graze mode (the dashpot on a fraction ``lam`` of the time, where LIGGGHTS's step
    switches between capped and sticking about every other step); the limit's account
    is solved there (no ``limit_note``), the certificate counts no unsolved point, and
    the step's account approaches the limit's as the step shrinks."""
    pt = {"theta_deg": (25.0,), "mu": (0.1,), "e_n": (0.5,), "ks_ratio": (2 / 7,)}
    rows = energy_sweep(rules=["liggghts-history", "lammps-linear-history"], sweep=pt)
    lig = next(r for r in rows if r["rule"] == "liggghts-history")
    assert lig["limit_note"] == "" and math.isfinite(lig["limit_E_slip"])
    cert = {c["rule"]: c for c in certificate(rows)}
    assert cert["liggghts-history"]["limit_unsolved"] == 0
    assert cert["liggghts-history"]["verdict"] == "no energy gain"
    p = standard_impact(25.0, mu=0.1, e_n=0.5)
    exact = exact_energy_account("sds-elastic-test", p)
    assert exact["W_elastic"] < 0 and exact["E_slip"] > 0
    errs = [abs(run_impact("liggghts-history", p, contact_time(p) / n)["E_slip"] - exact["E_slip"])
            for n in (800, 3200)]
    assert errs[1] < errs[0] / 3, errs  # first order: 9.3e-5, 2.4e-5 (E_slip of 0.0087)


def test_the_certificate_names_the_points_where_a_limit_was_not_solved():
    """A row whose limit the solver could not continue (``limit_note``, ``nan`` values)
    is left out of the limit's extremes and named in the certificate."""
    pt = {"theta_deg": (45.0,), "mu": (0.3,), "e_n": (0.9,), "ks_ratio": (2 / 7,)}
    row = energy_sweep(rules=["liggghts-history"], sweep=pt)[0]
    bad = {**row, "theta_deg": 25.0, "limit_note": "limit not solved: no progress ...",
           **{k: math.nan for k in ("limit_W_elastic", "limit_W_damping", "limit_E_slip", "limit_max_energy_gain")}}
    cert = certificate([row, bad])[0]
    assert cert["limit_unsolved"] == 1 and cert["points"] == 2
    assert "theta 25, mu 0.3, e_n 0.9" in cert["where_limit_unsolved"]
    assert "not solved at 1 of 2 points" in cert["verdict"]
    assert cert["min_limit_E_slip"] == row["limit_E_slip"] and "theta 45" in cert["where_min_limit_E_slip"]


def test_the_energy_account_reads_each_laws_declared_spring():
    """The account's elastic force and spring energy are the outputs the laws declare
    (``F_t_el``, ``E_t``): the energy is the force's potential, ``dE_t/dxi = -F_t_el``,
    in every mode of every law that declares them, and both are zero while the contact
    is open."""
    import sympy as sp

    from nsfric.symbolic.laws import SPRING_OUTPUTS, get_law, xi

    case = get_case("sphere-wall")
    for name in case.tangential_laws:
        law = get_law(name)
        for mode in (*law.branches.values(), *law.slidings.values()):
            F_el, E_t = (sp.sympify(mode.outputs[k]) for k in SPRING_OUTPUTS)
            assert sp.simplify(sp.diff(E_t, xi) + F_el) == 0, (name, F_el, E_t)
        model = case.numeric_model(f"{name}/linear-dashpot-force-end")
        assert set(SPRING_OUTPUTS) <= set(model.output_names), name
    sol = case.reference_solution("sds-trim/linear-dashpot-force-end")
    free = np.array([m == "free" for m in sol.modes])
    assert free.any() and not np.any(sol["E_t"][free]) and not np.any(sol["F_t_el"][free])
    touching = ~free & (np.abs(sol["xi"]) > 0)
    assert np.all(sol["E_t"][touching] > 0)


def test_yade_hertz_mindlin_row_its_account_and_its_verdict():
    """YADE's Hertz-Mindlin row in the certificate: along its exact limit (Filippov) the
    work splits exactly (W_elastic + W_damping = W_total), the slider dissipates (E_slip >
    0) and the mechanical energy with the Hertz elastic energy and F_e^2/(2 k_ta a) never
    rises above the impact energy; YADE's step at t_n/800 and t_n/3200 converges to the
    exact account at first order; over a corner of the sweep (the angles, mu and e_n where
    the old solver failed or stalled) the verdict is "no energy gain"."""
    p = standard_impact(45.0, mu=0.6, e_n=0.99)
    exact = exact_energy_account("mindlin-force-elastic-test", p)
    assert math.isclose(exact["W_elastic"] + exact["W_damping"], exact["W_total"], rel_tol=1e-12)
    assert exact["E_slip"] > 1e-3 and exact["max_energy_gain"] <= 0.0
    errs = []
    for n in (800, 3200):
        r = run_impact("yade-hertz-mindlin", p, contact_time(p) / n)
        errs.append([abs(r[k] - exact[k]) for k in ("W_elastic", "E_slip")])
    assert np.all(np.array(errs[1]) < np.array(errs[0]) / 3.0) and max(errs[1]) < 1e-3, errs
    rows = energy_sweep(rules=["yade-hertz-mindlin"], sweep={"theta_deg": (5.0, 45.0, 85.0), "mu": (0.1, 0.6),
                                                             "e_n": (0.5, 0.99), "ks_ratio": (2 / 7,)})
    assert len(rows) == 12 and not any(r["limit_note"] for r in rows)
    (cert,) = certificate(rows)
    assert cert["verdict"] == "no energy gain" and cert["max_KE_ratio"] < 1 and cert["min_limit_E_slip"] > 0
