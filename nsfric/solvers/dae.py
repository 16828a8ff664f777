"""DAE reference solvers on Assimulo: ``ida`` (SUNDIALS IDA, BDF) and ``radau5dae``.

The whole hybrid model is one Assimulo ``Implicit_Problem`` ``F(t, y, y', sw) = 0``
with ``y = (states, lam)``; the switches ``sw`` are one-hot over the modes and fixed
between events.  In a sliding mode the algebraic state's equation is the constraint
``h(y) = 0`` and the multiplier ``lam`` (Krengel & Matuttis eq 9) is fixed by
``grad h . f_lam = 0`` (index 1 in ``(y_a, lam)``); elsewhere ``lam = 0``.  The current
mode's guards are Assimulo ``state_events``; ``handle_event`` takes the decision with
the same :class:`~nsfric.solvers.loop.ModeLoop` as the Filippov solver (decision,
projection onto the surface, cascading switches, event budget, Zeno and no-progress
checks) and sets a consistent ``(y, y')`` before the solver re-initialises.

Two things the solvers' own event handling does not see are added:

* **kink events**: the zeros of the arguments of ``|u|`` in the current mode's guards
  (:meth:`~nsfric.symbolic.derive.DerivedModel.kinks`, the ``F_n`` of a friction limit
  ``mu |F_n|``) are state events too, with no switch.  The root search only looks for
  sign changes between steps; where ``F_n = 0`` the stick region ``|F_S| < mu |F_n|``
  closes to zero width, and the slip before it (a few ns in Schäfer's oblique impact)
  lies between two steps.  Locating ``F_n = 0`` brackets it.
* **leaving a sliding mode**, the event state (interpolated between steps) is first
  projected back onto the mode's surface: at the kink the constraint ``F_S = -mu |F_n|``
  has a corner in time, and the interpolant misses it by ~1e-6 N.

Dense output is the solver's own interpolant on every internal step, of the order of
the method (:mod:`nsfric.solvers.dense`), whatever sample times are asked for: the
solver reports each of its steps and the Solution samples ``sol.t`` from that dense
output (``stats["dense_error"]`` says how well it reproduces the solver's interpolant).
"""
from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
import tempfile
import types

import numpy as np

from ..errors import BudgetError, SolverFailure, ZenoError
from ..symbolic.derive import param_vector
from ..symbolic.model import HELD_KINDS
from .base import ReferenceSolver, register
from .dense import DESCRIPTION, StepPolynomials, sample_step
from ..solution import Segment, Solution
from .switching import ModeLogic
from .watch import FieldWatch


@contextlib.contextmanager
def _captured_c_stderr():
    """Collect what the solver prints (SUNDIALS warnings on file descriptor 2, Assimulo's
    ``[IDA Warning]`` lines on ``sys.stdout``) into ``Solution.info["solver_messages"]``
    instead of mixing it into the user's output."""
    messages = []
    sys.stderr.flush()
    saved = os.dup(2)
    py_out = io.StringIO()
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            # Assimulo prints the traceback of an exception raised in a callback (the
            # budget's, a non-finite residual's) on sys.stderr: collected too
            with contextlib.redirect_stdout(py_out), contextlib.redirect_stderr(py_out):
                yield messages
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            text = tmp.read().decode(errors="replace") + py_out.getvalue()
            messages += [ln for ln in text.splitlines() if ln.strip()]


def _assimulo_solvers():
    """``assimulo.solvers`` without importing matplotlib.

    The package's ``__init__`` imports every solver, and its RADAR5 module imports
    ``pylab`` (matplotlib.pyplot, about half a second) at module level for plotting that
    nsfric never uses.  A stand-in ``pylab`` module is in place during the import only;
    it imports the real one on first attribute access, so RADAR5's plots still work."""
    if "assimulo.solvers" in sys.modules or "pylab" in sys.modules:
        import assimulo.solvers
        return assimulo.solvers
    stand_in = types.ModuleType("pylab", "stand-in: imports the real pylab on first use")

    def real(name):
        if sys.modules.get("pylab") is stand_in:
            del sys.modules["pylab"]
        return getattr(importlib.import_module("pylab"), name)

    stand_in.__getattr__ = real
    sys.modules["pylab"] = stand_in
    try:
        import assimulo.solvers
    finally:
        if sys.modules.get("pylab") is stand_in:
            del sys.modules["pylab"]
    return assimulo.solvers


