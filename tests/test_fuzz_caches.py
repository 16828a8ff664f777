"""Fuzz cases of the caches (issue 24): no stale or corrupt result is ever served, and a
cache that cannot be written is skipped, never a failed run.

* the numerics cache follows the model's content (a plug-in law edited in its module or
  in ``python -c`` is a new model);
* a sweep point's key and the studies' reference cache cover the whole specification
  (every field changed in turn is a miss; the issue's mutant -- ``t_end`` dropped from
  the key -- is caught);
* every kind of entry (sweep points, numerics, numerics aliases, report, kernels)
  tampered with (a flipped digit, truncated, NaN, garbage, empty, a directory, an entry
  of the old format) is a miss, the result equals the clean one and the entry is rebuilt;
* an unwritable cache (a cache path under a file, a full disk, a read-only folder) is
  skipped with a note in the sidecar, exit 0, no traceback.
"""
import dataclasses
import errno
import inspect
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
import xarray as xr

import nsfric
from nsfric import cache_store, chunk_store
from nsfric.cli import main
from nsfric.report import cache as report_cache, run_case
from nsfric.study import runs
from nsfric.study.sweep import CasePoint, FunctionPoint
from nsfric.symbolic import generated, numcache

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPACT = nsfric.get_case("normal-impact")

# -- a plug-in law outside nsfric ---------------------------------------------------------
PLUGIN = '''
import sympy as sp
import nsfric

x, v = sp.symbols("x v", real=True)
m, k, gamma = sp.symbols("m k gamma", positive=True)
P = nsfric.Param
FORCE = {force}


class DragCase(nsfric.Case):
    name, laws, default_law, t_end = "w24-drag-oscillator", ("w24-drag",), "w24-drag", 2.0
    initial = {{"x": "x0", "v": "v0"}}

    def build(self, law):
        drag = nsfric.TangentialLaw("w24-drag", "F = drag", (), (P(gamma, 0.5, 0, lo_open=True),),
                                    {{}}, {{"drag": ({{}}, FORCE)}}, velocity=v)
        spring = nsfric.Slider(v, position=x, mass=m, stiffness=k,
                               params=(P(m, 1.0, 0, lo_open=True), P(k, 1.0, 0, lo_open=True)))
        x0, v0 = sp.symbols("x0 v0", real=True)
        return nsfric.couple(spring, tangential=drag, name="w24-drag", params=(P(x0, 1.0), P(v0, 0.0)))
'''
SOLVE = "print(repr(float(DragCase().reference_solution(samples=3).y[0, -1])))"


def _python(code, cache, *path):
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(cache), NSFRIC_NUMCACHE="1",
               PYTHONPATH=os.pathsep.join([ROOT, *map(str, path)]))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return float(proc.stdout.split()[-1])


def _in_process(force, monkeypatch, cache=None):
    """The plug-in's result computed here (``cache``: None is the cache off)."""
    if cache is None:
        monkeypatch.setenv("NSFRIC_NUMCACHE", "0")
    else:
        monkeypatch.setenv("NSFRIC_NUMCACHE", "1")
        monkeypatch.setenv("NSFRIC_CACHE_DIR", str(cache))
    ns = {}
    exec(PLUGIN.format(force=force), ns)
    return float(ns["DragCase"]().reference_solution(samples=3).y[0, -1]), ns["DragCase"]


