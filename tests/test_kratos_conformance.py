"""``nsfric run kratos-conformance`` (:mod:`nsfric.adapters.kratos_conformance`): the
Kratos DEM wheel's linear viscous Coulomb law on the sphere-wall impact, measured against
the D-SDS and ``sds-trim``.  Skipped only where the Kratos wheel is not installed."""
import csv
import json

import pytest

from nsfric.cli import main

from conftest import KRATOS_MISSING as WHY



@pytest.mark.skipif(bool(WHY), reason=f"Kratos DEM is not here: {WHY}")
def test_the_kratos_wheel_in_micro_slip_converges_to_its_transcribed_rule_not_the_d_sds(tmp_path, capsys):
    """psi_i = 0.5 on t_n/50 ... t_n/400: the wheel's psi_f converges at first order to
    ``sds-trim``, the limit of Kratos's tangential function as transcribed (offset within
    its uncertainty), and not to the D-SDS (offset about -9e-3, beyond it); e_n converges
    to the common normal law; no kinetic energy gain."""
    out = tmp_path / "kc"
    assert main(["run", "kratos-conformance", "--out", str(out), "--param", "psi_i=0.5",
                 "--param", "max_division=400"]) == 0
    with open(out / "kratos-conformance.csv") as f:
        rows = {(r["observable"], r["law"].split("/")[0]): r for r in csv.DictReader(f)}
    assert len(rows) == 4
    psi_d, psi_trim = rows["psi_f", "d-sds"], rows["psi_f", "sds-trim"]
    assert psi_trim["status"] == "converges to sds-trim/linear-dashpot-force-end"
    assert 0.9 < float(psi_trim["order"]) < 1.1
    assert psi_d["status"].startswith("converges to something else")
    assert abs(float(psi_d["offset"])) > 5e-3 > 1e-4 > abs(float(psi_trim["offset"]))
    assert rows["e_n", "d-sds"]["status"].startswith("converges to d-sds")
    assert all(float(r["energy_gain_steps"]) == 0 for r in rows.values())
    meta = json.loads((out / "kratos-conformance.json").read_text())
    assert meta["convention"] == "kratos-linear-viscous-coulomb" and meta["divisions"] == [50, 100, 200, 400]
    assert (out / "verify.png").stat().st_size > 0
    capsys.readouterr()
    assert main(["run", "kratos-conformance", "--out", str(tmp_path / "bad"), "--param", "psi_i=-1"]) == 2
    err = capsys.readouterr().err
    assert "psi_i must be > 0" in err and "Traceback" not in err
