"""Figure helpers (matplotlib, Agg backend); figures are saved atomically."""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .io import atomic_files  # noqa: E402


def save(fig, path: str):
    """Save ``fig`` to ``path`` (PNG) atomically and close it."""
    with atomic_files(path) as (tmp,):
        fig.savefig(tmp, format=os.path.splitext(path)[1][1:] or "png", dpi=130, bbox_inches="tight")
    plt.close(fig)
    return path


def figure(nrows=1, ncols=1, **kw):
    kw.setdefault("figsize", (6.4, 2.2 * nrows + 0.6))
    kw.setdefault("squeeze", False)
    return plt.subplots(nrows, ncols, **kw)
