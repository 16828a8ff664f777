"""Kratos DEM's Hertz law (``DEM_D_Hertz_viscous_Coulomb``) in-process on Chung & Ooi's T4
(``nsfric.adapters.kratos_chung``), measured by ``nsfric verify``: under the convention
``kratos-hertz-viscous-coulomb`` (lever arm R - delta) it converges to
``mindlin-rescale-force/hertz`` (its elastic force rescaled by sqrt(delta/delta_old) on
unloading), not to ``mindlin-force/hertz``.  Skipped only where the wheel is not
installed (no Kratos wheel for the platform); an installed Kratos that does not run fails."""
import json

import pytest

from nsfric.adapters import kratos_chung as adapter
from nsfric.cases import chung_ooi as C
from nsfric.cases import get_case
from nsfric.cli import main
from nsfric.conventions import CONVENTIONS, get_convention, register_convention

from conftest import KRATOS_MISSING as WHY

needs_kratos = pytest.mark.skipif(bool(WHY), reason=f"Kratos DEM is not here: {WHY}")
#: T4 at 15 degrees (the contact slips, sticks and slips again)
POINT = C.points(C.TESTS["T4-elastic-al-oxide"])[2]


@pytest.fixture(scope="module", autouse=True)
def convention():
    if adapter.CONVENTION.name not in CONVENTIONS:  # the entry point not installed yet
        register_convention(adapter.CONVENTION)


@needs_kratos
def test_kratos_hertz_converges_to_the_rescaled_force_history(tmp_path, capsys):
    """``nsfric verify chung-ooi --convention kratos-hertz-viscous-coulomb --code kratos``
    over t_n/400 ... t_n/6400 (measured: order 1.47 +- 0.13, offset 1e-8 +- 5e-7 in psi_f;
    ``mindlin-force/hertz`` 3.85e-3 away)."""
    conv = get_convention("kratos-hertz-viscous-coulomb")
    law = conv.laws[0]
    case = get_case("chung-ooi")
    t_n = case.contact_t_end(law, case.bind(law, {**POINT, **conv.params})) / 2
    args = ["verify", "chung-ooi", "--convention", conv.name, "--law", law, "--law", "mindlin-force/hertz",
            "--code", "kratos", "--observable", "psi_f", "--out", str(tmp_path / "v")]
    args += [a for n in (400, 800, 1600, 3200, 6400) for a in ("--dt", repr(t_n / n))]
    args += [a for k, v in POINT.items() for a in ("--param", f"{k}={float(v)!r}")]
    assert main(args) == 0
    (q,) = json.load(open(tmp_path / "v" / "verify.json"))["points"]
    assert q["converges_to"] == law, q["verdict"]
    assert abs(q["laws"]["mindlin-force/hertz"]["offset"]) > 1e-3


def test_the_translator_refuses_what_no_kratos_material_has():
    values = get_case("chung-ooi").bind("mindlin-rescale-force/hertz", dict(POINT))
    mat = adapter.to_kratos_hertz(values)
    assert 0 < mat["poisson"] < 0.5 and mat["damping_gamma"] == 0.0
    with pytest.raises(ValueError, match="gamma_t must be 0"):
        adapter.to_kratos_hertz({**values, "gamma_t": 1e-3})
    with pytest.raises(ValueError, match="I must be 2/5 m R"):
        adapter.to_kratos_hertz({**values, "I": 2 * values["I"]})
    with pytest.raises(ValueError, match=r"k_ta/E\* must be in \(4/3, 8/3\)"):
        adapter.to_kratos_hertz({**values, "k_ta": 10 * values["k_ta"]})