LAW_MODULE = '''
import sympy as sp
import nsfric

v = sp.Symbol("v", real=True)
gamma = sp.Symbol("gamma", positive=True)


def drag():
    return nsfric.TangentialLaw("w24-drag", "F = drag", (), (nsfric.Param(gamma, 0.5, 0, lo_open=True),),
                                {{}}, {{"drag": ({{}}, {force})}}, velocity=v)
'''
CASE_MODULE = '''
import sympy as sp
import nsfric
from w24_drag_law import drag, v

x, m, k = sp.symbols("x m k", real=True)
P = nsfric.Param


class DragCase(nsfric.Case):
    name, laws, default_law, t_end = "w24-drag-oscillator", ("w24-drag",), "w24-drag", 2.0
    initial = {"x": "x0", "v": "v0"}

    def build(self, law):
        spring = nsfric.Slider(v, position=x, mass=m, stiffness=k,
                               params=(P(m, 1.0, 0, lo_open=True), P(k, 1.0, 0, lo_open=True)))
        x0, v0 = sp.symbols("x0 v0", real=True)
        return nsfric.couple(spring, tangential=drag(), name="w24-drag", params=(P(x0, 1.0), P(v0, 0.0)))
'''


def test_a_plugin_law_edited_in_its_own_module_is_a_new_model(tmp_path, monkeypatch):
    """The issue's case: the law in a module of its own, the case in another one."""
    (tmp_path / "w24_drag_case.py").write_text(CASE_MODULE)
    law = tmp_path / "w24_drag_law.py"
    code = "from w24_drag_case import DragCase\n" + SOLVE
    law.write_text(LAW_MODULE.format(force="-gamma * v"))
    before = _python(code, tmp_path / "cache", tmp_path)
    law.write_text(LAW_MODULE.format(force="-3 * gamma * v"))  # the law edited, in a fresh process
    after = _python(code, tmp_path / "cache", tmp_path)
    exact, _ = _in_process("-3 * gamma * v", monkeypatch)
    assert after == pytest.approx(exact, rel=1e-12, abs=1e-14)
    assert abs(after - before) > 0.1


def test_a_law_defined_in_python_c_is_keyed_by_its_content(tmp_path, monkeypatch):
    before = _python(PLUGIN.format(force="-gamma * v") + SOLVE, tmp_path)
    after = _python(PLUGIN.format(force="-gamma * v**3") + SOLVE, tmp_path)
    exact, _ = _in_process("-gamma * v**3", monkeypatch)
    assert after == pytest.approx(exact, rel=1e-12, abs=1e-14)
    assert abs(after - before) > 1e-3


def _model(force="-gamma * v"):
    ns = {}
    exec(PLUGIN.format(force=force), ns)
    return ns["DragCase"]().model("w24-drag"), ns


MODEL_EDITS = {
    "formula": lambda m, ns: _model("-gamma * v - gamma**2 * v")[0],
    "parameter default": lambda m, ns: dataclasses.replace(m, params=(dataclasses.replace(m.params[0], default=0.25),)
                                                           + tuple(m.params[1:])),
    "parameter range": lambda m, ns: dataclasses.replace(m, params=(dataclasses.replace(m.params[0], hi=9.0),)
                                                         + tuple(m.params[1:])),
    "state order": lambda m, ns: dataclasses.replace(m, states=tuple(reversed(m.states))),
}


@pytest.mark.parametrize("edit", sorted(MODEL_EDITS))
def test_the_numerics_key_follows_every_part_of_the_model(edit):
    model, ns = _model()
    spec = numcache.content_spec(model)
    assert numcache.content_spec(_model()[0]) == spec  # the same content: the same key
    other = MODEL_EDITS[edit](model, ns)
    assert cache_store.spec_key(numcache.content_spec(other)) != cache_store.spec_key(spec)
    assert cache_store.spec_key(numcache.content_spec(model, "math")) != cache_store.spec_key(spec)


# -- the whole specification in the sweep point's key ----------------------------------------
def _renamed_case():
    case = type(IMPACT)()
    case.name = "normal-impact-renamed"
    return case


def _other_model_case():
    case = type(IMPACT)()
    m = case.model("hertz")
    case._models["hertz"] = dataclasses.replace(m, params=(dataclasses.replace(m.params[0], default=1.5e10),)
                                                + tuple(m.params[1:]))
    return case


BASE = dict(case=IMPACT, law="hertz", params={}, solver="filippov", options={}, t_end=None, estimate=True,
            scheme=None, dt=None)
