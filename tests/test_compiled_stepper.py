"""The compiled DOP853 stepper of the Filippov solver (``method="dop853-numba"``) takes
SciPy DOP853's steps: the same steps, events and states, a guard crossing inside a
step found, and SciPy's stepper used where a mode does not compile."""
from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.integrate import DOP853

import nsfric
from nsfric.memo import Memo
from nsfric.solvers import filippov

pytest.importorskip("numba")
from nsfric.solvers import dop853_core as core
from nsfric.solvers import dop853_numba as dn
from nsfric.solvers import dop853_source as ds

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("dry-oscillator", None, {}), ("sliding-plates", "c-sds", {}), ("sliding-plates", "d-sds", {}),
         ("slope-block", "coulomb", {"t_end": 0.05})]


def _pair(name, law, kw):
    case = nsfric.get_case(name)
    ref = case.reference_solution(law, method="DOP853", **kw)
    got = case.reference_solution(law, method="dop853-numba", **kw)
    return ref, got


@pytest.mark.parametrize("name,law,kw", CASES, ids=[f"{c}-{law}" for c, law, _ in CASES])
def test_same_steps_events_states(name, law, kw):
    """Same number of steps and right-hand-side calls, event times to 1e-13, states to
    1e-12 (in fact bit for bit: the same operations in the same order)."""
    ref, got = _pair(name, law, kw)
    assert ref.tolerances["method"] == "DOP853" and got.tolerances["method"] == "dop853-numba"
    assert got.stats["nsteps"] == ref.stats["nsteps"] > 0
    assert got.stats["nfev"] == ref.stats["nfev"]
    assert [(e.kind, e.from_mode, e.to_mode) for e in got.events] == [(e.kind, e.from_mode, e.to_mode)
                                                                      for e in ref.events]
    assert np.allclose([e.t for e in got.events], [e.t for e in ref.events], rtol=0, atol=1e-13)
    assert [s.mode for s in got.segments] == [s.mode for s in ref.segments]
    np.testing.assert_allclose(got.y, ref.y, rtol=0, atol=1e-12)
    t = np.linspace(*ref.t_span, 777)
    np.testing.assert_allclose(got(t), ref(t), rtol=0, atol=1e-12)


def _scipy_steps(f, y0, t_end, rtol, atol):
    s = DOP853(f, 0.0, y0, t_end, rtol=rtol, atol=atol)
    ts, ys, dense = [0.0], [y0], []
    while s.status == "running":
        s.step()
        ts.append(s.t)
        ys.append(s.y.copy())
        dense.append(s.dense_output())
    return np.array(ts), np.array(ys), dense, s.nfev


def test_steps_equal_scipy_dop853_on_a_mode():
    """The compiled loop alone against ``scipy.integrate.DOP853`` on one mode (no guards
    reached): every step time, state and dense-output coefficient."""
    case = nsfric.get_case("dry-oscillator")
    prob = case.reference_problem()
    d = prob.model.derived()
    p = prob.model.param_vector(prob.params)
    f = d.rhs("slip-")
    mod = dn.stepper(d, "slip-", 2)
    y0 = np.array([2.1, 0.0])
    ts, ys, dense, nfev = _scipy_steps(lambda t, y: f(y, tuple(p)), y0, 1.0, 1e-9, 1e-11)
    mod_ng = SimpleNamespace(fields=mod.fields, n_guards=0, rhs=mod.rhs)  # no guard screening
    T, YO, FF, k, nf, hit = dn.integrate(mod_ng, p, y0, 0.0, 1.0, 1e-9, 1e-11, 8, lambda *a: None)
    assert k == len(ts) - 1 and nf == nfev and hit is None
    assert np.array_equal(T[:, 1], ts[1:]) and np.array_equal(YO, ys[:-1])
    assert np.array_equal(FF, np.array([dd.F for dd in dense]))
    tt = np.linspace(0, 1, 333)
    sol = dn.DenseSteps(np.concatenate([[0.0], T[:, 1]]), T[:, 0], T[:, 1] - T[:, 0], YO, FF)
    from scipy.integrate import OdeSolution
    assert np.array_equal(sol(tt), OdeSolution(ts, dense)(tt))
    assert np.array_equal(sol(0.37), OdeSolution(ts, dense)(0.37))


