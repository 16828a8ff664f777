"""The stick-entry rules of the delta-approximated exact static friction (Krengel &
Matuttis eqs 9, 12-17): when a sliding contact *enters* the stuck state.

Krengel & Matuttis give the indicators (eqs 15-17) and the stuck state's force (eq 9),
not the test that turns a sliding contact into a stuck one at the end of a time step.
Every implementation of their method in nsfric -- the single contact of the translating
block (:mod:`nsfric.schemes.delta`, compiled in :mod:`nsfric.schemes.delta_kernel`), the
corners of the rotating block (:mod:`nsfric.schemes.corners`) and the contacts of the
disc heap (``nsfric.papers.krengel_matuttis.heap_loop``) -- takes the rule by its name
from :data:`STICK_RULES` and decides with the one function :func:`enters_stick`; the
default is :data:`DEFAULT_STICK_RULE` everywhere.  In every rule the contact enters
only if, at the end of the step, ``lam`` (eq 13) lies in [0, 1] (both fields push into
the surface); it leaves when ``lam`` leaves [0, 1].  The rules differ in *when* the
velocity counts as stopped:

``end``
    the relative tangential velocity ``g`` reached or changed sign between the two
    ends of the step (``g_n g_{n+1} <= 0``); the stages inside the step are not looked
    at (with BDF2-PC the ends may never cross: the block never sticks);
``crossing``
    ``g`` reached or changed sign at the end of the step or at any evaluation inside it
    (a Runge-Kutta stage, a corrector); the residual velocity the step leaves has the
    sign *opposite* to the motion it stopped (nsfric's rule for the block and the heap
    before issue 28);
``brake``
    besides a crossing, the contact enters as soon as dynamic friction alone would stop
    it within the step, ``|g_{n+1}| <= h b`` with ``b = mu F_n/m_eff,tan`` (half the jump
    of the rate of ``g`` across the surface); the residual velocity keeps the sign of
    the motion it stopped (the corners' "early-stick" rule before issue 28);
``step``
    eq 17 read as a step criterion: besides a crossing, as soon as
    ``delta = -0.9 g/sigma <= h``, ``sigma`` the rate of ``g`` on its side (external
    force and dynamic friction);
``dissipative``
    ``step`` where the residual velocity has the sign of the external force (eq 13:
    ``g (1 - 2 lam) >= 0``, so the holding force takes energy out of it at the entry);
    elsewhere the contact slides on until ``g`` has crossed 0.

**The default is** ``brake``.  While stuck, eq 9 makes the tangential acceleration
vanish (eq 14), so the residual velocity of the entry step is kept and the holding force
works on it.  After a crossing that velocity points against the motion the friction
stopped, and a contact whose velocity a stuck neighbour holds at that neighbour's
residual velocity never crosses 0 and slides for ever (the corners, issue 28's heap).
``brake`` sticks before the crossing; of the rules it gave the disc heap of km-heap (60
discs, 0.25 s) the smallest energy rise (9.3e-6 J/m at dt = 5e-6 s against 4.0e-4 after
the crossing, 2.5e-4 under ``step``), it keeps the corners' results, and under it, as
under ``step``, delta-BDF drifts less than delta-Heun on the translating block (Fig 4).
No entry rule brings a heap to rest: the holding forces, redistributed after the entry,
work on the kept residual velocities with either sign (docs/krengel-matuttis.md).

Everything here is plain arithmetic on floats, booleans and ints (or NumPy arrays of
them): the compiled loops compile the source of :func:`enters_stick` itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from .delta_rules import DELTA_FACTOR

END, CROSSING, BRAKE, STEP, DISSIPATIVE = 0, 1, 2, 3, 4  #: codes of the rules in the compiled loops


@dataclass(frozen=True)
class StickRule:
    """A stick-entry rule: its ``name``, its ``code`` (:func:`enters_stick`'s first
    argument) and what it does (``doc``)."""

    name: str
    code: int
    doc: str


STICK_RULES = {r.name: r for r in (
    StickRule("end", END, "stick once the relative tangential velocity reached or crossed 0 "
                          "between the two ends of a step"),
    StickRule("crossing", CROSSING, "stick once the relative tangential velocity reached or crossed 0 "
                                    "within a step (at its end or at a stage)"),
    StickRule("brake", BRAKE, "stick once dynamic friction alone would stop the contact within the step "
                              "(|v_t| <= dt mu F_n/m_eff,tan), or after a crossing"),
    StickRule("step", STEP, "eq 17 as a step criterion: stick once delta = -0.9 v_t/sigma <= dt (sigma "
                            "the rate of v_t on the contact's side: external force and dynamic friction), "
                            "or after a crossing"),
    StickRule("dissipative", DISSIPATIVE,
              "the step rule where the residual velocity has the sign of the external force "
              "(v_t (1 - 2 lam) >= 0: the holding force takes energy out of it); elsewhere the contact "
              "slides on until v_t has crossed 0"),
)}
#: the rule of every delta-approximated scheme unless one is chosen (see the module)
DEFAULT_STICK_RULE = "brake"


def stick_rule(rule=None) -> StickRule:
    """The :class:`StickRule` named ``rule`` (default :data:`DEFAULT_STICK_RULE`; a
    StickRule passes through); ValueError naming ``stick_rule`` and the choices."""
    if rule is None:
        rule = DEFAULT_STICK_RULE
    if isinstance(rule, StickRule):
        return rule
    if rule not in STICK_RULES:
        raise ValueError(f"stick_rule must be one of {sorted(STICK_RULES)}, got {rule!r}")
    return STICK_RULES[rule]


def enters_stick(code, crossed_end, crossed_stage, g1, brake1, lam1, h):
    """Whether a sliding contact counts as stopped at the end of a step under the rule
    ``code`` (:data:`END`, :data:`CROSSING`, :data:`BRAKE`, :data:`STEP`,
    :data:`DISSIPATIVE`): ``crossed_end`` ``g`` reached or crossed 0 between the step's
    ends, ``crossed_stage`` at an evaluation inside it, ``g1`` the relative tangential
    velocity at the end, ``brake1`` the deceleration of dynamic friction there
    (``b = mu F_n/m_eff,tan``), ``lam1`` eq 13's multiplier there, ``h`` the step.

    The rate of ``g`` on its side is ``sigma_I = -2 lam b`` (``g > 0``) or
    ``sigma_II = 2 (1 - lam) b`` (eqs 5-6 and 13 with ``f_I - f_II = -2 mu F_n``), the
    external force ``f_ext = mu F_n (1 - 2 lam)``.  Scalars or NumPy arrays alike
    (``|``/``&``); the caller adds ``lam in [0, 1]``.
    """
    side = (g1 > 0) * lam1 + (g1 <= 0) * (1.0 - lam1)  # |sigma| / (2 b) on the side of g1
    early = (((code == BRAKE) & (abs(g1) <= h * brake1))
             | ((code >= STEP) & (DELTA_FACTOR * abs(g1) <= 2.0 * h * brake1 * side)))
    stopped = crossed_end | ((code != END) & crossed_stage) | early
    return stopped & ((code != DISSIPATIVE) | (g1 * (1.0 - 2.0 * lam1) >= 0.0))
