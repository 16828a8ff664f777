"""The one memo mechanism (nsfric.memo): bounded, least recently used, keyed by content
or by a live object's Identity -- never by a bare id(), which CPython hands to the next
object allocated at a collected object's address."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nsfric.memo import Identity, Memo, memo
from nsfric.study import runs

ROOT = Path(__file__).resolve().parents[1] / "nsfric"


class Thing:
    pass


def test_lru_bound_and_eviction_order():
    m = Memo(2, "test-lru")
    m.get("a", lambda: 1)
    m.get("b", lambda: 2)
    assert m.get("a", lambda: -1) == 1  # a now the most recent
    m.get("c", lambda: 3)  # evicts b, the least recently used
    assert len(m) == 2 and "a" in m and "c" in m and "b" not in m
    assert (m.hits, m.misses) == (1, 3)
    m.clear()
    assert len(m) == 0 and (m.hits, m.misses) == (0, 0)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, None])
def test_maxsize_is_checked(bad):
    with pytest.raises(ValueError, match="maxsize"):
        Memo(bad)


def test_remembered_failures_are_raised_again_without_building():
    m, calls = Memo(4, "test-failure"), []

    def build():
        calls.append(1)
        raise KeyError("no")
    for _ in range(2):
        with pytest.raises(KeyError):
            m.get("k", build, failure=KeyError)
    assert len(calls) == 1
    with pytest.raises(ValueError):  # not a declared failure: not remembered
        m.get("v", lambda: (_ for _ in ()).throw(ValueError("x")))
    assert "v" not in m


def test_decorator_is_bounded_and_clearable():
    calls = []

    @memo(maxsize=3)
    def square(x):
        calls.append(x)
        return x * x
    assert [square(i) for i in (1, 2, 1, 3, 4, 1)] == [1, 4, 1, 9, 16, 1]
    assert calls == [1, 2, 3, 4] and len(square.memo) == 3
    square.cache_clear()
    assert square(1) == 1 and calls[-1] == 1


def test_identity_of_a_collected_object_matches_no_newcomer():
    """The id of a collected object is reused; its Identity key no longer matches."""
    m = Memo(8, "test-identity")
    seen = {}
    for i in range(50):
        t = Thing()
        assert m.get(Identity(t), lambda: i) == i  # a fresh object never gets a dead one's entry
        seen.setdefault(id(t), 0)
        seen[id(t)] += 1
        del t

    assert max(seen.values()) > 1, "CPython reused no id: the case this test is about did not arise"
    assert len(m) <= 8


def test_a_full_memo_of_content_keys_scans_no_key_on_put(monkeypatch):
    """A full memo drops dead Identity entries first; content keys cannot die, so a put
    looks at none of them (before: every put of a full memo tested every key, which made
    512 parameter sets' bindings quadratic: minutes for a batch of 1,000 members)."""
    import nsfric.memo as M

    m = Memo(64, "test-full")
    for i in range(64):
        m.put(("exprs", (1.0, float(i))), i)
    calls = []
    real = M._alive
    monkeypatch.setattr(M, "_alive", lambda k: calls.append(k) or real(k))
    for i in range(64, 200):
        m.put(("exprs", (1.0, float(i))), i)
    assert calls == [] and len(m) == 64 and ("exprs", (1.0, 199.0)) in m and ("exprs", (1.0, 0.0)) not in m
    # a dead object's entry still goes before any live one
    t, keep = Thing(), Thing()
    m.put(Identity(keep), "keep")
    m.put((Identity(t), "x"), "dies")
    del t
    m.put("newcomer", 0)
    assert len(m) == 64 and Identity(keep) in m and "newcomer" in m
    assert not any(isinstance(k, tuple) and isinstance(k[0], Identity) for k in m._data)
    assert ("exprs", (1.0, 199.0)) in m  # only the dead entry was dropped


def test_identity_keys_of_unweakrefable_objects_hold_them():
    k = Identity(12345678901234567890)
    assert k.alive and k == Identity(k.target()) and hash(k) == id(k.target())


class _Timed(Exception):
    pass


class _Source:
    """A case-like source: ``problem`` gives what run_one reads before simulating."""

    name = "fake"

    def problem(self, law, params, t_end):
        from types import SimpleNamespace

        return SimpleNamespace(t_span=(0.0, 1.0))


def test_warm_up_is_per_live_source_not_per_reused_id(monkeypatch):
    """run_one compiles a source's generated code outside the timed run once per
    (source, law, scheme); keyed by id(source), a new source at a dead one's address
    was taken as warm and its compilation was timed."""
    warm = []

    def simulate(prob, **kw):
        if "max_steps" in kw:  # the timed run: stop here
            raise _Timed
        warm.append(prob)
    monkeypatch.setattr(runs, "simulate", simulate)
    ids, n = set(), 30
    for _ in range(n):
        src = _Source()
        ids.add(id(src))
        try:
            runs.run_one(src, "coulomb", "rk4", 0.1)
        except _Timed:
            pass
        del src

    assert len(ids) < n, "no id was reused: the failure mode did not arise"
    assert len(warm) == n


def _name(node):
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)


def _unbounded_caches(path: Path) -> list:
    """Lines of ``@functools.cache`` / ``@cache`` decorators and ``lru_cache`` calls
    without a ``maxsize`` or with ``maxsize=None`` in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out += [d.lineno for d in node.decorator_list if _name(d) in ("cache", "lru_cache")]
        if isinstance(node, ast.Call) and _name(node.func) == "lru_cache":
            kw = {k.arg: k.value for k in node.keywords}
            size = kw.get("maxsize", node.args[0] if node.args else None)
            if size is None or (isinstance(size, ast.Constant) and size.value is None):
                out.append(node.lineno)
    return sorted(set(out))


@pytest.mark.parametrize("src, n", [
    ("import functools\n@functools.cache\ndef f(): pass\n", 1),
    ("from functools import lru_cache\n@lru_cache(maxsize=None)\ndef f(x): pass\n", 1),
    ("@lru_cache\ndef f(x): pass\n", 1),
    ("g = lru_cache(None)(f)\n", 1),
    ("@lru_cache(maxsize=8)\ndef f(x): pass\ncache = {}\n", 0),
])
def test_the_cache_scan_sees_every_form(src, n):
    assert len(_unbounded_caches_of(src)) == n


def _unbounded_caches_of(src: str) -> list:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(src)
    try:
        return _unbounded_caches(Path(fh.name))
    finally:
        Path(fh.name).unlink()


def test_no_unbounded_cache_in_the_engine():
    """Every cache of the engine and the papers is bounded (the CLI's names table is
    read once per process, left as is)."""
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("cli/"):
            continue
        offenders += [f"{rel}:{line}" for line in _unbounded_caches(path)]
    assert not offenders, offenders