def test_crossing_inside_a_step():
    """A guard that crosses and comes back inside one step (loose tolerances: huge steps)
    is found, at the same time as on SciPy's stepper: the pre-screen must hand the step
    to the exact search."""
    case = nsfric.get_case("dry-oscillator")
    kw = {"rtol": 1e-3, "atol": 1e-3, "n_check": 2}
    ref = case.reference_solution(method="DOP853", **kw)
    got = case.reference_solution(method="dop853-numba", **kw)
    assert len(got.events) == len(ref.events) >= 2
    assert np.allclose([e.t for e in got.events], [e.t for e in ref.events], rtol=0, atol=1e-13)
    # the first reversal lies strictly inside a step of the first segment
    seg = got.segments[0] if got.segments[0].t1 > got.segments[0].t0 else got.segments[1]
    assert seg.dense.ts[-1] < seg.t0 + seg.dense.h.sum()


def test_screen_flags_a_hidden_excursion():
    """:func:`screen` flags a step whose samples are all negative but whose rate bound
    allows an excursion above zero, and passes one the bound excludes."""
    n_check = 4
    from numba import njit

    @njit(core.FIELD_SIGNATURE)
    def g(y, p, out):  # guard = y0
        out[0] = y[0]

    @njit(core.FIELD_SIGNATURE)
    def r(y, p, out):  # its rate = y1
        out[0] = y[1]

    G, R = dn._Address(g), dn._Address(r)
    Y, Gs, Rs = np.empty((n_check + 2, 2)), np.empty((n_check + 2, 1)), np.empty((n_check + 2, 1))
    F = np.zeros((7, 2))
    p = np.zeros(1)
    far = np.array([-1.0, 0.0])  # constant, far below: excluded
    assert not core.screen(G, R, 0.0, 1.0, 1.0, far, F, p, n_check, 1, Y, Gs, Rs)
    steep = np.array([-1e-3, 5.0])  # below, but rising at 5 over intervals of 0.2
    assert core.screen(G, R, 0.0, 1.0, 1.0, steep, F, p, n_check, 1, Y, Gs, Rs)


def test_fallback_when_a_mode_does_not_compile(monkeypatch):
    """A mode whose functions numba cannot compile runs on SciPy's DOP853: the same
    numbers, the stepper recorded."""
    case = nsfric.get_case("dry-oscillator")
    ref = case.reference_solution(method="DOP853")

    def refuse(*a, **k):
        raise dn.NotCompilable("refused")
    monkeypatch.setattr(dn, "stepper", refuse)
    for method in ("auto", "dop853-numba"):
        sol = case.reference_solution(method=method)
        assert sol.tolerances["method"] == "DOP853"
        assert np.array_equal(sol.y, ref.y) and sol.stats == ref.stats


def test_fallback_when_numba_refuses_the_generated_code(monkeypatch):
    """Generated code numba cannot type (here ``object()``) makes the mode not compilable:
    the solve runs on SciPy's DOP853, once tried per process and mode."""
    case = nsfric.get_case("dry-oscillator")
    ref = case.reference_solution(method="DOP853")
    monkeypatch.setattr(dn, "_MODULES", Memo(64))
    real = ds._function
    monkeypatch.setattr(ds, "_function", lambda spec, name: real(spec, name).replace("return (", "return (object(), "))
    sol = case.reference_solution()
    assert sol.tolerances["method"] == "DOP853" and np.array_equal(sol.y, ref.y)
    assert dn._MODULES and all(isinstance(v, dn.NotCompilable) for v in dn._MODULES.values())


def test_untranslatable_source_is_not_compilable():
    """Source that is not a generated function returning a list is refused (never
    mistranslated): the caller falls back."""
    with pytest.raises(dn.NotCompilable):
        ds._function({"src": "def f(y, p):\n    return y\n", "name": "f", "ns": {}}, "_g")
    with pytest.raises(dn.NotCompilable):
        ds._globals([{"ns": {"c": ["const", 1.0]}}, {"ns": {"c": ["const", 2.0]}}])


def test_auto_uses_the_compiled_stepper_on_non_stiff_modes_only():
    assert nsfric.get_case("dry-oscillator").reference_solution().tolerances["method"] == filippov.COMPILED
    sb = nsfric.get_case("slope-block").reference_solution(t_end=10.0)
    assert sb.tolerances["method"] == "LSODA"