#: one other value of every field of CasePoint (a new field must be added here: the test says so)
CHANGED = dict(case=_renamed_case, law="hertz-damped", params={"xi0": 1e-9}, solver="ida",
               options={"rtol": 1e-9}, t_end=3e-5, estimate=False, scheme="heun", dt=1e-7)
POINT = {"v_i": 0.5}


def _misses(field) -> bool:
    value = CHANGED[field]
    value = value() if callable(value) else value
    return CasePoint(**BASE).key(POINT) != CasePoint(**{**BASE, field: value}).key(POINT)


def test_every_field_of_a_point_has_a_changed_value_here():
    fields = [p for p in inspect.signature(CasePoint.__init__).parameters if p != "self"]
    assert sorted(fields) == sorted(CHANGED), "give the new field of CasePoint a changed value in CHANGED"


@pytest.mark.parametrize("field", sorted(CHANGED))
def test_each_field_of_a_point_changed_is_a_miss(field):
    assert _misses(field)


EXTRA = {
    "grid value (last digit)": lambda ev: ev.key({"v_i": np.nextafter(0.5, 1.0)}),
    "grid value of a parameter": lambda ev: ev.key({**POINT, "xi0": 1e-9}),
    "model content": lambda ev: CasePoint(**{**BASE, "case": _other_model_case()}).key(POINT),
    "versions": lambda ev: (setattr(ev, "versions", {**ev.versions, "numpy": "0.0"}), ev.key(POINT))[1],
}


@pytest.mark.parametrize("what", sorted(EXTRA))
def test_what_a_point_depends_on_beyond_its_fields_is_in_its_key(what):
    ev = CasePoint(**BASE)
    key = ev.key(POINT)
    assert EXTRA[what](ev) != key


def test_nsfric_source_is_in_the_point_key(monkeypatch):
    sweep_mod = sys.modules["nsfric.study.sweep"]
    key = CasePoint(**BASE).key(POINT)
    monkeypatch.setattr(sweep_mod, "source_hash", lambda: "edited")
    assert CasePoint(**BASE).key(POINT) != key


def test_the_mutant_without_t_end_in_the_key_is_caught(monkeypatch):
    spec = CasePoint.spec

    def mutant(self, point):
        return {k: v for k, v in spec(self, point).items() if k != "t_end"}
    monkeypatch.setattr(CasePoint, "spec", mutant)
    assert not _misses("t_end"), "the field test must see the mutant"
    assert _misses("law")


def test_a_sweep_at_another_end_time_is_not_served_from_the_cache(tmp_path):
    args = dict(law="hertz", grid={"v_i": [1.0]}, observables=["e_n"], cache_dir=str(tmp_path), estimate=False)
    first = nsfric.sweep(IMPACT, t_end=1e-3, **args)
    assert json.loads(nsfric.sweep(IMPACT, t_end=1e-3, **args).attrs["computed_points"]) == 0
    again = nsfric.sweep(IMPACT, t_end=2e-3, **args)
    assert json.loads(again.attrs["computed_points"]) == 1
    np.testing.assert_allclose(again["e_n"].values, first["e_n"].values, rtol=1e-9)


class Scaled:
    """A point function whose state changes its results (no cache_token)."""

    def __init__(self, factor):
        self.factor = factor

    def __repr__(self):
        return f"Scaled({self.factor!r})"

    def __call__(self, point):
        return {"y": self.factor * point["x"]}


def test_a_point_function_object_is_keyed_by_its_state(tmp_path):
    args = dict(grid={"x": [1.0, 2.0]}, observables=["y"], cache_dir=str(tmp_path))
    assert nsfric.sweep(Scaled(2.0), **args)["y"].values.tolist() == [2.0, 4.0]
    ds = nsfric.sweep(Scaled(3.0), **args)
    assert json.loads(ds.attrs["computed_points"]) == 2 and ds["y"].values.tolist() == [3.0, 6.0]
    token = Scaled(3.0)
    token.cache_token = "v2"
    assert FunctionPoint(token).key({"x": 1.0}) != FunctionPoint(Scaled(3.0)).key({"x": 1.0})


