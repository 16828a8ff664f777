"""Integer powers print as products, so NumPy (any array length), math and numba agree
to the bit (nsfric.symbolic.printing)."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from nsfric.symbolic.codegen import generate
from nsfric.symbolic.printing import MAX_PRODUCT, pow_exponents, printer

x, y = sp.symbols("x y", real=True)
finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False).filter(lambda v: abs(v) > 1e-3)


@pytest.mark.parametrize("backend", ["numpy", "math"])
def test_products_printed(backend):
    p = printer(backend)
    assert p.doprint(x**3) == "(x*x*x)"
    assert p.doprint(x**-4) == "(1/(x*x*x*x))"
    assert p.doprint((x + y)**3) == "((x + y)*(x + y)*(x + y))"
    assert "**" in p.doprint(x**(MAX_PRODUCT + 1)) and "**" in p.doprint(x**2)


@settings(max_examples=200, deadline=None)
@given(st.lists(finite, min_size=1, max_size=40), st.integers(3, MAX_PRODUCT), st.booleans())
def test_backends_round_alike(values, k, negative):
    """The same bits from a NumPy array of any length, one NumPy element and the math
    backend -- what a batch member against the same member alone needs."""
    k = -k if negative else k
    e = [x**k * y + x**3]
    f_np = generate(e, [(x,), (y,)], "numpy")
    f_m = generate(e, [(x,), (y,)], "math")
    arr = np.array(values * 8)  # long enough for NumPy's SIMD loops
    got = f_np([arr], [1.25])[0]
    for i, v in enumerate(values):
        one = f_np([np.array([v])], [1.25])[0][0]
        assert got[i] == one == f_m([v], [1.25])[0]


def test_pow_exponents():
    assert pow_exponents([x**3 + y**-5 + x**2]) == set()
    assert pow_exponents([x**(MAX_PRODUCT + 1), y**-(MAX_PRODUCT + 2)]) == {MAX_PRODUCT + 1, -(MAX_PRODUCT + 2)}
