"""Studies over problems: convergence (error against step, observed order with its
uncertainty) and work-precision; see :func:`converge`."""
from .convergence import (ConvergenceResult, OrderFit, converge, default_ladder, discrete_errors,
                          fit_order, reference_for, run_one)

__all__ = ["ConvergenceResult", "OrderFit", "converge", "default_ladder", "discrete_errors",
           "fit_order", "reference_for", "run_one"]
