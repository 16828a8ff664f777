"""Batched discrete schemes against hand-written loops over contacts, in the same process.

    python benchmarks/batch.py [--quick] [--members B] [--repeat N]

The problem of issue 11: sliding plates, C-SDS, Heun, ``dt = 1e-3``, ``t_end = 1``,
``v0 = linspace(1, 8, B)`` (B = 10 000; 200 with ``--quick``).  Runners, all storing
every row (n, B, N + 1) and all the same method (so at equal error: the largest
difference to nsfric's batch is printed, and the error of member 0 against the exact
reference):

* nsfric batched ``simulate`` (numba kernel; cold = a fresh process with an empty
  kernel cache, cached = a fresh process reusing it, warm = in process) and its NumPy
  fallback;
* a hand-written NumPy loop over contacts (vectorised over B with ``np.where``);
* a hand-written numba loop over contacts;
* one contact: nsfric's per-step Python ``simulate`` (today's path) against a batch of
  one, for ``t_end = 10`` (10 000 steps; 1 000 with ``--quick``).

Reported: ns per contact-step (medians of interleaved rounds) and ratios.  Only ratios are meaningful on a shared
machine; no timing is asserted anywhere (``--quick`` is the CI smoke test).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import nsfric

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import median_time  # noqa: E402  (the suite's timer)

LAW, SCHEME, DT = "c-sds", "heun", 1e-3


def params():
    p = nsfric.get_case("sliding-plates").model(LAW).bind()
    return p["k"], p["gamma"], p["F_max"], p["m"]


def hand_numpy(v0, h, n):
    """Heun with the C-SDS written by hand (Führer et al. eq 10), NumPy over contacts."""
    k, gamma, F_max, m = params()
    Y = np.empty((2, len(v0), n + 1))
    xi, v = np.zeros(len(v0)), np.array(v0, dtype=float)
    Y[0, :, 0], Y[1, :, 0] = xi, v

    def rates(xi, v):
        F = -k * xi - gamma * v
        plus, minus = F > F_max, F < -F_max
        dxi = np.where(plus, (-F_max - k * xi) / gamma, np.where(minus, (F_max - k * xi) / gamma, v))
        dv = np.where(plus, F_max / m, np.where(minus, -F_max / m, F / m))
        return dxi, dv

    for i in range(n):
        a, b = rates(xi, v)
        x1, v1 = xi + h * a, v + h * b
        c, d = rates(x1, v1)
        xi, v = 0.5 * x1 + 0.5 * (xi + h * c), 0.5 * v1 + 0.5 * (v + h * d)
        Y[0, :, i + 1], Y[1, :, i + 1] = xi, v
    return Y


def _hand_numba_source():
    return '''
from numba import njit


@njit(cache=True)
def rates(xi, v, k, gamma, F_max, m):
    F = -k * xi - gamma * v
    if F > F_max:
        return (-F_max - k * xi) / gamma, F_max / m
    if F < -F_max:
        return (F_max - k * xi) / gamma, -F_max / m
    return v, F / m


@njit(cache=True)
def heun(v0, k, gamma, F_max, m, h, n, Y):
    for b in range(v0.shape[0]):
        xi, v = 0.0, v0[b]
        Y[0, b, 0], Y[1, b, 0] = xi, v
        for i in range(n):
            a, c = rates(xi, v, k, gamma, F_max, m)
            x1, v1 = xi + h * a, v + h * c
            a2, c2 = rates(x1, v1, k, gamma, F_max, m)
            xi, v = 0.5 * x1 + 0.5 * (xi + h * a2), 0.5 * v1 + 0.5 * (v + h * c2)
            Y[0, b, i + 1], Y[1, b, i + 1] = xi, v
'''


def hand_numba():
    """The hand-written numba loop over contacts (compiled on first call)."""
    from nsfric.symbolic.kernel import load_source

    heun = load_source(_hand_numba_source(), "bench_hand").heun
    k, gamma, F_max, m = params()

    def run(v0, h, n):
        Y = np.empty((2, len(v0), n + 1))
        heun(np.asarray(v0, dtype=float), k, gamma, F_max, m, h, n, Y)
        return Y
    return run


def nsfric_batch(v0, t_end=1.0, backend=None):
    if backend is None:
        return nsfric.simulate("sliding-plates", LAW, SCHEME, DT, t_end, params={"v0": v0})
    from nsfric.schemes.batch import simulate_batch
    return simulate_batch(nsfric.get_case("sliding-plates"), LAW, SCHEME, DT, t_end, {"v0": v0}, len(v0),
                          backend=backend)


COLD = """
import sys, time
import numpy as np
import nsfric
t0 = time.perf_counter(); c0 = time.process_time()
nsfric.simulate("sliding-plates", "c-sds", "heun", 1e-3, 1.0, params={"v0": np.linspace(1, 8, 10)})
print(time.perf_counter() - t0, time.process_time() - c0)
"""


def cold_times():
    """``(cold, cached)``: the first batched call in a fresh process (symbolic derivation,
    code generation and numba compilation; imports excluded) with an empty kernel cache,
    then in another fresh process that reuses it; each as (wall, CPU) seconds."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NSFRIC_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            r = subprocess.run([sys.executable, "-c", COLD], env=env, capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError(f"cold run failed:\n{r.stderr}")
            out.append(tuple(map(float, r.stdout.split()[-2:])))
    return out


