"""One compiled delta loop per model (nsfric.schemes.delta_kernel, issue 27 item 5): the
schemes of the known families -- explicit Runge-Kutta in tableau form and BDF-k in
predictor-corrector form -- run one generic loop that reads the scheme as data, so a
process compiles one loop per model, not one per scheme; a scheme of no known family (a
user's) keeps its traced loop.  Every member equals the NumPy loop bit for bit, and the
generic loop equals the traced loop of the same scheme bit for bit."""
from fractions import Fraction

import numpy as np
import pytest

import nsfric
from nsfric.memo import Memo
from nsfric.schemes import delta_kernel
from nsfric.schemes.delta import DeltaField, run_batch
from nsfric.schemes.gear import BDFPredictorCorrector
from nsfric.schemes.rk import ExplicitRK
from nsfric.symbolic.derive import param_vector

pytest.importorskip("numba")

#: dry oscillator: members that stick, slip and reverse within the run
X0 = [2.1, -2.5, 0.3]
DT, STEPS = 0.01, 500


def oscillator(values=X0):
    case = nsfric.get_case("dry-oscillator")
    model = case.model("coulomb")
    sets = [case.bind("coulomb", {"x0": v}) for v in values]
    P = np.stack([param_vector(model, s) for s in sets], axis=1)
    U0 = np.stack([case.y0("coulomb", s) for s in sets], axis=1)
    return model, P, U0


def run(scheme, backend, projection=False, corrections=1, rule=None, values=X0):
    model, P, U0 = oscillator(values)
    f = DeltaField(model, P)
    out = run_batch(f, U0, DT, STEPS, scheme, projection, corrections=corrections, backend=backend,
                    stick_rule=rule)
    assert f.backend == backend
    return out, f.n_eval


def assert_same(a, b, evaluations=True):
    """Rows (bit for bit), modes, events and (``evaluations``: both counted member by
    member, as the compiled loops and a one-member NumPy run count) evaluations."""
    (ta, Ya, ea, Ma), (tb, Yb, eb, Mb) = a[0], b[0]
    np.testing.assert_array_equal(ta, tb)
    np.testing.assert_array_equal(Ya, Yb)
    np.testing.assert_array_equal(Ma, Mb)
    assert ea == eb
    assert not evaluations or a[1] == b[1]


@pytest.fixture
def traced(monkeypatch):
    """The names of the schemes whose loop was traced (built per scheme) in the test,
    on an empty memo of kernels."""
    monkeypatch.setattr(delta_kernel, "_KERNELS", Memo(64, "test"))
    names = []
    orig = delta_kernel._build

    def build(model, scheme):
        names.append(scheme.name)
        return orig(model, scheme)

    monkeypatch.setattr(delta_kernel, "_build", build)
    return names


#: a tableau with a zero weight, a stage at u^n itself (empty row) and an unused-by-stages slope
ODD = ExplicitRK("odd3", [[0, 0, 0], [Fraction(1, 2), 0, 0], [0, 0, 0]],
                 [Fraction(1, 4), Fraction(3, 4), 0], [0, Fraction(1, 2), 0], 1)


@pytest.mark.parametrize("scheme,corrections,projection,rule", [
    ("heun", 1, False, None), ("midpoint", 1, True, "crossing"), ("rk4", 1, False, "step"),
    ("euler", 1, False, None), ("bdf2", 1, True, None), ("bdf5", 3, False, "crossing"),
    (BDFPredictorCorrector(3, 2), 1, True, "dissipative"), (ODD, 1, False, None)],
    ids=["heun", "midpoint-proj", "rk4", "euler", "bdf2-proj", "bdf5-c3", "bdf3-c2-proj", "odd3"])
def test_known_families_run_the_one_loop_and_equal_numpy(traced, scheme, corrections, projection, rule):
    compiled = run(scheme, "numba", projection, corrections, rule)
    assert_same(compiled, run(scheme, "numpy", projection, corrections, rule), evaluations=False)
    one = [run(scheme, b, projection, corrections, rule, values=[2.1]) for b in ("numba", "numpy")]
    assert_same(*one)
    assert traced == []  # no loop traced (compiled) for this scheme


def test_one_loop_per_model_for_all_families(traced, monkeypatch):
    """Heun, RK4, BDF2 and BDF5 with 3 corrections: one loop built for the model, and
    compiled for one signature (the parameters passed writable, as at its build)."""
    builds = []
    orig = delta_kernel._build_generic

    def build(model):
        builds.append(orig(model))
        return builds[-1]

    monkeypatch.setattr(delta_kernel, "_build_generic", build)
    for scheme, corr in (("heun", 1), ("rk4", 1), ("bdf2", 1), ("bdf5", 3)):
        run(scheme, "numba", corrections=corr)
    run("heun", "numba", values=[0.5])  # one member: P is the field's own (n_params, 1) array
    assert traced == [] and len(builds) == 1
    assert len(builds[0][0].signatures) == 1


class UserRK(ExplicitRK):
    """A user's scheme: its own ``tableau_step`` (here the inherited one), so no known family."""

    def tableau_step(self, field, t, u, h, record=None):
        return ExplicitRK.tableau_step(self, field, t, u, h, record)


class UserBDF(BDFPredictorCorrector):
    """A user's BDF with its own ``step`` (here the inherited one)."""

    def step(self, field, t, u, h, hist, record=None):
        return BDFPredictorCorrector.step(self, field, t, u, h, hist, record)


@pytest.mark.parametrize("user,plain,projection", [
    (UserRK("odd3-user", ODD.A, ODD.b, ODD.c, 1), ODD, False),
    (UserBDF(3, 2), BDFPredictorCorrector(3, 2), True)], ids=["rk", "bdf"])
def test_a_users_scheme_keeps_its_traced_loop_with_the_same_bits(traced, user, plain, projection):
    """A scheme of no known family is traced (compiled, not the NumPy loop); the traced
    loop of the same method gives the generic loop's bits (old kernel = new kernel)."""
    old = run(user, "numba", projection)
    assert traced == [user.name]
    new = run(plain, "numba", projection)
    assert traced == [user.name]
    assert_same(old, new)
    assert_same(old, run(user, "numpy", projection), evaluations=False)


def test_old_and_new_kernels_agree_on_the_slope(traced):
    """The block on the slope (stick, slip, projection): the traced loop of BDF5 (a user's
    copy) and the generic loop give the same rows, modes, events and evaluations."""
    case = nsfric.get_case("slope-block")
    model = case.model("coulomb")
    sets = [case.bind("coulomb", {"alpha": a}) for a in (15.0, 30.0)]
    P = np.stack([param_vector(model, s) for s in sets], axis=1)
    U0 = np.stack([case.y0("coulomb", s) for s in sets], axis=1)
    outs = []
    for scheme in (UserBDF(5), BDFPredictorCorrector(5)):
        f = DeltaField(model, P)
        outs.append((run_batch(f, U0, 5e-6, 3000, scheme, True, keep=7, backend="numba"), f.n_eval))
    assert traced == ["bdf5-pc"]
    assert any(e["kind"] == "stick" for e in outs[0][0][2][0])
    assert_same(*outs)
