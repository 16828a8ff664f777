"""Composable laws: validation of built models, the laws of Schäfer et al. coupled on a
kinematics, two rotating discs and a prescribed 3D contact, the law registry."""
import sys
import textwrap

import numpy as np
import pytest
import sympy as sp

from nsfric.solvers.base import Problem, get_solver
from nsfric.symbolic import (NORMAL_LAWS, TANGENTIAL_LAWS, PrescribedContact, Slider, SlopeBlock,
                             TangentialLaw, couple, derive, load_entry_points, registered_laws)
from nsfric.symbolic import impact_laws as IL
from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.papers.krengel_matuttis.systems import oscillator


# -- validation: each problem of a deliberately broken model is named ---------------------
def _law(branches, switching=None, slidings=None, params=None):
    return TangentialLaw("broken", "test", (), params or (L.P(L.mu, 0.4, 0), L.P(L.F_N, 1.0, 0)),
                         switching or {"g": L.v}, branches, slidings or {})


def test_unknown_symbol_is_named():
    c = sp.Symbol("c_unknown")
    law = _law({"slip+": ({"g": 1}, -L.mu * L.F_N - c), "slip-": ({"g": -1}, L.mu * L.F_N)})
    with pytest.raises(ValueError, match=r"region 'slip\+'.*unknown symbol.*c_unknown"):
        couple(oscillator(), tangential=law)


def test_uncovered_sign_pattern_is_named():
    law = _law({"slip+": ({"g": 1}, -L.mu * L.F_N)})
    with pytest.raises(ValueError, match="no mode covers g < 0"):
        couple(oscillator(), tangential=law)


def test_overlapping_modes_are_named():
    law = _law({"slip+": ({"g": 1}, -L.mu * L.F_N), "slip-": ({"g": 1}, L.mu * L.F_N),
                "back": ({"g": -1}, L.mu * L.F_N)})
    with pytest.raises(ValueError, match=r"modes \['slip\+', 'slip-'\] overlap where g > 0"):
        couple(oscillator(), tangential=law)


def test_feasible_overlap_of_a_clip_is_caught_but_infeasible_one_is_not():
    """C-SDS: slip+ and slip- both hold where h_plus > 0 > h_minus, impossible since
    h_plus - h_minus = -2 F_max; with F_max replaced by an indefinite symbol it is not."""
    couple(Slider(params=(L.P(L.m, 1, 0, lo_open=True),)), tangential=T.c_sds())  # builds
    law = T.c_sds()
    bound = sp.Symbol("b", real=True)
    law = TangentialLaw("c-sds-any-bound", "", law.states, law.params + (L.P(bound, 1.0),),
                        {k: e.subs(L.F_max, bound) for k, e in law.switching.items()}, law.branches)
    with pytest.raises(ValueError, match="overlap where h_plus > 0, h_minus < 0"):
        couple(Slider(params=(L.P(L.m, 1, 0, lo_open=True),)), tangential=law)


def test_forbidden_side_accounts_for_the_gap_and_missing_rates_are_named():
    """D-SDS has one region; the constrained sliding modes declare both outer sides
    forbidden.  Without them the gap is an error; a region without a rate is too."""
    d = T.d_sds()
    couple(Slider(params=(L.P(L.m, 1, 0, lo_open=True),)), tangential=d)
    no_slides = TangentialLaw("d", "", d.states, d.params, d.switching, d.branches)
    with pytest.raises(ValueError, match="no mode covers h_plus > 0"):
        couple(Slider(params=(L.P(L.m, 1, 0, lo_open=True),)), tangential=no_slides)
    lazy = TangentialLaw("d", "", d.states, d.params, d.switching,
                         {"stick": ({"h_plus": -1, "h_minus": 1}, d.branches["stick"].F, {})}, d.slidings)
    with pytest.raises(ValueError, match=r"region 'stick' lacks rates for \['xi'\]"):
        couple(Slider(params=(L.P(L.m, 1, 0, lo_open=True),)), tangential=lazy)


