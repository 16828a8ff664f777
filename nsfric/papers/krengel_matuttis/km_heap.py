"""The heap of Krengel & Matuttis §5 (eqs 18-22, Figs 6-7), with discs.

**The system** (stated simplifications against the paper's 1625 polygons from a hopper):
``n_discs`` discs (default 60, at least 30) of mean radius 2.5 mm (the paper's mean
radius) and radii spread uniformly by ``+-spread`` (10 %), ``rho = 5000 kg/m^3``, rotating
(``I = m r^2/2``), all laws with Table 1's parameters.  They stand as a loose column
``columns`` discs wide on a rough floor -- a row of ``width`` fixed discs of the mean
radius, touching each other, between two walls -- and collapse under gravity into a
heap with slopes of 20-30 deg (Fig 6's heap; the paper fills it from a hopper).  A rough
floor is needed because discs without rolling resistance roll apart on a flat one.

**Contacts** (:mod:`nsfric.papers.krengel_matuttis.heap_laws`, :mod:`nsfric.papers.krengel_matuttis.heap_run`; found
through a neighbour list, :mod:`nsfric.papers.krengel_matuttis.heap_neighbours`): normal
force ``Y delta`` on the overlap with eq 18's damping ``D sqrt(Y m_eff,tan)``, eq 21's
reduced tangential mass per contact; tangential either exact static friction per
contact (K-M's "DAE" friction with eq 22's external force, the delta-scheme decisions
of the slope block, per contact) or Cundall-Strack (eqs 19-20, ``k_t = 2/7 Y``,
``gamma_t = 1/4 sqrt(k_t m_eff,tan)``).  Integrator: Heun's method, as the slope-block
study runs the delta schemes.

**The protocol.**  The heap is deposited once, with Cundall-Strack at ``dt_deposit``
for ``t_deposit`` s (Cundall-Strack comes to rest; exact friction's own deposit keeps
creeping, so it would give each run another heap).  From its positions, at rest and
with fresh contacts (no Cundall-Strack spring stretched, no contact stuck yet: the same
start for both laws; continuing the deposition's springs would make Cundall-Strack's
drift zero by construction), each method runs for ``t_observe`` s -- exact friction at
dt = 1e-5 and 5e-6 s, Cundall-Strack at 1e-5 s (Fig 7's runs) and, beside them, exact
friction with the velocity projection the paper proposes against the drift (dt = 1e-5
s) -- and ``com_drift(t) = |com(t) - com(t_0)|`` is the centre of mass's displacement
from the start ``t_0`` of the observation.

``nsfric run km-heap`` writes ``fig7.csv`` (``method, dt, t, com_drift``; ``t`` counts
from ``t_0``) with its sidecar (the summary), ``fig7.png``, ``fig6.png`` (the heap and
its contact forces), ``heap-final.csv`` (every disc at the end of each run) and
``heap-runs.csv`` (centre of mass, energies, contacts of every run).  ``--param
quick=1`` runs a small, short version (30 discs) for tests.
"""
from __future__ import annotations

import math

import numpy as np

from nsfric.papers.krengel_matuttis.heap_run import Discs, run_heap
from nsfric.papers.krengel_matuttis.heap_laws import REFERENCE, disc_numbers
from nsfric.cases.base import Case

#: name -> (default, lo, hi, doc); integers where ``lo`` is an int
PARAMS = {
    "n_discs": (60, 30, 400, "number of mobile discs"),
    "seed": (1, 0, 2 ** 31 - 1, "seed of the radii and the initial jitter"),
    "radius": (2.5e-3, 1e-4, 1.0, "mean disc radius [m] (K-M §5: 2.5 mm)"),
    "spread": (0.1, 0.0, 0.5, "relative half-width of the uniform radius distribution"),
    "columns": (6, 1, 40, "width of the initial column [discs]"),
    "width": (26, 4, 200, "fixed floor discs, i.e. the box width in mean diameters"),
    "rho": (5000.0, 1.0, 1e5, "density [kg/m^3] (Table 1)"),
    "Y": (5e7, 1e3, 1e12, "Young's modulus (2D) [kg/(m s^2)] (Table 1)"),
    "D": (1.5, 0.0, 10.0, "normal damping prefactor of eq 18 (Table 1: gamma = 1.5)"),
    "mu": (0.6, 0.0, 10.0, "friction coefficient (Table 1)"),
    "kt_ratio": (2 / 7, 1e-6, 10.0, "k_t / Y (Table 1: 2/7)"),
    "gt_ratio": (0.25, 0.0, 10.0, "gamma_t / sqrt(k_t m_eff,tan) (Table 1: 1/4)"),
    "t_deposit": (1.0, 1e-3, 100.0, "deposition time [s] (Cundall-Strack, dt_deposit)"),
    "dt_deposit": (1e-5, 1e-8, 1e-4, "time step of the deposition [s]"),
    "t_observe": (0.25, 1e-3, 100.0, "observation time of the drift [s]"),
    "quick": (0, 0, 1, "1: 30 discs, short deposition and observation (tests)"),
}
INTEGER = {"n_discs", "seed", "columns", "width", "quick"}
QUICK = {"n_discs": 30, "columns": 10, "width": 14, "t_deposit": 0.6, "t_observe": 0.02}
#: Fig 7's runs: (method, dt)
FIG7_RUNS = (("exact", 1e-5), ("exact", 5e-6), ("cundall-strack", 1e-5))
#: beside them: exact friction with the velocity projection the paper proposes (§§4, 6), at
#: both steps (its drift and energy against the exact friction's, which gains energy)
RUNS = FIG7_RUNS + (("velocity-projection", 1e-5), ("velocity-projection", 5e-6))
G = 9.81


