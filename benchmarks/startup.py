"""Start-up of the command line (issue 11, item 3), as ratios to ``python -c "import numpy"``
timed in the same loop: ``nsfric list``, a bad-input error, and a cold ``reference``
(fresh process, imports, model derivation, code generation and the solve), a
``simulate`` of one contact (Heun) and a batched one (10 000 members), each with an
empty cache folder (``$NSFRIC_CACHE_DIR``) and with the disk cache of derived numerics
a previous process filled (:mod:`nsfric.symbolic.numcache`, the schemes' code:
:mod:`nsfric.schemes.codecache`; no SymPy import).

    python benchmarks/startup.py [--repeat N] [--write]

Each time is the median over ``--repeat`` fresh processes; the baseline and the commands
alternate, so load on a shared machine affects both alike.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOALS = {"list": 3.0, "bad input": 3.0}  # times the numpy import; the cold reference: <= 1 s


def commands(tmp: str) -> dict:
    """name -> (command, cache folder or None); the cold reference gets an empty cache
    folder per run, the warm one the folder a first (untimed) run filled."""
    cli = [sys.executable, "-m", "nsfric.cli"]
    ref = cli + ["reference", "sliding-plates", "--law", "d-sds", "--no-cross-check", "--out", os.path.join(tmp, "r.csv")]
    sim = cli + ["simulate", "sliding-plates", "--law", "c-sds", "--scheme", "heun", "--dt", "1e-3", "--t-end", "1",
                 "--out", os.path.join(tmp, "s.csv")]
    warm = os.path.join(tmp, "warm")
    return {
        "import numpy (baseline)": ([sys.executable, "-c", "import numpy"], None),
        "list": (cli + ["list"], None),
        "bad input": (cli + ["reference", "sliding-plates", "--law", "no-such-law", "--out", os.path.join(tmp, "a.csv")],
                      None),
        "cold reference (empty cache)": (ref, "empty"),
        "warm reference (disk cache)": (ref, warm),
        "cold simulate (empty cache)": (sim, "empty"),
        "warm simulate (disk cache)": (sim, warm),
        "cold batched simulate (empty cache)": ([sys.executable, "-c", BATCH], "empty"),
        "warm batched simulate (disk cache)": ([sys.executable, "-c", BATCH], warm),
    }


#: the batched call of issue 11 (10 000 members, the compiled kernel; numba's own cache
#: of the kernel lives in the same cache folder, so "empty" includes its compilation)
BATCH = ("import numpy as np, nsfric; nsfric.simulate('sliding-plates', law='c-sds', scheme='heun', dt=1e-3, "
         "t_end=1, params={'v0': np.linspace(1, 8, 10_000)})")


def _run(cmd, env, check):
    """Wall and CPU (user + system) seconds of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=check)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench(repeat: int = 7) -> dict:
    """Median wall and CPU time of each command over ``repeat`` fresh processes, and the
    wall time's ratio to the numpy import (the commands alternate with it)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(tmp)
        for cmd, cache in cmds.values():  # fill the warm cache
            if cache not in (None, "empty"):
                subprocess.run(cmd, env=dict(env, NSFRIC_CACHE_DIR=cache), capture_output=True, check=True)
        times = {name: [] for name in cmds}
        for i in range(repeat):
            for name, (cmd, cache) in cmds.items():
                e = dict(env)
                if cache == "empty":
                    e["NSFRIC_CACHE_DIR"] = os.path.join(tmp, f"empty-{i}-{list(cmds).index(name)}")
                elif cache:
                    e["NSFRIC_CACHE_DIR"] = cache
                times[name].append(_run(cmd, e, name != "bad input"))
    base = float(np.median([w for w, _ in times["import numpy (baseline)"]]))
    return {name: {"seconds": float(np.median([w for w, _ in ts])), "cpu": float(np.median([c for _, c in ts])),
                   "ratio": float(np.median([w for w, _ in ts])) / base} for name, ts in times.items()}


def report(res: dict, load=None) -> str:
    lines = ["## Start-up (fresh processes)", "",
             "Medians of fresh processes, alternating with `python -c \"import numpy\"`"
             + (f"; load average {load:.1f} on {os.cpu_count()} cores." if load is not None else "."), "",
             "| command | median wall [s] | median CPU [s] | wall / `import numpy` | goal |", "|---|---|---|---|---|"]
    for name, r in res.items():
        goal = (f"≤ {GOALS[name]:g}× ({'met' if r['ratio'] <= GOALS[name] else 'not met'})" if name in GOALS else
                f"≤ 1 s ({'met' if r['cpu'] <= 1.0 else 'not met'}, CPU)" if "reference" in name else "")
        lines.append(f"| {name} | {r['seconds']:.3f} | {r['cpu']:.3f} | {r['ratio']:.2f} | {goal} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--write", action="store_true", help="also write benchmarks/results-startup.md")
    a = ap.parse_args()
    text = report(bench(a.repeat), os.getloadavg()[0])
    print(text)
    if a.write:
        with open(os.path.join(ROOT, "benchmarks", "results-startup.md"), "w", encoding="utf-8") as f:
            f.write(text)