# -- the studies' reference cache -------------------------------------------------------------
REF_BASE = dict(law="d-sds", params=None, t_end=None, solver="auto")
REF_CHANGED = dict(law="c-sds", params={"v0": 3.0}, t_end=5.0, solver="filippov")


def test_every_field_of_a_reference_has_a_changed_value_here():
    fields = [p for p in inspect.signature(runs.reference_for).parameters if p != "source"]
    assert sorted(fields) == sorted(REF_CHANGED)


@pytest.mark.parametrize("field", sorted(REF_CHANGED))
def test_each_field_of_a_reference_changed_is_a_miss(field):
    case = nsfric.get_case("sliding-plates")
    base = runs.reference_for(case, **REF_BASE)
    assert runs.reference_for(case, **REF_BASE) is base
    other = runs.reference_for(case, **{**REF_BASE, field: REF_CHANGED[field]})
    assert other is not base


def test_a_reference_of_another_case_object_is_never_served(monkeypatch):
    monkeypatch.setenv("NSFRIC_NUMCACHE", "0")
    _, cls = _in_process("-gamma * v", monkeypatch)
    first = cls()
    want = float(runs.reference_for(first, "w24-drag").y[0, -1])
    ns = {}
    exec(PLUGIN.format(force="-4 * gamma * v"), ns)
    for _ in range(3):  # another object, perhaps at the same id once the first is gone
        first = ns["DragCase"]()
        got = float(runs.reference_for(first, "w24-drag").y[0, -1])
        assert got != want


# -- tampered sweep entries -------------------------------------------------------------------
SWEEP = dict(law="hertz", grid={"v_i": [0.5]}, observables=["e_n"], estimate=False)


@pytest.fixture(scope="module")
def clean_sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("clean-sweep")
    ds = nsfric.sweep(IMPACT, cache_dir=str(root / "cache"), **SWEEP)
    (entry,) = list((root / "cache").rglob("*.chunk"))  # the chunk holding the one entry
    return ds, root / "cache", entry.relative_to(root / "cache")


def _entry(path):
    """The header and the one entry line of a chunk file (nsfric.chunk_store)."""
    head, line, _ = path.read_text().split("\n")
    return head, line


def _resigned(path, edit):
    """The entry's body edited, with a correct checksum (only the content can tell)."""
    head, line = _entry(path)
    key, _, body = line.split(" ", 2)
    edited = edit(body)
    assert edited != body
    path.write_text(f"{head}\n{key} {chunk_store._line_sum(key, edited)} {edited}\n")


def _flip_digit(path):
    head, line = _entry(path)
    i = line.index('"e_n":') + len('"e_n":') + 3
    digit = line[i]
    assert digit.isdigit()
    path.write_text(head + "\n" + line[:i] + str((int(digit) + 1) % 10) + line[i + 1:] + "\n")


def _nan(path):  # NaN, with a correct checksum
    _resigned(path, lambda body: re.sub(r'"e_n":[0-9.e-]+', '"e_n":NaN', body))


def _other_spec(path):  # stored for another end time, with a correct checksum
    _resigned(path, lambda body: body.replace('"t_end":null', '"t_end":{"float":"10.0"}', 1))


def _old_format(path):  # the chunk replaced by an entry of the one-file-per-point format of before
    head, line = _entry(path)
    path.write_text(json.dumps({"key": line[:64], "result": {"observables": {"e_n": 0.5}}}))


def _empty_dir(path):
    path.unlink()
    path.mkdir()


def _full_dir(path):
    path.unlink()
    path.mkdir()
    (path / "notes.txt").write_text("not nsfric's")


