"""Laws declared once in SymPy, their derivations, and code generation."""
from .model import HybridModel, Param, Region, Sliding
from .laws import Law, NORMAL_LAWS, TANGENTIAL_LAWS, c_sds, coulomb_static, couple, d_sds, linear_spring_dashpot
from .derive import DerivedModel, derive
from .codegen import generate
from . import cundall_strack  # noqa: F401,E402  (registers the law in TANGENTIAL_LAWS)

__all__ = ["HybridModel", "Param", "Region", "Sliding", "Law", "TANGENTIAL_LAWS", "NORMAL_LAWS",
           "c_sds", "d_sds", "coulomb_static", "linear_spring_dashpot", "couple",
           "DerivedModel", "derive", "generate"]
