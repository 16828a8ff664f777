"""The netCDF files nsfric writes follow CF-1.10 (``nsfric export --format netcdf`` and a
sweep's ``sweep.nc``): read back with netCDF4 (no xarray in between) and with xarray's
CF decoding, their attributes are checked by hand (CF's checkers are not dependencies)."""
import netCDF4
import numpy as np
import pytest
import xarray as xr

from nsfric.cli import main


def cf_problems(path) -> list:
    """What in the file at ``path`` breaks the CF rules nsfric follows (empty: none)."""
    bad = []
    with netCDF4.Dataset(path) as ds:
        if ds.getncattr("Conventions") != "CF-1.10":
            bad.append(f"Conventions = {ds.getncattr('Conventions')!r}")
        for name in ("title", "source", "history"):
            if not str(getattr(ds, name, "")).strip():
                bad.append(f"no global {name}")
        for name, var in ds.variables.items():
            attrs = {k: var.getncattr(k) for k in var.ncattrs()}
            if var.dimensions == (name,) and "_FillValue" in attrs:
                bad.append(f"{name}: a coordinate variable with a _FillValue")
            if (attrs.get("axis") == "T" or attrs.get("standard_name") == "time") \
                    and " since " not in str(attrs.get("units")):
                bad.append(f"{name}: a CF time coordinate needs '<unit> since <date>', has {attrs.get('units')!r}")
            if not str(attrs.get("long_name", "")).strip():
                bad.append(f"{name}: no long_name")
            if var.dtype is str:  # a label (event kind, law name): no quantity, no unit
                continue
            units = str(attrs.get("units", ""))
            if not units.strip() and not str(attrs.get("comment", "")).startswith("no single unit"):
                bad.append(f"{name}: no units and no comment saying why")
            if "n.u" in units:
                bad.append(f"{name}: units {units!r} (dimensionless is '1')")
    return bad


def _export(tmp_path, case, *extra):
    out = tmp_path / f"{case}.nc"
    assert main(["export", case, "--samples", "5", "--format", "netcdf", "--out", str(out), *extra]) == 0
    return out


def test_export_of_a_case_in_si_units_is_cf(tmp_path, capsys):
    out = _export(tmp_path, "normal-impact")
    assert cf_problems(out) == []
    with netCDF4.Dataset(out) as ds:
        t = ds.variables["t"]
        assert t.dimensions == ("t",) and "t" in ds.dimensions  # a coordinate variable
        assert t.units == "s" and t.long_name == "time" and "elapsed time" in t.comment
        assert ds.variables["xi"].dimensions == ("t",) and ds.variables["xi"].units == "m"
        assert ds.variables["v"].units == "m/s" and ds.variables["observable_e_n"].units == "1"
        assert ds.variables["observable_t_n"].units == "s" and ds.variables["event_t"].units == "s"
        assert "normal-impact" in ds.title and "nsfric" in ds.source and "nsfric export" in ds.history
    with xr.open_dataset(out, decode_cf=True) as ds:  # CF decoding keeps t a float coordinate
        assert "t" in ds.coords and ds["t"].dtype == np.float64 and ds["xi"].dims == ("t",)
        assert ds["t"].values[0] == 0.0 and len(ds["t"]) == 5


def test_export_in_normalised_units_says_so(tmp_path, capsys):
    out = _export(tmp_path, "dry-oscillator")
    assert cf_problems(out) == []
    with netCDF4.Dataset(out) as ds:
        for name in ("t", "x", "v", "observable_final_x", "event_t"):
            var = ds.variables[name]
            assert var.units == "1" and "normalised units" in var.comment, name
        assert "elapsed time" in ds.variables["t"].comment


def test_sweep_netcdf_is_cf(tmp_path, capsys):
    out = tmp_path / "sw"
    assert main(["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=1,2", "--observable", "e_n",
                 "--observable", "t_n", "--cache", str(tmp_path / "cache"), "--out", str(out)]) == 0
    assert cf_problems(out / "sweep.nc") == []
    with netCDF4.Dataset(out / "sweep.nc") as ds:
        assert ds.variables["v_i"].dimensions == ("v_i",) and ds.variables["v_i"].units == "m/s"
        assert ds.variables["e_n"].units == "1" and ds.variables["nfev"].units == "1"
        assert ds.variables["t_n"].units == "s" and ds.variables["error_estimate_t_n"].units == "s"
        assert "units" not in ds.variables["atol"].ncattrs()  # one per state: m, m/s


@pytest.mark.parametrize("unit, attrs", [("m/s", {"units": "m/s"}), (None, {}), ("", {})])
def test_cf_units_of_a_plain_unit(unit, attrs):
    from nsfric.cf import cf_units, nsfric_unit

    assert cf_units(unit) == attrs
    assert nsfric_unit(cf_units("n.u.")) == "n.u." and nsfric_unit({"units": "1"}) == "1"