TAMPERS = {
    "flipped digit": _flip_digit,
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    "NaN value": _nan,
    "garbage": lambda p: p.write_bytes(bytes(range(256)) * 8),
    "empty file": lambda p: p.write_text(""),
    "empty directory": _empty_dir,
    "directory with a file": _full_dir,
    "another specification": _other_spec,
    "old entry format": _old_format,
}


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_sweep_entry_is_a_miss_and_rebuilt(clean_sweep, tmp_path, tamper):
    clean, cache, rel = clean_sweep
    shutil.copytree(cache, tmp_path / "cache")
    entry = tmp_path / "cache" / rel
    TAMPERS[tamper](entry)
    args = dict(cache_dir=str(tmp_path / "cache"), **SWEEP)
    healed = nsfric.sweep(IMPACT, **args)
    assert json.loads(healed.attrs["computed_points"]) == 1
    xr.testing.assert_equal(healed["e_n"], clean["e_n"])
    again = nsfric.sweep(IMPACT, **args)
    assert json.loads(again.attrs["computed_points"]) == 0  # rebuilt (in a new chunk): served again
    if tamper == "directory with a file":  # not nsfric's: kept
        assert (entry / "notes.txt").read_text() == "not nsfric's"
    xr.testing.assert_equal(again["e_n"], clean["e_n"])


# -- tampered numerics entries and aliases ------------------------------------------------------
def _solve_drag(monkeypatch, cache):
    return _in_process("-gamma * v", monkeypatch, cache)[0]


NUMERICS_TAMPERS = {k: TAMPERS[k] for k in ("flipped digit", "empty directory", "old entry format")}


def _numerics_flip(path):
    head, payload = path.read_text().split("\n", 1)
    i = next(i for i, c in enumerate(payload) if c.isdigit())
    path.write_text(head + "\n" + payload[:i] + str((int(payload[i]) + 1) % 10) + payload[i + 1:])


def _numerics_nan(path):
    head, payload = path.read_text().split("\n", 1)
    path.write_text(head + "\n" + payload.replace('"__float__": "inf"', "Infinity", 1).replace("0", "NaN", 1))


def _numerics_old(path):
    head, payload = path.read_text().split("\n", 1)
    data = json.loads(payload)["data"]
    payload = json.dumps({"format": 1, "key": path.stem, **data}, sort_keys=True)
    path.write_text(f"nsfric-numcache 1 sha256={cache_store.checksum(payload)}\n{payload}")


NUMERICS = {"flipped digit": _numerics_flip, "NaN literal": _numerics_nan, "empty directory": _empty_dir,
            "entry of the old format": _numerics_old}


@pytest.mark.parametrize("tamper", sorted(NUMERICS))
def test_a_tampered_numerics_entry_is_a_miss_and_rebuilt(tmp_path, monkeypatch, tamper):
    clean = _solve_drag(monkeypatch, tmp_path)
    (entry,) = list((tmp_path / "numerics").glob("*.json"))
    NUMERICS[tamper](entry)
    assert numcache.Entry.load(numcache.content_spec(_model()[0])) is None
    assert _solve_drag(monkeypatch, tmp_path) == clean
    assert numcache.Entry.load(numcache.content_spec(_model()[0])) is not None  # rebuilt


@pytest.mark.parametrize("tamper", ["garbage", "another specification"])
def test_a_tampered_alias_is_a_miss_and_rebuilt(tmp_path, monkeypatch, tamper):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "1")
    case = type(nsfric.get_case("dry-oscillator"))
    clean = case().reference_solution("coulomb", samples=3).y
    (alias,) = list((tmp_path / "numerics-alias").glob("*.json"))
    if tamper == "garbage":
        alias.write_bytes(os.urandom(512))
    else:  # a whole alias pointing to another model's entry
        head, payload = alias.read_text().split("\n", 1)
        data = json.loads(payload)
        data["data"]["model"] = "0" * 64
        payload = json.dumps(data, sort_keys=True)
        alias.write_text(cache_store.header(numcache.ALIAS, payload) + "\n" + payload)
    fresh = case()
    np.testing.assert_array_equal(fresh.reference_solution("coulomb", samples=3).y, clean)
    assert "coulomb" in fresh._models  # the model was built again: the alias was not trusted
    head, payload = alias.read_text().split("\n", 1)
    assert json.loads(payload)["data"]["model"] != "0" * 64  # rewritten


