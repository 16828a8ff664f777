"""Exceptions shared by every layer (ground floor: imports no layer)."""


class ZenoError(RuntimeError):
    """Events accumulate (chattering or Zeno behaviour); the run is stopped."""


class BudgetError(RuntimeError):
    """A run exceeded one of its budgets (steps, memory, CPU time); the message names
    the option that sets it."""


class SolverFailure(RuntimeError):
    """A solver failed (step-size underflow, a library error, a non-finite state); the
    message says what to change."""


class Unresolved(RuntimeError):
    """A run ended without what was asked of it (the contact did not end before
    ``t_end``, no impact happened, the tolerance exceeds a state's scale); the message
    names the option to change."""


class WorkerDied(RuntimeError):
    """A worker process of a local pool died (killed, out of memory) more often than
    the run retries."""


class NonFiniteField(SolverFailure):
    """A mode's right-hand side, residual or guard evaluated to NaN or infinity at a
    state (a law's 0/0, the log of a negative, ``sp.nan``); the message names the law,
    the mode and the time."""


class CrossCheckFailed(RuntimeError):
    """Two independent reference solutions disagree by more than the tolerance derived
    from the tolerances they were solved with; nothing is written."""


class ReportError(RuntimeError):
    """One or more cases of ``nsfric report`` failed; the message names each with its
    error (the other cases completed and are cached; no page is written)."""
