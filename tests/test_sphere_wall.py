"""The built-in case ``sphere-wall``: its exact reference against closed forms (the
linear dashpot's ``e_n`` and ``t_n``, the force-end restitution, gross sliding) and
against IDA, an independent solver (stick-slip with spin)."""
import math

import pytest

import nsfric

from nsfric.cases import get_case
from nsfric.cases import sphere_wall as SW


@pytest.fixture(scope="module")
def case():
    return get_case("sphere-wall")


def test_registered_as_a_builtin_case_with_its_laws(case):
    assert isinstance(case, SW.SphereWall)
    assert {"d-sds", "cundall-strack", "coulomb", "d-sds/linear-dashpot-force-end"} <= set(case.laws)
    with pytest.raises(ValueError, match="TANGENTIAL in"):
        case.check_law("walton-braun-mindlin")
    with pytest.raises(ValueError, match="arm_overlap"):
        case.bind("d-sds", {"arm_overlap": 2.5})


@pytest.mark.parametrize("law", ["d-sds", "cundall-strack/linear-dashpot-force-end"])
def test_normal_restitution_and_duration_are_the_closed_forms(case, law):
    """The normal motion does not feel the tangential force: e_n and t_n are the linear
    dashpot's (eqs 3-4 with m_eff = m), or the force-end restitution, with stick-slip and spin."""
    p = {"psi_i": 1.0, "omega_i": 200.0}
    s = case.reference_solution(law, params=p).summary
    values = case.bind(law, p)
    closed = SW.normal_closed_form(values)
    if law.endswith("force-end"):
        closed = SW.force_end_closed_form(values)
    e_n = closed["e_n"]
    assert abs(s["e_n"] - e_n) < 1e-9
    assert abs(s["t_n"] - closed["t_n"]) < 1e-9 * closed["t_n"]
    assert s["E_kin_after"] < s["E_kin_before"]


@pytest.mark.parametrize("law", ["coulomb", "d-sds", "cundall-strack"])
def test_gross_sliding_is_the_coulomb_impulse(case, law):
    """psi_i = 6: sliding throughout, v_t changes by -mu int|F_n| dt (1/m + R^2/I) (arm R)."""
    p = {"psi_i": 6.0, "omega_i": -100.0, "arm_overlap": 0.0}
    s = case.reference_solution(law, params=p).summary
    values = case.bind(law, p)
    assert abs(s["psi_f"] - SW.gross_sliding_psi_f(values, SW.normal_impulse_magnitude(values))) < 1e-9
    assert math.isclose(s["e_t"], s["psi_f"] / 6.0)


def test_the_lever_arm_shows_in_psi_f(case):
    """R - xi/2 against R: a change of order xi/R in psi_f, as with two spheres."""
    a = case.reference_solution("d-sds", params={"psi_i": 1.0}).summary["psi_f"]
    b = case.reference_solution("d-sds", params={"psi_i": 1.0, "arm_overlap": 0.0}).summary["psi_f"]
    assert 1e-5 < abs(a - b) < 1e-2


@pytest.mark.parametrize("law", ["d-sds", "cundall-strack/linear-dashpot-force-end"])
def test_filippov_agrees_with_ida(case, law):
    p = {"psi_i": 1.0, "omega_i": 300.0}
    f = case.reference_solution(law, params=p).summary
    i = case.reference_solution(law, solver="ida", params=p).summary
    for k in ("psi_f", "e_n", "omega_f"):
        assert abs(f[k] - i[k]) <= 1e-8 * max(1.0, abs(f[k])), k


def test_run_writes_every_law_s_reference_and_the_figure(tmp_path):
    """``nsfric run sphere-wall --jobs 2``: one CSV per law (the laws differ in their
    states; a law name with ``/`` is no folder) and the figure; the references computed
    on the pool's processes are, bit for bit, those of this process."""
    from conftest import assert_csv_holds
    from nsfric.cli import main

    assert main(["run", "sphere-wall", "--jobs", "2", "--out", str(tmp_path / "run")]) == 0
    written = sorted(p.name for p in (tmp_path / "run").iterdir())
    assert all(p.is_file() for p in (tmp_path / "run").iterdir())
    assert len([n for n in written if n.endswith(".csv")]) == len(get_case("sphere-wall").laws)
    assert "reference.png" in written and "reference-d-sds_linear-dashpot-force-end.csv" in written
    for law in ("coulomb", "d-sds/linear-dashpot-force-end"):
        assert_csv_holds(tmp_path / "run" / f"reference-{law.replace('/', '_')}.csv",
                         get_case("sphere-wall").reference_solution(law, samples=1001).columns())


def test_a_scheme_run_has_the_impact_observables_found_on_its_rows():
    """A discrete scheme logs no contact end; ``simulate`` gives the case's observables of
    its rows (``trajectory_observables``): ``psi_f`` and ``t_vt0`` of velocity Verlet on
    the D-SDS approach the exact ones at first order."""
    case = nsfric.get_case("sphere-wall")
    p = {"psi_i": 1.0, "arm_overlap": 0.0}
    exact = case.reference_solution("d-sds", params=p).summary
    t_n = exact["t_n"]
    errs = []
    for n in (200, 800):
        sol = nsfric.simulate("sphere-wall", law="d-sds", scheme="velocity-verlet-lammps", dt=t_n / n,
                              t_end=1.3 * t_n, params=p)
        assert {"psi_f", "e_n", "t_n", "t_vt0"} <= set(sol.summary)
        errs.append([abs(sol.summary[k] - exact[k]) for k in ("psi_f", "t_vt0")])
    assert all(e_fine < e_coarse / 2.5 for e_fine, e_coarse in zip(errs[1], errs[0])), errs
