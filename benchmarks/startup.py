"""Start-up of the command line (issue 11, item 3), as ratios to ``python -c "import numpy"``
timed in the same loop: ``nsfric list``, a bad-input error, and a cold ``reference``
(fresh process, imports, model derivation, code generation and the solve).

    python benchmarks/startup.py [--repeat N]

Each time is the median over ``--repeat`` fresh processes; the baseline and the commands
alternate, so load on a shared machine affects both alike.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOALS = {"list": 3.0, "bad input": 3.0}  # times the numpy import; the cold reference: <= 1 s


def commands(tmp: str) -> dict:
    cli = [sys.executable, "-m", "nsfric.cli"]
    return {
        "import numpy (baseline)": [sys.executable, "-c", "import numpy"],
        "list": cli + ["list"],
        "bad input": cli + ["reference", "sliding-plates", "--law", "no-such-law", "--out", os.path.join(tmp, "a.csv")],
        "cold reference": cli + ["reference", "sliding-plates", "--law", "d-sds", "--no-cross-check",
                                 "--out", os.path.join(tmp, "r.csv")],
    }


def bench(repeat: int = 7) -> dict:
    """Median wall time of each command over ``repeat`` fresh processes, and its ratio to
    the numpy import."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(tmp)
        times = {name: [] for name in cmds}
        for _ in range(repeat):
            for name, cmd in cmds.items():
                t = time.perf_counter()
                subprocess.run(cmd, env=env, capture_output=True, check=name != "bad input")
                times[name].append(time.perf_counter() - t)
    base = float(np.median(times["import numpy (baseline)"]))
    return {name: {"seconds": float(np.median(ts)), "ratio": float(np.median(ts)) / base} for name, ts in times.items()}


def report(res: dict) -> str:
    lines = ["## Start-up (fresh processes)", "",
             "| command | median [s] | ratio to `import numpy` | goal |", "|---|---|---|---|"]
    for name, r in res.items():
        goal = (f"≤ {GOALS[name]:g}× ({'met' if r['ratio'] <= GOALS[name] else 'not met'})" if name in GOALS else
                f"≤ 1 s ({'met' if r['seconds'] <= 1.0 else 'not met'})" if name == "cold reference" else "")
        lines.append(f"| {name} | {r['seconds']:.3f} | {r['ratio']:.2f} | {goal} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    print(report(bench(ap.parse_args().repeat)))
