"""Build the disk caches of the installed cases in one go (``nsfric warm-up``).

A first run pays SymPy's derivation and code generation (the derived numerics,
:mod:`nsfric.symbolic.numcache`) and numba's compilation (the compiled DOP853 stepper of
every mode, :mod:`nsfric.solvers.dop853_numba`).  :func:`warm_up` builds both for every
law of every case whose exact reference runs on the Filippov solver: for each mode the
right-hand side, its Jacobian, the guards and their rates (and their one-sided
forms), the kink values and the outputs, each sliding mode's reset map, each region's
reset, the switching functions and their derivatives in each region, then each mode's compiled stepper (once compiled, a later process
takes it from its first solve, :func:`nsfric.solvers.dop853_source.on_disk`).  What a
cache already holds is read, not built again, so a second run only reads.  Models that
are not hybrid models of modes (the multi-contact networks) have no such cache.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Warmed:
    """What :func:`warm_up` did for one case and law."""

    case: str
    law: str
    #: the modes of the model (empty: no cache of derived numerics for this model)
    modes: list = field(default_factory=list)
    #: derived functions added to the disk cache (0: all were there)
    derived: int = 0
    #: modes compiled now, and modes whose compiled stepper was on disk already
    compiled: int = 0
    on_disk: int = 0
    #: modes numba cannot compile (they run on SciPy's DOP853), or "no numba"
    not_compilable: list = field(default_factory=list)
    seconds: float = 0.0
    #: why the law has no cache to build (the case's message), if so
    skipped: str = ""

    @property
    def built(self) -> bool:
        """Whether anything was built (not only read)."""
        return bool(self.derived or self.compiled)

    def line(self) -> str:
        """One line for the command line."""
        if not self.modes:
            return f"{self.case} {self.law}: no derived numerics to cache ({self.skipped or 'not a model of modes'})"
        what = [f"{len(self.modes)} modes", f"{self.derived} functions derived" if self.derived else
                "numerics cached", f"{self.compiled} steppers compiled, {self.on_disk} on disk"]
        if self.not_compilable:
            what.append(f"not compiled: {', '.join(self.not_compilable)}")
        return f"{self.case} {self.law}: {'; '.join(what)} ({self.seconds:.1f} s)"


def _stored(d) -> int:
    entry = getattr(d, "entry", None)
    return len(entry.functions) if entry is not None else 0


def _derive_all(model, d) -> None:
    """Every derived function a reference solve may ask for (see module docstring)."""
    regions = [r.name for r in model.regions]
    d.h  # the switching functions
    calls = []
    for mode in model.mode_names:
        calls += [(name, (mode,)) for name in ("rhs", "jac", "guards", "guard_rates", "kink_values", "outputs")]
        calls += [("one_sided", (name, mode)) for name in ("guards", "guard_rates")]
    calls += [("reset", (s.name,)) for s in model.slidings]
    calls += [("region_reset", (r,)) for r in regions]
    for s in model.switching_names:
        for r in regions:
            for name in ("sigma", "sigma2"):
                calls += [(name, (s, r)), ("one_sided", (name, s, r))]
    for name, args in calls:
        getattr(d, name)(*args)


def warm_case(case, law: str, progress=None) -> Warmed:
    """Build the caches of ``law`` of ``case`` (a :class:`~nsfric.cases.Case`)."""
    t0 = time.perf_counter()
    out = Warmed(case.name, law)
    from .base import Case

    # as the reference solver reads it (Case.reference_problem): a case that builds its
    # problems itself has its functions derived in memory, its steppers compiled on disk
    try:
        model = case.numeric_model(law) if type(case).problem is Case.problem else case.problem(law).model
    except ValueError as e:  # no single hybrid model (a network of contacts, each with its own law)
        out.skipped = str(e).splitlines()[0] if str(e) else type(e).__name__
        model = None
    if not hasattr(model, "mode_names"):
        out.seconds = time.perf_counter() - t0
        return out
    out.modes = list(model.mode_names)
    d = model.derived()
    before = _stored(d)
    if progress:
        progress(f"warm-up: {case.name} {law}: derived numerics")
    _derive_all(model, d)
    out.derived = max(_stored(d) - before, 0)
    from ..solvers.dop853_source import marked

    try:
        from ..solvers.dop853_numba import NotCompilable, stepper
    except Exception:  # no numba, or its cached core failed to load
        out.not_compilable = ["no numba"]
        out.seconds = time.perf_counter() - t0
        return out
    n = len(model.state_names)
    for k, mode in enumerate(out.modes):
        if progress:
            progress(f"warm-up: {case.name} {law}: stepper {k + 1}/{len(out.modes)} ({mode})")
        if marked(d, mode):
            out.on_disk += 1
            continue
        try:
            stepper(d, mode, n)
            out.compiled += 1
        except NotCompilable:
            out.not_compilable.append(mode)
    out.seconds = time.perf_counter() - t0
    return out


def warm_up(cases=None, progress=None) -> list:
    """Build the caches of every law of ``cases`` (names; None: every registered case).

    Parameters
    ----------
    cases : list of str, optional
        Case names (see ``nsfric list``); an unknown name raises ValueError.
    progress : callable, optional
        Called with a message per step.

    Returns
    -------
    list of Warmed
        One record per case and law, in order.
    """
    from .base import CASES, get_case

    names = sorted(CASES) if cases is None else list(cases)
    chosen = [get_case(name) for name in names]  # every name checked before any work
    return [warm_case(case, law, progress) for case in chosen for law in case.laws]
