"""The stick/slip decision of the multi-contact references at one event: the friction LCP
(Lemke) against the enumeration of all 3^k modes, for k = 4 ... 32 contacts.

    python benchmarks/pile_lcp.py [--quick] [--write]

The model: a leaning column of ``k`` discs (``R = 1 cm``, the pile's parameters) on the
floor, each resting on the one below a little off its top (alternately left and right
by ``0.3 R``), gravity tilted by ``beta = 5 deg``, every contact pressed by 5 um and
every disc spinning a little (so that ``c_t`` enters): ``k`` contacts, one with the floor
and ``k - 1`` between neighbours, a :class:`~nsfric.symbolic.contacts.ContactModel`
built from the pile's contact geometry (:func:`~nsfric.papers.krengel_matuttis.pile_model.plane_contact`,
:func:`~nsfric.papers.krengel_matuttis.pile_model.disc_contact`).  At that state every contact is stuck and
the event decides all ``k`` together (:meth:`~nsfric.solvers.contacts.PileLogic.decide`
from the all-stuck mode with ``mu = 0.3``).  Reported: CPU seconds per decision (median
of repeats), the consistency checks made (each one field evaluation and one linear
solve), Lemke's pivots, the chosen mode; the enumeration is timed up to ``k = 10``
(``3^10 = 59049`` checks) and extrapolated beyond from its time per check.  No timing
is asserted anywhere (``--quick`` is the CI smoke test).
"""
from __future__ import annotations

import os
import time
from functools import lru_cache

import numpy as np
import sympy as sp

from nsfric.solvers.contacts import PileLogic
from nsfric.symbolic.contacts import Body, ContactModel
from nsfric.symbolic.normal import linear_spring_dashpot
from nsfric.papers.krengel_matuttis.pile_model import REFERENCE, R, _params, beta, disc_contact, g, m, plane_contact

SHIFT, SINK, MU = 0.3, 5e-6, 0.3


class DiscColumn(ContactModel):
    """``k`` discs leaning on each other in a column on the floor (module docstring)."""

    def __init__(self, k: int):
        bodies = [Body(sp.symbols(f"x_{i} y_{i} theta_{i}", real=True), sp.symbols(f"vx_{i} vy_{i} omega_{i}", real=True),
                       m, m * R ** 2 / 2) for i in range(1, k + 1)]
        disc = [(b.q[:2], b.v) for b in bodies]
        contacts = [plane_contact("floor-1", disc[0], (0, 0), (0, 1))]
        contacts += [disc_contact(f"{i}-{i + 1}", disc[i - 1], disc[i]) for i in range(1, k)]
        b = sp.pi * beta / 180
        self.setup(name=f"disc-column-{k}", reference=REFERENCE, params=_params(), bodies=bodies, contacts=contacts,
                   law=linear_spring_dashpot(end="force", params=()),
                   external=(m * g * sp.sin(b), -m * g * sp.cos(b), 0) * k, accel_scale=g)

    def state(self, values, rng):
        """The leaning column, pressed by ``SINK`` at every contact, spinning a little."""
        r, k = values["R"], self.K
        x, y = [0.0], [r - SINK]
        for i in range(1, k):
            dx = SHIFT * r * (1 if i % 2 else -1)
            x.append(x[-1] + dx)
            y.append(y[-1] + np.sqrt((2 * r - SINK) ** 2 - dx ** 2))
        q = np.ravel(np.column_stack([x, y, np.zeros(k)]))
        v = np.ravel(np.column_stack([np.zeros(k), np.zeros(k), rng.normal(scale=0.05, size=k)]))
        return np.concatenate([q, v])


@lru_cache(maxsize=None)
def column(k):
    return DiscColumn(k)


def decision_time(k, decision, repeat, rng_seed=0):
    """``(seconds per decision, checks, pivots, mode)`` from the all-stuck mode."""
    model = column(k)
    values = model.bind({"mu": MU})
    y = model.state(values, np.random.default_rng(rng_seed))
    logic = PileLogic(model, values, decision)
    calls = []
    check = logic.consistent
    logic.consistent = lambda *a, **kw: (calls.append(1), check(*a, **kw))[1]
    logic.decide(y, "s" * k, [])  # compiles the model's function, warms up
    times = []
    for _ in range(repeat):
        calls.clear()
        pivots = logic.lcp_stats["pivots"]
        t = time.process_time()
        mode = logic.decide(y, "s" * k, [])
        times.append(time.process_time() - t)
    return float(np.median(times)), len(calls), logic.lcp_stats["pivots"] - pivots, mode


def bench(ks=(4, 8, 10, 16, 32), enumerate_up_to=10, repeat=5):
    rows = {}
    for k in ks:
        lcp = decision_time(k, "lcp", repeat)
        row = {"lcp_seconds": lcp[0], "lcp_checks": lcp[1], "pivots": lcp[2], "mode": lcp[3]}
        if k <= enumerate_up_to:
            enum = decision_time(k, "enumerate", 1 if k > 6 else repeat)
            row.update(enum_seconds=enum[0], enum_checks=enum[1], same=enum[3] == lcp[3])
        rows[k] = row
    per_check = max((r["enum_seconds"] / r["enum_checks"] for r in rows.values() if "enum_seconds" in r), default=None)
    for k, r in rows.items():
        if "enum_seconds" not in r and per_check is not None:
            r["enum_extrapolated"] = per_check * 3 ** k
    return {"rows": rows, "load": os.getloadavg()}


def report(res) -> str:
    lines = ["### The stick/slip decision at one event: friction LCP (Lemke) against the enumeration of 3^k modes", "",
             f"A leaning column of k discs (k contacts, all stuck before the event, mu = {MU}); CPU seconds per "
             f"decision, median. Load average {', '.join(f'{x:.1f}' for x in res['load'])} (2 cores, shared).", "",
             "| k | LCP: s per decision | checks | Lemke pivots | enumeration: s per decision | checks | "
             "same mode | stuck / k |", "|---|---|---|---|---|---|---|---|"]
    for k, r in res["rows"].items():
        if "enum_seconds" in r:
            enum = f"{r['enum_seconds']:.3g} | {r['enum_checks']} | {'yes' if r['same'] else 'NO'}"
        else:
            enum = f"~{r['enum_extrapolated']:.2g} (extrapolated) | 3^{k} | -"
        lines.append(f"| {k} | {r['lcp_seconds']:.3g} | {r['lcp_checks']} | {r['pivots']} | {enum} | "
                     f"{r['mode'].count('s')} / {k} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    from _script import main as run_script

    run_script(argv, __doc__, bench, lambda: bench((3, 4), 4, 1), report, "results-pile-lcp.md")


if __name__ == "__main__":
    main()
