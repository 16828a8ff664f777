"""No SymPy at run time (performance issue, item 2): once a contact model is built, its
reference and its outputs evaluate generated code -- no ``subs`` per call -- and a
solution's derived quantities at the samples are computed once for all names."""
import numpy as np
import pytest
import sympy

import nsfric
from nsfric.solution import Solution


@pytest.fixture(scope="module")
def pile():
    return nsfric.get_case("km-pile")


def test_contact_model_outputs_do_not_substitute(pile, monkeypatch):
    pile.reference_solution(t_end=0.01, samples=5)          # build and derive once

    def refuse(self, *args, **kwargs):
        raise AssertionError(f"SymPy subs at run time on {self!r}")
    monkeypatch.setattr(sympy.Basic, "subs", refuse)
    sol = pile.reference_solution(t_end=0.05, samples=21)
    assert sol.summary["n_events"] > 0 and np.all(np.isfinite(sol["E_kin"]))


def test_derived_quantities_at_the_samples_are_computed_once(pile, monkeypatch):
    sol = pile.reference_solution(t_end=0.05, samples=21)
    calls = []
    original = Solution._outputs

    def counted(self, Y, modes, names=None):
        calls.append(names)
        return original(self, Y, modes, names)
    monkeypatch.setattr(Solution, "_outputs", counted)
    sol.__dict__.pop("_outputs_at_samples", None)
    first = {n: sol[n] for n in sol.model.output_names}
    assert len(calls) == 1                                  # one pass for every name
    again = sol["E_kin"]
    again[:] = -1.0                                         # the caller's copy, not the kept one
    assert len(calls) == 1 and np.array_equal(sol["E_kin"], first["E_kin"])
    # the same numbers as one name at a time
    for n in ("E_kin", f"F_n_{sol.model.contacts[0]}"):
        assert np.array_equal(original(sol, sol._y, sol.sample_modes, [n])[0], first[n])
