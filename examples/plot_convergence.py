"""
A convergence study: observed orders of discrete schemes
========================================================

:func:`nsfric.converge` runs discrete schemes (as a DEM code steps them, with the law's
per-step adjustments) over a ladder of steps, measures each run against the exact
reference and fits the observed order over the asymptotic range, with its standard
error -- or says "no order" and why.

The sliding plates with Führer et al.'s C-SDS (2024, eq 10): the field is continuous but
its derivative jumps where the contact sticks, inside a step.  Euler keeps its first
order; classical RK4 loses its fourth order at the switch; ``rk4-event``, the same
tableau stepping exactly onto the switch (located on the scheme's own dense output),
keeps order 4.  The script asserts the fitted orders of ``euler`` and ``rk4-event``.
"""
import matplotlib.pyplot as plt

import nsfric

schemes = ["euler", "rk4", "rk4-event"]
res = nsfric.converge("sliding-plates", law="c-sds", schemes=schemes)
fits = {o["scheme"]: o for o in res.orders()}
fig, ax = plt.subplots(figsize=(6, 3.5))
for scheme in schemes:
    rows = [r for r in res.rows if r["scheme"] == scheme]
    fit = fits[scheme]
    label = "no order (see the printed reason)" if fit["reason"] else f"order {fit['order']:.2f} ± {fit['order_stderr']:.2f}"
    ax.loglog([r["dt"] for r in rows], [r["error"] for r in rows], "o-", label=f"{scheme}: {label}")
    print(f"{scheme}: {fit['reason'] or round(fit['order'], 3)} (nominal {fit['nominal_order']})")
ax.set_xlabel("dt"); ax.set_ylabel("max error against the exact reference")
ax.legend(fontsize=8); fig.tight_layout()
assert abs(fits["euler"]["order"] - 1) < 0.1 and abs(fits["rk4-event"]["order"] - 4) < 0.2, fits
