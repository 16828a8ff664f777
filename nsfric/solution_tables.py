"""How a :class:`~nsfric.solution.Solution` ended and what it holds, in the forms of the
scientific-Python ecosystem: ``success``, ``status`` and ``message`` as
:func:`scipy.integrate.solve_ivp`'s result has them, and the samples as an
:class:`xarray.Dataset` (:meth:`TablesMixin.to_xarray`) or a
:class:`pandas.DataFrame` (:meth:`TablesMixin.to_dataframe`).

A ground-floor helper: it imports no layer; xarray and pandas load on first use.
"""
from __future__ import annotations

import json

import numpy as np

#: the termination of a run that reached the end of its span
REACHED_END = "reached t_end"


class TablesMixin:
    """``success``, ``status``, ``message``, ``to_xarray()`` and ``to_dataframe()`` of a
    Solution (which holds ``termination``, ``t``, the states by name, ``units``...)."""

    @property
    def status(self) -> int:
        """As ``solve_ivp``'s: -1 the run failed (a scheme diverged: its rows stop
        before ``t_end`` or hold non-finite states), 0 it reached ``t_end``, 1 it
        stopped at a terminal event of its model (e.g. ``separated``: the contacts
        opened)."""
        if "diverged" in self.termination:
            return -1
        return 0 if self.termination == REACHED_END else 1

    @property
    def success(self) -> bool:
        """True unless the run failed (:attr:`status` >= 0); a reference solver that
        fails raises instead of returning (:class:`~nsfric.errors.SolverFailure`,
        :class:`~nsfric.errors.ZenoError`...)."""
        return self.status >= 0

    @property
    def message(self) -> str:
        """Why the run ended, in words (``reached t_end``, ``diverged at t = ...``,
        ``separated``): the :attr:`termination`."""
        return self.termination

    def event_rows(self, grid) -> np.ndarray:
        """0 or 1 per sample: 1 on the rows that are not on the output grid ``grid`` (the
        times asked for, e.g. ``t_eval``), i.e. the rows added for an event -- at its time,
        the state after it: a switch between grid times, or the state after a reset at a
        grid time (then the grid row, the first at that time, holds the state before it).
        Dropping the rows marked 1 leaves exactly the grid, bit for bit.

        Raises
        ------
        ValueError
            If a grid time is not a sample time of the solution.
        """
        self._not_batched("event_rows()")
        t, grid = np.asarray(self.t, dtype=float), np.asarray(grid, dtype=float)
        idx = np.searchsorted(t, grid, side="left")
        found = (idx < len(t)) & (t[np.minimum(idx, len(t) - 1)] == grid)
        if not found.all():
            raise ValueError(f"grid time {grid[~found][0]!r} is not a sample time of the solution")
        flags = np.ones(len(t), dtype=int)
        flags[idx] = 0
        return flags

    def _unit(self, name: str, units) -> dict:
        u = (units if units is not None else self.units).get(name)
        return {"units": u} if u else {}

    def to_xarray(self, units: dict | None = None):
        """The samples as an :class:`xarray.Dataset`.

        The coordinate ``t`` (the sample times; a batched run adds the dimension
        ``member``), one variable per state and derived quantity, ``mode`` (per sample,
        a single run only), the events on dimension ``event`` (``event_t``,
        ``event_kind``); ``units`` in each variable's attributes (from ``units``, else
        the Solution's own :attr:`units`, which a case's solve fills); the solver, case,
        law, message, success, tolerances, statistics and parameters as attributes.
        """
        import xarray as xr

        dims = ("t",) if self.batch is None else ("member", "t")
        data = {}
        for name in list(self.state_names) + list(self.output_names):
            data[name] = (dims, np.asarray(self[name], dtype=float),
                          {"long_name": f"{'state' if name in self.state_names else 'derived quantity'} {name}",
                           **self._unit(name, units)})
        if self.batch is None:
            data["mode"] = ("t", np.array([m if m is not None else "" for m in self.modes], dtype=object),
                            {"long_name": "mode of the sample"})
        data["event_t"] = ("event", np.array([e.t for e in self.events], dtype=float),
                           {"long_name": "time of the event", **self._unit("t", units)})
        data["event_kind"] = ("event", np.array([e.kind for e in self.events], dtype=object),
                              {"long_name": "kind of the event"})
        coords = {"t": ("t", np.asarray(self.t, dtype=float), {"long_name": "time", **self._unit("t", units)})}
        params = {f"param_{k}": float(v) for k, v in self.params.items() if np.ndim(v) == 0}
        attrs = {"solver": self.solver, "case": self.case or "", "law": self.law or "", "message": self.message,
                 "success": int(self.success), "status": self.status,
                 "tolerances": json.dumps(self.tolerances, default=float),
                 "stats": json.dumps(self.stats, default=float), **params}
        return xr.Dataset(data, coords=coords, attrs=attrs)

    def to_dataframe(self, units: dict | None = None):
        """The samples as a :class:`pandas.DataFrame` indexed by ``t`` (a batched run:
        by ``member`` and ``t``): one column per state and derived quantity, and
        ``mode``; the units in ``df.attrs["units"]``, the other attributes of
        :meth:`to_xarray` in ``df.attrs`` too.  Events are in :meth:`event_log`."""
        ds = self.to_xarray(units)
        df = ds.drop_dims("event").to_dataframe()
        df.attrs = dict(ds.attrs, units={n: ds[n].attrs["units"] for n in list(ds.coords) + list(ds.data_vars)
                                         if "units" in ds[n].attrs})
        return df
