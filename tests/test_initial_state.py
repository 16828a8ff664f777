"""One convention for the state at t = 0 (docs/getting-started.md, "The initial state"):
the parameters' state in the first row of every output; a reset at t = 0 is an event."""
import csv

import yaml

from nsfric.cli import main


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_reference_simulate_and_export_start_from_the_parameters_state(tmp_path):
    args = ["sliding-plates", "--law", "d-sds", "--param", "xi0=0.5"]
    assert main(["reference", *args, "--samples", "11", "--no-cross-check", "--out", str(tmp_path / "r.csv")]) == 0
    assert main(["simulate", *args, "--scheme", "heun", "--dt", "0.5", "--out", str(tmp_path / "s.csv")]) == 0
    assert main(["export", *args, "--format", "yaml", "--samples", "11", "--out", str(tmp_path / "e.yaml")]) == 0
    ref, sim = _rows(tmp_path / "r.csv"), _rows(tmp_path / "s.csv")
    export = yaml.safe_load((tmp_path / "e.yaml").read_text())
    # the parameters' state, in the first row of each output
    assert float(ref[0]["t"]) == 0 and ref[0]["event"] == "0" and float(ref[0]["xi"]) == 0.5
    assert float(sim[0]["t"]) == 0 and float(sim[0]["xi"]) == 0.5
    assert export["init_state"]["xi"] == 0.5 and export["parameters"]["xi0"] == 0.5
    # the D-SDS reset at t = 0 (|k xi + gamma v| = 8.5 > F_max = 1): an event row after it
    assert float(ref[1]["t"]) == 0 and ref[1]["event"] == "1"
    assert float(ref[1]["xi"]) == -7.0       # k xi + gamma v0 = F_max: xi = 1 - 2 * 4
    assert export["run_events"][0]["t"] == 0.0
    # without the event rows, the reference is the uniform grid
    assert [float(r["t"]) for r in ref if r["event"] == "0"] == [i * 1.0 for i in range(11)]
