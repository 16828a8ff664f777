"""km-heap's contact detection: the neighbour list (a Verlet list built with a cell list)
against the all-pairs loop, time per step at N = 100, 400, 1,600 discs (issue 27 item 3).

    python benchmarks/km_heap.py [--quick] [--write]

The heap: ``N`` discs of mean radius 2.5 mm (radii +-10 %, rho = 5000 kg/m^3, rotating,
Table 1's laws) on a jittered square lattice of pitch 1.01 times the largest diameter in
a box as wide as the lattice (floor and two side walls), deposited with Cundall-Strack
for 0.2 s (through the neighbour list): a loose heap still settling, about 1.5 contacts
per disc (a disc touches about 3 others or a wall).  From
that state both paths run exact static friction (km-heap's default method) at dt = 1e-5
s in one process, warm (the kernel compiled and loaded before any timing).  Time per
step: CPU seconds of ``run_heap`` for ``n_short + extra`` minus ``n_short`` steps, divided
by ``extra`` (the per-run costs, the slot arrays' allocation among them, cancel; ``extra``
per path, :data:`PATHS`), the least of ``repeat`` repeats; the per-run cost is reported
beside it.  Both paths give the same rows over ``n_short`` steps bit for bit (checked).  The scaling exponent is the least-squares slope of
log(time per step) against log(N).  No timing is asserted anywhere (``--quick`` is the
CI smoke test).
"""
from __future__ import annotations

import os
import time

import numpy as np

from nsfric.papers.krengel_matuttis.heap_laws import disc_numbers
from nsfric.papers.krengel_matuttis.heap_run import Discs, run_heap

R, SPREAD, RHO, DT = 2.5e-3, 0.1, 5000.0, 1e-5
LAWS = dict(Y=5e7, D=1.5, mu=0.6, kt_ratio=2 / 7, gt_ratio=0.25, g_x=0.0, g_y=-9.81)
#: path -> (neighbour_list, how many more steps the long run makes than the short one)
PATHS = {"all pairs": (False, 100), "neighbour list": (True, 3000)}


def loose_heap(n: int, t_deposit: float = 0.2, seed: int = 0) -> Discs:
    """``n`` discs deposited in a box for ``t_deposit`` s (module docstring)."""
    rng = np.random.default_rng(seed)
    rad = R * (1 + SPREAD * rng.uniform(-1, 1, n))
    cols = max(1, int(round(np.sqrt(n))))
    pitch = 2 * R * (1 + SPREAD) * 1.01
    row, col = np.divmod(np.arange(n), cols)
    X = np.zeros((n, 6))
    X[:, 0] = pitch * (col + 0.5) + rng.uniform(-0.02, 0.02, n) * R
    X[:, 1] = pitch * (row + 0.5)
    num = [disc_numbers(r, RHO) for r in rad]
    W = pitch * cols
    discs = Discs(X=X, radius=rad, mass=[d["m"] for d in num], inertia=[d["I"] for d in num],
                  wall_p=[[0, 0], [0, 0], [W, 0]], wall_n=[[0, 1], [1, 0], [-1, 0]])
    dep = run_heap(discs, "cundall-strack", DT, int(round(t_deposit / DT)), LAWS, keep=1000)
    discs.X = dep.X
    return discs


def per_step(discs, neighbour_list, n_short, n_long, repeat):
    """``(CPU s per step, CPU s per run, the run of n_short steps, list builds of the long
    run)`` of exact friction (module docstring)."""
    best, runs = {}, {}
    for n in (n_short, n_long):
        for _ in range(repeat):
            t = time.process_time()
            runs[n] = run_heap(discs, "exact", DT, n, LAWS, keep=1, neighbour_list=neighbour_list)
            best[n] = min(best.get(n, np.inf), time.process_time() - t)
    step = (best[n_long] - best[n_short]) / (n_long - n_short)
    return step, best[n_short] - n_short * step, runs[n_short], runs[n_long].neighbours["builds"]


def bench(ns=(100, 400, 1600), n_short=20, scale=1.0, repeat=3, t_deposit=0.2):
    """Both paths at each ``N`` of ``ns``; ``scale`` multiplies the extra steps of :data:`PATHS`."""
    run_heap(loose_heap(4, 1e-4), "exact", DT, 2, LAWS)          # compiled and loaded: warm from here
    rows = {}
    for n in ns:
        discs = loose_heap(n, t_deposit)
        res = {name: per_step(discs, nl, n_short, n_short + max(1, int(extra * scale)), repeat)
               for name, (nl, extra) in PATHS.items()}
        a, b = res["all pairs"][2], res["neighbour list"][2]
        same = all(np.array_equal(a.rows[c], b.rows[c], equal_nan=True) for c in a.rows) and np.array_equal(a.X, b.X)
        rows[n] = {"slots": a.contacts["active"].size, "candidates": b.neighbours["most_candidates"],
                   "builds": res["neighbour list"][3], "contacts_per_disc": float(np.mean(b.rows["contacts"])) / n,
                   "same": bool(same),
                   **{f"{k}|{name}": v for name, r in res.items() for k, v in (("step", r[0]), ("run", r[1]))}}
    logn = np.log(list(rows))
    slopes = {}
    for name in PATHS:
        t = [r[f"step|{name}"] for r in rows.values()]
        if len(t) > 1 and min(t) > 0:
            slopes[name] = float(np.polyfit(logn, np.log(t), 1)[0])
    extra = {name: max(1, int(e * scale)) for name, (_, e) in PATHS.items()}
    return {"rows": rows, "slopes": slopes, "load": os.getloadavg(), "n_short": n_short, "extra": extra,
            "t_deposit": t_deposit}


def report(res) -> str:
    extra = ", ".join(f"{name} {e}" for name, e in res["extra"].items())
    lines = ["### km-heap: contact detection, all pairs against the neighbour list (cell list)", "",
             f"Exact static friction, dt = {DT:g} s, a loose heap deposited for {res['t_deposit']:g} s; CPU ms per "
             f"step from runs of {res['n_short']} steps and of more steps ({extra}; the least of repeats), in one "
             f"process, warm; the rows of the two paths compared over {res['n_short']} steps. Load average "
             f"{', '.join(f'{x:.1f}' for x in res['load'])} (2 cores, shared).", "",
             "| N | slots | candidates | contacts / disc | list builds (long run) | all pairs: ms / step | "
             "neighbour list: ms / step | ratio | per run: all pairs, list [ms] | same rows |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for n, r in res["rows"].items():
        a, b = r["step|all pairs"], r["step|neighbour list"]
        lines.append(f"| {n} | {r['slots']} | {r['candidates']} | {r['contacts_per_disc']:.2f} | {r['builds']} | "
                     f"{1e3 * a:.3g} | {1e3 * b:.3g} | {a / b:.3g} | {1e3 * r['run|all pairs']:.3g}, "
                     f"{1e3 * r['run|neighbour list']:.3g} | {'yes' if r['same'] else 'NO'} |")
    if res["slopes"]:
        lines += ["", "Scaling exponent (time per step ∝ N^k): " + ", ".join(
            f"{name} k = {k:.2f}" for name, k in res["slopes"].items()) + "."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    from _script import main as run_script

    run_script(argv, __doc__, bench, lambda: bench((20, 40), 2, 0.05, 1, 0.005), report, "results-km-heap.md")


if __name__ == "__main__":
    main()
