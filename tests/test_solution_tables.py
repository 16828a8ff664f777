"""A Solution says how it ended as ``solve_ivp``'s result does (``success``, ``status``,
``message``) and converts to xarray and pandas (time a coordinate, a variable per state and
derived quantity, units in the attributes); so does a convergence study."""
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import nsfric


@pytest.fixture(scope="module")
def ref():
    return nsfric.get_case("normal-impact").reference_solution(samples=9)


def test_a_reference_that_reached_its_end_succeeded(ref):
    assert ref.success is True and ref.status == 0 and ref.message == "reached t_end"


def test_a_diverged_scheme_did_not_succeed():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the overflow of the diverging steps
        sol = nsfric.simulate("dry-oscillator", None, "euler", 1.0, t_end=2000)
    assert sol.success is False and sol.status == -1 and sol.message.startswith("diverged at t = ")
    ok = nsfric.simulate("dry-oscillator", None, "euler", 0.01, t_end=1.0)
    assert ok.success is True and ok.status == 0


def test_to_xarray_round_trips_through_netcdf(ref, tmp_path):
    ds = ref.to_xarray()
    assert list(ds.coords) == ["t"] and ds["t"].dims == ("t",) and ds["t"].attrs["units"] == "s"
    assert ds["xi"].attrs["units"] == "m" and ds["v"].attrs["units"] == "m/s" and ds["F"].attrs["units"] == "N"
    for name in list(ref.state_names) + list(ref.output_names):
        np.testing.assert_array_equal(ds[name].values, ref[name])
    np.testing.assert_array_equal(ds["t"].values, ref.t)
    assert list(ds["mode"].values) == ref.modes
    np.testing.assert_array_equal(ds["event_t"].values, ref.event_times())
    assert ds.attrs["message"] == "reached t_end" and ds.attrs["success"] == 1 and ds.attrs["case"] == "normal-impact"
    path = tmp_path / "sol.nc"
    ds.to_netcdf(path)
    with xr.open_dataset(path, decode_timedelta=False) as back:
        xr.testing.assert_identical(back.load(), ds)


def test_to_dataframe_indexes_by_time_and_keeps_units(ref):
    df = ref.to_dataframe()
    assert isinstance(df, pd.DataFrame) and df.index.name == "t"
    np.testing.assert_array_equal(df.index.values, ref.t)
    assert list(df.columns) == list(ref.state_names) + list(ref.output_names) + ["mode"]
    np.testing.assert_array_equal(df["v"].values, ref["v"])
    assert df.attrs["units"]["t"] == "s" and df.attrs["units"]["xi"] == "m"
    assert df.equals(ref.to_xarray().drop_dims("event").to_dataframe())


def test_units_given_override_the_cases():
    sol = nsfric.simulate("dry-oscillator", None, "euler", 0.5, t_end=2.0)
    assert sol.to_xarray(units={"x": "cm"})["x"].attrs["units"] == "cm"
    assert sol.to_xarray()["x"].attrs["units"] == "n.u."


def test_convergence_result_to_xarray():
    res = nsfric.converge("dry-oscillator", schemes=["euler", "heun"], dts=[0.1, 0.05], t_end=1.0)
    ds = res.to_xarray()
    assert dict(ds.sizes) == {"law": 1, "scheme": 2, "dt": 2}
    df = res.to_dataframe()
    for _, row in df.iterrows():
        assert float(ds["error"].sel(law=row["law"], scheme=row["scheme"], dt=row["dt"])) == row["error"]
    assert ds["dt"].attrs["units"] == "n.u." and ds.attrs["case"] == "dry-oscillator"


def test_verify_result_to_xarray_holds_every_row():
    def runner(dt, p):                     # a first-order code: the exact end state + dt
        return {"v_end": 0.5 + dt, "xi_end": -1.0 + 2 * dt}
    res = nsfric.verify("sliding-plates", ["d-sds", "c-sds"], runner=runner, dts=[0.04, 0.02, 0.01],
                        points=[{"gamma": 2.0}, {"gamma": 3.0}], t_end=1.0)
    ds = res.to_xarray()
    assert dict(ds.sizes) == {"gamma": 2, "observable": 2, "law": 2, "dt": 3}
    rows = res.rows()
    assert len(rows) == 24
    for r in rows:
        at = ds.sel(gamma=r["gamma"], observable=r["observable"], law=r["law"], dt=r["dt"])
        assert float(at["error"]) == r["error"] and float(at["value"]) == r["value"]
        assert str(at["status"].values) == r["status"]
    assert ds.attrs["case"] == "sliding-plates" and ds.attrs["laws"] == "d-sds, c-sds"
