"""Contact conventions of DEM codes on the oblique impact (case ``oblique-impact``), as
:class:`~nsfric.conventions.Convention` presets of the case's parameters.

Registered through the entry-point group ``nsfric.conventions`` (``pyproject.toml``), so
that :func:`nsfric.conventions.get_convention` finds them without importing this paper
first.  Parameter translators from a code's input to the case's parameters live with the
code's adapter (:func:`nsfric.adapters.lammps.from_lammps_hooke`).
"""
from __future__ import annotations

from nsfric.conventions import Convention

#: nsfric's own convention: the lever arm to the common contact point, ``R_i - xi/2``
CONTACT_POINT = Convention(
    name="nsfric-contact-point", case="oblique-impact", params={"arm_overlap": 1.0},
    laws=(), code="nsfric (the case's defaults)",
    doc="Both forces act at the common contact point c = r_1 + l_1 n = r_2 - l_2 n, midway through the "
        "overlap: lever arms l_i = R_i - xi/2 for the contact-point velocity and the torque; momentum "
        "and angular momentum are conserved exactly.")

#: LAMMPS ``pair_style gran/hooke/history``: lever arm the radius, the D-SDS
LAMMPS_GRAN_HOOKE_HISTORY = Convention(
    name="lammps-gran-hooke-history", case="oblique-impact", params={"arm_overlap": 0.0},
    laws=("d-sds",),
    code="LAMMPS pair_style gran/hooke/history (github.com/lammps/lammps, "
         "src/GRANULAR/pair_gran_hooke_history.cpp, PairGranHookeHistory::compute)",
    doc="Lever arm the radius R_i for the contact-point velocity (wr = (radi omega_i + radj omega_j)/r) "
        "and the torque (-radi tor): arm_overlap = 0.  Tangential force: the shear history, projected "
        "onto the tangent plane each step, with a spring kt and a dashpot meff gammat, capped at "
        "xmu |F_n| of the total normal force (damping included) with the history reset to the cap: "
        "Führer et al.'s D-SDS (law d-sds).  Damping per unit effective mass: gamma_t = meff gammat, "
        "gamma_n = meff gamman (translator: nsfric.adapters.lammps.from_lammps_hooke).")
