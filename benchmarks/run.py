"""nsfric benchmark suite: speed as ratios against baselines run in the same process.

    python benchmarks/run.py [--quick] [--repeat N] [--out benchmarks/results.md]

1. Generated right-hand side (lambdify + CSE, numpy and math backends) against a
   hand-written NumPy right-hand side of the same C-SDS law.
2. The dry-friction oscillator (Krengel & Matuttis §3: x0 = 2.1, t_end = 10) at EQUAL
   error against its closed form (the ``analytic`` solver), as work-precision curves:

   * nsfric's exact ``filippov`` reference at several tolerances, on its default
     (``method="auto"``: what a user's plain process gets -- on this non-stiff case the
     compiled ``dop853-numba`` where an earlier process left it compiled on disk, else
     SciPy's DOP853) and on SciPy's DOP853 (``method="DOP853"``: the same steps in
     Python); every row names the stepper that ran (``Solution.tolerances["method"]``),
     and nothing the script imports loads numba before nsfric's first solve;
   * (a) a hand-written ``solve_ivp`` event loop (DOP853, terminal event on v = 0, the
     stick test ``|k x| <= mu F_N``, the sign of the friction chosen by hand);
   * (b) a tanh-regularised Coulomb law ``F = -mu F_N tanh(v/eps)`` on LSODA and on
     Radau at several widths ``eps`` (the error is set by ``eps``), each at the loosest
     solver tolerance that reaches its own regularisation error (``tanh_rtol``).

   Each time is the CPU time (``time.process_time``) median of ``--repeat`` warm runs (at least 3; fewer than
   ``--repeat`` where one run takes more than 2 s / ``--repeat``) (after one call that generates
   and compiles the code); the cold time (first call in a fresh process, code
   generation included, imports excluded) is measured in a subprocess.  A baseline's
   time at nsfric's error is interpolated in log-log on its work-precision curve; the
   ratio nsfric / baseline is reported there (``-`` where the baseline does not reach
   that error).
3. A profile (cProfile) of the warm exact reference at its default tolerance.
4. Batched discrete schemes (``benchmarks/batch.py``): ns per contact-step of nsfric's
   batched ``simulate`` (numba kernel, NumPy fallback) against a hand-written NumPy and
   a hand-written numba loop over contacts, one contact against the per-step Python
   path, and the kernel's cold and cached first call.
5. Start-up (``benchmarks/startup.py``): ``nsfric list``, a bad-input error and a cold
   ``reference`` in fresh processes, as ratios to ``python -c "import numpy"``.

Only the ratios are meaningful (the machine may be shared); the machine load
(``os.getloadavg()``) at the start and the end is stated in the report.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

import nsfric
from nsfric.symbolic.derive import DerivedModel, derive, param_vector

CASE = "dry-oscillator"
#: the checkout's root (stripped from the profile's file names)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(nsfric.__file__))) + os.sep
FILIPPOV_RTOL = (1e-4, 1e-6, 1e-8, 1e-10, 1e-12)
HAND_RTOL = (1e-4, 1e-6, 1e-8, 1e-10, 1e-12)
TANH_EPS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)


def median_time(fn, n):
    ts = []
    for _ in range(n):
        t = time.process_time()
        fn()
        ts.append(time.process_time() - t)
    return float(np.median(ts))


# -- 1. right-hand side --------------------------------------------------------------
def bench_rhs(calls, n):
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
    base = median_time(lambda: [hand(y) for _ in range(calls)], n)
    rows = [("hand-written numpy rhs (baseline)", base, 1.0)]
    for name, f in (("generated rhs, numpy backend", f_np), ("generated rhs, math backend", f_math)):
        t = median_time(lambda: [f(y, p) for _ in range(calls)], n)
        rows.append((name, t, t / base))
    return rows


# -- 2. the dry oscillator: runners returning x on the grid ---------------------------------
def setup():
    case = nsfric.get_case(CASE)
    prob = case.problem()
    t = np.linspace(0.0, 10.0, 2001)
    exact = case.reference_solution(solver="analytic")
    return case, prob, t, exact(t)[0]


NSFRIC = "nsfric filippov"
NSFRIC_SCIPY = "nsfric filippov, SciPy DOP853"
#: nsfric's runners: name -> the filippov method
NSFRIC_RUNNERS = {NSFRIC: "auto", NSFRIC_SCIPY: "DOP853"}


def filippov_runner(case, t, rtol, method="auto"):
    return lambda: case.reference_solution(solver="filippov", rtol=rtol, atol=rtol * 1e-2, method=method)(t)[0]


def hand_loop_runner(prob, t, rtol):
    """The hand-written event loop a newcomer writes: DOP853 per half cycle, stop at
    v = 0, stick if the spring cannot overcome static friction."""
    P = prob.params
    m, k, muFN = P["m"], P["k"], P["mu"] * P["F_N"]

    def v_zero(_, y):
        return y[1]
    v_zero.terminal = True

    def run():
        t0, y = 0.0, np.array(prob.y0, float)
        parts = []
        while t0 < 10.0:
            if abs(y[1]) == 0.0 and abs(k * y[0]) <= muFN:  # sticks for good
                parts.append((t0, 10.0, None, y.copy()))
                break
            s = -np.sign(k * y[0]) if y[1] == 0.0 else np.sign(y[1])  # direction of motion
            fun = lambda _, z, s=s: [z[1], (-k * z[0] - muFN * s) / m]
            v_zero.direction = -s
            sol = solve_ivp(fun, (t0, 10.0), y, method="DOP853", rtol=rtol, atol=rtol * 1e-2,
                            events=v_zero, dense_output=True)
            parts.append((t0, sol.t[-1], sol.sol, None))
            if sol.status != 1:
                break
            t0, y = sol.t_events[0][0], sol.y_events[0][0].copy()
            y[1] = 0.0
        x = np.empty_like(t)
        for a, b, f, y_stick in parts:
            sel = (t >= a) & (t <= b)
            x[sel] = y_stick[0] if f is None else f(t[sel])[0]
        return x
    return run


#: the solver tolerances a tanh baseline may run at, loosest first
TANH_RTOL_LADDER = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12)


def tanh_tight_rtol(eps):
    """A solver tolerance well below the regularisation error of width ``eps``."""
    return max(1e-12, min(1e-6, eps * 1e-4))


class _TooCostly(Exception):
    """A tanh run took more right-hand-side calls than it may."""


def tanh_rtol(prob, t, x_ref, eps, method, slack=1.1):
    """The loosest tolerance of :data:`TANH_RTOL_LADDER` at which the tanh law of width
    ``eps`` still reaches its own regularisation error (its error at
    :func:`tanh_tight_rtol`, within ``slack``), loosened step by step from there; a
    looser run costing more calls than the tight one ends the search (an implicit
    stepper at a loose tolerance can crawl across the near-jump of a narrow tanh)."""
    tight = tanh_tight_rtol(eps)
    calls = [0]
    reg = float(np.max(np.abs(tanh_runner(prob, t, eps, method, tight, calls)() - x_ref)))
    budget = calls[0]
    best = tight
    for rtol in sorted(r for r in TANH_RTOL_LADDER if r > tight):
        try:
            err = float(np.max(np.abs(tanh_runner(prob, t, eps, method, rtol, [0], budget)() - x_ref)))
        except _TooCostly:
            break
        if err > slack * reg:
            break
        best = rtol
    return best


def tanh_runner(prob, t, eps, method, rtol=None, calls=None, max_calls=None):
    """The tanh-regularised law of width ``eps`` on ``method`` at ``rtol`` (default
    :func:`tanh_tight_rtol`); ``calls``: a one-item list counting the right-hand-side
    calls, ``max_calls`` their most (then :class:`_TooCostly`)."""
    P = prob.params
    m, k, muFN = P["m"], P["k"], P["mu"] * P["F_N"]

    def fun(_, y):
        if calls is not None:
            calls[0] += 1
            if max_calls is not None and calls[0] > max_calls:
                raise _TooCostly
        return [y[1], (-k * y[0] - muFN * np.tanh(y[1] / eps)) / m]

    def jac(_, y):
        s = 1 / np.cosh(y[1] / eps) ** 2
        return [[0, 1], [-k / m, -muFN * s / (eps * m)]]

    rtol = tanh_tight_rtol(eps) if rtol is None else rtol
    return lambda: solve_ivp(fun, (0, 10), prob.y0, method=method, jac=jac, rtol=rtol,
                             atol=rtol * 1e-2, t_eval=t).y[0]


#: the stepper of each baseline (nsfric's is read from its Solution)
BASELINE_STEPPERS = {"hand-written event loop": "DOP853 (solve_ivp)", "tanh law on LSODA": "LSODA",
                     "tanh law on Radau": "Radau"}


def stepper_of(case, rtol, method):
    """The stepper nsfric's reference ran on (``Solution.tolerances["method"]``)."""
    return case.reference_solution(solver="filippov", rtol=rtol, atol=rtol * 1e-2, method=method).tolerances["method"]


