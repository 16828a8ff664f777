"""The disk cache of derived numerics (issue 11, item 3): a warm process solves a reference
without SymPy and with the same numbers; corrupt entries are rebuilt; concurrent writers."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import nsfric
from nsfric import cache_store
from nsfric.symbolic import numcache
from nsfric.symbolic.frozen import FrozenModel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("sliding-plates", "c-sds"), ("sliding-plates", "d-sds"), ("dry-oscillator", "coulomb")]

PROBE = """
import json, sys
import numpy as np
import nsfric
out = {}
for case, law in %r:
    sol = nsfric.get_case(case).reference_solution(law, samples=201)
    out[case + "/" + law] = {k: np.asarray(v).tolist() for k, v in sol.columns().items()}
    out[case + "/" + law]["events"] = [[e["t"], e["kind"], e["from"], e["to"]] for e in sol.event_log()]
print(json.dumps({"sympy": "sympy" in sys.modules, "res": out}))
""" % (CASES,)


def _probe(cache, numcache_on=True, wait=True, script=PROBE):
    """The JSON ``script`` prints in a fresh process on the cache folder ``cache``."""
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(cache), NSFRIC_NUMCACHE="1" if numcache_on else "0",
               PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    env.pop("NSFRIC_BATCH_BACKEND", None)
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    return _result(proc) if wait else proc


def _result(proc):
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return json.loads(out)


def _assert_equal(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].keys() == b[key].keys()
        for col in a[key]:
            x, y = a[key][col], b[key][col]
            if col != "events" and np.asarray(x).dtype.kind == "f":
                np.testing.assert_allclose(x, y, rtol=0, atol=1e-15, err_msg=f"{key} {col}")
            else:
                assert x == y, (key, col)


@pytest.fixture(scope="module")
def no_cache(tmp_path_factory):
    """The references with the cache off: everything derived from SymPy."""
    return _probe(tmp_path_factory.mktemp("off"), numcache_on=False)


def test_warm_process_needs_no_sympy_and_gives_the_same_numbers(tmp_path, no_cache):
    assert no_cache["sympy"]
    cold = _probe(tmp_path)  # fills the empty cache
    assert cold["sympy"]
    assert len(os.listdir(tmp_path / "numerics")) == len(CASES)
    warm = _probe(tmp_path)
    assert not warm["sympy"], "a warm disk cache must spare the SymPy import"
    _assert_equal(warm["res"], no_cache["res"])
    _assert_equal(cold["res"], no_cache["res"])


def test_concurrent_processes_fill_one_empty_cache(tmp_path, no_cache):
    procs = [_probe(tmp_path, wait=False) for _ in range(2)]
    results = [_result(p) for p in procs]
    for r in results:
        _assert_equal(r["res"], no_cache["res"])
    files = sorted(os.listdir(tmp_path / "numerics"))
    assert len(files) == len(CASES), files  # no temporary file left behind
    warm = _probe(tmp_path)
    assert not warm["sympy"]
    _assert_equal(warm["res"], no_cache["res"])


# -- corrupt entries: in this process, counting how often the symbolic model is built --------
def _solve(cache_case, law="d-sds"):
    sol = cache_case.reference_solution(law, samples=101)
    return sol.y, [(e["t"], e["to"]) for e in sol.event_log()]


def _fresh_case(builds):
    case = type(nsfric.get_case("sliding-plates"))()
    build = case.build

    def counting(law):
        builds.append(law)
        return build(law)
    case.build = counting
    return case


def _entry_file(root):
    (path,) = [os.path.join(root, "numerics", f) for f in os.listdir(os.path.join(root, "numerics"))]
    return path


def _rewrite_payload(path, edit, part="data"):
    """Edit the payload's ``part`` (its ``data`` or its ``spec``) and store it with a
    correct checksum (a file that passes the checksum but must still not be trusted)."""
    _, payload = pathlib.Path(path).read_text().split("\n", 1)
    data = json.loads(payload)
    edit(data[part])
    payload = json.dumps(data, sort_keys=True)
    with open(path, "w") as f:
        f.write(f"{cache_store.header(numcache.KIND, payload)}\n{payload}")


def _garbage_function(data):
    name = next(k for k in data["functions"] if "rhs" in k)
    data["functions"][name]["fn"]["src"] = "def _lambdifygenerated(:\n"


def _truncate(path):
    with open(path, "r+") as f:
        f.truncate(os.path.getsize(path) // 2)


def _wrong_hash(path):
    _, payload = pathlib.Path(path).read_text().split("\n", 1)
    with open(path, "w") as f:
        f.write(f"{cache_store.MAGIC} {cache_store.FORMAT} {numcache.KIND} sha256={'0' * 64}\n{payload}")


def _garbage(path):
    with open(path, "wb") as f:
        f.write(os.urandom(4096))


def _empty(path):
    pathlib.Path(path).write_text("")


CORRUPTIONS = {
    "truncated": _truncate,
    "wrong hash": _wrong_hash,
    "garbage": _garbage,
    "empty": _empty,
    "other key": lambda p: _rewrite_payload(p, lambda d: d.update(model="0" * 64), "spec"),
    "function that does not compile": lambda p: _rewrite_payload(p, _garbage_function),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupt_entry_is_rebuilt(tmp_path, monkeypatch, corruption):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "1")
    builds = []
    y_ref, ev_ref = _solve(_fresh_case(builds))
    assert builds == ["d-sds"]
    builds.clear()
    warm = _fresh_case(builds)
    y, ev = _solve(warm)
    assert builds == [], "a complete valid entry needs no symbolic model"
    assert isinstance(warm.numeric_model("d-sds"), FrozenModel)
    np.testing.assert_array_equal(y, y_ref)

    path = _entry_file(tmp_path)
    CORRUPTIONS[corruption](path)
    y, ev = _solve(_fresh_case(builds))
    assert builds == ["d-sds"], "a corrupt entry must be rebuilt from the symbolic model"
    np.testing.assert_array_equal(y, y_ref)
    assert ev == ev_ref
    builds.clear()
    y, ev = _solve(_fresh_case(builds))  # the rebuilt entry is whole again
    assert builds == []
    np.testing.assert_array_equal(y, y_ref)


def test_the_key_follows_the_sources_and_names(tmp_path):
    src = tmp_path / "case.py"
    src.write_text("x = 1\n")
    key = numcache.entry_key("sliding-plates", "d-sds", "numpy", [str(src)])
    assert numcache.entry_key("sliding-plates", "d-sds", "numpy", [str(src)]) == key
    assert numcache.entry_key("sliding-plates", "c-sds", "numpy", [str(src)]) != key
    assert numcache.entry_key("dry-oscillator", "d-sds", "numpy", [str(src)]) != key
    assert numcache.entry_key("sliding-plates", "d-sds", "math", [str(src)]) != key
    src.write_text("x = 2\n")
    assert numcache.entry_key("sliding-plates", "d-sds", "numpy", [str(src)]) != key


def test_cache_off_gives_the_symbolic_model(monkeypatch, tmp_path):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "0")
    case = type(nsfric.get_case("sliding-plates"))()
    assert case.numeric_model("c-sds") is case.model("c-sds")
    assert not os.path.exists(tmp_path / "numerics")


def test_generated_lambdas_are_cached_and_a_corrupt_entry_rebuilt(tmp_path, monkeypatch):
    import sympy as sp

    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "1")
    a, b = sp.symbols("a b", positive=True)
    builds = []

    def build():
        builds.append(1)
        return {"root": (sp.lambdify(["a", "b"], sp.sqrt(a) * sp.exp(-b) + sp.pi, "math"), ["a", "b"], "sqrt(a)"),
                "ratio": (sp.lambdify(["a"], a / 3, "math"), ["a"], "a/3")}
    want = {k: f(*[2.0, 0.5][:len(args)]) for k, (f, args, _) in build().items()}
    builds.clear()
    for expect_build, corrupt in ((1, None), (0, None), (1, _wrong_hash), (0, None), (1, _truncate)):
        if corrupt:
            corrupt(_entry_file(tmp_path))
        got = numcache.cached_lambdas("test/lambdas", build)
        assert len(builds) == expect_build, corrupt
        builds.clear()
        assert list(got) == ["root", "ratio"]  # build()'s order
        assert {k: f(*[2.0, 0.5][:len(args)]) for k, (f, args, _) in got.items()} == want
        assert [text for *_, text in got.values()] == ["sqrt(a)", "a/3"]  # the texts kept with them


@pytest.mark.parametrize("solver,law", [("ida", "d-sds"), ("radau5dae", "c-sds")])
def test_a_warm_dae_reference_needs_no_symbolic_model(tmp_path, monkeypatch, solver, law):
    """The DAE solvers read the residuals, their iteration matrices and the kink events
    from the cache entry as the event-driven solver reads its functions: a second
    process (here a fresh case) builds no symbolic model and gives the same bits (the
    oblique impact's Coulomb model took ~25 s of SymPy in every process that ran ida)."""
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NSFRIC_NUMCACHE", "1")
    builds = []

    def solve(case):
        sol = case.reference_solution(law, solver=solver, samples=101)
        return sol.y, [(e["t"], e["to"]) for e in sol.event_log()], sol.stats["nsteps"]
    cold = solve(_fresh_case(builds))
    assert builds == [law]
    builds.clear()
    warm_case = _fresh_case(builds)
    warm = solve(warm_case)
    assert builds == [], "a warm DAE reference must not build the symbolic model"
    assert isinstance(warm_case.numeric_model(law), FrozenModel)
    np.testing.assert_array_equal(warm[0], cold[0])
    assert warm[1:] == cold[1:]


USER_MODEL = """
import json, sys
import numpy as np
import sympy as sp
from nsfric.solvers import Problem, get_solver
from nsfric.symbolic.laws import P
from nsfric.symbolic.model import HybridModel, Region, Sliding

from nsfric.symbolic.derive import DerivedModel

built = []
real = DerivedModel._numeric_fn
DerivedModel._numeric_fn = lambda self, key, build: built.append(key) or real(self, key, build)
x, v = sp.symbols("x v", real=True)
k, mu = sp.symbols("k mu", positive=True)
# a user's dry oscillator, declared here, solved without a case
model = HybridModel("my-dry-oscillator", (x, v), (P(k, 1.0, 0, lo_open=True), P(mu, 0.5, 0)), {"h": v},
                    (Region("plus", {"h": 1}, {x: v, v: -k * x - mu}, {}, "slip"),
                     Region("minus", {"h": -1}, {x: v, v: -k * x + mu}, {}, "slip")),
                    (Sliding("stick", "h", "filippov", v, "plus", "minus"),))
prob = Problem(model, model.bind({}), np.array([3.0, 0.0]), (0.0, 10.0))
out = {}
for s in ("filippov", "ida"):
    sol = get_solver(s).solve(prob)
    out[s] = [np.asarray(sol.y).tolist(), [e.t for e in sol.events]]
print(json.dumps({"derived": len(built), "res": out}))
"""


def test_a_users_model_is_derived_once_per_machine(tmp_path):
    """A model built in the user's process (no case) is solved through its entry under its
    content key: the second process derives no numeric function from SymPy and gives the
    same numbers as a process with the cache off (bit for bit).  Fails where the solvers
    read the symbolic model (each process derived it again: 9 s of the 10 s of the
    two-disc reference in tests/test_planar_discs.py)."""
    off = _probe(tmp_path / "off", numcache_on=False, script=USER_MODEL)
    cold = _probe(tmp_path / "on", script=USER_MODEL)
    warm = _probe(tmp_path / "on", script=USER_MODEL)
    assert off["derived"] > 0 and cold["derived"] > 0
    assert warm["derived"] == 0, warm["derived"]
    assert warm["res"] == off["res"] and cold["res"] == off["res"]


def test_a_models_key_is_the_same_under_every_hash_seed():
    """The cache key of a coupled model (its content hash) must not depend on the
    process's string-hash seed: the law's outputs once went through a set, and two
    processes filling one cache wrote two entries for one model."""
    code = ("import nsfric; from nsfric.study.cache import model_hash; "
            "print(model_hash(nsfric.get_case('sliding-plates').model('d-sds')))")
    keys = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                           capture_output=True, text=True, check=True).stdout for seed in (1, 2, 3, 4)}
    assert len(keys) == 1, keys
