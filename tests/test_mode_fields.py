"""The derivation's rounding-safe cancel (gaps held whole) and the mode-smooth fields
(:mod:`nsfric.symbolic.mode_fields`): exact rewrites, checked against high-precision
evaluation and SymPy's own identities."""
import mpmath as mp
import sympy as sp

from nsfric.symbolic.codegen import generate
from nsfric.symbolic.mode_fields import cancel_held, implied_sign, with_mode_signs
from nsfric.symbolic.normal import real_abs, step_sign

R, k, g = sp.symbols("R k gamma", positive=True)
y, vy = sp.symbols("y vy", real=True)
D = R - y  # the sphere-on-wall overlap
F_TSUJI = k * D * sp.sqrt(real_abs(D)) - g * vy * real_abs(D) ** sp.Rational(1, 4)  # repulsive Hertz-Tsuji force
H_FORCE_END = k * D * real_abs(D) ** sp.Rational(1, 4) - g * vy  # its force end: F / |D|^(1/4)


def _rate_of_bound():
    """``d|F|/dt`` along ``y' = vy``, ``vy' = F/m`` (m = 1) over a common denominator: the
    expression whose plain ``cancel`` expands ``(R - y)^3`` (the held cap's rate)."""
    e = sp.diff(real_abs(F_TSUJI), y) * vy + sp.diff(real_abs(F_TSUJI), vy) * F_TSUJI
    return e


def test_held_gaps_round_as_the_overlap():
    """At an overlap of 1.9e-8 m on R = 2.5 mm the plain ``cancel`` of the bound's rate is
    off by more than 1e-10 relative (its terms R^3 ... y^3 cancel to delta^3, eps (R/delta)^3),
    with the gap held it is within 1e-11 of the exact value at the same (float) state;
    both are the same expression."""
    e = _rate_of_bound()
    held, plain = cancel_held(e, (y, vy)), sp.cancel(e)
    at = {R: sp.Rational(25, 10000), k: sp.Integer(12319182752), g: sp.Rational(11314573981543879, 10 ** 14),
          y: sp.Rational(2.5e-3 - 1.9e-8), vy: sp.Rational(-704517951, 10 ** 9)}  # y: the float's exact value
    with mp.workdps(60):
        exact = float(e.subs(at).evalf(50))
    args = (y, vy, R, k, g)
    values = [float(at[a]) for a in args]
    f_held = generate([held], (args,), "numpy", cse=False)
    f_plain = generate([plain], (args,), "numpy", cse=False)
    err_held = abs(float(f_held(values)[0]) / exact - 1)
    err_plain = abs(float(f_plain(values)[0]) / exact - 1)
    assert err_held < 1e-11 and err_plain > 1e-10, (err_held, err_plain)
    assert sp.simplify((held - plain).subs({y: R - sp.Symbol("d", positive=True)})) == 0


def test_implied_sign_of_the_force_in_its_contact_mode():
    """The repulsive Hertz-Tsuji force is ``|D|^(1/4)`` times the force end's switching
    function: its sign is the mode's (+1 in contact); the overlap's own sign is not fixed
    by it (a contact can begin at a negative overlap rate), nor is a force that is not a
    one-signed multiple of h."""
    sw = {"h": H_FORCE_END}
    assert implied_sign(F_TSUJI, {"h": 1}, sw, (y, vy)) == 1
    assert implied_sign(-F_TSUJI, {"h": 1}, sw, (y, vy)) == -1
    assert implied_sign(F_TSUJI, {"h": -1}, sw, (y, vy)) == -1
    assert implied_sign(D, {"h": 1}, sw, (y, vy)) is None
    assert implied_sign(k * D - g * vy, {"h": 1}, sw, (y, vy)) is None


def test_mode_signs_resolve_the_kink_and_keep_fractional_powers():
    """In the contact mode ``|F|`` becomes ``F`` and ``sign(F)`` becomes 1 -- the same
    values where F > 0, the smooth extension beyond the force end -- while ``sqrt(|F|)``
    stays real (kept)."""
    sw = {"h": H_FORCE_END}
    exprs = [real_abs(F_TSUJI) * 3, step_sign(F_TSUJI) * vy, sp.sqrt(real_abs(F_TSUJI)), real_abs(D)]
    out = with_mode_signs(exprs, {"h": 1}, sw, (y, vy))
    assert out[0] == 3 * F_TSUJI and out[1] == vy and out[2] == exprs[2] and out[3] == exprs[3]
    assert with_mode_signs(exprs, {}, sw, (y, vy)) == exprs