def curves(repeat):
    """Work-precision points ``{name: [(error, warm time), ...]}`` of every runner, each
    with the stepper that ran (nsfric's as its Solution records it)."""
    case, prob, t, x_ref = setup()
    runners = {**{name: [(r, filippov_runner(case, t, r, m)) for r in FILIPPOV_RTOL] for name, m in NSFRIC_RUNNERS.items()},
               "hand-written event loop": [(r, hand_loop_runner(prob, t, r)) for r in HAND_RTOL],
               **{f"tanh law on {m}": [(e, m) for e in TANH_EPS] for m in ("LSODA", "Radau")}}
    out = {}
    for name, pts in runners.items():
        out[name] = []
        for knob, run in pts:
            rtol = None
            if isinstance(run, str):  # a tanh baseline: at the tolerance that reaches its own error
                rtol = tanh_rtol(prob, t, x_ref, knob, run)
                run = tanh_runner(prob, t, knob, run, rtol)
            t0 = time.process_time()
            err = float(np.max(np.abs(run() - x_ref)))  # the first call also warms up
            first = time.process_time() - t0
            n = max(3, min(repeat, int(2.0 / max(first, 1e-9))))  # slow baselines: fewer repeats
            stepper = (stepper_of(case, knob, NSFRIC_RUNNERS[name]) if name in NSFRIC_RUNNERS
                       else BASELINE_STEPPERS[name] + ("" if rtol is None else f" (rtol {rtol:g})"))
            out[name].append({"knob": knob, "error": err, "time": median_time(run, n), "repeats": n,
                              "stepper": stepper, "rtol": rtol})
    return out


