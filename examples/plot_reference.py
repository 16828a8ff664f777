"""
An exact reference and its closed form
======================================

The two sliding plates of Führer, Brendel & Wolf (2024) §3 (case ``sliding-plates``:
``m = k = F_max = 1``, ``gamma = 2``, ``v(0) = 4``) with the D-SDS tangential law.  The
exact reference is event-driven Filippov integration (``solver="filippov"``): the plate
slides at the Coulomb bound, ``v' = -F_max/m``, until ``v = gamma F_max/k`` (eq 20), where
the contact sticks, at ``t* = (v0 - gamma F_max/k) m/F_max = 2``.  Before ``t*`` the
velocity is the closed form ``v = v0 - F_max t/m``; an independent solver (Assimulo's
``ida``, a DAE formulation) solves the same model.

The last line printed is the largest error of both solvers against the closed form.
"""
import matplotlib.pyplot as plt
import numpy as np

import nsfric

case = nsfric.get_case("sliding-plates")
t = np.linspace(0.0, 1.99, 200)                 # the sliding phase, before the stick at t* = 2
exact = 4.0 - 1.0 * t                          # v0 - F_max t / m
errors, fig = [], plt.figure(figsize=(6, 3))
for solver in ("filippov", "ida"):
    sol = case.reference_solution(law="d-sds", solver=solver)
    stick = [e.t for e in sol.events if e.kind == "stick"][0]
    errors += [abs(stick - 2.0), np.max(np.abs([sol(ti)[1] for ti in t] - exact))]
    ts = np.linspace(0, 10, 501)
    plt.plot(ts, [sol(ti)[1] for ti in ts], label=f"{solver}: stick at t = {stick:.12f}")
plt.plot(t, exact, "k:", label="closed form (sliding)")
plt.xlabel("t"); plt.ylabel("v"); plt.legend(); plt.tight_layout()
print(f"max error against the closed form: {max(errors):.3e}")
