"""Symbolic derivation checks (nsfric.symbolic.checks): every check passes on the
declared laws, and fails on a mutated law or statement."""
from __future__ import annotations

import dataclasses
import functools
import time
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from nsfric.symbolic import impact_laws as IL
from nsfric.papers.kuhn import contact_law as K
from nsfric.symbolic import laws as L
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T
from nsfric.symbolic.checks import CHECKS, CheckResult, checks_markdown, run_checks, select
from nsfric.papers.fuhrer2024 import checks as fuhrer
from nsfric.papers.krengel_matuttis import checks as krengel
from nsfric.symbolic.checks.__main__ import main as checks_main
from nsfric.symbolic.derive import DerivedModel

ROOT = Path(__file__).resolve().parents[1]


# -- all checks pass, fast enough --------------------------------------------------------
@pytest.fixture(scope="module")
def results():
    t0 = time.perf_counter()
    res = run_checks()
    return res, time.perf_counter() - t0


def test_every_check_passes(results):
    res, _ = results
    assert [r.name for r in res] == list(CHECKS)
    failed = [(r.name, r.detail) for r in res if not r.passed]
    assert not failed


def test_result_fields(results):
    res, _ = results
    for r in res:
        assert isinstance(r, CheckResult)
        assert r.source and r.statement and r.detail and r.seconds >= 0
        assert r.method == "exact" or r.method.startswith("partial:")
        assert set(r.as_dict()) == {"name", "source", "statement", "passed", "detail", "seconds", "method"}
        assert CHECKS[r.name].proof_text, f"{r.name} has no proof description"


def test_select():
    assert [c.name for c in select("kuhn")] == [n for n in CHECKS if n.startswith("kuhn")]
    assert [c.name for c in select("dsds-*")] == ["dsds-reset", "dsds-euler-step", "dsds-stick-threshold"]
    assert len(select("csds-energy-balance, brake")) == 2
    assert len(select(None)) == len(CHECKS) == 20
    with pytest.raises(ValueError, match="no check matches"):
        select("no-such-check")
    assert [r.name for r in run_checks("dsds-reset")] == ["dsds-reset"]


# -- mutations: each check fails on a wrong law or statement ------------------------------
def _branch(law, name, F=None, rate=None):
    b = law.branches[name]
    nb = dataclasses.replace(b, F=b.F if F is None else F, rates=b.rates if rate is None else {L.xi: rate})
    return dataclasses.replace(law, branches={**law.branches, name: nb})


def _slips(law, f):
    for name, b in law.branches.items():
        if b.kind == "slip":
            law = _branch(law, name, rate=f(b.F))
    return law


xi, v, k, gamma, F_max = L.xi, L.v, L.k, L.gamma, L.F_max


def _tampered_oscillator(mode, key, fn):
    d = DerivedModel(krengel.oscillator_model())
    if key == "rhs":
        iv = d.y.index(L.v)
        d.modes[mode].rhs[iv] = fn(d.modes[mode].rhs[iv])
    else:
        d.modes[mode].outputs[key] = fn(d.modes[mode].outputs[key])
    return d


def _dsds_surfaces(factor):
    law = T.d_sds()
    FS = L.test_force(xi, v)
    return dataclasses.replace(law, switching={"h_plus": FS - factor * F_max, "h_minus": FS + factor * F_max})


def _dsds_slider_flipped():
    law = T.d_sds()
    sl = {n: dataclasses.replace(s, F=-s.F) for n, s in law.slidings.items()}
    return dataclasses.replace(law, slidings=sl)


def _coulomb_slip_minus_doubled():
    law = T.coulomb_static()
    return _branch(law, "slip-", F=2 * L.mu * L.F_N)


def _wb_mutated():
    law = IL.walton_braun()
    b = law.branches["unloading"]
    nb = dataclasses.replace(b, F=b.F.subs(IL.s_wb, 2 * IL.s_wb))
    return dataclasses.replace(law, branches={**law.branches, "unloading": nb})


