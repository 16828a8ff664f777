"""``kuhn-contact``, the Fig 6 analogue: a random sphere assembly turned rigidly by 90 deg
about x1 in 1000 increments, its Love-Weber stress restored to the original frame (eq 24)
for each frame adjustment of the tangential forces (:mod:`nsfric.papers.kuhn.assembly`).

**Not the paper's stress state.**  The contact forces are generated (random mobilisations),
not the result of loading: the assembly is not in equilibrium, its stress is not symmetric
and its deviator ratio ``q/p`` is about 0.12, where the paper's sheared assembly has about
0.8.  It tests the frame adjustments over many contact orientations; the errors of the
restored stress are not the paper's numbers (:func:`stress_state`, in the sidecar and the
figure's title).
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.papers.kuhn.assembly import objectivity, random_assembly

#: the rows of objectivity.csv: the issue's three, then LAMMPS' rule and the exact rotation
ADJUSTMENTS = ("none", "projection", "projection+twirl", "projection+rescale", "rotate")
#: the experiment: 90 deg about x1 in N increments (Fig 6); also run with N/2 for the order
ROTATION = {"axis": (1.0, 0.0, 0.0), "angle": np.pi / 2, "N": 1000}


def objectivity_table(assembly=None, adjustments=ADJUSTMENTS, rotation=ROTATION):
    """Relative Frobenius error of the restored stress for each adjustment, with ``N`` and
    ``N/2`` increments; returns ``(columns, tensors)`` (``tensors``: original and restored
    stresses at ``N``)."""
    a = random_assembly() if assembly is None else assembly
    res = objectivity(a, adjustments, **rotation)
    res2 = objectivity(a, adjustments, **{**rotation, "N": rotation["N"] // 2})
    cols = {"adjustment": np.array(adjustments),
            "stress_error": np.array([res[k][1] for k in adjustments]),
            "stress_error_half_N": np.array([res2[k][1] for k in adjustments])}
    cols["error_ratio"] = cols["stress_error_half_N"] / cols["stress_error"]
    tensors = {"original": res["original"], **{k: res[k][0] for k in adjustments}}
    return cols, tensors, len(a.f_n)


def stress_state(sigma) -> dict:
    """How far a stress is from the paper's (Fig 6): ``asymmetry`` ``|sigma - sigma^T|/|sigma|``
    (Frobenius; 0 in equilibrium) and the deviator ratio ``q/p`` of its symmetric part
    (``p = tr/3``, ``q = sqrt(3/2 s:s)``)."""
    sigma = np.asarray(sigma, dtype=float)
    sym = (sigma + sigma.T) / 2
    p = np.trace(sym) / 3
    dev = sym - p * np.eye(3)
    return {"asymmetry": float(np.linalg.norm(sigma - sigma.T) / np.linalg.norm(sigma)),
            "q_over_p": float(np.sqrt(1.5 * np.sum(dev * dev)) / p)}


def objectivity_figure(tensors, errors, path, shown=("none", "projection", "projection+twirl")):
    """Heat maps of the original stress and the restored ones (top), and of the restored
    minus the original (bottom), the 9 components written in each cell."""
    from nsfric.plotting import figure, save

    names = ("original", *shown)
    fig, axes = figure(2, len(names), figsize=(3.2 * len(names), 6.2))
    sig = tensors["original"]
    vmax = max(np.abs(tensors[k]).max() for k in names)
    dmax = max(np.abs(tensors[k] - sig).max() for k in shown)
    for col, name in enumerate(names):
        for row, (M, lim, cmap) in enumerate(((tensors[name], vmax, "RdBu_r"),
                                               (tensors[name] - sig, dmax, "PuOr_r"))):
            ax = axes[row, col]
            if row == 1 and name == "original":
                ax.axis("off")
                ax.text(0.5, 0.5, "bottom row:\nrestored - original\n(common colour scale)", ha="center",
                        va="center", fontsize=9, transform=ax.transAxes)
                continue
            ax.imshow(M, cmap=cmap, vmin=-lim, vmax=lim)
            for i in range(3):
                for j in range(3):
                    ax.text(j, i, f"{M[i, j]:.2e}" if row else f"{M[i, j]:.4f}", ha="center", va="center",
                            fontsize=7)
            ax.set_xticks(range(3), ["1", "2", "3"])
            ax.set_yticks(range(3), ["1", "2", "3"])
            if row == 0:
                title = "(a) original stress" if name == "original" else \
                    f"restored, {name}\nrelative error {errors[name]:.2g}"
                ax.set_title(title, fontsize=9)
    st = stress_state(sig)
    fig.suptitle("Fig 6 analogue: Love-Weber stress after a rigid 90 deg rotation about x1 (1000 increments), "
                 "restored by eq 24\nnot the paper's assembly: generated forces, not in equilibrium (asymmetry "
                 f"{st['asymmetry']:.2g}), q/p = {st['q_over_p']:.2g} (the paper's: about 0.8)", fontsize=10)
    return save(fig, path)


def write(out_dir, meta, progress=None):
    """``objectivity.csv`` (+ JSON) and ``objectivity.png``; returns the written paths."""
    from nsfric.io import write_csv_with_sidecar

    if progress:
        progress("kuhn-contact: rigid rotation of an assembly (Fig 6)")
    cols, tensors, n_contacts = objectivity_table()
    path = os.path.join(out_dir, "objectivity.csv")
    side = {**meta, "contacts": n_contacts, "rotation": "90 deg about x1", "N": ROTATION["N"],
            "stress_original": tensors["original"].tolist(),
            "stress_state": {**stress_state(tensors["original"]), "paper_q_over_p": "about 0.8 (Fig 6)",
                             "note": "generated contact forces, not in equilibrium: not the paper's stress state"},
            "stress_restored": {k: tensors[k].tolist() for k in ADJUSTMENTS}}
    written = [path, write_csv_with_sidecar(path, cols, side)]
    errors = dict(zip(cols["adjustment"], cols["stress_error"]))
    written.append(objectivity_figure(tensors, errors, os.path.join(out_dir, "objectivity.png")))
    return written
