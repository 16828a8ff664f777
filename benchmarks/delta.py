"""The compiled delta scheme against a hand-written numba loop of the same scheme, in the same process.

    python benchmarks/delta.py [--quick] [--members B] [--repeat N]

The problem of the slope-block figures (Krengel & Matuttis Figs 4-5): the 1 cm block on
the slope, ``coulomb`` (exact static friction) with the delta approximation (eqs 9, 12,
15-17) on Heun, ``dt = 5e-6`` s (Table 1), ``alpha = linspace(5, 25, B)`` deg (all stick),
0.1 s (20 000 steps; 2 000 with ``--quick``), every 100th row kept.  Runners:

* nsfric ``run_batch`` on the compiled loop (:mod:`nsfric.schemes.delta_kernel`: the
  scheme's step traced, the rates printed from the derived expressions; rows, modes and
  events of every member);
* its NumPy fallback (:mod:`nsfric.schemes.delta_loop`, the per-step path of before);
* a hand-written numba loop of the same scheme (rates of the block written by hand, the
  indicators of eqs 15-17 and Heun inline; rows and the stuck flag only), with the
  stick-entry rule ``crossing`` (nsfric runs with it too; its default is ``brake``).

Equal error: the same method, so the same numbers up to the rounding of the hand-written
rates (the largest difference of the rows and of the drift ``x(0.1) - x(0.05)`` is
printed).  Reported: ns per contact-step (medians of interleaved rounds, CPU time) and ratios, with
the load average.  No timing is asserted anywhere (``--quick`` is the CI smoke test).
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import nsfric

DT, KEEP, INTEGRATOR = 5e-6, 100, "heun"
#: the stick-entry rule the hand-written loop implements (:mod:`nsfric.schemes.stick_rules`)
STICK_RULE = "crossing"

HAND = '''
import math
from numba import njit


@njit(cache=True)
def rates(vx, vy, y, s, c, mu, Y, cn, m, side):
    """The block's rates by hand: F_n = -Y y - c_n vy, friction -side mu F_n."""
    F_n = -Y * y - cn * vy
    return vx, vy, 9.81 * s - side * mu * F_n / m, F_n / m - 9.81 * c


@njit(cache=True)
def lam_of(g, sp, sm):
    """Eq 12 with eqs 15-17 (delta = -0.9 g / sigma; exact eqs 7-8 where undefined)."""
    a1, a2 = sp, -sm
    if g != 0.0 and sp != 0.0:
        d1 = -0.9 * g / sp
        if d1 != 0.0:
            a1 = (g + d1 * sp) / d1
    if g != 0.0 and sm != 0.0:
        d2 = -0.9 * g / sm
        if d2 != 0.0:
            a2 = -(g + d2 * sm) / d2
    den = a1 + a2
    return a1 / den if den != 0.0 else math.nan


@njit(cache=True)
def f(x, y, vx, vy, s, c, mu, Y, cn, m, stuck):
    p = rates(vx, vy, y, s, c, mu, Y, cn, m, 1.0)
    q = rates(vx, vy, y, s, c, mu, Y, cn, m, -1.0)
    g, lam = vx, lam_of(vx, p[2], q[2])
    if stuck or g == 0.0:
        if 0.0 <= lam <= 1.0:
            w = 1.0 - lam
            return w * p[0] + lam * q[0], w * p[1] + lam * q[1], w * p[2] + lam * q[2], w * p[3] + lam * q[3], g, lam
        return (p if lam < 0.0 else q) + (g, lam)
    return (p if g > 0.0 else q) + (g, lam)


@njit(cache=True)
def heun(U0, S, C, mu, Y, cn, m, h, n, keep, out):
    for b in range(U0.shape[1]):
        x, y, vx, vy = U0[0, b], U0[1, b], U0[2, b], U0[3, b]
        s, c = S[b], C[b]
        stuck = False
        k = f(x, y, vx, vy, s, c, mu, Y, cn, m, stuck)
        r = 0
        for i in range(n):
            g0 = k[4]
            x1, y1, vx1, vy1 = x + h * k[0], y + h * k[1], vx + h * k[2], vy + h * k[3]
            k2 = f(x1, y1, vx1, vy1, s, c, mu, Y, cn, m, stuck)
            x = x + h / 2.0 * (k[0] + k2[0])
            y = y + h / 2.0 * (k[1] + k2[1])
            vx = vx + h / 2.0 * (k[2] + k2[2])
            vy = vy + h / 2.0 * (k[3] + k2[3])
            k = f(x, y, vx, vy, s, c, mu, Y, cn, m, stuck)
            inband = 0.0 <= k[5] <= 1.0
            if not stuck and inband and (g0 * k[4] <= 0.0 or g0 * k2[4] <= 0.0):
                stuck = True
            elif stuck and not inband:
                stuck = False
            if stuck:  # the rates of the next step's first stage under the new flag
                k = f(x, y, vx, vy, s, c, mu, Y, cn, m, stuck)
            if (i + 1) % keep == 0:
                r += 1
                out[0, b, r], out[1, b, r], out[2, b, r], out[3, b, r] = x, y, vx, vy