MUTATIONS = {
    "csds-energy-balance": [dict(law=_slips(T.c_sds(), lambda F: -(F - k * xi) / gamma))],
    "csds-branches": [dict(law=_branch(T.c_sds(), "stick", rate=-(L.test_force(xi, v) + k * xi) / (2 * gamma))),
                      dict(law=_slips(T.c_sds(), lambda F: -(F + k * xi) / gamma + v / 10))],
    "csds-loading-rate": [dict(law=_slips(T.c_sds(), lambda F: -(F + k * xi) / (2 * gamma)))],
    "csds-test-force": [dict(law=_slips(T.c_sds(), lambda F: -(2 * F + k * xi) / gamma)),
                        dict(eq17=lambda s: gamma * s - F_max)],
    "dsds-reset": [dict(law=_dsds_surfaces(2))],
    "dsds-euler-step": [dict(law=_dsds_slider_flipped())],
    "dsds-stick-threshold": [dict(law=_branch(T.d_sds(), "stick", rate=2 * v)),
                             dict(eq20=lambda: 2 * gamma * F_max / (L.m * k))],
    "filippov-lambda": [dict(eq13=lambda fI, fII: fII / (fI - fII)),
                        dict(derived=_tampered_oscillator("stick", "lam", lambda lam: 1 - lam))],
    "static-friction-compensates": [
        dict(derived=DerivedModel(krengel.oscillator_model(_coulomb_slip_minus_doubled()))),
        dict(f_ext=lambda: L.k * L.x)],
    "sliding-field-tangent": [dict(models=[("tampered", _tampered_oscillator("stick", "rhs", lambda e: e + L.x))])],
    "linear-dashpot-restitution": [
        dict(law=_branch(N.linear_spring_dashpot(), "contact", F=-L.k_n * xi + L.gamma_n * v)),
        dict(law=_branch(N.linear_spring_dashpot(), "contact", F=-2 * L.k_n * xi - L.gamma_n * v))],
    "hertz-collision-time": [dict(law=_branch(IL.hertz(), "contact", F=-2 * IL.k_n_tilde * xi ** sp.Rational(3, 2))),
                             dict(law=_branch(IL.hertz(), "contact", F=-IL.k_n_tilde * xi ** sp.Rational(5, 2)))],
    "walton-braun-restitution": [dict(law=_wb_mutated())],
    "tangential-half-period": [dict(law=T.cundall_strack(k=2 * T.k_t)),
                               dict(eq19=lambda mass=IL.m_p, radius=IL.R: mass * radius ** 2 / 2)],
    "brake-failure-velocity": [dict(eq25=lambda **kw: 2 * IL.brake_failure_velocity(**kw))],
    "kuhn-contact-onset": [dict(eq7=lambda ze, dz: 1 + ze / dz)],
    "kuhn-slip-onset": [dict(eq10=lambda A, B, C: (-B + sp.sqrt(B ** 2 - A * C)) / A),
                        dict(coeffs=lambda *a, **kw: (lambda A, B, C: (A, 2 * B, C))(*K.slip_coefficients(*a, **kw)))],
    "kuhn-force-direction": [dict(eq18=lambda t1, t0, c1, c2: K.theta_relation(t1, t0, c1, c2)
                                  - 2 * sp.log(sp.Abs(1 + c2)) / (c1 * c2))],
    "kuhn-twirl-objectivity": [dict(eq23=lambda f, n, p, q: f),  # projection only (Fig 6c)
                               dict(eq23=lambda f, n, p, q: K.twirl(f, n, -sp.Matrix(p), -sp.Matrix(q)))],
    "kuhn-work-split": [dict(elastic=lambda f0, f1, kt=K.k_t: 2 * K.elastic_work(f0, f1, kt)),
                        dict(eq16=lambda *a, **kw: -K.theta_rate(*a, **kw))],
}


def test_every_check_has_a_mutation():
    assert set(MUTATIONS) == set(CHECKS)


@pytest.mark.parametrize("name,i", [(n, i) for n, ms in MUTATIONS.items() for i in range(len(ms))])
def test_mutated_law_fails(name, i):
    r = CHECKS[name].run(**MUTATIONS[name][i])
    assert not r.passed, f"{name} passed with mutation {i}: {r.detail}"
    assert r.detail.startswith("FAILED")


def test_failure_reports_residual():
    r = CHECKS["csds-energy-balance"].run(**MUTATIONS["csds-energy-balance"][0])
    assert "residual" in r.detail
    r = CHECKS["kuhn-slip-onset"].run(**MUTATIONS["kuhn-slip-onset"][0])
    assert "counterexample" in r.detail


# -- property tests: the identities hold numerically for random inputs -------------------
finite = st.floats(-5, 5, allow_nan=False)
posf = st.floats(0.1, 5)


@functools.lru_cache(maxsize=None)
def _plane_slip():
    """The law's 2D sliding force and rate, lambdified once."""
    _, F, rate = fuhrer.csds_plane().slips[0]
    args = list(fuhrer.XI) + list(fuhrer.V) + [k, gamma, F_max]
    return sp.lambdify(args, F), sp.lambdify(args, rate)


