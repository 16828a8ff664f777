"""nsfric: numerically exact references for nonsmooth friction contact laws of DEM."""
__version__ = "0.1.0"

from .symbolic import TANGENTIAL_LAWS, NORMAL_LAWS, HybridModel, derive
from .symbolic import (Branch, LawSliding, NormalLaw, Param, TangentialLaw, couple, get_law, register_law,
                       registered_laws, Kinematics, Slider, SlopeBlock, PlanarDiscs, PrescribedContact)
from .solvers import REFERENCE_SOLVERS, Solution, get_solver, ZenoError
from .cases import CASES, Case, get_case, register_case, simulate, converge
from .schemes import SCHEMES

__all__ = ["TANGENTIAL_LAWS", "NORMAL_LAWS", "HybridModel", "derive", "REFERENCE_SOLVERS",
           "Solution", "get_solver", "ZenoError", "CASES", "get_case", "SCHEMES", "simulate", "converge", "__version__",
           "Branch", "LawSliding", "NormalLaw", "Param", "TangentialLaw", "couple", "get_law", "register_law",
           "registered_laws", "Kinematics", "Slider", "SlopeBlock", "PlanarDiscs", "PrescribedContact",
           "Case", "register_case"]
