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
    choices={"lever_arm": "R - delta/2", "coulomb_cap": "total force", "damping": "inside the cap",
             "history_frame": "scalar along a fixed tangent (planar)", "contact_end": "zero overlap"},
    doc="Both forces act at the common contact point c = r_1 + l_1 n = r_2 - l_2 n, midway through the "
        "overlap: lever arms l_i = R_i - xi/2 for the contact-point velocity and the torque; momentum "
        "and angular momentum are conserved exactly.")

#: LAMMPS ``pair_style gran/hooke/history``: lever arm the radius, the D-SDS
LAMMPS_GRAN_HOOKE_HISTORY = Convention(
    name="lammps-gran-hooke-history", case="oblique-impact", params={"arm_overlap": 0.0},
    laws=("d-sds",),
    choices={"lever_arm": "R", "coulomb_cap": "total force", "damping": "inside the cap",
             "history_frame": "projection", "contact_end": "zero overlap"},
    code="LAMMPS pair_style gran/hooke/history (github.com/lammps/lammps, "
         "src/GRANULAR/pair_gran_hooke_history.cpp, PairGranHookeHistory::compute)",
    doc="Lever arm the radius R_i for the contact-point velocity (wr = (radi omega_i + radj omega_j)/r) "
        "and the torque (-radi tor): arm_overlap = 0.  Tangential force: the shear history, projected "
        "onto the tangent plane each step, with a spring kt and a dashpot meff gammat, capped at "
        "xmu |F_n| of the total normal force (damping included) with the history reset to the cap: "
        "Führer et al.'s D-SDS (law d-sds).  Damping per unit effective mass: gamma_t = meff gammat, "
        "gamma_n = meff gamman (translator: nsfric.adapters.lammps.from_lammps_hooke).")

#: LAMMPS ``pair_style granular`` with ``tangential linear_history``: mixed lever arms, the D-SDS
LAMMPS_GRANULAR_LINEAR_HISTORY = Convention(
    name="lammps-granular-linear-history", case="oblique-impact",
    params={"arm_overlap": 0.0, "torque_arm_shift": 1.0}, laws=("d-sds",),
    choices={"lever_arm": "mixed: R for the velocity, R - delta/2 for the torque", "coulomb_cap": "total force",
             "damping": "inside the cap", "history_frame": "projection and rescale", "contact_end": "zero overlap"},
    code="LAMMPS pair_style granular, tangential linear_history (github.com/lammps/lammps, "
         "src/GRANULAR/granular_model.cpp, GranularModel::calculate_forces; "
         "src/GRANULAR/gran_sub_mod_tangential.cpp, GranSubModTangentialLinearHistory::calculate_forces)",
    doc="Mixed lever arms: the radius R_i for the contact-point velocity (wr = radi omega_i + radj omega_j: "
        "arm_overlap = 0) and R_i - delta/2 for the torque (dist_to_contact = radi - 0.5 delta: "
        "torque_arm_shift = 1), arms that are not work-conjugate.  Tangential force: the history projected "
        "and rescaled onto the tangent plane, a spring kt and a dashpot xt times the normal damping "
        "prefactor, capped at mu |F_n| of the total normal force with the history reset to the cap: the "
        "D-SDS (law d-sds).  Translator: nsfric.adapters.lammps_styles.from_lammps_granular.")
