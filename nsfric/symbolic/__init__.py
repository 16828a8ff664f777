"""Laws declared once in SymPy, kinematics, their coupling, derivations and code generation."""
from .model import HybridModel, Param, Region, Sliding
from .laws import (Branch, Law, LawSliding, NORMAL_LAWS, NormalLaw, TANGENTIAL_LAWS, TangentialLaw, get_law,
                   load_entry_points, register_law, registered_laws)
from .tangential import c_sds, c_sds_2d, coulomb_static, cundall_strack, d_sds, spring_dashpot_slider
from .normal import linear_spring_dashpot
from .kinematics import Kinematics, PlanarDiscs, PrescribedContact, Slider, SlopeBlock
from .coupling import couple
from .derive import DerivedModel, derive
from .codegen import generate

__all__ = ["HybridModel", "Param", "Region", "Sliding", "Branch", "Law", "LawSliding", "NormalLaw",
           "TangentialLaw", "TANGENTIAL_LAWS", "NORMAL_LAWS", "get_law", "register_law", "registered_laws",
           "load_entry_points", "c_sds", "c_sds_2d", "d_sds", "coulomb_static", "cundall_strack",
           "spring_dashpot_slider", "linear_spring_dashpot", "Kinematics", "Slider", "SlopeBlock",
           "PlanarDiscs", "PrescribedContact", "couple", "DerivedModel", "derive", "generate"]