def bind(params: dict | None = None) -> dict:
    """The parameters with defaults (``quick=1`` changes the defaults to :data:`QUICK`),
    each checked against its range (ValueError naming it)."""
    params = dict(params or {})
    unknown = set(params) - set(PARAMS)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)} of km-heap; choose from {sorted(PARAMS)}")
    quick = params.get("quick", 0)
    values = {k: v[0] for k, v in PARAMS.items()}
    if quick == 1:
        values.update(QUICK)
    values.update(params)
    for k, v in values.items():
        lo, hi = PARAMS[k][1], PARAMS[k][2]
        if not (isinstance(v, (int, float)) and math.isfinite(v) and lo <= v <= hi):
            raise ValueError(f"{k} must be in [{lo}, {hi}], got {v!r}")
        if k in INTEGER:
            if float(v) != int(v):
                raise ValueError(f"{k} must be an integer, got {v!r}")
            values[k] = int(v)
    return values


def setup(values: dict) -> tuple:
    """``(discs, n_fixed)``: the fixed floor discs (first) and the mobile column (see the
    module docstring); radii and jitter from ``seed``."""
    R, N, nf = values["radius"], values["n_discs"], values["width"]
    rng = np.random.default_rng(values["seed"])
    rad = R * (1 + values["spread"] * rng.uniform(-1, 1, N))
    W = 2 * R * nf
    ncol = values["columns"]
    pitch = 2 * R * (1 + values["spread"]) * 1.02       # no initial overlap
    row, col = np.divmod(np.arange(N), ncol)
    X = np.zeros((nf + N, 6))
    X[:nf, 0] = -W / 2 + R + 2 * R * np.arange(nf)      # floor discs, centres on y = 0
    X[nf:, 0] = pitch * (col - (ncol - 1) / 2) + rng.uniform(-0.15, 0.15, N) * R
    X[nf:, 1] = R + pitch * (row + 0.6)
    num = [disc_numbers(r, values["rho"]) for r in rad]
    inf = np.full(nf, np.inf)
    discs = Discs(X=X, radius=np.r_[np.full(nf, R), rad], mass=np.r_[inf, [n["m"] for n in num]],
                  inertia=np.r_[inf, [n["I"] for n in num]],
                  wall_p=[[0.0, 0.0], [-W / 2, 0.0], [W / 2, 0.0]], wall_n=[[0, 1], [1, 0], [-1, 0]])
    return discs, nf


def law_params(values: dict) -> dict:
    return {**{k: values[k] for k in ("Y", "D", "mu", "kt_ratio", "gt_ratio")}, "g_x": 0.0, "g_y": -G}


def heap_runs(values: dict, progress=None, record_dt: float = 1e-4, jobs: int = 1) -> dict:
    """The deposition and Fig 7's runs: ``{"deposit": HeapRun, (method, dt): HeapRun, ...}``
    plus ``"discs"`` (the initial configuration) and ``"n_fixed"``.  Fig 7's runs start
    from the same deposit and are independent: on ``jobs`` local processes (the same runs,
    bit for bit)."""
    from dataclasses import replace
    from functools import partial

    from nsfric.study.execute import map_tasks

    discs, nf = setup(values)
    P = law_params(values)
    dt0 = values["dt_deposit"]
    if progress:
        progress(f"km-heap: deposition, {values['n_discs']} discs, {values['t_deposit']} s")
    dep = run_heap(discs, "cundall-strack", dt0, int(round(values["t_deposit"] / dt0)), P,
                   keep=max(1, int(round(record_dt / dt0))))
    out = {"discs": discs, "n_fixed": nf, "deposit": dep}
    X = dep.X.copy()
    X[:, 3:] = 0.0                                   # the common start: at rest, no contact history
    start = replace(discs, X=X)
    if progress:
        progress("km-heap: " + "; ".join(f"{method}, dt = {dt:g} s" for method, dt in RUNS))
    runs = map_tasks(partial(_observe, start, P, values["t_observe"], record_dt), RUNS, jobs=jobs)
    out.update(zip(RUNS, runs))
    return out


def _observe(start, P, t_observe: float, record_dt: float, run: tuple):
    """One of Fig 7's runs, ``run = (method, dt)``, from the deposit ``start`` (one task
    of :func:`heap_runs`'s pool)."""
    method, dt = run
    return run_heap(start, method, dt, int(round(t_observe / dt)), P, keep=max(1, int(round(record_dt / dt))))


class KMHeap(Case):
    """The heap of Krengel & Matuttis §5 with discs (see the module docstring)."""

    name = "km-heap"
    reference = REFERENCE
    laws = ("exact", "cundall-strack")
    default_law = "exact"
    t_end = PARAMS["t_observe"][0]
    unit = "m"
    units = {"t": "s", "com_drift": "m", "dt": "s"}
    closed_form = False

    def build(self, law: str):
        raise ValueError("km-heap has no single hybrid model (every contact carries its own law); "
                         "run it with 'nsfric run km-heap'")

    def bind(self, law=None, params=None) -> dict:
        self.check_law(law)
        return bind(params)

    def run(self, out_dir: str, progress=None, params=None, jobs=1) -> dict:
        """Figs 6-7 and their CSVs (:mod:`nsfric.papers.krengel_matuttis.km_heap_figures`); ``params``
        override :data:`PARAMS` (``quick=1`` for a small run); Fig 7's runs on ``jobs``
        local processes."""
        from nsfric.papers.krengel_matuttis.km_heap_figures import write_all

        return {"written": write_all(self, out_dir, bind(params), progress, jobs=jobs)}