def test_auto_compiles_only_where_it_pays(tmp_path):
    """A fresh process's short solve stays on SciPy's DOP853 without importing numba (its
    start-up); once the solve has taken AUTO_COMPILE_STEPS SciPy steps, the next non-stiff
    segments run compiled -- the same numbers as SciPy's stepper throughout."""
    script = (
        "import sys, numpy as np, nsfric\n"
        "from nsfric.solvers import filippov\n"
        "case = nsfric.get_case('dry-oscillator')\n"
        "a = case.reference_solution()\n"
        "print(a.tolerances['method'], 'numba' in sys.modules)\n"
        "filippov.AUTO_COMPILE_STEPS = 20\n"
        "b = case.reference_solution()\n"
        "c = case.reference_solution(method='DOP853')\n"
        "print(b.tolerances['method'], np.array_equal(b.y, c.y), np.array_equal(a.y, c.y))\n")
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                         check=True).stdout.split("\n")
    assert out[0] == "DOP853 False"
    assert out[1] == "auto (DOP853, dop853-numba) True True"


def test_auto_takes_the_compiled_stepper_an_earlier_process_left_on_disk(tmp_path):
    """Once a process has compiled a mode's stepper into the kernels cache, a plain
    process (numba not imported) runs that mode compiled from its first solve: the
    kernel on disk is reason enough.  The numbers are SciPy DOP853's (to 1e-12; the
    dry oscillator's bit for bit), and the stepper is recorded."""
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT)
    first = ("import nsfric\n"
             "print(nsfric.get_case('dry-oscillator').reference_solution(method='dop853-numba').tolerances['method'])\n")
    out = subprocess.run([sys.executable, "-c", first], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["dop853-numba"]
    assert [f for f in os.listdir(tmp_path / "kernels") if f.endswith(".compiled")]
    plain = ("import sys, numpy as np, nsfric\n"
             "case = nsfric.get_case('dry-oscillator')\n"
             "was = 'numba' in sys.modules\n"
             "a = case.reference_solution()\n"
             "c = case.reference_solution(method='DOP853')\n"
             "print(was, a.tolerances['method'], float(np.max(np.abs(a.y - c.y))), np.array_equal(a.y, c.y),\n"
             "      a.stats == c.stats)\n")
    out = subprocess.run([sys.executable, "-c", plain], capture_output=True, text=True, env=env, check=True)
    was, method, diff, same, stats = out.stdout.split()
    assert (was, method, same, stats) == ("False", "dop853-numba", "True", "True")
    assert float(diff) <= 1e-12


def test_a_compiled_marker_counts_only_when_whole_and_of_this_setup(tmp_path, monkeypatch):
    """The marker of a mode compiled on disk is a checksummed cache entry keyed by the
    module's text, the core's bytes and the versions: an edited entry, another numba,
    or a module outside the kernels folder (a private folder: gone at exit) is not
    "on disk"."""
    from nsfric.solvers import dop853_source as ds

    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    case = nsfric.get_case("dry-oscillator")
    d = case.problem().model.derived()
    mode = case.reference_solution(method="DOP853").segments[0].mode

    def fresh():
        monkeypatch.setattr(ds, "_ON_DISK", Memo(64))
        return ds.on_disk(d, mode)

    assert not fresh()
    source = ds.mode_source(d, mode)
    kernels = tmp_path / "kernels"
    elsewhere = SimpleNamespace(__file__=str(tmp_path / "private" / "m.py"))
    assert not ds.mark_on_disk(elsewhere, source) and not fresh()
    assert ds.mark_on_disk(SimpleNamespace(__file__=str(kernels / "m.py")), source)
    assert fresh()
    (marker,) = kernels.glob("*.compiled")
    text = marker.read_text()
    edited = text.replace('"compiled": true', '"compiled": false')
    assert edited != text
    marker.write_text(edited)  # the checksum no longer matches
    assert not fresh()
    marker.write_text(text)
    assert fresh()
    monkeypatch.setattr(ds, "_numba_version", lambda: "0.0.1")
    assert not fresh()


def test_a_modes_compiled_module_text_does_not_depend_on_sympy_dummy_numbering():
    """The generated functions' arguments are SymPy Dummies, numbered in the order a
    process made them (the restored model's and a freshly derived one's differ): the
    compiled module's text -- the name numba's disk cache keys on, and the on-disk
    marker's key -- names them by position, so it is one text for every process."""
    import re

    case = nsfric.get_case("dry-oscillator")
    d = case.problem().model.derived()
    spec = ds._spec(d.rhs("slip-"))
    assert re.search(r"_Dummy_\d+", spec["src"])
    shifted = dict(spec, src=re.sub(r"_Dummy_(\d+)", lambda m: f"_Dummy_{int(m.group(1)) + 17}", spec["src"]))
    assert shifted["src"] != spec["src"]
    assert ds._function(shifted, "_f") == ds._function(spec, "_f")