COLD_SNIPPET = """
import json, sys, time
sys.path.insert(0, {here!r})
import run as B
case, prob, t, x_ref = B.setup()
which, knob = sys.argv[1], float(sys.argv[2])
rtol = float(sys.argv[3]) if len(sys.argv) > 3 else None
make = {{**{{n: (lambda m=m: B.filippov_runner(B.nsfric.get_case(B.CASE), t, knob, m)) for n, m in B.NSFRIC_RUNNERS.items()}},
        "hand-written event loop": lambda: B.hand_loop_runner(prob, t, knob),
        "tanh law on LSODA": lambda: B.tanh_runner(prob, t, knob, "LSODA", rtol),
        "tanh law on Radau": lambda: B.tanh_runner(prob, t, knob, "Radau", rtol)}}[which]
t0 = time.process_time(); make()(); dt = time.process_time() - t0
print(json.dumps([dt, "numba" in sys.modules]))
"""


def cold_time(which, knob, rtol=None):
    """First call in a fresh process (imports and the analytic closed form excluded;
    nsfric's symbolic derivation and code generation, or numba's import and cached code,
    included)."""
    here = os.path.dirname(os.path.abspath(__file__))
    extra = [] if rtol is None else [repr(rtol)]
    out = subprocess.run([sys.executable, "-c", COLD_SNIPPET.format(here=here), which, repr(knob)] + extra,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])[0]