def _problem_class():
    from assimulo.problem import Implicit_Problem

    class HybridDAE(Implicit_Problem):
        """Assimulo problem generated from a derived hybrid model."""

        def setup(self, d, p, loop, mode, t0, solver="", law=""):
            self.d, self.loop = d, loop
            self.p = tuple(np.asarray(p, dtype=float).tolist())  # cheaper unpacking per call
            self.modes = list(d.model.mode_names)
            self.n = d.n
            self.res_f = {m: d.residual(m) for m in self.modes}
            self.jac_f = {m: d.residual_jacobian(m) for m in self.modes}
            self.guard_f = {m: d.guards(m) for m in self.modes}
            self.kink_f = {m: d.kink_values(m) for m in self.modes}
            # the guards of a constrained sliding mode are evaluated with its algebraic state
            # projected onto the constraint: the solver's iterate carries its error, which a
            # stick exit can amplify without bound (Hertz-Mindlin's F_e (da/dt)/a ~ 1/delta:
            # an error of 1e-14 N fired the exit 2.5e-11 m before the contact end)
            self.constrained = {m: d.model.is_sliding(m) and d.model.mode(m).kind in HELD_KINDS
                                for m in self.modes}
            self.n_guards = max(len(self.guard_f[m][0]) + (0 if self.kink_f[m] is None else self.kink_f[m].n)
                                for m in self.modes) or 1
            self.records = []  # (t, y, yd, mode, the solver's interpolant on the step)
            self.mode0 = mode
            # non-finite residuals and the CPU-time budget, checked inside the solver's
            # steps; what stopped the run is kept: Assimulo reports an exception raised in
            # the residual only as "failed in an unrecoverable manner"
            names = list(d.model.state_names)
            self.watch = {m: FieldWatch(None, None, loop.budget, solver, law, m, names, "residual")
                          for m in self.modes}
            self.rhs_watch = {m: FieldWatch(None, None, None, solver, law, m, names) for m in self.modes}
            self.stopped = None

        def algvar_of(self, mode):
            """IDA's ``id`` vector in ``mode``: 1 for a differential variable, 0 for
            ``lam`` and for the algebraic state of a constrained sliding mode (it is
            fixed by the constraint, e.g. the Walton-Braun-Mindlin ``F_s = mu |F_n|``,
            which the overlap of the centres carries with a rounding noise of ~1e-12 N:
            in the local error test it forced IDA to order 1 and ~1e-12 s steps)."""
            a = [1.0] * self.n + [0.0]
            if self.d.model.is_sliding(mode):
                s = self.d.model.mode(mode)
                if s.kind in HELD_KINDS:
                    a[list(self.d.model.state_names).index(str(s.algebraic))] = 0.0
            return a

        def mode_of(self, sw):
            return self.modes[int(np.argmax(sw))]

        def residual(self, t, y, yd, sw):
            n = self.n
            mode = self.mode_of(sw)
            try:
                return self.watch[mode].checked(t, y[:n], self.res_f[mode](y[:n], yd[:n], y[n:], self.p))
            except (SolverFailure, BudgetError) as e:
                self.stopped = e
                raise

        def jacobian(self, c, t, y, yd, sw):
            n = self.n
            return self.jac_f[self.mode_of(sw)](c, y[:n], yd[:n], y[n:], self.p)

        def state_events(self, t, y, yd, sw):
            mode = self.mode_of(sw)
            gs, gf = self.guard_f[mode]
            out = -np.ones(self.n_guards)
            if gf is not None:
                ys = y[: self.n]
                if self.constrained.get(mode):  # the algebraic state on its constraint (see setup)
                    ys = self.loop.logic.project(mode, np.asarray(ys, dtype=float))
                out[: len(gs)] = gf(ys, self.p)
            kf = self.kink_f[mode]
            if kf is not None:  # kink events: located, then the mode goes on (no decision)
                u = kf(y[: self.n], self.p)
                out[len(gs): len(gs) + len(u)] = u
            return out

        def consistent(self, mode, ys, t=None):
            """Consistent ``(y, y')`` in ``mode`` from the states ``ys`` (at time ``t``,
            default the start: a non-finite field there is refused at once)."""
            d, p = self.d, self.p
            names, fo = d.outputs(mode)
            lam = fo(ys, p)[names.index("lam")] if "lam" in names else 0.0
            y = np.concatenate([ys, [lam]])
            f = d.rhs(mode)(ys, p)
            watch = self.rhs_watch[mode]
            watch.calls = 0  # the mode's start state: a non-finite field here is a defect
            watch.checked(self.loop.t0 if t is None else t, ys, list(f) + [lam])
            yd = np.concatenate([f, [0.0]])
            return y, yd

        def handle_event(self, solver, event_info):
            state_info = np.asarray(event_info[0])
            mode = self.mode_of(solver.sw)
            gs, _ = self.guard_f[mode]
            fired = [i for i, s in enumerate(state_info[: len(gs)]) if s > 0]
            if not fired:
                return
            guard = self.loop.logic.acted_on([gs[i] for i in fired])
            ys = np.array(solver.y[: self.n], dtype=float)
            if self.d.model.is_sliding(mode):
                # the event state is interpolated between steps: back onto the surface
                # (a constraint with a kink in time, |F_S| = mu |F_n| at F_n = 0, leaves
                # the interpolant off it by far more than the step points' Newton error)
                ys = self.loop.logic.project(mode, ys)
            new, ys, event = self.loop.switch(float(solver.t), ys, mode, guard)
            if event is None:
                return
            y, yd = self.consistent(new, ys, float(solver.t))
            solver.y = y
            solver.yd = yd
            solver.sw = [m == new for m in self.modes]
            if hasattr(type(solver), "algvar"):  # IDA (re-applied as it re-initialises)
                solver.algvar = self.algvar_of(new)

        def where_stopped(self) -> str:
            """`` (in mode M at t = ...; nearest its surface: guard G = g)``: where the
            last accepted step ended, and the mode's guard closest to firing there.
            E.g. Radau5 on Schäfer's Walton-Braun-Mindlin impact at ``psi_i = 3`` stalls
            5.5e-8 N short of the Coulomb limit ``F_s = -mu |F_n|`` (guard ``c_minus``),
            where the stiffness of eq 21, a cube root, falls to zero (a field that is
            not Lipschitz there): every further step is rejected until the step limit;
            filippov and ida enter the sliding mode there."""
            if not self.records:
                return ""
            t, y, _, mode = self.records[-1][:4]
            gs, gf = self.guard_f[mode]
            where = f" (in mode {mode!r} at t = {t:.17g}"
            if gf is None:
                return where + ")"
            g = np.asarray(gf(y[: self.n], self.p), dtype=float)
            i = int(np.argmax(g))
            return where + f"; nearest its surface: guard {gs[i].label} = {g[i]:.3g})"

        def handle_result(self, solver, t, y, yd):
            """Keep every step with the solver's interpolant on it (:func:`sample_step`)."""
            t, mode = float(t), self.mode_of(solver.sw)
            last = self.records[-1] if self.records else None
            if last is None or t - last[0] > 1e-9 * max(1.0, abs(t)):  # a step that advances
                self.watch[mode].accepted()  # (steps of no length between NaN trials do not)
            inner = sample_step(solver, last[0], t, self.n) if last and last[3] == mode and t > last[0] else None
            self.records.append((t, np.array(y, dtype=float), np.array(yd, dtype=float), mode, inner))

    return HybridDAE


