"""``kuhn-contact``: the look-up-table variant of eq 18 (``direction="table"``) measured
against the exact solution as a function of the table size."""
from __future__ import annotations

import os

import numpy as np

from nsfric.papers.kuhn.incremental import reference, run_kuhn
from nsfric.papers.kuhn.table_variant import table_errors
from nsfric.study.fit import fit_order
from nsfric.papers.kuhn.kuhn_contact_figures import CONTACT, RATIOS, circle_movement, fig4_movement, final_angle_deg

#: table sizes studied
SIZES = (16, 32, 64, 128, 256, 512, 1024, 2048, 4096)


def table_table(sizes=SIZES, c=CONTACT, N_circle=128):
    """Per table size: the largest error of ``theta_end`` (degrees) over ``theta_t`` in
    (0, 180 deg) and slip exponents ``K`` in [1e-3, 10]; the largest one-step error of
    the Fig 4 angle (f_n constant, +-30 %, corrected rules) against eq 18 solved exactly;
    the final-force error along the circle (f_n +30 %, ``N_circle`` steps) against the
    reference, next to the exact-direction algorithm's (``circle_error_exact``).

    Returns
    -------
    (columns, observed orders in the table spacing ``1/size``)
    """
    theta = np.degrees(table_errors(sizes))
    fig4 = []
    exact = {(r, c2): final_angle_deg(run_kuhn(fig4_movement(r, c2, c), c, 1, rules="corrected"))
             for r in RATIOS[::3] for c2 in (0.0, 0.3, -0.3)}
    circle = circle_movement(0.3, 0.0)
    ref = reference(circle, c, s_eval=[0.0, 1.0])
    body = lambda sol: np.array([sol["f_t_body1"][-1], sol["f_t_body2"][-1]])
    circ = []
    for n in sizes:
        fig4.append(max(abs(final_angle_deg(run_kuhn(fig4_movement(r, c2, c), c, 1, rules="corrected",
                                                     direction="table", table_size=n)) - th)
                        for (r, c2), th in exact.items()))
        circ.append(np.linalg.norm(body(run_kuhn(circle, c, N_circle, direction="table", table_size=n)) - body(ref)))
    circle_exact = np.linalg.norm(body(run_kuhn(circle, c, N_circle)) - body(ref))
    cols = {"table_size": np.array(sizes), "theta_max_error_deg": theta, "fig4_max_error_deg": np.array(fig4),
            f"circle_error_N{N_circle}": np.array(circ),
            "circle_error_exact": np.full(len(sizes), circle_exact)}
    h = 1.0 / np.asarray(sizes, float)
    orders = {k: fit_order(h, cols[k]).as_dict() for k in ("theta_max_error_deg", "fig4_max_error_deg")}
    return cols, orders


def write(out_dir, meta, progress=None):
    """``table.csv`` (+ JSON with the fitted orders)."""
    from nsfric.io import write_csv_with_sidecar

    if progress:
        progress("kuhn-contact: eq 18 by look-up table")
    cols, orders = table_table()
    path = os.path.join(out_dir, "table.csv")
    return [path, write_csv_with_sidecar(path, cols, {**meta, "observed_orders_in_1/size": orders,
                                                      "table": "theta_end against K at theta_t = 90 deg, "
                                                               "K uniform in [-20, 20], linear interpolation"})]