def time_at(points, err):
    """Log-log interpolation of a work-precision curve: time at error ``err`` (None
    outside the errors the curve reaches)."""
    pts = sorted((p["error"], p["time"]) for p in points if p["error"] > 0)
    e = np.log([p[0] for p in pts])
    tt = np.log([p[1] for p in pts])
    le = np.log(err)
    if le < e[0] or le > e[-1]:
        return None
    return float(np.exp(np.interp(le, e, tt)))


def ratios(data, runner=NSFRIC):
    rows = []
    for p in data[runner]:
        row = {"rtol": p["knob"], "error": p["error"], "time": p["time"], "runner": runner,
               "stepper": p["stepper"]}
        for name in ("hand-written event loop", "tanh law on LSODA", "tanh law on Radau", NSFRIC_SCIPY):
            tb = time_at(data[name], p["error"])
            row[name] = None if tb is None else p["time"] / tb
        rows.append(row)
    return rows


def reverse_ratios(data):
    """At each baseline point: nsfric's time interpolated at the baseline's error /
    the baseline's time (covers the errors only the baselines' knobs hit)."""
    rows = []
    for name, pts in data.items():
        if name in NSFRIC_RUNNERS:
            continue
        for p in pts:
            tn = time_at(data[NSFRIC], p["error"])
            rows.append({"baseline": name, "knob": p["knob"], "error": p["error"], "time": p["time"],
                         "ratio": None if tn is None else tn / p["time"]})
    return rows


