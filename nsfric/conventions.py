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

#: the implementation choices a convention names, each with its allowed values (what
#: the code does, in words); a convention states those that apply to its code
CHOICES = {
    "lever_arm": ("R", "R - delta/2", "R - delta", "mixed: R for the velocity, R - delta/2 for the torque"),
    "coulomb_cap": ("total force", "elastic force", "elastic force, then the total"),
    "damping": ("inside the cap", "dropped on slip", "trimmed to the cap"),
    "history_frame": ("scalar along a fixed tangent (planar)", "projection", "projection and rescale",
                      "exact rotation"),
    "contact_end": ("zero overlap", "zero normal force"),
}


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
    choices : dict
        The implementation choices by name (:data:`CHOICES`: lever arm, where the Coulomb
        cap applies, the damping with respect to it, the history frame update, where the
        contact ends), each one of its allowed values; ValueError otherwise.
    """

    name: str
    case: str
    params: dict = field(default_factory=dict)
    laws: tuple = ()
    code: str = ""
    doc: str = ""
    choices: dict = field(default_factory=dict)

    def __post_init__(self):
        for key, value in self.choices.items():
            if key not in CHOICES:
                raise ValueError(f"choices: unknown choice {key!r} of convention {self.name!r}; the choices are "
                                 f"{sorted(CHOICES)}")
            if value not in CHOICES[key]:
                raise ValueError(f"choices: {key} = {value!r} of convention {self.name!r} is not one of "
                                 f"{list(CHOICES[key])}")

    def describe(self) -> str:
        """One line: the case, the choices and the laws."""
        parts = [f"case {self.case}"] + [f"{k.replace('_', ' ')}: {v}" for k, v in self.choices.items()]
        if self.laws:
            parts.append("laws: " + ", ".join(self.laws))
        return "; ".join(parts)


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
