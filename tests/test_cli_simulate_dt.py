"""`nsfric simulate` takes the time step from --dt or from the case's dt parameter."""
import json

from nsfric.cli import main


def test_dt_from_case_parameter(tmp_path):
    out = tmp_path / "block.csv"
    assert main(["simulate", "slope-block", "--law", "coulomb", "--scheme", "delta-heun",
                 "--param", "dt=1e-5", "--t-end", "0.0005", "--out", str(out)]) == 0
    meta = json.loads((tmp_path / "block.json").read_text())
    assert meta["dt"] == 1e-5 and meta["n_steps"] == 50


def test_dt_required_without_case_parameter(tmp_path, capsys):
    assert main(["simulate", "sliding-plates", "--scheme", "euler", "--out", str(tmp_path / "x.csv")]) == 2
    assert "--dt is required" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
