"""The package root is the public API (issue 8, item 6): every exported name is there and
documented -- callables and classes by their own docstring, registries in the package
docstring."""
import inspect

import nsfric


def _own_doc(obj):
    """The docstring written for ``obj`` itself (not inherited from a base class)."""
    if isinstance(obj, type):
        return vars(obj).get("__doc__")
    return getattr(obj, "__doc__", None)


def test_every_public_name_has_a_docstring():
    missing = []
    for name in nsfric.__all__:
        obj = getattr(nsfric, name)  # AttributeError: exported but absent
        if name in nsfric.REGISTRIES:
            ok = f"``{name}``" in nsfric.__doc__
        else:
            doc = _own_doc(obj)
            ok = bool(doc and doc.strip() and inspect.cleandoc(doc).splitlines()[0].strip())
        if not ok:
            missing.append(name)
    assert not missing, f"public names without a docstring: {missing}"


def test_the_api_the_issue_asks_for_is_exported():
    for name in ("couple", "HybridModel", "get_solver", "REFERENCE_SOLVERS", "Problem", "simulate",
                 "converge", "Case", "register_case", "get_case", "Solution"):
        assert name in nsfric.__all__, name
    assert callable(nsfric.d_sds) and nsfric.d_sds().name == "d-sds"
    assert nsfric.get_case("sliding-plates") is nsfric.CASES["sliding-plates"]
    assert set(nsfric.REGISTRIES) <= set(nsfric.__all__)


def test_dae_solvers_do_not_import_matplotlib():
    """Start-up (issue 11): Assimulo's solver package imports pylab for RADAR5's plots;
    the DAE solvers import it behind a stand-in, so an IDA or Radau5DAE solve loads
    neither matplotlib nor pyplot (half a second per process), and RADAR5's ``pylab``
    still resolves to the real module on use."""
    import subprocess
    import sys
    code = ("import sys, nsfric\n"
            "c = nsfric.get_case('sliding-plates')\n"
            "for s in ('ida', 'radau5dae'):\n"
            "    c.reference_solution(solver=s, t_end=1.0)\n"
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
            "import assimulo.solvers.radar5 as r\n"
            "assert callable(r.pl.figure)\n"
            "assert 'matplotlib.pyplot' in sys.modules\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
