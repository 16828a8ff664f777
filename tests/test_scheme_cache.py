"""The discrete schemes' generated code in the disk cache (issue 11): a warm process runs
fixed-step, implicit, Nordsieck, partitioned, delta and batched (numba) schemes without
SymPy and with the numbers of the cache-off run; a corrupt scheme entry is rebuilt;
two processes fill one empty cache (nsfric/schemes/codecache.py)."""
import os
import shutil

import numpy as np
import pytest

import nsfric
from nsfric.schemes import codecache
from test_numcache import CORRUPTIONS as FILE_CORRUPTIONS, _fresh_case, _probe as probe, _result, _rewrite_payload

#: (case, law, scheme, dt, t_end, array-valued params or None): every kind of generated
#: code a scheme reads (Newton: implicit-euler; Taylor: gear5; the split:
#: symplectic-euler; the affine-guard test: an event-aware scheme; the delta pieces and
#: kernel; the batch kernel)
RUNS = [("sliding-plates", "c-sds", "heun", 1e-3, 1.0, None),
        ("sliding-plates", "d-sds", "implicit-euler", 1e-2, 1.0, None),
        ("sliding-plates", "d-sds", "gear5", 1e-2, 1.0, None),
        ("sliding-plates", "d-sds", "symplectic-euler", 1e-2, 1.0, None),
        ("sliding-plates", "d-sds", "bdf2-event", 1e-2, 1.0, None),
        ("dry-oscillator", "coulomb", "delta-heun", 1e-2, 3.0, None),
        ("sliding-plates", "c-sds", "heun", 1e-3, 1.0, {"v0": [1.0, 2.5, 4.0, 8.0]}),
        ("dry-oscillator", "coulomb", "delta-bdf2-pc", 1e-2, 3.0, {"x0": [1.5, 2.1, 3.0]})]

PROBE = """
import json, sys
import numpy as np
import nsfric
out = []
for case, law, scheme, dt, t_end, params in %r:
    sol = nsfric.simulate(case, law=law, scheme=scheme, dt=dt, t_end=t_end,
                          params=params and {k: np.array(v) for k, v in params.items()})
    out.append({"y": np.asarray(sol.y).tolist(), "backend": sol.info.get("backend"),
                "nfev": sol.stats.get("nfev"), "modes": None if params else list(sol.modes)})
print(json.dumps({"sympy": "sympy" in sys.modules, "res": out}))
""" % (RUNS,)


def _probe(cache, numcache_on=True, wait=True):
    return probe(cache, numcache_on, wait, PROBE)


def _assert_equal(a, b):
    """Bit for bit (NaN rows of a diverged member equal too)."""
    assert len(a) == len(b)
    for run, x, y in zip(RUNS, a, b):
        np.testing.assert_array_equal(np.array(x["y"], dtype=float), np.array(y["y"], dtype=float), err_msg=str(run))
        assert (x["backend"], x["nfev"], x["modes"]) == (y["backend"], y["nfev"], y["modes"]), run


@pytest.fixture(scope="module")
def no_cache(tmp_path_factory):
    """The runs with the cache off: everything derived from SymPy."""
    res = _probe(tmp_path_factory.mktemp("off"), numcache_on=False)
    assert res["sympy"]
    assert [r["backend"] for r in res["res"]][-2:] == ["numba", "numba"]  # the compiled kernels ran
    return res


def test_warm_simulate_needs_no_sympy_and_gives_the_same_numbers(tmp_path, no_cache):
    cold = _probe(tmp_path)  # fills the empty cache
    assert cold["sympy"]
    warm = _probe(tmp_path)
    assert not warm["sympy"], "a warm disk cache must spare the SymPy import of the schemes"
    _assert_equal(warm["res"], no_cache["res"])
    _assert_equal(cold["res"], no_cache["res"])