def dense_report(sol: Solution) -> Solution:
    """``sol`` with what its dense output is (``info["dense_output"]``) and how well it
    reproduces the solver's interpolant (``stats["dense_error"]``, the largest absolute
    deviation at the steps' midpoints)."""
    sol.stats["dense_error"] = max((s.dense.error for s in sol.segments if isinstance(s.dense, StepPolynomials)),
                                   default=0.0)
    sol.info["dense_output"] = DESCRIPTION
    return sol


def _max_steps(value) -> int:
    """The option ``max_steps``: an integer >= 1 (the solver's internal step limit)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, float)) or value != int(value) \
            or value < 1:
        raise ValueError(f"max_steps must be an integer >= 1, got {value!r}")
    return int(value)


class _AssimuloSolver(ReferenceSolver):
    """Options: ``jacobian`` (default True), ``max_steps`` (the solver's internal step
    limit; Assimulo's default 10000 for IDA, 100000 for Radau5DAE)."""

    supports = frozenset({"filippov", "constrained", "graze"})
    options_allowed = ("jacobian", "max_steps")
    default_rtol = 1e-12
    default_atol = 1e-13

    def _make(self, prob):  # pragma: no cover - abstract
        raise NotImplementedError

    def _solve(self, problem, t_eval=None):
        model = problem.model
        d = model.derived()  # a FrozenModel's from the disk cache, without SymPy
        p = param_vector(model, problem.params)
        loop = self.mode_loop(ModeLogic(d, p), problem)
        t0, t_end = loop.t0, loop.t_end
        mode, ys = loop.start(problem.y0)
        HybridDAE = _problem_class()
        sw0 = [m == mode for m in model.mode_names]
        prob = HybridDAE(lambda *a: None, np.zeros(d.n + 1), np.zeros(d.n + 1), t0, sw0=sw0)
        prob.setup(d, p, loop, mode, t0, self.name, problem.law or model.name)
        prob.t_end = t_end
        prob.res = prob.residual
        if self.options.get("jacobian", True):
            prob.jac = prob.jacobian
        y0, yd0 = prob.consistent(mode, ys)
        prob.y0, prob.yd0 = y0, yd0
        prob.algvar = prob.algvar_of(mode)
        solver = self._make(prob)
        solver.y, solver.yd = y0, yd0
        solver.verbosity = 50
        solver.rtol = self.rtol
        solver.atol = self.atol
        if hasattr(solver, "report_continuously"):
            solver.report_continuously = True
        if "max_steps" in self.options:
            solver.maxsteps = _max_steps(self.options["max_steps"])
        with _captured_c_stderr() as messages:
            try:
                solver.simulate(t_end)  # every internal step reported: the dense output
            except (ZenoError, BudgetError, ValueError, SolverFailure):  # the mode loop's own stops
                raise
            except Exception as e:  # noqa: BLE001 - re-raised with where it stopped
                if prob.stopped is not None:  # raised inside the residual (budget, non-finite)
                    raise prob.stopped from None
                raise RuntimeError(f"{str(e).splitlines()[0] if str(e) else type(e).__name__}"
                                   f"{prob.where_stopped()}") from None
        segments = loop.segments + self._segments(prob.records)
        st = solver.statistics
        keys = list(st.keys())

        def get(name):
            return int(st[name]) if name in keys else 0

        stats = {"nfev": get("nfcns"), "njev": get("njacs"), "nsteps": get("nsteps"),
                 "nevents": loop.n_switches, "nstatefcns": get("nstatefcns"),
                 "nfev_fd_jac": get("nfcnjacs")}  # residual calls for finite-difference Jacobians
        sol = Solution(model, dict(problem.params), self.name, segments, loop.events, stats,
                       {"rtol": self.rtol, "atol": self.atol, "method": self.name}, (t0, t_end))
        sol.info["solver_messages"] = messages
        return dense_report(sol)

    @staticmethod
    def _segments(records):
        """Split the solver's steps ``(t, y, y', mode[, inner samples])`` at mode changes;
        the dense output of a segment is its steps' :class:`StepPolynomials`."""
        segs, cur = [], []

        def close(run):
            t = np.array([r[0] for r in run])
            Y = np.array([r[1] for r in run]).T
            YD = np.array([r[2] for r in run]).T
            inner = [r[4] if len(r) > 4 else None for r in run]
            keep = np.concatenate([[True], np.diff(t) > 0])
            # a repeated time (the re-initialisation after a kink event) is no step; the
            # samples of a step are kept with the step point it ends on
            t, Y, YD = t[keep], Y[:, keep], YD[:, keep]
            inner = [s for s, k in zip(inner, keep) if k][1:]
            n = Y.shape[0] - 1
            dense = StepPolynomials(t, Y[:n], YD[:n], inner) if len(t) > 1 else None
            segs.append(Segment(run[0][3], t[0], t[-1], dense, Y[:n, 0].copy(), Y[:n, -1].copy()))

        for rec in records:
            if cur and rec[3] != cur[-1][3]:
                close(cur)
                cur = [rec]
            else:
                cur.append(rec)
        if cur:
            close(cur)
        return segs


@register
class IDASolver(_AssimuloSolver):
    """SUNDIALS IDA (variable-order BDF) through Assimulo; see module docstring."""

    name = "ida"
    options_allowed = ("jacobian", "max_steps", "maxord")

    def _make(self, prob):
        s = _assimulo_solvers().IDA(prob)
        s.suppress_alg = True
        s.usejac = hasattr(prob, "jac") and prob.jac is not None
        s.maxord = int(self.options.get("maxord", 5))
        return s


@register
class Radau5DAESolver(_AssimuloSolver):
    """Assimulo's Radau5DAE (Radau IIA, order 5); see module docstring."""

    name = "radau5dae"
    default_rtol = 1e-11
    default_atol = 1e-13

    #: default largest step, as a fraction of the time span: the root search sees only
    #: sign changes between steps, and where the solution is trivial (a force held at
    #: the Coulomb limit) Radau5 grows its steps by up to 8x each until a whole guard
    #: excursion fits inside one -- the Walton-Braun-Mindlin slip mode's exit at the
    #: reversal of a prescribed slip went unseen, the force held at the limit to the end
    max_step_fraction = 1e-2

    def _make(self, prob):
        s = _assimulo_solvers().Radau5DAE(prob)
        s.usejac = hasattr(prob, "jac") and prob.jac is not None
        s.maxh = self.max_step_fraction * (prob.t_end - prob.t0)
        return s
