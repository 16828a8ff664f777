"""
Verify your own code: a deliberate bug found
============================================

"My DEM code" for the two sliding plates of Führer, Brendel & Wolf (2024) §3 (case
``sliding-plates``): semi-implicit Euler with the D-SDS tangential spring, put back onto
the Coulomb bound when the force exceeds it.  :func:`nsfric.verify` takes the code as a
``runner(dt, params)`` (or its results as a CSV: ``nsfric verify ... --input FILE``),
runs it at four steps, and says what it converges to, at which order, with which
offset -- against each law asked for.

The correct code converges at first order to the exact D-SDS.  The buggy one (the spring
reset scaled by 0.9, the kind of slip that hides in a real code) still converges at
first order -- a study of the code against itself would pass -- but to something else:
its offset from the exact D-SDS is far beyond its uncertainty.  The script asserts both
verdicts.
"""
import math

import matplotlib.pyplot as plt

import nsfric


def my_code(dt, k, gamma, f_max, m, v0, t_end, reset=1.0):
    """Semi-implicit Euler with a D-SDS spring; ``reset = 0.9`` is the bug."""
    xi, v = 0.0, v0
    for _ in range(round(t_end / dt)):
        f = -(k * xi + gamma * v)
        if abs(f) > f_max:                      # slip: put the spring back on the bound
            f = math.copysign(f_max, f)
            xi = reset * (-f - gamma * v) / k
        v += dt * f / m
        xi += dt * v
    return xi, v


fig, ax = plt.subplots(figsize=(6, 3.5))
verdicts = {}
for reset, name in ((1.0, "correct"), (0.9, "buggy")):
    def runner(dt, p, reset=reset):
        xi, v = my_code(dt, p["k"], p["gamma"], p["F_max"], p["m"], p["v0"], p["t_end"], reset)
        return {"xi_end": xi, "v_end": v}
    res = nsfric.verify("sliding-plates", ["d-sds", "c-sds"], runner=runner,
                        dts=[0.04, 0.02, 0.01, 0.005], t_end=3.0)
    print(f"{name} code:\n{res.summary()}")
    xi = next(p for p in res.points if p.observable == "xi_end")
    verdicts[name] = xi.converges_to
    errors = xi.to_dict()["laws"]["d-sds"]["errors"]
    ax.loglog(xi.dts, [abs(e) for e in errors], "o-", label=f"{name} code, xi_end")
ax.set_xlabel("dt"); ax.set_ylabel("|error| against the exact D-SDS")
ax.legend(); fig.tight_layout()
assert verdicts == {"correct": "d-sds", "buggy": None}, verdicts
