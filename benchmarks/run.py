"""nsfric benchmark suite: speed as ratios against baselines run in the same process.

    python benchmarks/run.py

1. Generated right-hand side (lambdify + CSE, numpy and math backends) against a
   hand-written NumPy right-hand side of the same C-SDS law.
2. The exact event-driven reference of the dry-friction oscillator against the
   common alternative, a regularised law ``F = -mu F_N tanh(v/eps)`` on a stiff
   solver (Radau), compared at equal error against the closed form.
Timings are best-of-N wall times; only their ratios are meaningful.
"""
from __future__ import annotations

import time

import numpy as np
from scipy.integrate import solve_ivp

import nsfric
from nsfric.symbolic.derive import DerivedModel, derive, param_vector


def best_of(fn, n=5):
    best = np.inf
    for _ in range(n):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def bench_rhs(calls=20000):
    case = nsfric.get_case("sliding-plates")
    model = case.model("c-sds")
    p = tuple(param_vector(model, model.bind()).tolist())  # as the solvers pass it
    y = np.array([0.3, 2.0])
    k, gamma, F_max, m = p[:4]

    def hand(y):  # baseline: the C-SDS slip- branch written by hand
        xi, v = y
        return np.array([(F_max - k * xi) / gamma, -F_max / m])

    f_np = derive(model).rhs("slip-")
    f_math = DerivedModel(model, backend="math").rhs("slip-")
    assert np.allclose(f_np(y, p), hand(y)) and np.allclose(f_math(y, p), hand(y))
    base = best_of(lambda: [hand(y) for _ in range(calls)])
    rows = [("hand-written numpy rhs (baseline)", base, 1.0)]
    for name, f in (("generated rhs, numpy backend", f_np), ("generated rhs, math backend", f_math)):
        t = best_of(lambda: [f(y, p) for _ in range(calls)])
        rows.append((name, t, t / base))
    return rows


def bench_exact_vs_regularised():
    case = nsfric.get_case("dry-oscillator")
    prob = case.problem()
    pv = prob.params
    exact = case.reference_solution(solver="analytic", samples=2001)
    t = exact.t
    x_ref = exact["x"]
    rows = []
    t_filippov = best_of(lambda: case.reference_solution(solver="filippov", samples=2001), 3)
    err_f = np.max(np.abs(case.reference_solution(solver="filippov", samples=2001)(t)[0] - exact(t)[0]))
    rows.append(("exact Filippov (DOP853, rtol 1e-12)", t_filippov, err_f, 1.0))
    m, k, mu, F_N = pv["m"], pv["k"], pv["mu"], pv["F_N"]
    for eps in (1e-2, 1e-3, 1e-4):
        def fun(_, y):
            return [y[1], (-k * y[0] - mu * F_N * np.tanh(y[1] / eps)) / m]

        def jac(_, y):
            s = 1 / np.cosh(y[1] / eps) ** 2
            return [[0, 1], [-k / m, -mu * F_N * s / (eps * m)]]

        run = lambda: solve_ivp(fun, (0, 10), prob.y0, method="Radau", jac=jac, rtol=1e-10,
                                atol=1e-12, dense_output=True)
        tt = best_of(run, 3)
        sol = run()
        err = np.max(np.abs(sol.sol(t)[0] - x_ref))
        rows.append((f"tanh-regularised eps={eps:g} (Radau, rtol 1e-10)", tt, err, tt / t_filippov))
    return rows


def main():
    print("1. right-hand side evaluation, C-SDS slip branch (time ratio to the hand-written baseline)")
    for name, t, r in bench_rhs():
        print(f"   {name:40s} {t:8.4f} s   ratio {r:5.2f}")
    print("2. dry-friction oscillator on [0, 10]: error in x against the closed form, time ratio to exact")
    for name, t, err, r in bench_exact_vs_regularised():
        print(f"   {name:48s} {t:7.3f} s   max error {err:8.1e}   ratio {r:6.2f}")


if __name__ == "__main__":
    main()
