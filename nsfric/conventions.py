"""Contact conventions: the implementation choices a DEM code makes that a paper's law
leaves open (lever arm, where the Coulomb cap applies, damping inside or outside it,
history frame update), as named, documented presets of a case's parameters.

A :class:`Convention` names a code's style (``lammps-gran-hooke-history``) and the case
parameters and laws that make nsfric's exact reference follow that style; ``nsfric
verify --convention NAME`` and :func:`nsfric.verify` measure a code against the
reference under it.  Presets are registered with :func:`register_convention` or through
the entry-point group ``nsfric.conventions`` (a :class:`Convention` instance).

Ground floor: imports no layer.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .plugins import GROUPS, LazyRegistry, named_adder, register_named


@dataclass(frozen=True)
class Convention:
    """A named set of implementation choices, as values of one case's parameters.

    Parameters
    ----------
    name : str
        Registry name, after the code's style (``lammps-gran-hooke-history``).
    case : str
        The registered case it applies to.
    params : dict
        Case-parameter values that select the choices (e.g. the lever arm).
    laws : tuple of str
        The case's laws the code's style is a discretisation of (first: the one it
        converges to, where known).
    code : str
        The code and its source (repository and path) the choices are read from.
    doc : str
        What each choice is, in words.
    """

    name: str
    case: str
    params: dict = field(default_factory=dict)
    laws: tuple = ()
    code: str = ""
    doc: str = ""


#: name -> :class:`Convention` (registered here, completed by the entry-point group
#: ``nsfric.conventions``)
CONVENTIONS: dict = LazyRegistry(GROUPS["conventions"], named_adder(Convention, "convention"))


def register_convention(convention: Convention) -> Convention:
    """Add ``convention`` to :data:`CONVENTIONS` under its name; returns it."""
    return register_named(CONVENTIONS, convention, Convention, "register_convention")


def get_convention(name: str) -> Convention:
    """The convention ``name``; ValueError listing the known ones otherwise."""
    try:
        return CONVENTIONS.find(name)
    except KeyError:
        raise ValueError(f"unknown convention {name!r}; choose one of {sorted(CONVENTIONS)}") from None
