"""The look-up-table variant of eq 18 (direction="table"): its master table comes from the
symbolic closed form, its error against the exact solution falls at second order in the
table spacing."""
import numpy as np
import pytest

from nsfric.papers.kuhn.incremental import KuhnContact, Movement, kuhn_step, run_kuhn
from nsfric.papers.kuhn.table_variant import table_errors, theta_end_from_table, theta_table
from nsfric.study.fit import fit_order
from nsfric.papers.kuhn import contact_law as K

C = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)


def test_master_table_is_eq18():
    """The table is eq 18 at theta_t = 90 deg: tan(theta_end/2) = exp(-K); read at its
    nodes the two interpolations return the closed form (theta_t at a node)."""
    Ks, th = theta_table(64)
    assert np.max(np.abs(th - 2 * np.arctan(np.exp(-Ks)))) < 1e-14
    assert np.all(np.diff(th) < 0)
    f, f0 = K.theta_end_numeric()
    i, j = 20, 35
    # theta_t at node i, slip exponent = node spacing * (j - i): exactly node j
    assert abs(theta_end_from_table(th[i], Ks[j] - Ks[i], 64) - th[j]) < 1e-12
    assert abs(f0(th[i], 1 / (Ks[j] - Ks[i])) - th[j]) < 1e-12
    assert K.slip_exponent(True) == 1 / K.c_1


def test_table_error_second_order_in_size():
    sizes = (64, 128, 256, 512, 1024, 2048)
    e = table_errors(sizes)
    fit = fit_order(1.0 / np.array(sizes), e)
    assert fit.ok and abs(fit.order - 2) <= 0.05 + 4 * fit.stderr
    assert e[-1] < 1e-4


@pytest.mark.parametrize("dzeta", [0.0, 0.3, -0.3])
def test_table_step_against_exact(dzeta):
    """One slipping step (Fig 4 movement, ratio 1.5, f_n constant, growing, shrinking):
    the table direction differs from eq 18 solved exactly by less than the table's own
    largest error, and that difference falls with the size (by more than 4 over two
    doublings; pointwise the interpolation error is not monotone)."""
    mv = Movement.straight([1.5 * C.mu, 0.0], zeta0=1.0, dzeta=dzeta, f_t0=(0.0, -C.mu))
    exact = run_kuhn(mv, C, 1, rules="corrected")
    assert exact.modes[-1] == "slip"
    ang = lambda sol: np.arctan2(sol["f_t_body2"][-1], sol["f_t_body1"][-1])
    d = [abs(ang(run_kuhn(mv, C, 1, rules="corrected", direction="table", table_size=n)) - ang(exact))
         for n in (256, 512, 1024)]
    assert np.all(np.array(d) <= table_errors((256, 512, 1024))) and d[0] > 4 * d[2] > 0


def test_table_bad_input():
    with pytest.raises(ValueError, match="table size"):
        theta_table(1)
    with pytest.raises(ValueError, match="direction"):
        kuhn_step(np.zeros(3), 1.0, 1.0, [1, 0, 0], [0, 0, 1], np.zeros(3), np.zeros(3), C, direction="lut")
