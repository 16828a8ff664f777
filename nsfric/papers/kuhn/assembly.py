"""Rigid rotation of an assembly of Kuhn-Suzuki-Daouadji contacts: the objectivity of the
frame adjustments (eqs 22-23) seen in the Love-Weber stress (the paper's Fig 6, eq 24).

An :class:`Assembly` is a set of contacts of a generated random sphere packing: branch
vectors ``l`` (centre to centre), normal forces ``f_n = k_n zeta`` (eq 1) along
``n = l/|l|`` and tangential forces ``f_t`` in the tangent planes at various mobilisations
``|f_t|/(mu f_n)``, some at the limit.  :func:`rotate_assembly` turns it as a rigid body in
``N`` increments: branch vectors and normals are rotated exactly (as every DEM code
does), the tangential forces are carried by a frame adjustment of
:func:`nsfric.papers.kuhn.incremental.adjust_frame` alone (no relative movement, so Fig 1 changes
nothing else), vectorised over the contacts.  :func:`objectivity` restores the final
stress to the original frame (eq 24) and compares it with the unrotated one.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.spatial import cKDTree
from scipy.spatial.transform import Rotation

from nsfric.symbolic.codegen import generate
from nsfric.papers.kuhn import contact_law as K
from nsfric.papers.kuhn.incremental import FRAMES, KuhnContact, adjust_frame


@lru_cache(maxsize=1)
def _stress_formulas():
    l, f = sp.Matrix(sp.symbols("l1:4", real=True)), sp.Matrix(sp.symbols("f1:4", real=True))
    S, R = sp.Matrix(3, 3, sp.symbols("s1:10", real=True)), sp.Matrix(3, 3, sp.symbols("r1:10", real=True))
    return (generate(K.love_weber_dyad(l, f), (*l, *f), "numpy", cse=False, products=False, raw=True),
            generate(K.restore_stress(S, R), (*S, *R), "numpy", cse=False, products=False, raw=True))


def love_weber_stress(branch, force, volume):
    """Love-Weber stress ``sigma_ij = (1/V) sum_c l_i^c f_j^c``
    (:func:`nsfric.papers.kuhn.contact_law.love_weber_dyad` summed over the contacts)."""
    if not volume > 0:
        raise ValueError(f"volume must be > 0, got {volume}")
    dyad, _ = _stress_formulas()
    branch, force = np.atleast_2d(branch), np.atleast_2d(force)
    terms = np.asarray(dyad(*branch.T, *force.T), dtype=float)  # (3, 3, M)
    return terms.sum(axis=-1) / volume


def restore(sigma, R):
    """Eq 24: ``sigma`` after the rigid rotation ``R`` back in the original frame, ``R^T sigma R``."""
    _, back = _stress_formulas()
    return np.asarray(back(*np.ravel(sigma), *np.ravel(R)), dtype=float)


@dataclass
class Assembly:
    """Contacts of a sphere packing: ``branch`` (M, 3) centre-to-centre vectors, ``f_n``
    (M,) normal forces along ``n = branch/|branch|``, ``f_t`` (M, 3) tangential forces
    (``f_t . n = 0``, ``|f_t| <= mu f_n``), ``volume`` of the packing's box."""

    branch: np.ndarray
    f_n: np.ndarray
    f_t: np.ndarray
    volume: float

    @property
    def normal(self):
        return self.branch / np.linalg.norm(self.branch, axis=1, keepdims=True)

    def forces(self, f_t=None):
        """Contact forces ``f_n n + f_t``."""
        return self.f_n[:, None] * self.normal + (self.f_t if f_t is None else f_t)

    def stress(self):
        return love_weber_stress(self.branch, self.forces(), self.volume)


def random_packing(n_spheres=80, solid_fraction=0.66, sweeps=300, seed=0):
    """A random polydisperse sphere packing in a box (radii uniform in [0.4, 0.6]): centres
    placed at random, then overlaps relaxed by ``sweeps`` Jacobi sweeps of pairwise
    push-apart (half the overlap each, walls confine); at a nominal ``solid_fraction``
    above random close packing small overlaps remain -- those pairs are the contacts.

    Returns
    -------
    centres (n, 3), radii (n,), box side L, pairs (M, 2) of touching spheres
    """
    if not n_spheres >= 2:
        raise ValueError(f"n_spheres must be >= 2, got {n_spheres}")
    if not 0 < solid_fraction < 1:
        raise ValueError(f"solid_fraction must be in (0, 1), got {solid_fraction}")
    g = np.random.default_rng(seed)
    r = g.uniform(0.4, 0.6, n_spheres)
    L = float((4 / 3 * np.pi * np.sum(r ** 3) / solid_fraction) ** (1 / 3))
    x = g.uniform(0, L, (n_spheres, 3))
    for _ in range(sweeps):
        x = np.clip(x, r[:, None], L - r[:, None])
        pairs = np.array(sorted(cKDTree(x).query_pairs(2 * r.max())), dtype=int).reshape(-1, 2)
        i, j = pairs.T
        d = x[j] - x[i]
        dist = np.linalg.norm(d, axis=1)
        over = r[i] + r[j] - dist
        touch = over > 0
        push = (0.5 * over[touch] / dist[touch])[:, None] * d[touch]
        dx = np.zeros_like(x)
        np.add.at(dx, j[touch], push / 2)
        np.add.at(dx, i[touch], -push / 2)
        x = x + dx
    x = np.clip(x, r[:, None], L - r[:, None])
    pairs = np.array(sorted(cKDTree(x).query_pairs(2 * r.max())), dtype=int).reshape(-1, 2)
    i, j = pairs.T
    touch = r[i] + r[j] - np.linalg.norm(x[j] - x[i], axis=1) > 0
    return x, r, L, pairs[touch]