# -- the report cache: a small case, not a full report -----------------------------------------
class TinyCase(nsfric.Case):
    name, laws, default_law, t_end = "w24-tiny", (), None, 1.0
    runs = 0

    def run(self, out_dir, progress=None):
        TinyCase.runs += 1
        os.makedirs(os.path.join(out_dir, "data"), exist_ok=True)
        path = os.path.join(out_dir, "data", "table.csv")
        rows = "\n".join(f"{i},{i * 0.125!r},match" for i in range(12))
        with open(path, "w") as f:
            f.write("i,value,verdict\n" + rows + "\n")
        return {"written": [path]}


def _report_entry(root):
    (manifest,) = list((root / "report").rglob("manifest.json"))
    return manifest.parent


REPORT_TAMPERS = {
    "truncated CSV": lambda e: (e / "data/table.csv").write_text((e / "data/table.csv").read_text()[:40]),
    "flipped digit in the CSV": lambda e: (e / "data/table.csv").write_text(
        (e / "data/table.csv").read_text().replace("0.125", "0.126")),
    "missing file": lambda e: (e / "data/table.csv").unlink(),
    "garbage manifest": lambda e: (e / "manifest.json").write_bytes(os.urandom(300)),
    "manifest of the old format": lambda e: (e / "manifest.json").write_text(
        json.dumps({"case": "w24-tiny", "seconds": 0.0, "written": ["data/table.csv"], "files": ["data/table.csv"]})),
}


@pytest.mark.parametrize("tamper", sorted(REPORT_TAMPERS))
def test_a_tampered_report_entry_is_never_copied(tmp_path, monkeypatch, tamper):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    case, TinyCase.runs = TinyCase(), 0
    run_case(case, str(tmp_path / "a"))
    clean = (tmp_path / "a" / "data" / "table.csv").read_text()
    assert run_case(case, str(tmp_path / "b"))["cached"] and TinyCase.runs == 1
    REPORT_TAMPERS[tamper](_report_entry(tmp_path))
    assert not run_case(case, str(tmp_path / "c"))["cached"] and TinyCase.runs == 2
    assert (tmp_path / "c" / "data" / "table.csv").read_text() == clean
    assert run_case(case, str(tmp_path / "d"))["cached"]  # rebuilt
    assert (tmp_path / "d" / "data" / "table.csv").read_text() == clean


def test_the_report_key_holds_a_plugin_case_model(monkeypatch):
    _, cls = _in_process("-gamma * v", monkeypatch)
    ns = {}
    exec(PLUGIN.format(force="-2 * gamma * v"), ns)
    assert report_cache.case_key(cls()) != report_cache.case_key(ns["DragCase"]())


# -- the kernels cache ----------------------------------------------------------------------------
KERNEL = "def twice(x):\n    return 2 * x\n"


def test_a_tampered_kernel_file_is_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    source = KERNEL + f"# {tmp_path.name}\n"
    stem = "w24tamper"
    mod = generated.load_source(source, stem)
    path = pathlib.Path(mod.__file__)
    generated._MODULES.clear()
    path.write_text(source.replace("2 * x", "3 * x"))
    assert generated.load_source(source, stem).twice(2) == 4
    assert path.read_text() == source


# -- unwritable caches: skipped with a note, never a failed run ---------------------------------------
def _file_as_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("a regular file")
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(blocker))
    return blocker


