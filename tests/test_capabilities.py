"""Model kinds, solvers and schemes meet by capabilities declared as data (issue 23 item 2):
a model declares ``supports`` (what it offers: ``hybrid``, ``contacts``...), a reference
solver the one it ``needs``; a model may name the registered solver that stands in for a
generic name (``model.solver_for("filippov")``); a model kind runs under the fixed-step
schemes by a stepper registered for its capability; a scheme brings its own batch loop
(``scheme.run_batch``).  A new model kind, solver or scheme family is added from outside,
here in this file, with no edit of the engine's base classes."""
import ast
import copy
import pathlib
import re
from dataclasses import dataclass, replace

import numpy as np
import pytest

import nsfric
from nsfric.solution import Segment, Solution
from nsfric.solvers import REFERENCE_SOLVERS, Problem, ReferenceSolver, register

ROOT = pathlib.Path(nsfric.__file__).parent


@dataclass
class Decay:
    """A toy model kind: ``y' = -k y``, known to no engine module."""

    supports = frozenset({"toy-decay"})
    name = "toy-decay"
    output_names = ()

    @property
    def states(self):
        return ("y",)

    @property
    def state_names(self):
        return ("y",)

    def solver_for(self, name):
        """``filippov`` (and only it) is handed to the toy's exact solver."""
        if name != "filippov":
            raise ValueError(f"solver {name!r} does not solve the toy model; choose filippov")
        return "toy-decay-exact"


class DecayExact(ReferenceSolver):
    """The toy model's closed form (a solver registered from outside)."""

    name = "toy-decay-exact"
    needs = "toy-decay"

    def _solve(self, problem, t_eval=None):
        k, (y0,), (t0, t1) = problem.params["k"], problem.y0, problem.t_span

        def dense(t):
            return (y0 * np.exp(-k * (np.asarray(t) - t0)))[None, ...]

        seg = Segment("decay", t0, t1, dense, np.array([y0]), dense(t1)[:, ...].reshape(1))
        return Solution(problem.model, dict(problem.params), self.name, [seg], [], {"nfev": 0},
                        {"rtol": self.rtol, "atol": self.atol}, (t0, t1))


@pytest.fixture
def toy_solver():
    register(DecayExact)
    yield DecayExact
    dict.pop(REFERENCE_SOLVERS, DecayExact.name)  # leave the registry as the other tests see it


def toy_problem(t_end=2.0):
    return Problem(Decay(), {"k": 0.5}, np.array([3.0]), (0.0, t_end), name="toy")


def test_a_model_kind_and_its_solver_from_outside(toy_solver):
    t = np.linspace(0.0, 2.0, 5)
    sol = nsfric.get_solver("toy-decay-exact").solve(toy_problem(), t_eval=t)
    np.testing.assert_allclose(sol.y[0], 3.0 * np.exp(-0.5 * t), rtol=1e-15)
    # the generic name: handed to the solver the model names for it, under the asked name's checks
    handed = nsfric.get_solver("filippov").solve(toy_problem(), t_eval=t)
    assert handed.solver == "toy-decay-exact"
    np.testing.assert_array_equal(handed.y, sol.y)
    with pytest.raises(ValueError, match="does not solve the toy model"):
        nsfric.get_solver("ida").solve(toy_problem())
    # the toy's solver on a model without its capability: refused, naming both
    hybrid = nsfric.get_case("dry-oscillator").problem(None, None, 1.0)
    with pytest.raises(ValueError, match=r"toy-decay-exact.*toy-decay.*hybrid"):
        nsfric.get_solver("toy-decay-exact").solve(hybrid)


def test_a_model_kind_runs_under_the_schemes_by_its_stepper():
    from nsfric.schemes import STEPPERS, register_stepper

    @register_stepper("toy-decay")
    def decay_steps(prob, scheme, dt, t0, t1, n_steps, stages):
        t = t0 + dt * np.arange(n_steps + 1)
        Y = (prob.y0[0] * (1 - prob.params["k"] * dt) ** np.arange(n_steps + 1))[None, :]
        return Solution.from_steps(prob.model, prob.params, t, Y, ["decay"] * len(t), scheme=scheme.name, dt=dt,
                                   t_span=(t0, t1))

    try:
        sol = nsfric.simulate(toy_problem(1.0), scheme="euler", dt=0.25)
        with pytest.raises(ValueError, match="already registered"):
            register_stepper("toy-decay")(decay_steps)
    finally:
        dict.pop(STEPPERS, "toy-decay")
    np.testing.assert_allclose(sol.y[0], 3.0 * 0.875 ** np.arange(5), rtol=1e-15)


