"""The built-in case ``chung-ooi`` (Chung & Ooi 2011, tests T1-T6 as LIGGGHTS-PFM and
Kratos define them): its exact Hertz-Mindlin references against Hertz's closed form and
the closed form of an impact sliding throughout, against IDA, against the benchmark's
published curve of T1, and ``nsfric run chung-ooi``."""
import json
import math

import numpy as np
import pytest

from nsfric.cases import chung_ooi as C
from nsfric.cases import get_case


@pytest.fixture(scope="module")
def case():
    return get_case("chung-ooi")


def test_registered_with_its_laws_and_skips_named(case):
    assert isinstance(case, C.ChungOoi)
    assert set(case.laws) == {"mindlin/hertz", "mindlin-force/hertz", "mindlin/hertz-tsuji",
                              "mindlin-elastic-test/hertz-tsuji"}
    assert case.check_law("mindlin") == "mindlin"  # the normal law defaults to hertz
    with pytest.raises(ValueError, match="NORMAL in \\['hertz', 'hertz-tsuji', 'hertz-tsuji-force-end'\\]"):
        case.check_law("mindlin/linear-dashpot")
    assert not C.SKIPPED and "T3-al-oxide" in C.TESTS  # T7, T8: chung-ooi-spheres
    names = case.model("mindlin").param_names
    assert "k_ta" in names and "k_n_tilde" in names and "R_eff" not in names  # the sphere's radius


def test_contact_params_refuse_a_bad_radius():
    for R in (0.0, -1e-3, math.inf, math.nan):
        with pytest.raises(ValueError, match="R must be finite and > 0"):
            C.contact_params(C.GLASS, R)


def test_hertz_closed_form_has_chung_and_ooi_s_constant():
    """Chung & Ooi's T1 contact duration ``2.868 (m*^2/(R* E*^2 v))^(1/5)`` (four digits)
    against the exact energy integral of :func:`hertz_impact`; ``E* = E/(2(1 - nu^2))`` for
    two equal spheres, written here from the material, not from the case's parameters."""
    mat, R, v = C.GLASS, 0.01, 20.0
    m_star = mat.rho * 4 / 3 * math.pi * R ** 3 / 2
    E_star = mat.E / (2 * (1 - mat.nu ** 2))
    t_c = 2.868 * (m_star ** 2 / (R / 2 * E_star ** 2 * v)) ** 0.2
    exact = C.hertz_impact({**C.TESTS["T1-glass"].params})
    assert exact["t_n"] == pytest.approx(t_c, rel=2e-4)


@pytest.mark.parametrize("test", ["T2-mg-alloy"])
def test_normal_impacts_are_hertz_s_closed_form_by_two_solvers(case, test):
    p = C.points(C.TESTS[test])[0]
    closed = C.hertz_impact(case.bind("mindlin", p))
    for solver in ("filippov", "ida"):
        s = case.reference_solution("mindlin", solver=solver, params=p).summary
        assert s["e_n"] == pytest.approx(1.0, abs=1e-9), solver
        for q in ("t_n", "xi_max", "F_n_max"):
            assert s[q] == pytest.approx(closed[q], rel=1e-9, abs=0), (solver, q)


def test_t1_against_the_benchmark_s_published_curve(case):
    """T1 (glass, 10 m/s each): Chung & Ooi's force-time curve, digitised in Kratos
    ``applications/DEMApplication/tests/DEM3D_chung_ooi_tests/test1_data/paper_data/
    benchmark1_graph2.dat``, peaks at 10.70 kN (at 20.45 us) and returns to zero at
    40.48 us; digitisation holds ~1 %."""
    p = C.points(C.TESTS["T1-glass"])[0]
    s = case.reference_solution("mindlin", params=p).summary
    closed = C.hertz_impact(case.bind("mindlin", p))
    for q in ("t_n", "xi_max", "F_n_max"):
        assert s[q] == pytest.approx(closed[q], rel=1e-9, abs=0), q
    assert s["F_n_max"] / 1e3 == pytest.approx(10.70, rel=0.01)
    assert s["t_n"] * 1e6 == pytest.approx(40.48, rel=0.01)


@pytest.mark.parametrize("law", ["mindlin", "mindlin-force"])
def test_large_incidence_slides_throughout_as_the_closed_form(case, law):
    """T4 (Al oxide) at 75 degrees: no stick, the tangential impulse is mu times the
    normal one; the centre's tangential restitution, the spin and the rebound angle are
    the rigid-body closed form."""
    test = C.TESTS["T4-elastic-al-oxide"]
    for i in (14,):  # 75 degrees
        p = C.points(test)[i]
        sol = case.reference_solution(law, params=p)
        assert "stick" not in [e.kind for e in sol.events]
        gs = C.gross_sliding(case.bind(law, p))
        s = sol.summary
        vx_i = p["psi_i"] * p["v_n"]
        assert s["e_t_com"] == pytest.approx(gs["vx_f"] / vx_i, abs=1e-9)
        assert s["omega_f"] == pytest.approx(gs["omega_f"], rel=1e-9)
        assert s["rebound_angle"] == pytest.approx(gs["rebound_angle"], abs=1e-7)