def test_a_cache_path_that_is_a_file_is_skipped_by_sweep(tmp_path, monkeypatch, capsys):
    _file_as_cache(tmp_path, monkeypatch)
    rc = main(["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=0.5,2", "--observable", "e_n",
               "--no-estimate", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 0 and "Traceback" not in err and "cannot write" not in err.split("note")[0]
    notes = json.loads((tmp_path / "out" / "sweep.json").read_text())["cache"]
    assert [n["kind"] for n in notes] == ["sweep"] and "Not a directory" in notes[0]["skipped"]


def test_a_full_disk_skips_the_sweep_cache(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "cache"
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(cache))
    replace = os.replace

    def full(src, dst, *a, **k):
        if str(dst).startswith(str(cache)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return replace(src, dst, *a, **k)
    monkeypatch.setattr(os, "replace", full)
    rc = main(["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=0.5", "--observable", "e_n",
               "--no-estimate", "--out", str(tmp_path / "out")])
    assert rc == 0
    notes = json.loads((tmp_path / "out" / "sweep.json").read_text())["cache"]
    assert notes[0]["kind"] == "sweep" and os.strerror(errno.ENOSPC) in notes[0]["skipped"]
    assert not list(cache.rglob(".tmp-*"))  # nothing half written left behind
    assert "note: the sweep cache" in capsys.readouterr().err


def test_a_read_only_cache_folder_is_skipped(tmp_path, monkeypatch):
    cache = tmp_path / "ro"
    cache.mkdir()
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(cache))
    os.chmod(cache, 0o555)
    try:
        if os.access(cache, os.W_OK):  # root writes anyway: a path under a file instead
            monkeypatch.setenv("NSFRIC_CACHE_DIR", str(_file_as_cache(tmp_path, monkeypatch) / "sub"))
        cache_store.clear_notes()
        clean = nsfric.sweep(IMPACT, cache_dir=os.path.join(os.environ["NSFRIC_CACHE_DIR"], "sweep"), **SWEEP)
        assert json.loads(clean.attrs["cache"])[0]["kind"] == "sweep"
    finally:
        os.chmod(cache, 0o755)


def test_an_unwritable_numerics_cache_is_noted_in_the_reference_sidecar(tmp_path, monkeypatch):
    from nsfric.cases.reference import reference_meta
    from nsfric.io import write_csv_with_sidecar

    _file_as_cache(tmp_path, monkeypatch)
    cache_store.clear_notes()
    got, cls = _in_process("-gamma * v", monkeypatch, os.environ["NSFRIC_CACHE_DIR"])
    case = cls()
    sol = case.reference_solution("w24-drag", samples=3)
    write_csv_with_sidecar(str(tmp_path / "ref.csv"), sol.columns(), reference_meta(case, "w24-drag", sol))
    side = json.loads((tmp_path / "ref.json").read_text())
    assert "numerics" in {n["kind"] for n in side["cache"]}
    assert got == _in_process("-gamma * v", monkeypatch)[0]  # the same as with the cache off


def test_an_unwritable_kernels_cache_imports_from_a_private_folder(tmp_path, monkeypatch):
    blocker = _file_as_cache(tmp_path, monkeypatch)
    cache_store.clear_notes()
    mod = generated.load_source(KERNEL + f"# {tmp_path.name}\n", "w24ro")
    assert mod.twice(21) == 42 and not mod.__file__.startswith(str(blocker))
    assert [n["kind"] for n in cache_store.notes()] == ["kernels"]


def test_an_unwritable_report_cache_is_skipped(tmp_path, monkeypatch):
    _file_as_cache(tmp_path, monkeypatch)
    cache_store.clear_notes()
    case, TinyCase.runs = TinyCase(), 0
    assert not run_case(case, str(tmp_path / "a"))["cached"]
    assert not run_case(case, str(tmp_path / "b"))["cached"] and TinyCase.runs == 2
    assert [n["kind"] for n in cache_store.notes()] == ["report"]
