"""Figs 3-6 and 8 of Schäfer, Dippel & Wolf (1996) from the oblique-impact case, on small
grids: the data, the read-off brake-failure speeds, the PNGs and the parameter checks."""
import os

import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.papers.schafer1996 import oblique_impact_figures as F

CASE = get_case("oblique-impact")


def test_brake_failure_transition_and_eq_25():
    """Fig 8: the transition read off the curve (half the hard-sphere plateau) near the
    paper's 35 and 3.5 m/s; eq 25 from the symbolic layer gives its 27 and 2.7 m/s; the
    t_n = 1e-4 s curve is nearly the 1e-5 s curve moved by a factor 10 in v^i (not
    exactly: the overlap grows against the fixed radius)."""
    bf = F.brake_data(CASE, speeds=np.logspace(-1, 3, 9))
    assert bf["v_bf_eq25"]["1e-05"] == pytest.approx(27.2, abs=0.1)
    assert bf["v_bf_eq25"]["0.0001"] == pytest.approx(2.72, abs=0.01)
    assert 25 < bf["v_bf_read"]["1e-05"] < 45
    assert bf["v_bf_read"]["0.0001"] / bf["v_bf_read"]["1e-05"] == pytest.approx(0.1, rel=0.05)
    r = bf["columns"]["-dv_x/v_i t_n=1e-05"]
    assert np.all(np.diff(r) < 0) and r[0] > 10 * r[-2]  # braking fails at high speed


def test_half_plateau_speed():
    v = np.array([1.0, 10.0, 100.0])
    assert F.half_plateau_speed(v, [1.0, 1.0, 0.25]) == pytest.approx(10 ** 1.5)
    assert np.isnan(F.half_plateau_speed(v, [1.0, 0.9, 0.8]))


def test_panels_and_hkk_data_and_plots(tmp_path):
    panels = {"d": ("cundall-strack", "ks_ratio", (2 / 7, 1.0), "Cundall-Strack", (np.array([0.5, 3.0]),) * 2)}
    data = F.panels_data(CASE, {"mu": 0.25}, panels)
    cols = data["columns"]
    assert cols["psi_f d cundall-strack ks_ratio=0.2857"][0] < 0 < cols["psi_f d cundall-strack ks_ratio=0.2857"][1]
    assert np.all(cols["e d cundall-strack ks_ratio=1"] < 1) and not data["notes"]
    for q in ("psi_f", "e"):
        path = F.plot_panels(data, str(tmp_path / f"{q}.png"), q, panels)
        assert os.path.getsize(path) > 10000
    hkk = F.hkk_data(CASE, psis=np.array([0.5]))
    psi_f = [hkk["columns"][f"psi_f v_rel={v:g}"][0] for v in F.V_REL]
    assert all(np.isfinite(psi_f)) and len(set(psi_f)) == 3  # t_n depends on v_rel
    assert os.path.getsize(F.plot_hkk(hkk, str(tmp_path / "fig5.png"), "psi_f")) > 10000


def test_figures_compute_through_sweep_cached_and_in_parallel(tmp_path, monkeypatch):
    """Figs 3-4 are sweeps: on 2 worker processes the columns equal the single
    references, point by point; a second run reads every point from the cache (no
    impact is computed) and gives the same columns."""
    panels = {"d": ("cundall-strack", "ks_ratio", (2 / 7, 1.0), "Cundall-Strack", None)}
    monkeypatch.setattr(F, "PSI", np.array([0.5, 3.0]))
    cold = F.panels_data(CASE, {}, panels, jobs=2, cache_dir=str(tmp_path))
    for val in (2 / 7, 1.0):
        label = f"d cundall-strack ks_ratio={val:.4g}"
        want = [F.impact(CASE, "cundall-strack", {"ks_ratio": val, "psi_i": psi})[0] for psi in (0.5, 3.0)]
        for q in ("psi_f", "psi_f_over_vnf", "e"):
            assert list(cold["columns"][f"{q} {label}"]) == [w[q] for w in want]

    def no_impact(*a, **k):
        raise AssertionError("computed although cached")

    monkeypatch.setattr(F, "impact", no_impact)
    warm = F.panels_data(CASE, {}, panels, cache_dir=str(tmp_path))
    assert warm["columns"].keys() == cold["columns"].keys()
    for k, v in cold["columns"].items():
        assert np.array_equal(warm["columns"][k], v), k
    with pytest.raises(AssertionError, match="computed although cached"):  # another parameter: computed
        F.panels_data(CASE, {"mu": 0.3}, panels, cache_dir=str(tmp_path))


def test_run_rejects_unknown_parameters(tmp_path):
    with pytest.raises(ValueError, match="unknown parameter.*nonsense"):
        F.write_all(CASE, str(tmp_path), {"nonsense": 1.0})
    with pytest.raises(ValueError, match="psi_i is their axis"):
        F.write_all(CASE, str(tmp_path), {"psi_i": 1.0})


def test_cli_run_param_only_where_the_case_takes_it(tmp_path, capsys):
    from nsfric.cli import main

    assert main(["run", "sliding-plates", "--param", "k=2", "--out", str(tmp_path / "a")]) != 0
    assert "takes no --param" in capsys.readouterr().err
    assert main(["run", "oblique-impact", "--param", "nonsense=2", "--out", str(tmp_path / "b")]) != 0
    assert "unknown parameter(s) ['nonsense']" in capsys.readouterr().err
    assert main(["run", "km-pile", "--jobs", "2", "--out", str(tmp_path / "a")]) == 2
    assert "takes no --jobs" in capsys.readouterr().err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
