"""``kuhn-contact``: Kuhn, Suzuki & Daouadji's 3D linear-frictional contact along
prescribed movements -- Fig 4 of the paper, the convergence of the paper's algorithm
and of add-and-project against the exact reference, and a single-contact rigid rotation
(the objectivity of eqs 22-23).  Tables and figures: :mod:`.kuhn_contact_figures`;
schemes and reference: :mod:`nsfric.papers.kuhn.incremental`.
"""
from __future__ import annotations

from nsfric.cases.base import Case


class KuhnContactCase(Case):
    """Kuhn, Suzuki & Daouadji's 3D linear-frictional contact under prescribed movements."""

    name = "kuhn-contact"
    reference = "Kuhn, Suzuki & Daouadji, 3D linear-frictional contact, Fig 1, eqs 7-23, Fig 4"
    laws = ("linear-frictional",)
    default_law = "linear-frictional"
    t_end = 1.0

    def build(self, law):
        raise ValueError("kuhn-contact is a prescribed movement without a HybridModel; use "
                         "nsfric.papers.kuhn.incremental (run_kuhn, run_conventional, reference)")

    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        """Fig 4 (``fig4*.csv``, ``fig4.png``), ``convergence*.csv`` and ``convergence.png``,
        ``refinements.csv``, ``rotation.csv``, ``objectivity.csv`` and ``objectivity.png``
        (Fig 6), ``orders.csv``, ``orders-errors.csv`` and ``orders.png`` (curved
        movements, with the C-SDS as fifth rule (d)), ``csds-straight.csv`` (the C-SDS along
        straight movements), ``table.csv`` (eq 18 by table), the parts on ``jobs`` local
        processes; returns ``{"written": [paths]}``."""
        from nsfric.papers.kuhn.kuhn_contact_figures import run

        return run(self, out_dir, progress, jobs=jobs)