'''


def setup(B):
    """``(field, U0, values)`` of the members (alpha from 5 to 25 deg)."""
    from nsfric.schemes.delta import DeltaField
    from nsfric.symbolic.derive import param_vector

    case = nsfric.get_case("slope-block")
    model = case.model("coulomb")
    sets = [case.bind("coulomb", {"alpha": float(a)}) for a in np.linspace(5.0, 25.0, B)]
    P = np.stack([param_vector(model, v) for v in sets], axis=1)
    U0 = np.stack([case.y0("coulomb", v) for v in sets], axis=1)
    return DeltaField(model, P), U0, sets


def nsfric_run(B, n, backend):
    from nsfric.schemes.delta import run_batch

    fld, U0, _ = setup(B)
    # the stick-entry rule of the hand-written loop (v crossed zero at the end or a stage)
    return run_batch(fld, U0, DT, n, INTEGRATOR, keep=KEEP, backend=backend, stick_rule=STICK_RULE)[1]


def hand_numba(B, n):
    """The hand-written loop, compiled on first call; rows (4, B, n/KEEP + 1)."""
    from nsfric.symbolic.kernel import load_source

    heun = load_source(HAND, "bench_delta_hand").heun
    _, U0, sets = setup(B)
    v = sets[0]
    m = v["rho"] * v["l"] ** 2
    cn = v["D"] * v["damping"] * np.sqrt(v["Y"] * m)
    a = np.radians([s["alpha"] for s in sets])
    out = np.empty((4, B, n // KEEP + 1))
    out[:, :, 0] = U0
    heun(U0, np.sin(a), np.cos(a), v["mu"], v["Y"], cn, m, DT, n, KEEP, out)
    return out


def interleaved(runners, repeat) -> dict:
    """Median CPU seconds of each runner over ``repeat`` rounds, the runners interleaved
    in every round (a change of the machine's load hits all of them)."""
    ts = {k: [] for k in runners}
    for _ in range(repeat):
        for k, fn in runners.items():
            t = time.process_time()
            fn()
            ts[k].append(time.process_time() - t)
    return {k: float(np.median(v)) for k, v in ts.items()}


def bench(B, repeat, n):
    runners = {"nsfric delta kernel (compiled)": lambda: nsfric_run(B, n, "numba"),
               "nsfric NumPy fallback (per-step path)": lambda: nsfric_run(B, n, "numpy"),
               "hand-written numba loop": lambda: hand_numba(B, n)}
    ref = runners["nsfric delta kernel (compiled)"]()  # compiles (or loads) both loops
    hand = hand_numba(B, n)
    times = interleaved(runners, repeat)
    half = hand.shape[2] // 2
    rows = {}
    for name, fn in runners.items():
        Y = fn()
        drift = Y[0, :, -1] - Y[0, :, half]
        rows[name] = {"ns_per_contact_step": times[name] / (B * n) * 1e9,
                      "max_diff": float(np.max(np.abs(Y - ref))),
                      "max_drift_diff": float(np.max(np.abs(drift - (ref[0, :, -1] - ref[0, :, half]))))}
    base = rows["hand-written numba loop"]["ns_per_contact_step"]
    for r in rows.values():
        r["ratio_to_hand_numba"] = r["ns_per_contact_step"] / base
    drift = ref[0, :, -1] - ref[0, :, half]
    return {"members": B, "steps": n, "dt": DT, "rows": rows, "load": os.getloadavg(),
            "drift_range": [float(np.min(np.abs(drift))), float(np.max(np.abs(drift)))]}


def report(res) -> str:
    lines = [f"#### Delta-Heun on the slope block: {res['members']} contacts x {res['steps']} steps, dt = {res['dt']:g}",
             "",
             f"Load average {', '.join(f'{x:.1f}' for x in res['load'])} (2 cores, shared): compare the ratios. "
             f"|drift| over the second half: {res['drift_range'][0]:.2g} to {res['drift_range'][1]:.2g} m; "
             "`max diff` is the largest difference to the compiled loop's rows (the same method).", "",
             "| runner | ns per contact-step | / hand numba | max diff (rows) | max diff (drift) |",
             "|---|---|---|---|---|"]
    for name, r in res["rows"].items():
        lines.append(f"| {name} | {r['ns_per_contact_step']:.1f} | {r['ratio_to_hand_numba']:.2f} | "
                     f"{r['max_diff']:.1e} | {r['max_drift_diff']:.1e} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--members", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)
    B = a.members or (4 if a.quick else 64)
    res = bench(B, 1 if a.quick else a.repeat, 2000 if a.quick else 20000)
    text = report(res)
    print(text)
    if not a.quick:
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "results-delta.json"), "w") as fh:
            json.dump(res, fh, indent=1)
        with open(os.path.join(here, "results-delta.md"), "w") as fh:
            fh.write("### Measured on branch w4-slope\n\n" + text)


if __name__ == "__main__":
    main()
