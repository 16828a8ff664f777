"""Studies over problems: convergence (error against step, observed order with its
uncertainty) and work-precision, see :func:`converge`; parameter sweeps over a grid,
see :func:`sweep`; another code's results against the exact reference, see
:mod:`nsfric.study.verify` (:class:`VerifyResult`)."""
from .convergence import (ConvergenceResult, OrderFit, converge, default_ladder, discrete_errors,
                          fit_order, reference_for, run_one)
from .results import write_sweep
from .sweep import sweep
from .verify_result import VerifyPoint, VerifyResult

__all__ = ["ConvergenceResult", "OrderFit", "converge", "default_ladder", "discrete_errors",
           "fit_order", "reference_for", "run_one", "sweep", "write_sweep", "VerifyPoint",
           "VerifyResult"]
