"""Two anomalies of LAMMPS's ``pair granular`` found with nsfric, as minimal input decks.

:data:`ANOMALIES` names each one (its style, the contrasting style, the case parameters
and the step); :func:`deck` writes its stand-alone LAMMPS input file (committed under
``docs/lammps-anomalies/``), in which ``-var tangential MODEL`` switches the tangential
sub-model and ``-var div N`` the step ``t_n/N``.  The causes, located in LAMMPS's
source, and the verdicts are in ``docs/lammps-anomalies.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .lammps import _case, bind, input_deck


@dataclass(frozen=True)
class Anomaly:
    """One anomaly: ``style`` against ``contrast`` at ``params``, step ``t_n/divisions``."""

    name: str
    style: str
    contrast: str
    params: dict = field(default_factory=dict)
    ratios: dict = field(default_factory=dict)
    divisions: int = 100
    summary: str = ""

    def t_n(self) -> float:
        """The normal contact duration of the linear dashpot [s] (eq 4)."""
        spec, values = bind(self.params, self.style)
        return _case().contact_t_end(spec.bind_law(), values) / 2


#: the anomalies, by name
ANOMALIES = {a.name: a for a in (
    Anomaly("classic-frictionless", "granular/hooke/linear_history_classic", "granular/hooke/linear_history",
            {"psi_i": 0.5, "mu": 10.0}, {"damp_ratio": 0.0}, 100,
            "tangential linear_history_classic springs k a xi instead of k xi (a = sqrt(R_eff delta), "
            "~1e-5 m): the contact is nearly frictionless"),
    Anomaly("mindlin-no-convergence", "granular/hooke/mindlin", "granular/hooke/mindlin/force",
            {"psi_i": 1.0}, {}, 100,
            "tangential mindlin stores the damping force in its displacement history at the cap and springs "
            "k a xi: psi_f does not converge as dt -> 0"),
)}


def get_anomaly(name: str) -> Anomaly:
    """The anomaly ``name``; ValueError listing the known ones otherwise."""
    try:
        return ANOMALIES[name]
    except (KeyError, TypeError):
        raise ValueError(f"anomaly must be one of {sorted(ANOMALIES)}, got {name!r}") from None


def deck(name: str) -> str:
    """The stand-alone LAMMPS input file of the anomaly ``name``: :func:`input_deck
    <nsfric.adapters.lammps.input_deck>` with the tangential sub-model and the step as
    the index variables ``tangential`` and ``div`` (``dt = t_n/div``)."""
    a = get_anomaly(name)
    t_n = a.t_n()
    spec = bind(a.params, a.style)[0]
    contrast = bind(a.params, a.contrast)[0]
    text = input_deck(a.params, t_n / a.divisions, a.style, **a.ratios)
    lines = text.splitlines()
    out = [f"# LAMMPS anomaly '{a.name}' (found with nsfric; docs/lammps-anomalies.md): {a.summary}.",
           f"# Run: lmp -in {a.name}.in [-var tangential {contrast.tangential}] [-var div {a.divisions * 256}]",
           f"variable tangential index {spec.tangential}", f"variable div index {a.divisions}"]
    for line in lines:
        if line.startswith("pair_coeff"):
            line = line.replace(f" tangential {spec.tangential} ", " tangential ${tangential} ")
        elif line.startswith("timestep"):
            line = f"variable dt equal {t_n!r}/${{div}}\ntimestep ${{dt}}"
        elif line.startswith("run ") and line != "run 0 post no":
            line = "variable steps equal 4*${div}\nrun ${steps}"
        elif line.startswith("# nsfric:"):
            line = line.split(", dt =")[0] + ", dt = t_n/${div}"
        out.append(line)
    return "\n".join(out) + "\n"