def bench(B, repeat, cold=True, single_t_end=10.0):
    n = int(round(1.0 / DT))
    v0 = np.linspace(1, 8, B)
    cs = B * n
    sol = nsfric_batch(v0)  # compiles (or loads) the kernel
    ref = sol.y
    exact = nsfric.get_case("sliding-plates").reference_solution(LAW, solver="analytic", params={"v0": 1.0},
                                                                 t_end=1.0)
    err = float(np.max(np.abs(ref[:, 0, :] - exact(sol.t))))
    hn = hand_numba()
    hn(v0[:2], DT, 2)
    runners = {
        "nsfric batch, numba kernel": lambda: nsfric_batch(v0).y,
        "nsfric batch, NumPy fallback": lambda: nsfric_batch(v0, backend="numpy").y,
        "hand-written NumPy loop over contacts": lambda: hand_numpy(v0, DT, n),
        "hand-written numba loop over contacts": lambda: hn(v0, DT, n),
    }
    rows = {name: {"max_diff": float(np.max(np.abs(fn() - ref))), "times": []} for name, fn in runners.items()}
    for r in range(max(1, repeat)):  # interleaved rounds: a shared machine's load hits every runner alike
        for name, fn in runners.items():
            if "fallback" not in name or r < 3:
                rows[name]["times"].append(median_time(fn, 1))
    for row in rows.values():
        row["seconds"] = float(np.median(row["times"]))
        row["repeats"] = len(row.pop("times"))
        row["ns_per_contact_step"] = 1e9 * row["seconds"] / cs
    single = single_contact(repeat, single_t_end)
    out = {"members": B, "steps": n, "error_member0": err, "rows": rows, "single": single}
    if cold:
        out["cold"], out["cached"] = cold_times()
    return out


def single_contact(repeat, t_end=10.0):
    """One contact, 10 000 steps: today's per-step Python path against a batch of one."""
    n = int(round(t_end / DT))
    loop = lambda: nsfric.simulate("sliding-plates", LAW, SCHEME, DT, t_end, params={"v0": 4.0})  # noqa: E731
    batch = lambda: nsfric.simulate("sliding-plates", LAW, SCHEME, DT, t_end, params={"v0": [4.0]})  # noqa: E731
    diff = float(np.max(np.abs(batch().y[:, 0, :] - loop().y)))
    t_loop = median_time(loop, max(1, min(repeat, 3)))
    t_batch = median_time(batch, repeat)
    return {"steps": n, "python_us_per_step": 1e6 * t_loop / n, "batch_us_per_step": 1e6 * t_batch / n,
            "speedup": t_loop / t_batch, "max_diff": diff}


def report(res) -> str:
    rows = res["rows"]
    hand = rows["hand-written numba loop over contacts"]["seconds"]
    hnp = rows["hand-written NumPy loop over contacts"]["seconds"]
    lines = [f"## Batched schemes: sliding plates, C-SDS, Heun, dt = {DT:g}, t_end = 1, "
             f"{res['members']} contacts", "",
             f"Same method everywhere (error of member 0 against the closed form: {res['error_member0']:.1e});",
             "`max diff` is the largest difference to nsfric's batch.", "",
             "| runner | ns per contact-step | / hand numba | / hand NumPy | max diff |", "|---|---|---|---|---|"]
    for name, r in rows.items():
        lines.append(f"| {name} | {r['ns_per_contact_step']:.1f} | {r['seconds'] / hand:.2f} | "
                     f"{r['seconds'] / hnp:.2f} | {r['max_diff']:.1e} |")
    s = res["single"]
    lines += ["", f"One contact, {s['steps']} steps: per-step Python `simulate` {s['python_us_per_step']:.2f} µs/step, "
              f"a batch of one {s['batch_us_per_step']:.3f} µs/step: **{s['speedup']:.0f}×** (goal ≥ 50×; "
              f"max diff {s['max_diff']:.1e})."]
    if "cold" in res:
        (cw, cc), (kw, kc) = res["cold"], res["cached"]
        lines += ["", f"First batched call in a fresh process (derivation, code generation, compilation; imports "
                      f"excluded): cold {cw:.1f} s wall / {cc:.1f} s CPU; with the kernel cache of a previous "
                      f"process {kw:.1f} s wall / {kc:.1f} s CPU."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 contacts, one repeat, no cold runs (smoke test)")
    ap.add_argument("--members", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    res = bench(200 if args.quick else args.members, 1 if args.quick else args.repeat, cold=not args.quick,
                single_t_end=1.0 if args.quick else 10.0)
    text = report(res)
    print(text)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(res, fh, indent=1)
    return res, text


if __name__ == "__main__":
    main()
