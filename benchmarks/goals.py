"""The speed goals that ``run.py`` does not time, each in fresh processes as a user runs
it, with the disk caches an earlier (untimed) process filled:

* the saw-tooth reference of the oblique impact at ``psi_i = 3`` (Brilliantov's
  saw-tooth law, one event per tooth; goal <= 0.5 s CPU);
* the default ``km-pile`` exact reference (goal <= 1 s CPU);
* the set-up of the per-corner rotating block's batch, per member: the binding of each
  member's parameters (``Case.bind``) and
  :class:`~nsfric.symbolic.corner_forces.CornerForces` over 1,000 members (goal <= 50 us;
  the exact grid-phase starts, one reference per member, are not part of it).

    python benchmarks/goals.py [--repeat N] [--quick] [--write]

Each number is the median over ``--repeat`` fresh processes of the CPU time of the timed
call alone (the imports and the case's construction are not timed: the first solve of a
process pays numba's import and the load of the cached kernels); for the references the
row also gives the same call once more in the same process ("again in the process"),
which stepper ran and the machine's load (1-minute average) before and after.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from _script import main as script_main

#: the code each fresh process runs: it prints a JSON object with ``seconds`` (CPU of the
#: timed part) and what ran
PROBES = {
    "saw-tooth reference, psi_i = 3": ("""
import time, nsfric
case = nsfric.get_case("oblique-impact")
t0 = time.process_time()
sol = case.reference_solution("saw-tooth", params={"psi_i": 3.0}, max_events=100000)
dt = time.process_time() - t0
t0 = time.process_time()
case.reference_solution("saw-tooth", params={"psi_i": 3.0}, max_events=100000)
again = time.process_time() - t0
print(json.dumps({"seconds": dt, "again in the process": round(again, 3), "events": len(sol.events),
                  "method": sol.tolerances.get("method")}))
""", 0.5),
    "km-pile exact reference (default)": ("""
import time, nsfric
case = nsfric.get_case("km-pile")
t0 = time.process_time()
sol = case.reference_solution()
dt = time.process_time() - t0
t0 = time.process_time()
case.reference_solution()
again = time.process_time() - t0
print(json.dumps({"seconds": dt, "again in the process": round(again, 3), "events": len(sol.events),
                  "method": sol.tolerances.get("method")}))
""", 1.0),
    "per-corner batch set-up, per member (Case.bind and CornerForces)": ("""
import time, nsfric
from nsfric.papers.krengel_matuttis.slope_block_corners import LAW
from nsfric.symbolic.corner_forces import CornerForces
case = nsfric.get_case("slope-block-rotating")
model = case.model(LAW)
t0 = time.process_time()
sets = [case.bind(LAW, params={"alpha": a}) for a in np.linspace(10.0, 20.0, N)]
t1 = time.process_time()
CornerForces(model, sets)
dt = time.process_time() - t0
print(json.dumps({"seconds": dt / N, "members": N, "bind_share": round((t1 - t0) / dt, 2)}))
""", 50e-6),
}


def probe(code: str, members: int) -> dict:
    """Run ``code`` in a fresh interpreter; its JSON line."""
    head = f"import json\nimport numpy as np\nN = {members}\n"
    out = subprocess.run([sys.executable, "-c", head + code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(repeat: int, members: int) -> dict:
    """name -> (median seconds, goal, the first run's extras, load before, load after)."""
    res = {}
    for name, (code, goal) in PROBES.items():
        load0 = os.getloadavg()[0]
        probe(code, members)  # fills the disk caches; not timed
        runs = [probe(code, members) for _ in range(repeat)]
        res[name] = (float(np.median([r["seconds"] for r in runs])), goal,
                     {k: v for k, v in runs[0].items() if k != "seconds"}, load0, os.getloadavg()[0])
    return res


def report(res: dict) -> str:
    """The Markdown table of :func:`measure`'s results."""
    lines = ["| goal | measured (CPU, median) | goal met | ran | load before/after |", "| --- | --- | --- | --- | --- |"]
    for name, (s, goal, extra, l0, l1) in res.items():
        ran = ", ".join(f"{k} {v}" for k, v in extra.items())
        unit = (f"{s * 1e6:.1f} us", f"{goal * 1e6:.0f} us") if goal < 1e-3 else (f"{s:.3f} s", f"{goal:g} s")
        lines.append(f"| {name} <= {unit[1]} | {unit[0]} | {'yes' if s <= goal else f'no ({s / goal:.1f}x)'} | "
                     f"{ran} | {l0:.1f} / {l1:.1f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    argv = sys.argv[1:]
    repeat = 3
    if "--repeat" in argv:
        i = argv.index("--repeat")
        repeat = int(argv[i + 1])
        del argv[i:i + 2]
    script_main(argv, __doc__, lambda: measure(repeat, 1000), lambda: measure(1, 20), report, "results-goals.md")
