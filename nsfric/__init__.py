"""nsfric: numerically exact references for nonsmooth friction contact laws of DEM.

The public API, by layer (``import nsfric`` is all a user needs):

* laws, declared once in SymPy: :class:`TangentialLaw` (of the tangential velocity, the
  normal force and its own history states) and :class:`NormalLaw` (of the overlap and
  its rate), e.g. :func:`c_sds`, :func:`d_sds`, :func:`coulomb_static`,
  :func:`cundall_strack`, :func:`linear_spring_dashpot`; :func:`register_law`,
  :func:`get_law`;
* kinematics (:class:`Slider`, :class:`SlopeBlock`, :class:`PlanarDiscs`,
  :class:`PrescribedContact`) and :func:`couple`, which makes the :class:`HybridModel`
  of a kinematics with a normal and a tangential law; :func:`derive` its numerics;
* reference solvers: :func:`get_solver` on a :class:`Problem` gives a :class:`Solution`;
  :class:`ZenoError` when events accumulate;
* discrete schemes and studies: :func:`simulate`, :func:`converge`, :func:`sweep`
  (parameter sweeps, locally or on a Dask cluster), :func:`verify` (another code's
  results against the exact reference); :class:`Scheme` (the contract of a discrete
  scheme), :class:`ExplicitRK` (a Runge-Kutta scheme as its Butcher tableau) and
  :func:`register_scheme` (which also registers its event-aware variant ``NAME-event``);
* contact conventions (a DEM code's choices that a law leaves open: lever arm, cap,
  history update) as named presets: :class:`Convention`, :func:`register_convention`,
  :func:`get_convention`;
* cases (the papers' systems): :class:`Case`, :func:`register_case`, :func:`get_case`;
  :class:`ProblemFactory`, the protocol of what the schemes and studies read of a case.

Registries (name -> object, pluggable): ``TANGENTIAL_LAWS``, ``NORMAL_LAWS`` (law
factories), ``REFERENCE_SOLVERS`` (solver classes), ``SCHEMES`` (scheme objects),
``CONVENTIONS`` (conventions), ``CASES`` (case objects; also filled from the entry-point group ``nsfric.cases``, see
:mod:`nsfric.plugins`).  ``__version__`` is the package version.
"""
from ._version import __version__  # noqa: E402,F401

import importlib

#: public name -> the subpackage that defines it.  ``import nsfric`` loads none of them
#: (SymPy, SciPy and Assimulo load on first use, so ``nsfric list`` starts in a fraction
#: of a second); ``nsfric.couple`` or ``from nsfric import couple`` imports ``nsfric.symbolic``
_LAZY = {
    **dict.fromkeys(("NORMAL_LAWS", "TANGENTIAL_LAWS", "Branch", "HybridModel", "Kinematics", "LawSliding",
                     "NormalLaw", "Param", "PlanarDiscs", "PrescribedContact", "Slider", "SlopeBlock",
                     "TangentialLaw", "c_sds", "coulomb_static", "couple", "cundall_strack", "d_sds", "derive",
                     "get_law", "linear_spring_dashpot", "register_law", "registered_laws"), "symbolic"),
    **dict.fromkeys(("REFERENCE_SOLVERS", "Problem", "Solution", "ZenoError", "get_solver"), "solvers"),
    **dict.fromkeys(("CASES", "Case", "converge", "get_case", "register_case", "simulate", "sweep",
                     "verify"), "cases"),
    **dict.fromkeys(("SCHEMES", "ExplicitRK", "Scheme", "register_scheme"), "schemes"),
    **dict.fromkeys(("CONVENTIONS", "Convention", "get_convention", "register_convention"), "conventions"),
    "ProblemFactory": "problems",
}


def __getattr__(name):
    """Import the subpackage that defines ``name`` on first use (PEP 562)."""
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'nsfric' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later reads skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


#: names that are data, documented in the module docstring above
REGISTRIES = ("TANGENTIAL_LAWS", "NORMAL_LAWS", "REFERENCE_SOLVERS", "SCHEMES", "CASES", "CONVENTIONS",
              "__version__")

__all__ = [
    # laws, kinematics and models
    "TangentialLaw", "NormalLaw", "Branch", "LawSliding", "Param", "register_law", "get_law",
    "registered_laws", "c_sds", "d_sds", "coulomb_static", "cundall_strack", "linear_spring_dashpot",
    "Kinematics", "Slider", "SlopeBlock", "PlanarDiscs", "PrescribedContact", "couple",
    "HybridModel", "derive", "TANGENTIAL_LAWS", "NORMAL_LAWS",
    # reference solvers
    "get_solver", "REFERENCE_SOLVERS", "Problem", "Solution", "ZenoError",
    # schemes and studies
    "simulate", "converge", "sweep", "verify", "SCHEMES", "Scheme", "ExplicitRK", "register_scheme",
    # contact conventions (the choices a DEM code makes that a law leaves open)
    "Convention", "CONVENTIONS", "register_convention", "get_convention",
    # cases
    "Case", "register_case", "get_case", "CASES", "ProblemFactory",
    "__version__",
]
