"""netCDF4, dask[distributed] and rich are extras: the base job imports none of them, and a
feature that needs a missing one fails with one line naming the extra (CLI: exit 2)."""
import io
import os
import subprocess
import sys
import tomllib

import pytest

from nsfric.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTRA_MODULES = ("netCDF4", "dask", "distributed", "rich")


def test_pyproject_declares_the_extras():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    base = " ".join(project["dependencies"])
    for name in ("dask", "netCDF4", "rich"):
        assert name not in base
    extras = project["optional-dependencies"]
    assert extras["dask"] == ["dask[distributed]>=2024.1"] and extras["netcdf"] == ["netCDF4>=1.6"]
    for group in ("all", "test"):
        text = " ".join(extras[group])
        assert all(name in text for name in ("dask[distributed]", "netCDF4", "rich", "numba")), group


BLOCK = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in EXTRA_MODULES)  # not installed


def _python(code, tmp_path):
    out = subprocess.run([sys.executable, "-c", code + "\nprint(' '.join(sorted(m.split('.')[0] for m in "
                          "sys.modules if sys.modules[m] is not None)))"], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHONPATH=ROOT), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def test_import_and_the_main_commands_load_no_extra(tmp_path):
    loaded = _python("import sys\nimport nsfric\nfrom nsfric.cli import main\n"
                     "assert main(['reference', 'dry-oscillator', '--samples', '5', '--out', 'r.csv']) == 0\n"
                     "assert main(['simulate', 'dry-oscillator', '--scheme', 'heun', '--dt', '0.1', "
                     "'--out', 's.csv']) == 0", tmp_path)
    assert "scipy" in loaded and sorted(loaded & set(EXTRA_MODULES)) == []


def test_the_base_features_run_without_the_extras(tmp_path):
    """xarray imports dask where it is installed; without it, sweeps and tables still run."""
    loaded = _python(BLOCK + "import nsfric\nfrom nsfric.cli import main\n"
                     "ds = nsfric.sweep('normal-impact', grid={'v_i': [1.0, 2.0]}, observables=['e_n'], "
                     "progress=True)\n"
                     "assert abs(float(ds.e_n.sel(v_i=2.0)) - 0.87) < 0.01\n"
                     "nsfric.get_case('dry-oscillator').reference_solution(samples=3).to_dataframe()\n"
                     "assert main(['export', 'dry-oscillator', '--format', 'yaml', '--samples', '3', "
                     "'--out', 'r.yaml']) == 0\n", tmp_path)
    assert "xarray" in loaded and "pandas" in loaded and sorted(loaded & set(EXTRA_MODULES)) == []


def _one_line(capsys, extra):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f'pip install "nsfric[{extra}]"' in err, err
    return err


def test_netcdf_without_netcdf4_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "netCDF4", None)  # as if not installed
    monkeypatch.chdir(tmp_path)
    assert main(["export", "dry-oscillator", "--format", "netcdf", "--out", "ref.nc"]) == 2
    assert "--format netcdf needs netCDF4" in _one_line(capsys, "netcdf")
    assert main(["export", "dry-oscillator", "--format", "csv", "--samples", "3", "--out", "ref.csv"]) == 0
    capsys.readouterr()
    assert main(["sweep", "normal-impact", "--grid", "v_i=1", "--observable", "e_n", "--no-cache",
                 "--out", "sw"]) == 2
    _one_line(capsys, "netcdf")
    assert not (tmp_path / "ref.nc").exists() and not (tmp_path / "sw").exists()  # nothing written
    import nsfric
    from nsfric.study import write_sweep

    ds = nsfric.sweep("normal-impact", grid={"v_i": [1.0]}, observables=["e_n"])  # in memory: no netCDF
    with pytest.raises(ImportError, match=r'pip install "nsfric\[netcdf\]"'):
        write_sweep(ds, str(tmp_path))


def test_dask_options_without_distributed_name_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    for option in (["--dask-local", "2"], ["--scheduler", "tcp://127.0.0.1:1"]):
        assert main(["sweep", "normal-impact", "--grid", "v_i=1", "--observable", "e_n", "--no-cache",
                     "--out", str(tmp_path / "sw"), *option]) == 2
        assert f"{option[0]} needs distributed" in _one_line(capsys, "dask")
    assert not (tmp_path / "sw").exists()


def test_progress_without_rich_falls_back_to_plain_lines(monkeypatch):
    from nsfric.study.execute import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setattr(sys, "stderr", Terminal())
    with Progress(True, 4, "demo") as bar:
        for _ in range(4):
            bar.advance()
    assert bar.bar is None and sys.stderr.getvalue().splitlines() == [f"demo: {i}/4 points" for i in range(1, 5)]


def test_the_install_page_names_every_extra():
    """docs/install.md's table lists every extra pyproject.toml declares, and nothing else."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = set(tomllib.load(f)["project"]["optional-dependencies"])
    with open(os.path.join(ROOT, "docs", "install.md"), encoding="utf-8") as f:
        import re
        listed = set(re.findall(r"^\| `([a-z]+)` \|", f.read(), re.M))
    assert listed == extras
