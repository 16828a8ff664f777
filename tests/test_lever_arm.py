"""The lever arm as an engine option (:class:`~nsfric.symbolic.kinematics.PlanarDiscs`,
``arm_overlap``) and as the ``oblique-impact`` case parameter that DEM codes' conventions
set (issue 25): ``l_i = R_i - arm_overlap xi/2``, 1 by default (unchanged numbers), 0 the
radius (LAMMPS ``pair gran/hooke/history``)."""
import pytest
import sympy as sp

from nsfric.cases import get_case
from nsfric.conventions import CONVENTIONS, get_convention, register_convention
from nsfric.symbolic.kinematics import PlanarDiscs


def test_planar_discs_lever_arm_is_an_option():
    default, radius = PlanarDiscs(), PlanarDiscs(arm_overlap=0)
    R1, R2 = sp.Symbol("R_1", positive=True), sp.Symbol("R_2", positive=True)
    assert radius.arms() == (R1, R2)
    assert default.arms() == (R1 - default.overlap / 2, R2 - default.overlap / 2)
    w = sp.Symbol("w")
    assert sp.simplify(PlanarDiscs(arm_overlap=w).arms()[0] - (R1 - w * default.overlap / 2)) == 0
    # the same arm in the contact-point velocity and in the torque
    omega_2 = radius.body(2)[4]
    assert sp.diff(radius.tangential_velocity, omega_2) == -R2
    assert sp.diff(radius.rates(sp.Symbol("F_t"), 0)[omega_2], sp.Symbol("F_t")) * sp.Symbol("I_2", positive=True) == -R2


def test_the_case_takes_the_arm_as_a_validated_parameter():
    case = get_case("oblique-impact")
    case.numeric_model("d-sds")  # bind on the cached numerics: no symbolic model left for later solves
    assert case.bind("d-sds", {})["arm_overlap"] == 1.0
    assert case.bind("d-sds", {"arm_overlap": 0.0})["arm_overlap"] == 0.0
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="arm_overlap"):
            case.bind("d-sds", {"arm_overlap": bad})


def test_the_lammps_preset_sets_the_radius_arm_on_the_d_sds():
    if "lammps-gran-hooke-history" not in CONVENTIONS:  # entry point not installed yet
        from nsfric.papers.schafer1996.conventions import CONTACT_POINT, LAMMPS_GRAN_HOOKE_HISTORY

        register_convention(LAMMPS_GRAN_HOOKE_HISTORY)
        register_convention(CONTACT_POINT)
    conv = get_convention("lammps-gran-hooke-history")
    assert conv.case == "oblique-impact" and conv.laws == ("d-sds",)
    assert conv.params == {"arm_overlap": 0.0}
    assert "pair_gran_hooke_history.cpp" in conv.code
    assert get_convention("nsfric-contact-point").params == {"arm_overlap": 1.0}
    case = get_case(conv.case)
    case.numeric_model(conv.laws[0])
    assert case.bind(conv.laws[0], conv.params)["arm_overlap"] == 0.0
