"""
A parameter sweep on a Dask cluster
===================================

:func:`nsfric.sweep` evaluates a case's observables over a grid of parameters on any
executor: this process, local worker processes, or a Dask ``distributed.Client``
(``pip install "nsfric[dask]"``; ``nsfric sweep --dask-local N`` or ``--scheduler
ADDRESS`` on the command line).  The result is an xarray Dataset with the labelled grid,
error estimates and provenance.

Here: the normal restitution ``e_n`` of the linear spring-dashpot (Schäfer, Dippel & Wolf
1996 §2, eqs 2-5, case ``normal-impact``) against the damping ``gamma_n``, on a local
Dask cluster of two worker processes.  The closed form (eq 3) is
``e_n = exp(-beta pi / omega)`` with ``beta = gamma_n / (2 m_eff)`` and
``omega = sqrt(k_n/m_eff - beta^2)``: the contact ends at zero overlap after half a
damped period.  The last line printed is the largest relative error of the sweep.
"""
import matplotlib.pyplot as plt
import numpy as np
from dask.distributed import Client, LocalCluster

import nsfric

if __name__ == "__main__":          # Dask's worker processes import this file again
    k_n, m_eff = 7.32e6, 7.4e-5      # the case's defaults (nsfric list normal-impact)
    gamma_n = np.linspace(0.0, 20.0, 11)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        ds = nsfric.sweep("normal-impact", law="linear-dashpot", grid={"gamma_n": gamma_n},
                          observables=["e_n"], executor=client, cache_dir=None)
    beta = gamma_n / (2 * m_eff)
    exact = np.exp(-beta * np.pi / np.sqrt(k_n / m_eff - beta**2))
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.plot(ds["gamma_n"], ds["e_n"], "o", label="nsfric.sweep on Dask (exact references)")
    ax.plot(gamma_n, exact, "k-", lw=1, label="closed form, eq 3")
    ax.set_xlabel(r"$\gamma_n$ [kg/s]"); ax.set_ylabel(r"$e_n$"); ax.legend(); fig.tight_layout()
    print(f"max relative error against the closed form: {np.max(np.abs(ds['e_n'].values / exact - 1)):.3e}")
