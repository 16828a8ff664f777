"""Block on an inclined slope, Krengel & Matuttis §4 (Table 1, Figs 2-5).

A square block of side ``l`` and density ``rho`` (2D: mass per unit depth
``m = rho l^2``) on a plane inclined by ``alpha``, placed parallel to the slope without
overlap, ``g = 9.81 m/s^2``.  Coordinates of the block's contact face: ``x`` along the
slope (downhill positive), ``y`` normal to it (positive away from the plane, the overlap
is ``-y``).  **Translation only**: the block stays parallel to the slope, so the
overlap area is ``A = l (-y)`` and the effective tangential mass is ``m`` (eq 21
without the rotational terms).

Normal contact, a penalty spring-dashpot: elastic force ``Y A / l = -Y y`` and the
damping of eq 18, ``-D sqrt(Y m) dA/dt / l = -D sqrt(Y m) vy`` with ``D = gamma`` of
Table 1.  The contact is kept bilateral: for the parameters of the paper the normal
force ``F_n`` never becomes negative (``D = 1.5`` is a damping ratio 0.75; without
damping the block touches ``y = 0`` with ``vy = 0`` once per normal period and
``F_n >= 0`` throughout) -- the tests assert ``F_n >= 0`` along the references.

Tangential contact (laws):

* ``coulomb`` -- dry Coulomb friction with exact static friction (K-M eqs 3-14): a
  Filippov sliding mode on ``g = vx`` with the state-dependent bound ``mu F_n``.  This
  is the paper's "DAE" friction, computed numerically exactly.
* ``cundall-strack`` -- the spring with cut-off of eqs 19-20 (law
  :func:`nsfric.symbolic.tangential.cundall_strack`), ``k_t = 2/7 Y``,
  ``gamma_t = 1/4 sqrt(k_t m_eff,tan)`` (Table 1).

``damping`` (0 or 1, any value in [0, 1] is accepted) switches both the normal damping
``D`` and the tangential ``gamma_t`` on or off ("with and without damping", Figs 2-3);
``gt_ratio = 0`` removes only the tangential damping (the pure Cundall-Strack spring on
a damped normal contact, which oscillates about the equilibrium with amplitude
``m g sin(alpha)/k_t``).
``dt`` is the time step of the discrete schemes (Table 1: 5e-6 s); references ignore it.

Figures (``nsfric run slope-block``): :mod:`nsfric.papers.krengel_matuttis.slope_block_figures`; Table 1
with its derived values: :mod:`nsfric.papers.krengel_matuttis.slope_block_table`.  The rotating block:
:mod:`nsfric.papers.krengel_matuttis.slope_block_rotating`.
"""
from __future__ import annotations

from functools import lru_cache


from nsfric.symbolic.codegen import generate
from nsfric.papers.krengel_matuttis import systems
from nsfric.papers.krengel_matuttis.systems import (  # noqa: F401  (re-exported: the figures and tests use them)
    ALPHA, D, F_NORMAL, G, GAMMA_T, K_T, MASS, Y, alpha, damping, dt, gt_ratio, kt_ratio, l, rho,
    vx, vx0, vy, x, y, y0)
from nsfric.cases.base import Case


@lru_cache(maxsize=8)
def _number_functions(name: str) -> dict:
    """``{quantity: (function, parameter names, expression text)}`` of
    :func:`systems.slope_numbers` (generated code kept in the disk cache of derived
    numerics: the derivation takes SymPy a second)."""
    from nsfric.symbolic.numcache import cached_lambdas, class_files

    def build():
        out = {}
        for k, e in systems.slope_numbers(name).items():
            args = sorted(s.name for s in e.free_symbols)
            out[k] = (generate(e, args, "math", cse=False, products=False, raw=True), args, str(e))
        return out
    return cached_lambdas(f"{name}/table-1", build, class_files(SlopeBlock))


def number_texts(rotating: bool = False) -> dict:
    """``{quantity: str(expression)}`` of :func:`systems.slope_numbers` (Table 1's column)."""
    return {k: t for k, (_, _, t) in _number_functions("slope-block-rotating" if rotating else "slope-block").items()}


class SlopeBlock(Case):
    """Block on a slope (Krengel & Matuttis §4); see the module docstring."""

    name = "slope-block"
    reference = "Krengel & Matuttis §4, eqs 18-20, Table 1, Figs 2-5"
    laws = ("coulomb", "cundall-strack")
    default_law = "coulomb"
    t_end = 0.02
    unit = "s"
    initial = {"y": "y0", "vx": "vx0"}
    state_units = {"x": "m", "y": "m", "vx": "m/s", "vy": "m/s", "xi": "m"}
    #: affine in every mode, but SymPy's exact expm of the damped 4x4 system is too costly
    closed_form = False

    def build(self, law: str):
        return systems.slope_block(law)

    # -- numbers the figures and tests use -----------------------------------------
    @staticmethod
    def numbers(values: dict, rotating: bool = False) -> dict:
        """Table 1's derived values (``m``, ``I``, ``m_eff_tan``, ``k_t``, ``gamma_t``,
        ``c_n``, the critical angle in degrees ...) and the equilibrium quantities for the
        parameter ``values``, evaluated from their symbolic derivation
        (:func:`nsfric.symbolic.systems.slope_numbers`)."""
        fns = _number_functions("slope-block-rotating" if rotating else "slope-block")
        return {k: float(f(**{n: values[n] for n in args})) for k, (f, args, _) in fns.items()}

    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        """Table 1, the references and Figs 2-5 (:func:`~nsfric.papers.krengel_matuttis.
        slope_block_figures.run_all`), their computations on ``jobs`` local processes."""
        from nsfric.papers.krengel_matuttis.slope_block_figures import run_all

        return run_all(self, out_dir, progress, jobs=jobs)
