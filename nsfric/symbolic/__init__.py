"""Laws declared once in SymPy, kinematics, their coupling, derivations and code generation.

The names below are resolved on first use (PEP 562), so importing a SymPy-free module of
this package (:mod:`~nsfric.symbolic.params`, :mod:`~nsfric.symbolic.frozen`,
:mod:`~nsfric.symbolic.numcache`) does not import SymPy.
"""
import importlib
import sys
import types

_EXPORTS = {
    **dict.fromkeys(("HybridModel", "Region", "Sliding"), "model"),
    "Param": "params",
    **dict.fromkeys(("Branch", "Law", "LawSliding", "NORMAL_LAWS", "NormalLaw", "TANGENTIAL_LAWS", "TangentialLaw",
                     "get_law", "load_entry_points", "register_law", "registered_laws"), "laws"),
    **dict.fromkeys(("c_sds", "c_sds_2d", "coulomb_static", "cundall_strack", "d_sds", "spring_dashpot_slider"),
                    "tangential"),
    "linear_spring_dashpot": "normal",
    **dict.fromkeys(("Kinematics", "PlanarDiscs", "PrescribedContact", "Slider", "SlopeBlock"), "kinematics"),
    "couple": "coupling",
    **dict.fromkeys(("DerivedModel", "derive"), "derive"),
    "generate": "codegen",
}

__all__ = ["HybridModel", "Param", "Region", "Sliding", "Branch", "Law", "LawSliding", "NormalLaw",
           "TangentialLaw", "TANGENTIAL_LAWS", "NORMAL_LAWS", "get_law", "register_law", "registered_laws",
           "load_entry_points", "c_sds", "c_sds_2d", "d_sds", "coulomb_static", "cundall_strack",
           "spring_dashpot_slider", "linear_spring_dashpot", "Kinematics", "Slider", "SlopeBlock",
           "PlanarDiscs", "PrescribedContact", "couple", "DerivedModel", "derive", "generate"]


def __getattr__(name):
    """An exported name (imported from its module on first use) or a submodule."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    elif not name.startswith("__"):
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """This package's module type: ``derive`` names the function, as the eager
    ``from .derive import derive`` of earlier versions bound it, also after the import
    system sets the submodule ``derive`` as an attribute."""

    def __setattr__(self, name, value):
        if name == "derive" and isinstance(value, types.ModuleType) and hasattr(value, "derive"):
            value = value.derive
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
