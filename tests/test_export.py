"""`nsfric export`: references for DEM regression tests round-trip in every format."""
import json
import os

import numpy as np
import pytest
import yaml

from nsfric.cases import get_case
from nsfric.cli import main
from nsfric.report.export import FORMATS, build_reference, read_reference, write_reference


@pytest.fixture(scope="module")
def ref():
    return build_reference(get_case("dry-oscillator"), samples=7)


def _plain(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_round_trip(ref, fmt, tmp_path):
    path = str(tmp_path / f"ref{FORMATS[fmt][0]}")
    write_reference(ref, path, fmt)
    back = read_reference(path)
    assert _plain(back) == _plain(ref)          # every value equal, bit for bit


def test_reference_content_and_tolerances(ref):
    assert ref["case"] == "dry-oscillator" and ref["law"] == "coulomb"
    assert ref["parameters"]["mu"] == 0.4 and ref["initial_state"] == {"x": 2.1, "v": 0.0}
    assert [e["kind"] for e in ref["events"]] == ["reversal", "reversal", "stick"]
    assert ref["verified_against"] == "ida" and 0 < ref["verified_error"]["max_abs"] < 1e-8
    for name, tol in ref["tolerances"]["trajectory"].items():
        assert tol >= 10 * ref["verified_error"]["states"][name]
    # the expected values hold, within their tolerances, against the closed form
    traj = np.array(ref["trajectory"])
    exact = get_case("dry-oscillator").reference_solution(solver="analytic")(traj[:, 0])
    for i, name in enumerate(ref["trajectory_columns"][1:], start=1):
        assert np.max(np.abs(traj[:, i] - exact[i - 1])) <= ref["tolerances"]["trajectory"][name]
    t_stick = 3 * np.pi * np.sqrt(0.25 / 1.0)  # three half periods pi sqrt(m/k)
    assert abs(ref["events"][-1]["t"] - t_stick) <= ref["tolerances"]["event_t"]


def test_cli_yaml_follows_the_lammps_layout(tmp_path, capsys):
    out = tmp_path / "osc.yaml"
    assert main(["export", "dry-oscillator", "--param", "x0=1.5", "--samples", "5",
                 "--format", "yaml", "--out", str(out)]) == 0
    assert "verified against ida" in capsys.readouterr().out
    text = out.read_text()
    doc = yaml.safe_load(text)
    keys = list(doc)
    assert text.startswith("---\n") and text.rstrip().endswith("...")
    assert keys[:4] == ["layout", "nsfric_version", "date_generated", "epsilon"]
    assert keys.index("parameters") < keys.index("init_state") < keys.index("run_observables") < keys.index("tolerances")
    assert "run_trajectory: |" in text
    assert doc["parameters"]["x0"] == 1.5
    assert len(doc["run_trajectory"].splitlines()) == 5


@pytest.mark.parametrize("argv, message", [
    (["export", "dry-oscillator", "--format", "xml", "--out", "a.xml"], "invalid choice"),
    (["export", "dry-oscillator", "--format", "yaml", "--out", "a.csv"], "must end with .yaml or .yml"),
    (["export", "dry-oscillator", "--format", "csv", "--out", "a.csv", "--param", "mu=-1"], "mu"),
    (["export", "nope", "--format", "csv", "--out", "a.csv"], "unknown case"),
    (["export", "kuhn-contact", "--format", "csv", "--out", "a.csv"], "without a HybridModel"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert os.listdir(tmp_path) == []