def test_concurrent_processes_fill_one_empty_cache(tmp_path, no_cache):
    procs = [_probe(tmp_path, wait=False) for _ in range(2)]
    for p in procs:
        _assert_equal(_result(p)["res"], no_cache["res"])
    names = os.listdir(tmp_path / "numerics")
    assert not [n for n in names if n.startswith(".tmp")], names  # no temporary file left behind
    warm = _probe(tmp_path)
    assert not warm["sympy"], "the merged entries must hold everything both processes stored"
    _assert_equal(warm["res"], no_cache["res"])


# -- corrupt scheme entries: in this process, counting how often the symbolic model is built --
def _runs(case):
    """Runs that read every kind of stored scheme code of the d-sds model (functions,
    the split value, the batch kernel's source)."""
    out = [nsfric.simulate(case, law="d-sds", scheme=s, dt=1e-2, t_end=1.0).y
           for s in ("implicit-euler", "gear5", "symplectic-euler")]
    out.append(nsfric.simulate(case, law="d-sds", scheme="heun", dt=1e-2, t_end=1.0,
                               params={"v0": np.array([1.0, 3.0])}).y)
    return out


def _scheme_entry(case):
    model = case.numeric_model("d-sds")
    return os.path.join(os.path.dirname(model.entry.path), codecache.companion_key(model.entry.key) + ".json")


def _set(data, kind, value):
    name = next(k for k in data["functions"] if kind in k)
    data["functions"][name] = value


CORRUPTIONS = {
    **{k: FILE_CORRUPTIONS[k] for k in ("truncated", "wrong hash", "garbage", "other key")},
    "function that does not compile": lambda p: _rewrite_payload(p, lambda d: d["functions"][next(
        k for k in d["functions"] if "taylor" in k)]["fn"].update(src="def _lambdifygenerated(:\n")),
    "split out of range": lambda p: _rewrite_payload(p, lambda d: _set(d, "split", {"value": [[7], [0]]})),
    "kernel source not text": lambda p: _rewrite_payload(p, lambda d: _set(d, "field-module", {"value": {"source": 3}})),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupt_scheme_entry_is_rebuilt(tmp_path, monkeypatch, corruption):
    pytest.importorskip("numba")
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "1")
    monkeypatch.delenv("NSFRIC_BATCH_BACKEND", raising=False)
    builds = []
    ref = _runs(_fresh_case(builds))
    assert builds == ["d-sds"]
    builds.clear()
    warm = _fresh_case(builds)
    for y, r in zip(_runs(warm), ref):
        np.testing.assert_array_equal(y, r)
    assert builds == [], "a complete valid scheme entry needs no symbolic model"

    path = _scheme_entry(warm)
    CORRUPTIONS[corruption](path)
    for y, r in zip(_runs(_fresh_case(builds)), ref):
        np.testing.assert_array_equal(y, r)
    assert builds == ["d-sds"], "a corrupt scheme entry must be rebuilt from the symbolic model"
    builds.clear()
    for y, r in zip(_runs(_fresh_case(builds)), ref):  # the rebuilt entry is whole again
        np.testing.assert_array_equal(y, r)
    assert builds == []


def test_the_scheme_key_follows_the_schemes_sources(tmp_path, monkeypatch):
    src = tmp_path / "schemes"
    shutil.copytree(codecache.HERE, src, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(codecache, "HERE", str(src))
    codecache.schemes_digest.cache_clear()
    try:
        key = codecache.companion_key("m" * 64)
        assert codecache.companion_key("m" * 64) == key
        assert codecache.companion_key("n" * 64) != key  # the model entry's key
        with open(src / "rk.py", "a") as f:
            f.write("# edited\n")
        codecache.schemes_digest.cache_clear()
        assert codecache.companion_key("m" * 64) != key
    finally:
        codecache.schemes_digest.cache_clear()


def test_cache_off_writes_no_scheme_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "0")
    case = type(nsfric.get_case("sliding-plates"))()
    nsfric.simulate(case, law="d-sds", scheme="implicit-euler", dt=1e-2, t_end=0.1)
    assert codecache.store(case.numeric_model("d-sds")).entry is None
    assert not os.path.exists(tmp_path / "numerics")