def test_couple_rejects_mismatched_arguments():
    with pytest.raises(ValueError, match="dimension 2"):
        couple(oscillator(), tangential=T.c_sds_2d())
    with pytest.raises(ValueError, match="declared twice"):
        couple(oscillator(), tangential=T.c_sds())  # k: the spring of both
    with pytest.raises(ValueError, match="no overlap"):
        couple(Slider(params=(L.P(L.m, 1, 0, lo_open=True),)), normal=N.hertz())


# -- every registered law, coupled with a normal law on a kinematics, derives ---------------
BLOCK = SlopeBlock(L.x, sp.Symbol("y", real=True), sp.Symbol("vx", real=True), sp.Symbol("vy", real=True),
                   sp.Symbol("M", positive=True), sp.pi / 6, params=(L.P(sp.Symbol("M", positive=True), 1e-3, 0, lo_open=True),))


def _derives(model, y):
    d = derive(model)
    p = d.model.param_vector(model.bind())
    for mode in model.mode_names:
        assert np.all(np.isfinite(d.rhs(mode)(y, p))), mode
        assert np.all(np.isfinite(d.jac(mode)(y, p))), mode
    return d


@pytest.mark.parametrize("name", sorted(IL.TANGENTIAL_IMPACT_LAWS))
def test_schafer_tangential_law_with_a_normal_law_derives(name):
    law = IL.TANGENTIAL_IMPACT_LAWS[name]()
    model = couple(BLOCK, normal=N.hertz(), tangential=law, name=f"block/{name}")
    assert "F_N" not in model.param_names  # F_N is the normal law's force now
    assert [m for m in model.mode_names if m == "free"] == ["free"]
    y = np.array([0.1 * (i + 1) for i in range(len(law.states))] + [0.0, -1e-5, 0.3, -0.1])
    if name == "walton-braun-mindlin":
        y[:2] = [0.0, 0.0]
    d = _derives(model, y)
    # in contact the tangential force is the law's with v -> vx and F_N -> the Hertz force
    contact = [r for r in model.regions if r.name != "free"][0]
    F_N = -N.hertz().branches["contact"].F.xreplace({L.xi: -BLOCK.y})
    want = law.branches[contact.name.split("/")[1]].F.xreplace({law.velocity: BLOCK.vx, L.F_N: F_N})
    assert sp.simplify(contact.outputs["F"] - want) == 0
    assert d.model.mode("free").outputs["F"] == 0


@pytest.mark.parametrize("name", sorted(IL.NORMAL_IMPACT_LAWS))
def test_schafer_normal_law_with_coulomb_derives(name):
    model = couple(BLOCK, normal=IL.NORMAL_IMPACT_LAWS[name](), tangential=T.coulomb_static(params=(L.P(L.mu, 0.25, 0),)))
    n_states = len(model.states) - 4
    _derives(model, np.array([2e-5] * n_states + [0.0, -1e-5, 0.3, 0.1]))
    assert any(s.kind == "filippov" for s in model.slidings)


def _impact(law, t_end=1e-4, **params):
    model = couple(Slider(position=L.xi, mass=IL.m_eff, params=(L.P(IL.m_eff, 7.4e-5, 0, lo_open=True),)),
                   normal=law)
    vals = model.bind(params)
    y0 = np.zeros(len(model.states))
    y0[model.state_names.index("v")] = 1.0
    y0[model.state_names.index("xi")] = -1e-9  # apart: the contact begins at t = 1e-9
    sol = get_solver("filippov", rtol=1e-12, atol=1e-14).solve(Problem(model, vals, y0, (0.0, t_end)))
    end = [e for e in sol.events if e.kind == "contact-end"][0]
    return -end.y[model.state_names.index("v")], end.t, vals


def test_hertz_is_elastic_and_walton_braun_meets_its_restitution():
    """Closed forms: Hertz (eq 6) e_n = 1 and t_n of eq 7 (3.21 rounded: 0.5 %);
    Walton-Braun (after eq 10) e_n = (s v_i sqrt(m_eff/k_1) + 1)^(-1/2)."""
    e, t_n, _ = _impact(N.hertz())
    assert abs(e - 1) < 1e-9
    t7 = float(IL.hertz_duration().subs({IL.m_eff: 7.4e-5, IL.k_n_tilde: 9e7, IL.v_i: 1}))
    assert abs((t_n - 1e-9) / t7 - 1) < 5e-3
    e, _, vals = _impact(N.walton_braun())
    want = float(IL.walton_braun_restitution_velocity().subs({IL.v_i: 1, IL.k_1: vals["k_1"], IL.s_wb: vals["s"],
                                                             IL.m_eff: vals["m_eff"]}))
    assert abs(e - want) < 1e-9, (e, want)


