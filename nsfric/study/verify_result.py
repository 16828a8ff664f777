"""The result of :func:`nsfric.study.verify.verify`: one :class:`VerifyPoint` per parameter
point and observable, and the files ``verify.json``, ``verify.csv`` and ``verify.png``
(written all or nothing into a folder nsfric stages, :func:`nsfric.outputs.output_folder`)."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import numpy as np

from ..io import atomic_files, csv_text, json_text, versions

#: the files of ``nsfric verify --out DIR``
VERIFY_FILES = ("verify.json", "verify.csv", "verify.png")


@dataclass
class VerifyPoint:
    """One parameter point and observable of a verification.

    Attributes
    ----------
    params : dict
        The point's varied parameters (empty for a single point).
    observable : str
    dts, values : list of float
        The code's steps (ascending) and values.
    limit : Limit
        The values' dt -> 0 limit (:class:`~nsfric.study.verify_limit.Limit`).
    laws : dict
        Per law: ``exact``, ``exact_uncertainty``, ``errors`` (per dt), ``order``
        (an :class:`~nsfric.study.fit.OrderFit`), ``offset``, ``offset_uncertainty``,
        ``status`` and ``why``.
    energy_gain : list of float
        The steps at which the kinetic energy grew (empty: none, or not given).
    """

    params: dict
    observable: str
    dts: list
    values: list
    limit: object
    laws: dict
    energy_gain: list = field(default_factory=list)

    @property
    def converges_to(self):
        """The law the code converges to (offset within its uncertainty; the smallest
        relative offset when several are), or None."""
        ok = [lw for lw, d in self.laws.items() if d["status"] == f"converges to {lw}"]
        return min(ok, key=lambda lw: abs(self.laws[lw]["offset"]) / max(self.laws[lw]["offset_uncertainty"], 1e-300),
                   default=None)

    @property
    def law(self) -> str:
        """The law this point's top-level numbers are of: the one the code converges to,
        else the closest one (smallest ``|offset|``), else the first."""
        if self.converges_to is not None:
            return self.converges_to
        finite = [lw for lw, d in self.laws.items() if math.isfinite(d["offset"])]
        return min(finite, key=lambda lw: abs(self.laws[lw]["offset"]), default=next(iter(self.laws)))

    @property
    def status(self) -> str:
        return self.laws[self.law]["status"]

    def verdict(self) -> str:
        """One line: the status, the order, the limit and the offset (per law when several)."""
        d = self.laws[self.law]
        fit, lim = d["order"], self.limit
        order = (_label(fit) if fit.ok else "the values do not change with dt" if lim.constant
                 else f"self-convergence {_label(lim.order)}" if lim.order.ok else "no order")
        head = d["status"]
        if len(self.laws) > 1 and self.converges_to is None and lim.converges:
            head = f"converges to none of {', '.join(self.laws)}; closest: {self.law}"
        text = f"{head} ({order}"
        if lim.shrinking:
            text += f"; {lim.note}"
        elif lim.note:
            text += "; the values' differences give no order: extrapolated at the error's order"
        if lim.converges:
            text += (f"; limit {lim.value:.10g} ± {lim.uncertainty:.2g}, exact {d['exact']:.10g}, "
                     f"offset {d['offset']:.3g} ± {d['offset_uncertainty']:.2g}")
        else:
            text += f"; {lim.reason()[len('no order: '):] if lim.reason().startswith('no order: ') else lim.reason()}"
        text += ")"
        others = [f"{lw}: offset {o['offset']:.3g} ± {o['offset_uncertainty']:.2g}" for lw, o in self.laws.items()
                  if lw != self.law and math.isfinite(o["offset"])]
        if others:
            text += "; " + "; ".join(others)
        if self.energy_gain:
            text += f"; ENERGY GAIN (kinetic energy after > before) at dt = {', '.join(f'{x:g}' for x in self.energy_gain)}"
        return text

    def label(self) -> str:
        where = " ".join(f"{k}={v:g}" for k, v in self.params.items())
        return f"{where + ' ' if where else ''}{self.observable}"

    def to_dict(self) -> dict:
        lim = self.limit
        laws = {lw: {**{k: v for k, v in d.items() if k != "order"}, **_order_dict(d["order"])}
                for lw, d in self.laws.items()}
        top = laws[self.law]
        return {**self.params, "params": dict(self.params), "observable": self.observable, "law": self.law,
                "dts": self.dts, "values": self.values, "exact": top["exact"],
                "exact_uncertainty": top["exact_uncertainty"], "errors": top["errors"], "order": top["order"],
                "order_stderr": top["order_stderr"], "order_reason": top["order_reason"],
                "limit": lim.value, "limit_uncertainty": lim.uncertainty,
                "limit_order": _order_dict(lim.order), "limit_note": lim.note, "offset": top["offset"],
                "offset_uncertainty": top["offset_uncertainty"], "status": self.status,
                "converges_to": self.converges_to, "verdict": self.verdict(), "energy_gain": self.energy_gain,
                "laws": laws}


def _label(fit) -> str:
    """``p = 1.00 ± 0.01``, or ``p = 1.00 (3 steps, no standard error)``."""
    return fit.label() if math.isfinite(fit.stderr) else f"p = {fit.order:.2f} ({fit.n_points + 1} steps, no standard error)"


def _order_dict(fit) -> dict:
    return {"order": fit.order if fit.ok else None, "order_stderr": fit.stderr if fit.ok else None,
            "order_reason": fit.reason, "order_dt_range": [fit.dt_min, fit.dt_max],
            "order_range_automatic": fit.automatic}


@dataclass
class VerifyResult:
    """A verification: the points, and what was compared under which conventions."""

    case: str
    laws: list
    points: list
    meta: dict = field(default_factory=dict)

    def summary(self) -> str:
        """One line per parameter point and observable."""
        from .verify_trajectory import error_line

        lines = [f"{p.label()}: {p.verdict()}" for p in self.points]
        lines += [f"{o}: {why}" for o, why in (self.meta.get("left_out") or {}).items()]
        return "\n".join(lines + [error_line(e) for e in self.meta.get("trajectory_errors") or []])

    def to_dict(self) -> dict:
        return {**self.meta, "versions": versions(), "points": [p.to_dict() for p in self.points]}

    def rows(self) -> list:
        """One row per point, observable, law and dt (the tidy table of ``verify.csv``)."""
        out = []
        for p in self.points:
            for lw, d in p.laws.items():
                fit = d["order"]
                for dt, y, e in zip(p.dts, p.values, d["errors"]):
                    out.append({**p.params, "observable": p.observable, "law": lw, "dt": dt, "value": y,
                                "error": e, "exact": d["exact"], "exact_uncertainty": d["exact_uncertainty"],
                                "order": fit.order if fit.ok else math.nan,
                                "order_stderr": fit.stderr if fit.ok else math.nan,
                                "limit": p.limit.value, "limit_uncertainty": p.limit.uncertainty,
                                "limit_order": p.limit.order.order if p.limit.order.ok else math.nan,
                                "offset": d["offset"], "offset_uncertainty": d["offset_uncertainty"],
                                "status": d["status"], "converges_to": p.converges_to or "",
                                "energy_gain": dt in p.energy_gain})
        return out

    def to_dataframe(self):
        """The rows as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.rows())

    def to_xarray(self):
        """The rows as an :class:`xarray.Dataset` on the dimensions (the varied parameters,
        ``observable``, ``law``, ``dt``): ``value``, ``error``, ``exact``, ``order``,
        ``limit``, ``offset`` and their uncertainties, ``status``; the case and the laws as
        attributes.  ``ds.error.sel(observable="psi_f", law="d-sds")`` is one error ladder.
        """
        import xarray as xr

        df = self.to_dataframe()
        params = list(dict.fromkeys(k for p in self.points for k in p.params))
        ds = xr.Dataset.from_dataframe(df.set_index([*params, "observable", "law", "dt"]))
        ds.attrs.update(case=self.case, laws=", ".join(self.laws), source=f"nsfric {versions().get('nsfric', '')}")
        return ds

    def columns(self) -> dict:
        rows = self.rows()
        names = list(dict.fromkeys(k for r in rows for k in r))
        cols = {}
        for n in names:
            vals = [r.get(n, math.nan) for r in rows]
            if all(isinstance(v, (str, bool, np.bool_)) for v in vals):
                cols[n] = np.array([str(v) for v in vals], dtype=object)
            else:
                cols[n] = np.array(vals, dtype=float)
        return cols

    def write(self, folder: str) -> list:
        """Write :data:`VERIFY_FILES` into ``folder`` (a staging folder: use
        :func:`nsfric.outputs.output_folder`), all or nothing."""
        from ..plotting import save

        paths = [os.path.join(folder, n) for n in VERIFY_FILES]
        with atomic_files(*paths[:2]) as (t_json, t_csv):
            with open(t_json, "w") as f:
                f.write(json_text(self.to_dict()))
            with open(t_csv, "w") as f:
                f.write(csv_text(self.columns()))
        save(self.figure(), paths[2])
        return paths

    def figure(self):
        """The absolute error against dt per law (log-log) with the fitted slope, one panel per
        observable."""
        from ..plotting import figure

        from matplotlib.ticker import NullFormatter

        observables = list(dict.fromkeys(p.observable for p in self.points))
        n_curves = max((sum(len(p.laws) for p in self.points if p.observable == o) for o in observables), default=1)
        legend_h = 0.17 * min(n_curves, 12)  # inches of legend below each panel
        fig, axes = figure(len(observables), 1, figsize=(6.0, (3.0 + legend_h) * len(observables)))
        markers = "osD^v<>ph*"
        for ax, o in zip(axes[:, 0], observables):
            curves = [(p, lw) for p in self.points if p.observable == o for lw in p.laws]
            for j, (p, lw) in enumerate(curves[:12]):
                d = p.laws[lw]
                dt, err = np.array(p.dts), np.abs(d["errors"])
                ok = err > 0
                where = " ".join(f"{k}={v:g}" for k, v in p.params.items())
                lab = f"{lw}{' ' + where if where else ''}: {d['order'].label()}"
                line, = ax.loglog(dt[ok], err[ok], "-", marker=markers[j % 10], ms=4, label=lab)
                fit = d["order"]
                if fit.ok:
                    sel = ok & (dt >= fit.dt_min * (1 - 1e-9)) & (dt <= fit.dt_max * (1 + 1e-9))
                    c = np.mean(np.log(err[sel]) - fit.order * np.log(dt[sel]))
                    xs = np.array([dt[sel].min(), dt[sel].max()])
                    ax.loglog(xs, np.exp(c) * xs ** fit.order, ":", color=line.get_color(), lw=2.5, alpha=0.6)
            ax.set_xlabel("Δt")
            ax.set_ylabel(f"|{o} - exact|")
            ax.set_title(f"{self.case}: {o} against the exact reference (dotted: fitted slope)", fontsize=9)
            ax.grid(True, which="major", alpha=0.3)
            ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels of a short decade overlap
            if curves:  # below the panel: a legend inside covers the curves
                ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1, frameon=False)
        fig.tight_layout()
        return fig