def random_assembly(contact: KuhnContact = KuhnContact(), n_spheres=100, at_limit=0.3, seed=0,
                    shear=(1.0, -0.5, -0.5)):
    """Contacts of :func:`random_packing` with ``f_n = k_n zeta`` from the overlaps and
    tangential forces at mobilisation 1 (a fraction ``at_limit`` of them) or uniform in
    (0, 1), directed along the tangential projection of ``diag(shear) n`` plus a random
    part: the friction resisting an axial compression along x1 (compression positive,
    the paper's triaxial state), so that it carries part of the deviatoric stress."""
    if not 0 <= at_limit <= 1:
        raise ValueError(f"at_limit must be in [0, 1], got {at_limit}")
    g = np.random.default_rng(seed + 1)
    x, r, L, pairs = random_packing(n_spheres, seed=seed)
    i, j = pairs.T
    branch = x[j] - x[i]
    n = branch / np.linalg.norm(branch, axis=1, keepdims=True)
    f_n = contact.k_n * (r[i] + r[j] - np.linalg.norm(branch, axis=1))
    t = n * np.asarray(shear, float) + 0.5 * g.normal(size=n.shape) * np.abs(np.asarray(shear)).max()
    t -= np.sum(t * n, axis=1, keepdims=True) * n
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    mob = np.where(g.random(len(n)) < at_limit, 1.0, g.uniform(0, 1, len(n)))
    return Assembly(branch, f_n, (mob * contact.mu * f_n)[:, None] * t, L ** 3)


def rotate_assembly(assembly: Assembly, frame, axis=(1.0, 0.0, 0.0), angle=np.pi / 2, N=1000):
    """Turn ``assembly`` rigidly by ``angle`` about ``axis`` in ``N`` equal increments,
    the tangential forces carried by ``frame`` (:data:`~nsfric.papers.kuhn.incremental.FRAMES`; both
    particles turn by the increment, ``dtheta_p = dtheta_q``).

    Returns
    -------
    (Assembly, R): the rotated assembly and the total rotation ``R``.
    """
    if frame not in FRAMES:
        raise ValueError(f"frame must be one of {FRAMES}, got {frame!r}")
    if not (isinstance(N, (int, np.integer)) and N >= 1):
        raise ValueError(f"N must be an integer >= 1, got {N!r}")
    a = np.asarray(axis, dtype=float)
    if a.shape != (3,) or not np.linalg.norm(a) > 0:
        raise ValueError(f"axis must be a nonzero 3-vector, got {axis!r}")
    dtheta = angle / N * a / np.linalg.norm(a)
    step = Rotation.from_rotvec(dtheta)
    branch, f_t = assembly.branch.copy(), assembly.f_t.copy()
    for _ in range(N):
        branch = step.apply(branch)
        n = branch / np.linalg.norm(branch, axis=1, keepdims=True)
        f_t = adjust_frame(f_t, n, dtheta, dtheta, frame)
    R = Rotation.from_rotvec(angle * a / np.linalg.norm(a)).as_matrix()
    return Assembly(branch, assembly.f_n.copy(), f_t, assembly.volume), R


def objectivity(assembly: Assembly, frames=("none", "projection", "projection+twirl"),
                axis=(1.0, 0.0, 0.0), angle=np.pi / 2, N=1000):
    """The Fig 6 experiment: for each frame adjustment the stress after the rotation,
    restored to the original frame (eq 24), and its relative Frobenius error against the
    unrotated stress.

    Returns
    -------
    dict: ``"original"`` -> (3, 3) stress; per frame ``(restored (3, 3), relative error)``.
    """
    sigma = assembly.stress()
    out = {"original": sigma}
    for frame in frames:
        turned, R = rotate_assembly(assembly, frame, axis, angle, N)
        back = restore(turned.stress(), R)
        out[frame] = (back, float(np.linalg.norm(back - sigma) / np.linalg.norm(sigma)))
    return out