@pytest.mark.parametrize("law,test,i", [("mindlin", "T4-elastic-al-oxide", 2),
                                        ("mindlin-force", "T6-elastic-nylon", 6)])
def test_stick_slip_points_agree_between_two_solvers(case, law, test, i):
    """T4 at 15 degrees (mindlin) and T6 (spin, mindlin-force) at R omega/v_n = 0.6: the contact sticks and slips;
    filippov and ida agree to 1e-9."""
    p = C.points(C.TESTS[test])[i]
    a = case.reference_solution(law, params=p)
    b = case.reference_solution(law, solver="ida", params=p)
    assert "stick" in [e.kind for e in a.events]
    for q in ("psi_f", "e_t", "e_n"):
        assert a.summary[q] == pytest.approx(b.summary[q], abs=1e-9), q
    assert a.summary["omega_f"] == pytest.approx(b.summary["omega_f"], rel=1e-9)


def test_run_writes_the_tests_figures_and_tables(tmp_path):
    """``nsfric run chung-ooi --param stride=100`` (the first point of each sweep): the
    normal tests' rows are Hertz's closed form, every swept point agrees between the two
    solvers."""
    from nsfric.cli import main

    out = tmp_path / "run"
    assert main(["run", "chung-ooi", "--out", str(out), "--param", "stride=100", "--no-cache"]) == 0
    names = {p.name for p in out.iterdir()}
    assert {"normal.csv", "normal.png", "T4.csv", "T4.png", "T5.png", "T6.png", "T1-glass.csv", "T4-damped.png",
            "T6-damped.png", "T7.png", "T7-damped.csv", "T8.png", "T8-damped.csv"} <= names
    import pandas as pd

    normal = pd.read_csv(out / "normal.csv")
    assert list(normal["test"]) == ["T1-glass", "T1-limestone", "T2-al-alloy", "T2-mg-alloy"]
    for q in ("t_n", "xi_max", "F_n_max"):
        assert np.allclose(normal[q], normal[f"{q}_closed"], rtol=1e-9, atol=0), q
    assert (normal["solver_diff"] < 1e-9).all() and (normal["solver_diff"] > 0).all()
    from nsfric.cases.chung_ooi_figures import FAMILY_CROSS_CHECK

    for family in ("T4", "T4-damped", "T5", "T6", "T6-damped", "T7", "T7-damped", "T8", "T8-damped"):
        table = pd.read_csv(out / f"{family}.csv")
        diffs = table[[c for c in table.columns if c.endswith(":solver_diff")]].to_numpy()
        assert diffs.size and np.nanmax(diffs) < FAMILY_CROSS_CHECK.get(family, 1e-8), family
        assert np.nanmin(diffs) > 0, family  # two independent solvers: never bit for bit
    meta = json.loads((out / "T4.json").read_text())
    assert meta["skipped"] == {}
    t7 = pd.read_csv(out / "T7.csv")  # the closed form of no slip: spin unchanged, no tangential velocity
    assert np.allclose(t7["T7-elastic-copper:mindlin:omega_f"], t7["T7-elastic-copper:no_slip:omega_f"],
                       rtol=1e-12, atol=0)
    assert meta["tests"]["T4-elastic-al-oxide"]["source"].endswith("test04/in.oblique_impact_on_wall")


def test_run_refuses_an_unknown_or_bad_param(tmp_path, capsys):
    from nsfric.cli import main

    for param, msg in (("points=3", "takes --param stride=N only"), ("stride=0", "stride must be an integer"),
                       ("stride=1.5", "stride must be an integer")):
        out = tmp_path / param.replace("=", "_")
        assert main(["run", "chung-ooi", "--out", str(out), "--param", param]) == 2
        err = capsys.readouterr().err
        assert msg in err and "Traceback" not in err
        assert not out.exists() or not any(out.iterdir())


