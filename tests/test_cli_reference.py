"""`nsfric reference`, `list`, `run` and bad input (issue 2)."""
import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from nsfric.cli import main


def run_cli(*args):
    p = subprocess.run([sys.executable, "-m", "nsfric.cli", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def test_reference_writes_csv_and_sidecar(tmp_path):
    out = tmp_path / "plates.csv"
    assert main(["reference", "sliding-plates", "--law", "d-sds", "--samples", "101",
                 "--out", str(out)]) == 0
    rows = list(csv.reader(open(out)))
    assert rows[0][:5] == ["t", "xi", "v", "F", "F_S"]
    assert "E_kin" in rows[0] and "E_el" in rows[0]
    t = np.array([float(r[0]) for r in rows[1:]])
    assert t[0] == 0 and t[-1] == 10 and np.all(np.diff(t) >= 0)
    assert 2.0 in t  # the stick event time is a sample
    meta = json.load(open(tmp_path / "plates.json"))
    assert meta["case"] == "sliding-plates" and meta["law"] == "d-sds" and meta["solver"] == "filippov"
    assert meta["parameters"]["gamma"] == 2.0 and meta["tolerances"]["rtol"] == 1e-12
    assert {"nsfric", "numpy", "scipy", "sympy", "assimulo"} <= set(meta["versions"])
    kinds = [(e["kind"], e["from"], e["to"]) for e in meta["events"]]
    assert kinds == [("slip", None, "slip-"), ("stick", "slip-", "stick")]
    assert abs(meta["events"][1]["t"] - 2.0) < 1e-12
    # the disagreement with an independent solver is stored with the reference
    assert meta["cross_check"]["against"] == "ida" and meta["cross_check"]["max_abs"] < 1e-8


def test_reference_params_and_dry_oscillator_columns(tmp_path):
    out = tmp_path / "osc.csv"
    assert main(["reference", "dry-oscillator", "--solver", "ida", "--param", "x0=1.0",
                 "--param", "mu=0.3", "--t-end", "5", "--samples", "51", "--out", str(out)]) == 0
    rows = list(csv.reader(open(out)))
    assert rows[0][:3] == ["t", "x", "v"]
    meta = json.load(open(tmp_path / "osc.json"))
    assert meta["parameters"]["x0"] == 1.0 and meta["parameters"]["mu"] == 0.3
    assert meta["cross_check"]["against"] == "filippov"


BAD = [
    (["reference", "no-such-case"], "unknown case"),
    (["reference", "sliding-plates", "--law", "coulomb"], "unknown law"),
    (["reference", "sliding-plates", "--solver", "euler"], "invalid choice"),
    (["reference", "sliding-plates", "--param", "k=-1"], "'k'"),
    (["reference", "dry-oscillator", "--param", "mu=-0.2"], "'mu'"),
    (["reference", "sliding-plates", "--t-end", "0"], "--t-end"),
    (["reference", "sliding-plates", "--t-end", "-3"], "--t-end"),
    (["reference", "sliding-plates", "--param", "k=stiff"], "number"),
    (["reference", "sliding-plates", "--param", "kk=1"], "unknown parameter"),
    (["reference", "sliding-plates", "--param", "k"], "NAME=VALUE"),
]


@pytest.mark.parametrize("args,needle", BAD, ids=[" ".join(a[1:]) for a, _ in BAD])
def test_bad_input_one_line_exit_2_no_file(tmp_path, args, needle):
    out = tmp_path / "x.csv"
    code, stdout, stderr = run_cli(*args, "--out", str(out))
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert needle in lines[0]
    assert os.listdir(tmp_path) == []


def test_list_names_everything():
    code, out, _ = run_cli("list")
    assert code == 0
    for name in ("sliding-plates", "dry-oscillator", "normal-impact", "c-sds", "d-sds",
                 "coulomb", "filippov", "ida", "radau5dae", "analytic"):
        assert name in out


def test_run_writes_reference_figures(tmp_path, capsys):
    """The base ``run`` on the cheapest case that has a law with a contact end
    (``sphere-wall``, 3-9 s of CPU; normal-impact's run, 30-40 s, is what test_report.py
    builds its report from and checks there; the full sliding-plates reproduction is
    tested on its own)."""
    assert main(["run", "sphere-wall", "--out", str(tmp_path)]) == 0
    names = set(os.listdir(tmp_path))
    assert {"reference-coulomb.csv", "reference-coulomb.json",
            "reference-coulomb_linear-dashpot-force-end.csv", "reference.png"} <= names
    assert not any(n.startswith(".tmp-") for n in names)
    names.remove(".nsfric-manifest.json")  # what nsfric wrote there (issue 24)
    paths, summary = capsys.readouterr().out.split("\n\n")  # the paths, then the summary
    assert sorted(os.path.basename(p) for p in paths.split()) == sorted(names)
    assert summary.startswith(f"sphere-wall: wrote {len(names)} files into {tmp_path}: ")
    assert "\nverdicts: " in summary and "\nreport: nsfric report --cases sphere-wall" in summary


def test_the_cli_reference_solves_with_the_case_solver_defaults(tmp_path):
    """`nsfric reference` and its cross-check use the case's solver defaults, as the
    Python API does (the rotating block's atol; a given --atol still wins)."""
    import json
    import nsfric

    case = nsfric.get_case("slope-block-rotating")
    assert case.solver_options("coulomb", "ida") == {"atol": case.reference_atol}
    assert case.solver_options("coulomb", "ida", atol=1e-10) == {"atol": 1e-10}
    assert case.solver_options("coulomb", "ida", atol=None) == {"atol": case.reference_atol}
    assert nsfric.get_case("oblique-impact").solver_options("saw-tooth", "ida", rtol=None) == {"rtol": 1e-13}
    out = tmp_path / "rot.csv"
    r = subprocess.run([sys.executable, "-m", "nsfric.cli", "reference", "slope-block-rotating", "--t-end", "0.001",
                        "--samples", "11", "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["tolerances"]["atol"] == case.reference_atol, meta["tolerances"]