def profile(top):
    case = nsfric.get_case(CASE)
    case.reference_solution()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(20):
        case.reference_solution()
    pr.disable()
    st = pstats.Stats(pr)
    total = st.total_tt
    items = sorted(st.stats.items(), key=lambda kv: -kv[1][3])  # cumulative
    rows = []
    for (file, line, fn), (_, nc, tt, ct, _) in items:
        if fn in ("<module>", "<lambda>") and "nsfric" not in file:
            continue
        short = file.split("site-packages/")[-1].replace(ROOT, "")
        rows.append((f"{short}:{line}({fn})", nc // 20, ct / total))
        if len(rows) >= top:
            break
    return rows


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def machine(preloaded, load_start, load_end):
    """The conditions of the measurement, for the report's head."""
    return {"numba_loaded_before_nsfric": preloaded, "loadavg_start": list(load_start),
            "loadavg_end": list(load_end), "cpus": os.cpu_count()}


def report(rhs, data, cold, rows, reverse, prof, label, where):
    load = ", ".join(f"{a:.1f}" for a in where["loadavg_start"])
    load_end = ", ".join(f"{a:.1f}" for a in where["loadavg_end"])
    lines = [f"# nsfric benchmarks ({label})", "",
             "Times are CPU times (`time.process_time`: a shared machine stretches wall times, CPU",
             "times little), medians of repeated warm runs in one process; ratios nsfric / baseline at",
             "nsfric's error, interpolated on the baseline's work-precision curve (`-`: the",
             "baseline does not reach that error).", "",
             f"Machine load (`os.getloadavg()`, 1/5/15 min) on {where['cpus']} CPUs: {load} at the start, "
             f"{load_end} at the end.  The script imports nothing that loads numba before nsfric's first "
             f"solve (numba loaded then: {'yes' if where['numba_loaded_before_nsfric'] else 'no'}), so "
             "nsfric's default (`method=\"auto\"`) runs on the stepper a user's plain process gets; "
             "the stepper column says which ran.", "",
             "## Right-hand side (C-SDS slip branch)", "", "| | time [s] | ratio |", "|---|---|---|"]
    lines += [f"| {n} | {t:.4f} | {r:.2f} |" for n, t, r in rhs]
    lines += ["", "## Dry oscillator (x0 = 2.1, t_end = 10), work-precision", "",
              "| runner | stepper | knob | max error in x | warm time [ms] | cold time [ms] |",
              "|---|---|---|---|---|---|"]
    for name, pts in data.items():
        for p in pts:
            c = cold.get((name, p["knob"]))
            lines.append(f"| {name} | {p['stepper']} | {p['knob']:g} | {p['error']:.1e} | {1e3 * p['time']:.2f} | "
                         f"{fmt(None if c is None else 1e3 * c, '.1f')} |")
    lines += ["", "## Ratios at equal error (nsfric filippov time / baseline time)", "",
              "nsfric on its default (`method=\"auto\"`) and on SciPy's DOP853 (`method=\"DOP853\"`);",
              "the stepper that ran is named; the last column is the row / nsfric on SciPy's DOP853.", "",
              ("| nsfric method | stepper that ran | nsfric rtol | error | nsfric [ms] | / hand-written loop | "
               "/ tanh LSODA | / tanh Radau | / on SciPy's DOP853 |"), "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        method = "auto (default)" if r["runner"] == NSFRIC else "DOP853"
        lines.append(f"| {method} | {r['stepper']} | {r['rtol']:g} | {r['error']:.1e} | {1e3 * r['time']:.2f} | "
                     f"{fmt(r['hand-written event loop'], '.2f')} | {fmt(r['tanh law on LSODA'], '.2f')} | "
                     f"{fmt(r['tanh law on Radau'], '.2f')} | {fmt(r[NSFRIC_SCIPY], '.2f')} |")
    lines += ["", "## Ratios at each baseline point (nsfric time at the baseline's error / baseline time)", "",
              "| baseline | knob | error | baseline [ms] | nsfric / baseline |", "|---|---|---|---|---|"]
    lines += [f"| {r['baseline']} | {r['knob']:g} | {r['error']:.1e} | {1e3 * r['time']:.2f} | "
              f"{fmt(r['ratio'], '.2f')} |" for r in reverse]
    lines += ["", "## Profile of the warm exact reference (default tolerances), top items", "",
              "| function | calls per run | share of time (cumulative) |", "|---|---|---|"]
    lines += [f"| `{f}` | {nc} | {100 * s:.0f} % |" for f, nc, s in prof]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few repeats, no cold runs (smoke test)")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--out", default=None, help="write the markdown table (and a .json beside it)")
    ap.add_argument("--label", default="this checkout")
    ap.add_argument("--members", type=int, default=10_000, help="contacts of the batched-scheme benchmark")
    ap.add_argument("--no-extras", action="store_true",
                    help="only sections 1-3 (no batched schemes, no start-up: their own result files)")
    args = ap.parse_args(argv)
    n = 2 if args.quick else args.repeat
    load_start = os.getloadavg()
    rhs = bench_rhs(2000 if args.quick else 20000, 3 if args.quick else 5)
    preloaded = "numba" in sys.modules  # nothing before nsfric's first solve loads it
    data = curves(n)
    cold = {}
    if not args.quick:
        for name, pts in data.items():
            for p in pts[::max(1, len(pts) - 1)]:  # the loosest and the tightest point
                cold[(name, p["knob"])] = cold_time(name, p["knob"], p["rtol"])
    rows = ratios(data) + ratios(data, NSFRIC_SCIPY)
    prof = profile(12)
    reverse = reverse_ratios(data)
    where = machine(preloaded, load_start, os.getloadavg())
    text = report(rhs, data, cold, rows, reverse, prof, args.label, where)
    res = start = None
    if args.no_extras:
        return _write(text, args, data, rows, reverse, cold, res, start, where)
    import batch  # the batched schemes against hand-written loops over contacts (benchmarks/batch.py)

    res = batch.bench(200 if args.quick else args.members, 1 if args.quick else min(args.repeat, 5),
                      cold=not args.quick, single_t_end=1.0 if args.quick else 10.0)
    text += "\n" + batch.report(res)
    import startup  # the command line's start-up in fresh processes (benchmarks/startup.py)

    start = startup.bench(1 if args.quick else 7)
    text += "\n" + startup.report(start)
    return _write(text, args, data, rows, reverse, cold, res, start, where)


def _write(text, args, data, rows, reverse, cold, res, start, where):
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
        with open(args.out.rsplit(".", 1)[0] + ".json", "w") as fh:
            json.dump({"label": args.label, "curves": data, "ratios": rows, "baseline_ratios": reverse,
                       "cold": {f"{k[0]} @ {k[1]:g}": v for k, v in cold.items()}, "batch": res,
                       "startup": start, "machine": where}, fh, indent=1)
    return text


if __name__ == "__main__":
    main()