def test_the_built_in_kinds_declare_their_capabilities():
    from nsfric.papers.krengel_matuttis.block_corners import block_corners
    from nsfric.papers.schafer1996.column import ColumnModel
    from nsfric.schemes import STEPPERS, get_stepper

    case = nsfric.get_case("dry-oscillator")
    assert case.model().supports == frozenset({"hybrid"})
    assert case.numeric_model().supports == frozenset({"hybrid"})  # the one restored from the disk cache too
    corners = block_corners()
    assert corners.supports == frozenset({"contacts"})
    assert (corners.solver_for("filippov"), corners.solver_for("ida")) == ("pile-events", "pile-ida")
    with pytest.raises(ValueError, match="multi-contact"):
        corners.solver_for("radau5dae")
    assert ColumnModel(2).supports == frozenset({"network"})
    assert {n: REFERENCE_SOLVERS.find(n).needs for n in ("filippov", "ida", "radau5dae", "analytic",
                                                          "pile-events", "pile-ida")} == \
        {"filippov": "hybrid", "ida": "hybrid", "radau5dae": "hybrid", "analytic": "hybrid",
         "pile-events": "contacts", "pile-ida": "contacts"}
    assert get_stepper(case.model()) is None  # the generic field
    assert get_stepper(corners) is STEPPERS["contacts"]


def test_the_generic_names_and_the_contact_solvers_agree():
    """``filippov``/``ida`` on a multi-contact model are ``pile-events``/``pile-ida``, bit
    for bit (the same tolerances: the model's own defaults unless given)."""
    case = nsfric.get_case("slope-block-rotating")
    prob = case.reference_problem("coulomb-corners", {"theta0": 0.002}, 0.004)
    t = np.linspace(0.0, 0.004, 21)
    for generic, own in (("filippov", "pile-events"), ("ida", "pile-ida")):
        a = nsfric.get_solver(generic).solve(prob, t_eval=t)
        b = nsfric.get_solver(own).solve(prob, t_eval=t)
        assert a.solver == b.solver == own and a.tolerances == b.tolerances
        np.testing.assert_array_equal(a.y, b.y)
        assert [(e.t, e.kind) for e in a.events] == [(e.t, e.kind) for e in b.events]
    with pytest.raises(ValueError, match="checks"):  # an option of pile-events, not of filippov
        nsfric.get_solver("filippov", checks=2)
    assert nsfric.get_solver("pile-events", checks=8, rtol=1e-10).solve(prob, t_eval=t).tolerances["rtol"] == 1e-10
    springs = replace(prob, model=copy.copy(prob.model))
    springs.model.has_reference = False  # as the per-corner spring models declare (cheaper to build)
    for name in ("filippov", "pile-events"):  # a model without an exact reference, by either name
        with pytest.raises(ValueError, match="no exact reference"):
            nsfric.get_solver(name).solve(springs)
    with pytest.raises(ValueError, match="pile-events.*contacts.*hybrid"):
        nsfric.get_solver("pile-events").solve(nsfric.get_case("dry-oscillator").problem(None, None, 1.0))


def test_a_scheme_brings_its_own_batch_loop():
    """A scheme family with its own vectorised loop declares it (``run_batch``); the batch
    takes it on the numba and numpy paths, not on the per-member loop."""
    base = nsfric.SCHEMES["heun"]

    class Tagged(type(base)):
        calls = []

        def run_batch(self, model, U0, P, h, t0, n_steps, Y, steps, backend):
            self.calls.append(backend)
            Y[...] = 7.0
            return "tagged", 42

    scheme = Tagged.__new__(Tagged)
    scheme.__dict__.update(base.__dict__)
    scheme.name = "heun-tagged"
    case = nsfric.get_case("dry-oscillator")
    for backend, want in (("numpy", "tagged"), ("numba", "tagged"), ("loop", "loop")):
        from nsfric.schemes.batch import simulate_batch

        sol = simulate_batch(case, None, scheme, 0.1, 0.5, {"v0": np.array([0.5, 1.0])}, 2, backend=backend)
        assert sol.info["backend"] == want
        assert (sol.stats["nfev"] == 42) == (want == "tagged")
    assert Tagged.calls == ["numpy", "numba"]


#: the engine's generic contracts, which must name no model kind or scheme family
BASES = ("solvers/base.py", "schemes/base.py", "schemes/batch.py")


@pytest.mark.parametrize("path", BASES)
def test_the_base_modules_name_no_kind_or_family(path):
    tree = ast.parse((ROOT / path).read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names |= {node.module or ""} | {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sys":
            names.add(f"sys.{node.attr}")
    words = {n: {w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", n)} for n in names}
    bad = {n for n, ws in words.items() if ws & {"contact", "contacts", "corner", "corners", "delta", "pile", "network"}}
    assert not bad and "sys.modules" not in names, (path, bad)


def test_the_cli_cross_checks_a_contact_solver_against_the_other(tmp_path):
    """``--solver pile-ida`` is cross-checked against ``pile-events`` (the default partner
    ``ida`` is the same solver on this model: no check at all)."""
    import json

    from nsfric.cli import main

    out = tmp_path / "corners.csv"
    assert main(["reference", "slope-block-rotating", "--law", "coulomb-corners", "--solver", "pile-ida",
                 "--t-end", "0.0005", "--samples", "3", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["solver"] == "pile-ida" and meta["cross_check"]["against"] == "pile-events"
