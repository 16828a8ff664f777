"""Rotating block on an inclined slope, Krengel & Matuttis §4 with rotation (eqs 18-22).

The block of :mod:`nsfric.papers.krengel_matuttis.slope_block` as a rigid square that rotates and touches
the plane at its two lower corners (:class:`~nsfric.papers.krengel_matuttis.polygon.RotatingBlock`):
states ``x, y`` (the lower face's centre of the unrotated block, as for the translating
block), ``theta`` (rotation, counter-clockwise), ``vx, vy, omega``; moment of inertia
``I = m l^2/6``.  Each corner carries half of Table 1's elastic law ``Y A/l`` and of the
damping of eq 18 on its own penetration (both corners of the flat block: exactly
``Y A/l``), eq 18 and Table 1's ``gamma_t`` with the reduced tangential mass of eq 21,
``m_eff,tan = (1/m + (l/2)^2/I)^-1 = 2/5 m`` (derived symbolically,
:data:`nsfric.symbolic.systems.M_EFF_TAN`).  One tangential contact per corner; both
share the sliding surface ``v_t = vx + omega y_c = 0`` (see the kinematics).

Laws: ``coulomb`` (exact static friction), ``cundall-strack`` (eqs 19-20, incremental
damping) and ``cundall-strack-viscous`` (eq 19 with the instantaneous damping
``-gamma_t v``); ``coulomb-corners`` is the exact reference with one unilateral contact
per corner, each with its own exact static friction and eq 21's reduced mass, corners
that may lift off (:class:`~nsfric.papers.krengel_matuttis.block_corners.BlockCorners`, solved by the
multi-contact references: ``filippov`` hands it to the event-driven
:class:`~nsfric.solvers.contacts.PileSolver`, ``ida`` to :class:`~nsfric.solvers.contacts_dae.PileIDA`;
its extra parameters ``h0``, ``theta0``, ``omega0`` drop, tilt and spin the block; the
delta schemes run on it per corner, :mod:`nsfric.schemes.corners`);
``cundall-strack-corners`` and ``cundall-strack-viscous-corners`` give each corner of
that model its own Cundall-Strack spring (half of ``k_t`` and ``gamma_t``, bound
``mu F_n,i``, reset on lift-off; discrete schemes only: ``scheme_laws``).  The parameters are the translating block's; ``D = 0`` switches the
normal damping off alone, ``gt_ratio = 0`` the tangential damping alone and
``damping = 0`` both.  Figures (``nsfric run slope-block-rotating``):
:mod:`nsfric.papers.krengel_matuttis.slope_block_figures` with the rotating block.
"""
from __future__ import annotations

from nsfric.papers.krengel_matuttis import systems
from nsfric.papers.krengel_matuttis.block_corners import SPRING_LAWS, block_corners
from nsfric.cases.base import Case
from nsfric.papers.krengel_matuttis.slope_block import SlopeBlock


class RotatingSlopeBlock(Case):
    """Rotating block on a slope (Krengel & Matuttis §4 with rotation); see the module."""

    name = "slope-block-rotating"
    reference = "Krengel & Matuttis §4 with rotation, eqs 18-22, Table 1, Figs 2-5"
    laws = ("coulomb", "cundall-strack", "cundall-strack-viscous", "coulomb-corners")
    #: the law of the per-corner multi-contact model
    CORNERS = "coulomb-corners"
    #: the per-corner spring laws: discrete schemes only (no exact reference)
    scheme_laws = tuple(SPRING_LAWS)
    default_law = "coulomb"
    t_end = 0.02
    unit = "s"
    initial = {"y": "y0", "vx": "vx0"}
    units = {"x": "m", "y": "m", "vx": "m/s", "vy": "m/s", "xi": "m", "theta": "rad", "omega": "rad/s",
             "F_n1": "N/m", "F_n2": "N/m", "F_n": "N/m", "F": "N/m", "d_1": "m", "d_2": "m",
             "v_t": "m/s", "m_eff_tan": "kg/m"}
    closed_form = False
    rotating = True

    #: absolute tolerance of the references unless one is given: the stuck mode's
    #: algebraic ``vx = -omega y_c`` carries rounding noise of ~1e-15 m/s (the moment
    #: balance of ``I = 8e-6 kg m``), which the solvers' default 1e-14 resolves with
    #: ~25x more steps for no gain (positions ~1e-8 m, rotation ~1e-5 rad)
    reference_atol = 1e-12

    def default_solver_options(self, law: str, solver: str) -> dict:
        """:attr:`reference_atol` for every solver, except on the per-corner law."""
        return {} if law in (self.CORNERS,) + self.scheme_laws else {"atol": self.reference_atol}

    def build(self, law: str):
        if law == self.CORNERS or law in self.scheme_laws:
            return block_corners(law)
        return systems.slope_block_rotating(law)

    def y0(self, law, values: dict):
        if self.check_law(law) in (self.CORNERS,) + self.scheme_laws:
            return self.model(law).initial_state(values)
        return super().y0(law, values)

    numbers = staticmethod(lambda values: SlopeBlock.numbers(values, rotating=True))

    #: the rotating run's sweeps, lighter than the translating block's (every point of
    #: the rotating block costs several times more): steps and sizes thinned, 2 grid
    #: phases instead of 8; the drift mechanism (drift-mechanism.csv, whose ratios are
    #: verdicts) over 8 grid phases (with 2 its restarted BDF5/Heun read 0.84, with 8 1.00)
    RUN_OPTIONS = dict(dts=(1e-6, 5e-6, 2e-5, 5e-5), sizes=(2e-3, 1e-2, 0.1, 1.0), n_phases=2,
                       mechanism=dict(n_phases=8))

    def run(self, out_dir: str, progress=None, jobs=1) -> dict:
        from nsfric.papers.krengel_matuttis.slope_block_figures import run_all

        return run_all(self, out_dir, progress, jobs=jobs, **self.RUN_OPTIONS)
