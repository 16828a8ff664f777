"""``nsfric export oblique-impact --format lammps-unittest``: a LAMMPS force-style unit
test of ``pair gran/hooke/history`` whose expected forces come from the exact law (setup)
and nsfric's transcription of LAMMPS's step (4 steps of ``fix nve``), checked by running
it through real LAMMPS the way LAMMPS's harness does."""
from __future__ import annotations

import numpy as np
import pytest
import yaml

from nsfric.adapters import lammps
from nsfric.adapters import lammps_unittest as U
from nsfric.cli import main

pytestmark = pytest.mark.skipif(bool(lammps.available()), reason=f"LAMMPS: {lammps.available()}")

HARNESS_KEYS = ("lammps_version", "date_generated", "epsilon", "prerequisites", "pre_commands", "post_commands",
                "input_file", "pair_style", "pair_coeff", "natoms", "init_vdwl", "init_coul", "init_stress",
                "init_forces", "run_vdwl", "run_coul", "run_stress", "run_forces")


@pytest.fixture(scope="module")
def sticking():
    exp = U.expected({"psi_i": 0.1})
    return exp, U.unittest_yaml(exp)


def test_lammps_reproduces_the_exported_forces(sticking):
    exp, text = sticking
    assert exp["mode"] == "contact/stick"
    doc = yaml.safe_load(text)
    assert set(HARNESS_KEYS) <= set(doc) and doc["natoms"] == 2 and doc["input_file"] == "in.empty"
    cfg = U.read(text)
    assert cfg["init_forces"].shape == (2, 3) and np.allclose(cfg["init_forces"], exp["init_forces"], rtol=1e-15)
    assert np.allclose(cfg["init_forces"][0], -cfg["init_forces"][1], rtol=1e-15)  # action = reaction
    assert abs(cfg["init_forces"][0][1]) > 1e-3 * abs(cfg["init_forces"][0][0])  # a tangential force is tested
    diff = U.check_with_lammps(text)
    assert max(diff.values()) < U.EPSILON, diff
    # measured: 2e-16 at the setup (the exact law), 7e-19 after the steps (LAMMPS's step with
    # its projection of the shear; without the projection 4.9e-15)
    assert diff["init_forces"] < 2e-15 and diff["run_forces"] < 1e-16, diff
    # the spheres moved in the 4 steps: the run is not the setup again
    assert np.max(np.abs(cfg["run_forces"] - cfg["init_forces"])) > 1e-3 * np.max(np.abs(cfg["init_forces"]))


def test_a_sliding_state_shows_lammps_zero_force_with_zero_history():
    with pytest.raises(ValueError, match="LAMMPS sets the tangential force to zero there"):
        U.expected({"psi_i": 5.0}, fraction=0.02)
    exp = U.expected({"psi_i": 5.0}, fraction=0.02, allow_sliding=True)
    assert "slip" in exp["mode"]
    diff = U.check_with_lammps(U.unittest_yaml(exp))
    # LAMMPS's F_t = 0 where the law's is mu |F_n|: the error is mu (0.25) relative to F_n
    assert diff["init_forces"] == pytest.approx(0.25, rel=1e-3)


def test_the_cli_writes_the_test_and_refuses_other_laws(tmp_path, capsys):
    out = tmp_path / "gran_hooke_history_nsfric.yaml"
    assert main(["export", "oblique-impact", "--law", "d-sds", "--format", "lammps-unittest",
                 "--param", "psi_i=0.1", "--out", str(out)]) == 0
    assert max(U.check_with_lammps(out.read_text()).values()) < U.EPSILON
    capsys.readouterr()
    assert main(["export", "oblique-impact", "--law", "coulomb", "--format", "lammps-unittest",
                 "--out", str(tmp_path / "b.yaml")]) == 2
    err = capsys.readouterr().err
    assert "--format lammps-unittest writes a test of pair gran/hooke/history" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "b.yaml").exists()