# -- a prescribed contact in the tangential plane (3D) ---------------------------------------
def test_prescribed_contact_csds_2d_closed_form():
    """Constant prescribed v = (V, 0): C-SDS sticks (F_S = -k V t - gamma V) until
    |F_S| = F_max at t* = (F_max - gamma V)/(k V), then slides with F = -F_max e_x."""
    V = sp.Symbol("V", positive=True)
    kin = PrescribedContact.from_3d((V, 0, 0), (0, 0, 1), (1, 0, 0), params=(L.P(V, 1.0, 0, lo_open=True),))
    assert kin.tangential_velocity == (V, 0)
    model = couple(kin, tangential=T.c_sds_2d(), name="prescribed")
    vals = model.bind({"gamma": 0.5})
    sol = get_solver("filippov").solve(Problem(model, vals, np.zeros(3), (0.0, 3.0)))
    assert [e.to_mode for e in sol.events] == ["slip"]
    assert abs(sol.events[0].t - 0.5) < 1e-10
    F1, F2 = sol.derived("F_1", t=[3.0]), sol.derived("F_2", t=[3.0])
    assert abs(F1[0] + 1) < 1e-10 and abs(F2[0]) < 1e-12
    u = PrescribedContact.from_3d((sp.cos(kin.states[0]), sp.sin(kin.states[0]), 0), (0, 0, 1), (1, 0, 0))
    assert u.velocity == (sp.cos(kin.states[0]), sp.sin(kin.states[0]))


# -- registry and plug-ins ---------------------------------------------------------------------
def test_registry_lists_every_law_of_the_papers():
    reg = registered_laws()
    assert {"c-sds", "d-sds", "cundall-strack", "coulomb", "c-sds-2d", "viscous", "coulomb-viscous",
            "walton-braun-mindlin", "brilliantov-sawtooth"} <= set(reg["tangential"])
    assert {"linear-dashpot", "hertz", "hertz-damped", "kuwabara-kono", "walton-braun"} <= set(reg["normal"])
    assert all(isinstance(f(), TangentialLaw) for f in TANGENTIAL_LAWS.values())
    assert all(isinstance(f(), L.NormalLaw) for f in NORMAL_LAWS.values())
    # D-SDS and Cundall-Strack are one law: the same modes and structure
    d, c = T.d_sds(), T.cundall_strack(k=L.k, gamma=L.gamma)
    assert d.branches == {k: b for k, b in c.branches.items()}
    assert {k: e.subs(L.mu * L.F_N, L.F_max) for k, e in c.switching.items()} == d.switching


def test_entry_point_plugin_is_registered_and_listed(tmp_path, monkeypatch):
    pkg = tmp_path / "mylaws.py"
    pkg.write_text(textwrap.dedent('''
        import sympy as sp
        import nsfric
        def stiff():
            g = sp.Symbol("gamma_p", positive=True)
            v = sp.Symbol("v", real=True)
            return nsfric.TangentialLaw("plugin-viscous", "a user's law", (), (nsfric.Param(g, 1.0),), {},
                                        {"viscous": ({}, -g * v)}, velocity=v)
    '''))
    dist = tmp_path / "mylaws-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mylaws\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[nsfric.laws]\nplugin-viscous = mylaws:stiff\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert "plugin-viscous" in load_entry_points()
        assert "plugin-viscous" in registered_laws()["tangential"]
        import subprocess
        import os
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd()])}
        out = subprocess.run([sys.executable, "-m", "nsfric.cli", "list"], capture_output=True, text=True,
                             env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        assert "plugin-viscous" in out.stdout and "a user's law" in out.stdout
    finally:
        TANGENTIAL_LAWS.pop("plugin-viscous", None)
