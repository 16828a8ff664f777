"""The content hash of a model that is not a dataclass (a multi-contact model) is its
content, not its address: equal models hash alike in any process, different ones not."""
import sympy as sp

from nsfric.symbolic.content import _canonical, model_hash


class Plain:
    """A model kind written as a plain class, as the multi-contact models are."""

    def __init__(self, k):
        x = sp.Symbol("x")
        self.name = "plain"
        self.forces = (-k * x,)
        self.states = (x,)
        self._cache = object()  # private: not content


def test_equal_plain_models_hash_alike_and_without_an_address():
    a, b = Plain(2), Plain(2)
    assert " at 0x" not in _canonical(a)
    assert model_hash(a) == model_hash(b)          # was repr(): the address, so never equal
    assert model_hash(Plain(3)) != model_hash(a)   # the content still counts


def test_functions_hash_by_name_and_code():
    def f(x):
        return 2 * x

    def g(x):
        return 3 * x

    assert " at 0x" not in _canonical(f)
    assert _canonical(f) != _canonical(g)
