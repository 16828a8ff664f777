"""A pile with exact static friction at every contact (Krengel & Matuttis §3, several
contacts): case ``km-pile``, an exact multi-contact reference.

Three rotating discs (``I = m R^2/2``, solid discs per unit depth) in a box tilted by
``beta = 5 deg``: discs 1 and 2 dropped onto the floor a little off the walls, disc 3
dropped onto them off-centre and spinning (:class:`~nsfric.papers.krengel_matuttis.pile_model.DiscPile`).  Six
contacts, each with Schäfer's linear spring-dashpot (eq 2, ending at zero force) along
the normal and exact Coulomb friction along the tangent: a stuck contact is a
constraint ``v_t = 0`` whose force comes, with all the others', from one linear system
per evaluation; a mode change is decided for all contacts together by a complementarity
solve (the planar friction LCP by Lemke's algorithm, :mod:`~nsfric.solvers.contact_modes`).  Contacts open and close as events.
The tilt makes the pile roll against wall 2 (with the floor and disc-disc contacts only
it keeps a rolling mechanism, see :mod:`nsfric.papers.krengel_matuttis.pile_model`), where it comes to rest.

Two solvers: ``events`` (:class:`~nsfric.solvers.contacts.PileSolver`, DOP853 per mode, the
forces from the linear system) and ``ida`` (:class:`~nsfric.solvers.contacts_dae.PileIDA`,
the forces as algebraic variables of a DAE).

Observables (``summary``): ``com_drift`` -- the largest displacement of the centre of
mass over the observation window ``[t_end/2, t_end]`` from its position at the
window's start (m); ``settle_time`` (the last event); ``n_events`` and the counts of
each event kind; ``max_stuck_v_t`` (the largest ``|v_t|`` of a stuck contact at the
samples: the constraints' residual) and ``max_stuck_ratio`` (the largest
``|F_t|/(mu F_n)`` of a stuck contact after settling).
"""
from __future__ import annotations

import numpy as np

from nsfric.solvers.base import check_span
from nsfric.solvers.contacts import PileSolver
from nsfric.solvers.contacts_dae import PileIDA
from nsfric.papers.krengel_matuttis.pile_model import STICK, DiscPile
from nsfric.cases.base import Case, sample_count

SOLVERS = {"events": PileSolver, "ida": PileIDA}


class KMPile(Case):
    """Three discs piled in a tilted box, exact static friction at six contacts (module)."""

    name = "km-pile"
    reference = "Krengel & Matuttis (2016) §3 (exact static friction, several contacts); Schäfer et al. eq 2"
    laws = ("coulomb",)
    default_law = "coulomb"
    t_end = 0.4
    unit = "m"
    observable_names = ("com_drift", "window", "settle_time", "final_mode", "n_events", "event_counts",
                        "max_stuck_v_t", "max_stuck_ratio")
    units = {"t": "s", "E_kin": "J", **{f"{k}_{i}": u for i in (1, 2, 3)
                                        for k, u in (("vx", "m/s"), ("vy", "m/s"), ("theta", "rad"),
                                                     ("omega", "rad/s"))}}
    closed_form = False

    def build(self, law: str):
        return DiscPile()

    def y0(self, law, values: dict) -> np.ndarray:
        return self.model(law).initial_state(values)

    def reference_solution(self, law=None, solver="events", params=None, t_end=None, t_eval=None,
                           samples=401, **options):
        """The pile by ``solver`` (``events`` or ``ida``) at ``samples`` uniform times (or
        ``t_eval``); ``summary`` holds the observables."""
        if solver not in SOLVERS:
            raise ValueError(f"case {self.name!r} is solved by the solvers {sorted(SOLVERS)}, not {solver!r}")
        prob = self.problem(law, params, t_end)
        check_span(*prob.t_span)
        t_eval = np.linspace(*prob.t_span, sample_count(samples)) if t_eval is None else np.asarray(t_eval, float)
        sol = SOLVERS[solver](**options).solve(prob.model, prob.params, prob.y0, prob.t_span, t_eval)
        sol.case, sol.law = self.name, prob.law
        sol.summary = self.observables(prob.law, sol)
        return sol

    def observables(self, law: str, sol) -> dict:
        """The module docstring's ``summary``."""
        t0, t1 = sol.t_span
        window = sol.t >= t0 + (t1 - t0) / 2
        x, y = sol["x_com"][window], sol["y_com"][window]
        drift = float(np.max(np.hypot(x - x[0], y - y[0])))
        settle = float(sol.events[-1].t) if sol.events else float(t0)
        K = sol.model.K
        stuck = np.array([[m[i] == STICK for m in sol.sample_modes] for i in range(K)])
        vt = np.array([sol[f"v_t_{c}"] for c in sol.model.contacts])
        ratio = np.array([sol[f"ratio_{c}"] for c in sol.model.contacts])
        late = sol.t > settle
        counts = {}
        for e in sol.events:
            counts[e.kind] = counts.get(e.kind, 0) + 1
        return {"com_drift": drift, "window": [float(sol.t[window][0]), float(t1)], "settle_time": settle,
                "final_mode": sol.segments[-1].mode, "n_events": len(sol.events), "event_counts": counts,
                "max_stuck_v_t": float(np.max(np.abs(np.where(stuck, vt, 0.0)))),
                "max_stuck_ratio": float(np.max(np.where(stuck[:, late], ratio[:, late], 0.0), initial=0.0))}

    def run(self, out_dir: str, progress=None) -> dict:
        """Both solvers' runs (``pile-events.csv``, ``pile-ida.csv`` + sidecars), their
        agreement (``agreement.csv``) and the figure ``pile.png``."""
        from nsfric.papers.krengel_matuttis.km_pile_figures import run

        return run(self, out_dir, progress)