def test_t3_liggghts_damping_gives_one_restitution_per_e_whatever_the_material(case):
    """T3: Hertz with LIGGGHTS's damping ``~ xi^(1/4) dxi/dt`` (``hertz-tsuji``): the exact
    ``e_n`` depends on the ``e`` put in only (Al oxide and cast iron agree to 1e-9, two
    solvers too) and is that ``e`` -- the benchmark's expectation (its T3 plots the ``e``
    obtained against the one put in); ``e = 1`` is elastic."""
    e_out = []  # the e put in: 0.2
    for i in (0,):  # e = 0.2
        s = [case.reference_solution("mindlin/hertz-tsuji", solver=solver,
                                     params=C.points(C.TESTS[f"T3-{mat}"])[i]).summary["e_n"]
             for mat in ("al-oxide", "cast-iron") for solver in ("filippov", "ida")]
        assert max(s) - min(s) < 1e-9, s
        e_out.append(s[0])
    elastic = case.reference_solution("mindlin/hertz-tsuji", params=C.points(C.TESTS["T3-al-oxide"])[4]).summary
    assert elastic["e_n"] == pytest.approx(1.0, abs=1e-9)
    assert e_out[0] == pytest.approx(0.2, abs=1e-9)  # LIGGGHTS's map is exact (the start at XI0 leaves 4e-10)
    with pytest.raises(ValueError, match="e must be in \\(0, 1\\]"):
        C.liggghts_damping(0.0, C.TESTS["T3-al-oxide"].params)


def test_a_slip_that_stops_at_the_largest_overlap_keeps_the_contact(case):
    """T5 at v_t = 5.25 m/s (``psi_i = 1.05 = 3.5 mu``): the slip ends exactly where the
    overlap is largest (the rigid-body impulse of the compression brings ``v_t`` to zero
    there).  The mode logic took the contact end ``h = 0`` as reached there: it measured
    the overlap (6.5e-8 m) against ``1e-12 max |y|``, the spin of 3.75e5 rad/s, and logged a
    ``contact-end`` at ``vy = 0`` (``e_n`` ~3e-13 instead of 1).  The contact sticks
    there and ends later, elastic."""
    sol = case.reference_solution("mindlin-force", params=C.points(C.TESTS["T5-steel"])[13])
    s = sol.summary
    assert s["e_n"] == pytest.approx(1.0, abs=1e-9)
    kinds = [e.kind for e in sol.events]
    assert kinds == ["slip", "stick", "slip", "contact-end"]
    assert sol.events[1].t == pytest.approx(s["t_vt0"], rel=1e-12)


def test_liggghts_damped_law_is_mindlin_without_damping(case):
    """``mindlin-elastic-test`` with both damping coefficients zero (``e = 1``) is the
    Hertz-Mindlin spring of ``mindlin`` (the Coulomb test on the elastic part is the test
    on the total without a dashpot): T4 at 15 degrees, sticking and slipping."""
    p = C.points(C.TESTS["T4-elastic-al-oxide"])[2]
    a = case.reference_solution("mindlin-elastic-test/hertz-tsuji", params={**p, "gamma_n_tsuji": 0.0,
                                                                           "gamma_t_tsuji": 0.0})
    b = case.reference_solution("mindlin/hertz", params=p)
    assert [e.kind for e in a.events] == [e.kind for e in b.events]
    for q in ("psi_f", "e_n", "omega_f"):
        assert a.summary[q] == pytest.approx(b.summary[q], rel=1e-10), q


def test_damped_t4_as_liggghts_damps_it(case):
    """T4 with LIGGGHTS's damping for e = 0.98 (``liggghts_damped``: ``gammat = -2 sqrt(5/6)
    beta sqrt(S_t m*)``, ``S_t = 8 G* sqrt(R* xi)``, LIGGGHTS-PUBLIC normal_model_hertz.h):
    at 15 degrees it slips, sticks, slips and sticks; filippov and ida agree; the normal
    restitution is the one put in; the tangential damping changes the rebound."""
    test = C.TESTS["T4-damped-al-oxide"]
    p = C.points(test)[2]
    G = test.material.E / (2 * (1 + test.material.nu)) / (2 - test.material.nu)
    beta = np.log(0.98) / np.hypot(np.log(0.98), np.pi)
    xi = 1e-7  # the coefficient of xi^(1/4) against LIGGGHTS's gammat at some overlap
    gammat = -2 * np.sqrt(5 / 6) * beta * np.sqrt(8 * G * np.sqrt(p["R"] * xi) * p["m"])
    assert p["gamma_t_tsuji"] * xi ** 0.25 == pytest.approx(gammat, rel=1e-12)
    law = "mindlin-elastic-test/hertz-tsuji"
    a = case.reference_solution(law, params=p)
    b = case.reference_solution(law, solver="ida", params=p)
    assert [e.kind for e in a.events] == ["slip", "stick", "slip", "stick", "contact-end"]
    assert a.summary["e_n"] == pytest.approx(0.98, abs=1e-6)
    for q in ("psi_f", "e_n"):
        assert a.summary[q] == pytest.approx(b.summary[q], abs=1e-8), q
    elastic = case.reference_solution("mindlin/hertz", params=C.points(C.TESTS["T4-elastic-al-oxide"])[2])
    assert abs(a.summary["psi_f"] - elastic.summary["psi_f"]) > 1e-3