@settings(max_examples=200, deadline=None)
@given(x1=finite, x2=finite, w1=finite, w2=finite, kk=posf, gg=posf, fm=posf)
def test_energy_balance_numeric(x1, x2, w1, w2, kk, gg, fm):
    fF, frate = _plane_slip()
    FS = np.array([-kk * x1 - gg * w1, -kk * x2 - gg * w2])
    if np.linalg.norm(FS) <= fm * (1 + 1e-9):
        return  # sticking: the sliding branch does not apply
    Fn = np.asarray(fF(x1, x2, w1, w2, kk, gg, fm), float).ravel()
    rn = np.asarray(frate(x1, x2, w1, w2, kk, gg, fm), float).ravel()
    xv, vv = np.array([x1, x2]), np.array([w1, w2])
    s = vv - rn
    lhs = kk * xv @ rn + gg * rn @ rn - Fn @ s
    scale = 1 + abs(kk * xv @ rn) + gg * rn @ rn + abs(Fn @ vv)
    assert abs(lhs + Fn @ vv) <= 1e-12 * scale
    assert abs(np.linalg.norm(Fn) - fm) <= 1e-12 * fm          # F = -F_max e_s
    assert abs(np.linalg.norm(FS) - (gg * np.linalg.norm(s) + fm)) <= 1e-9 * (1 + np.linalg.norm(FS))  # eq 17
    if xv @ rn > 0:                                               # eq 15
        assert np.linalg.norm(rn) <= np.linalg.norm(vv) * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(f1=finite, f2=finite, d1=finite, d2=finite, fn=posf, dz=finite, mu=st.floats(0.1, 1),
       kn=posf, kt=posf)
def test_slip_onset_solves_eq9_numeric(f1, f2, d1, d2, fn, dz, mu, kn, kt):
    f, d = sp.Matrix([f1, f2]), sp.Matrix([d1, d2])
    A, B, C = (float(x) for x in K.slip_coefficients(f, d, fn, dz, mu, kn, kt))
    if abs(A) < 1e-6 or B * B - A * C < 0:
        return
    a_s = (-B - np.sqrt(B * B - A * C)) / A
    res = float(K.friction_limit_residual(a_s, f, d, fn, dz, mu, kn, kt))
    scale = (mu * fn) ** 2 + f1 ** 2 + f2 ** 2 + (1 + a_s ** 2) * (abs(A) + abs(B) + 1)
    assert abs(res) <= 1e-9 * scale


@settings(max_examples=100, deadline=None)
@given(g=st.lists(finite, min_size=3, max_size=3), n=st.lists(finite, min_size=3, max_size=3),
       w=st.lists(finite, min_size=3, max_size=3))
def test_twirl_is_rotation_numeric(g, n, w):
    n = np.array(n)
    if np.linalg.norm(n) < 0.1:
        return
    n = n / np.linalg.norm(n)
    f = np.array(g) - (np.array(g) @ n) * n
    w, om = np.array(w), 1e-5
    theta = om * np.linalg.norm(w)
    axis = w / np.linalg.norm(w) if theta > 0 else w
    Rf = (f * np.cos(theta) + np.cross(axis, f) * np.sin(theta)
          + axis * (axis @ f) * (1 - np.cos(theta)))
    Rn = (n * np.cos(theta) + np.cross(axis, n) * np.sin(theta)
          + axis * (axis @ n) * (1 - np.cos(theta)))
    out = np.array(K.twirl(K.project(sp.Matrix(f), sp.Matrix(Rn)), sp.Matrix(Rn), om * w, om * w), float).ravel()
    assert np.linalg.norm(out - Rf) <= 10 * (om * (1 + np.linalg.norm(w))) ** 2 * (1 + np.linalg.norm(f))


# -- docs ------------------------------------------------------------------------------------
def test_markdown_lists_every_check():
    md = checks_markdown()
    for c in CHECKS.values():
        assert f"## {c.name}" in md and c.source in md
    assert "pass" in checks_markdown(run_checks("brake"))


def test_docs_page_is_current():
    page = ROOT / "docs" / "checks.md"
    assert page.read_text(encoding="utf-8") == checks_markdown(), \
        "docs/checks.md is stale: run `python -m nsfric.symbolic.checks --markdown`"


def test_module_entry_point(tmp_path, capsys):
    out = tmp_path / "checks.md"
    assert checks_main(["--markdown", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == checks_markdown()
    assert checks_main(["--only", "kuhn-contact"]) == 0
    assert "kuhn-contact-onset" in capsys.readouterr().out
    assert checks_main(["--only", "nothing-like-this"]) == 2
