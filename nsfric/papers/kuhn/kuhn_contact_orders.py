"""``kuhn-contact``: observed orders of every rule along curved movements -- a circle
(f_n growing) and a figure eight (f_n loading and unloading), each with the pair fixed
and rolling/twirling -- against the event-driven reference, fitted by
:func:`nsfric.study.fit.fit_order` over its automatic asymptotic range ("no order" with
the reason when the fit finds too few asymptotic points or no decrease).  The damped
C-SDS (:mod:`.kuhn_contact_csds`) is measured against its own continuous law
(``OWN_REFERENCE``), every other rule against the elastic-frictional reference.
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.papers.kuhn.incremental import KuhnContact, Movement, reference, run_conventional, run_kuhn
from nsfric.study.fit import fit_order
from nsfric.papers.kuhn.kuhn_contact_csds import OWN_REFERENCE
from nsfric.papers.kuhn.kuhn_contact_csds import RULES as CSDS_RULES

CONTACT = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)
#: the ladder of increments (the fit picks its asymptotic range inside it)
NS = (16, 32, 64, 128, 256)
#: rolling/twirling: 90 deg about (1, 1, 1)/sqrt 3 (the normal e3 rolls and twirls)
TURN = {"axis": tuple(np.ones(3) / np.sqrt(3)), "angle": np.pi / 2}


def movements():
    """The curved movements: name -> (Movement, rotating)."""
    circle = dict(radius=1.0, zeta0=1.0, dzeta=0.3, f_t0=(0.1, 0.2))
    eight = dict(radius=1.0, zeta0=1.0, dzeta=0.4, f_t0=(0.1, 0.2))
    return {"circle, f_n +30 %": (Movement.circle(**circle), False),
            "circle, f_n +30 %, rolling+twirling": (Movement.circle(**circle, **TURN), True),
            "figure eight, f_n loading+unloading": (Movement.figure_eight(**eight), False),
            "figure eight, f_n loading+unloading, rolling+twirling": (Movement.figure_eight(**eight, **TURN), True)}


#: rule -> (runner, options, only with rotation); the refinements are switched off from
#: the corrected rules (so that each row isolates one refinement), frame rules (d) with
#: the paper's algorithm (corrected) unless named with add and project
RULES = {
    "paper's algorithm (Fig 1 as stated)": (run_kuhn, {}, False),
    "paper's algorithm, corrected rules": (run_kuhn, {"rules": "corrected"}, False),
    "no partial slip (eqs 9-15)": (run_kuhn, {"rules": "corrected", "partial_slip": False}, False),
    "no direction change (eqs 16-21)": (run_kuhn, {"rules": "corrected", "direction": "project"}, False),
    "add and project": (run_conventional, {}, False),
    "(d) project only (no twirl)": (run_kuhn, {"rules": "corrected", "frame": "projection"}, True),
    "(d) project and rescale": (run_kuhn, {"rules": "corrected", "frame": "projection+rescale"}, True),
    "(d) rotation with twist": (run_kuhn, {"rules": "corrected", "frame": "rotate"}, True),
    "add and project + project and rescale (LAMMPS)": (run_conventional, {"frame": "projection+rescale"}, True),
    **CSDS_RULES,  # the fifth rule (d): Führer et al.'s C-SDS in 3D, :mod:`.kuhn_contact_csds`
}
#: no fresh contact along these movements: switching the onset (eqs 7-8) off changes
#: nothing (checked in the tests), its row repeats the corrected rules'
SAME_AS = {"no onset (eqs 7-8)": "paper's algorithm, corrected rules"}


def verdict(fit) -> str:
    """``"second order"``, ``"first order"``, ``"order p"`` or ``"no order"``."""
    if not fit.ok:
        return "no order"
    for p, word in ((2, "second"), (1, "first")):
        if abs(fit.order - p) < 0.25:
            return f"{word} order"
    return f"order {fit.order:.2f}"


def orders_table(Ns=NS, c=CONTACT, progress=None):
    """Per movement and rule: the fitted orders of the final force error (body frame) and
    of the tangential-work error, their verdicts and reasons, the errors at the finest
    ``N`` and the largest work-balance residual ``|W_t - W_t_rev - W_t_irrev|``.

    Returns
    -------
    (table columns, long error columns)
    """
    h = 1.0 / np.asarray(Ns, dtype=float)
    table = {k: [] for k in ("movement", "rule", "force_order", "force_order_stderr", "force_verdict",
                             "work_order", "work_order_stderr", "work_verdict", f"force_error_N{Ns[-1]}",
                             f"work_error_N{Ns[-1]}", "balance_error", "force_reason", "work_reason")}
    long = {k: [] for k in ("movement", "rule", "N", "force_error", "work_error")}
    refs = {}
    for mname, (mv, rotating) in movements().items():
        if progress:
            progress(f"kuhn-contact: orders along {mname}")
        key = mname.replace(", rolling+twirling", "")  # the reference lives in the body frame
        if key not in refs:
            refs[key] = reference(mv, c, s_eval=[0.0, 1.0])
        rows = {}
        for rule, (runner, opts, only_rot) in RULES.items():
            if only_rot and not rotating:
                continue
            if rule in OWN_REFERENCE and (key, rule) not in refs:
                refs[key, rule] = OWN_REFERENCE[rule](mv, c)
            ref = refs[(key, rule) if rule in OWN_REFERENCE else key]
            f_ref = np.array([ref["f_t_body1"][-1], ref["f_t_body2"][-1]])
            ef, ew, bal = [], [], 0.0
            for N in Ns:
                sol = runner(mv, c, N, **opts)
                ef.append(float(np.hypot(sol["f_t_body1"][-1] - f_ref[0], sol["f_t_body2"][-1] - f_ref[1])))
                ew.append(float(abs(sol["W_t"][-1] - ref["W_t"][-1])))
                bal = max(bal, float(np.max(np.abs(sol["W_t"] - sol["W_t_rev"] - sol["W_t_irrev"]))))
                for k, v in zip(long, (mname, rule, N, ef[-1], ew[-1])):
                    long[k].append(v)
            rows[rule] = (fit_order(h, ef), fit_order(h, ew), ef[-1], ew[-1], bal)
        rows = {**{k: rows[v] for k, v in SAME_AS.items()}, **rows}
        for rule, (ff, fw, ef_last, ew_last, bal) in rows.items():
            for k, v in zip(table, (mname, rule, ff.order, ff.stderr, verdict(ff), fw.order, fw.stderr, verdict(fw),
                                    ef_last, ew_last, bal, ff.reason, fw.reason)):
                table[k].append(v)
    return ({k: np.array(v) if k not in ("force_reason", "work_reason") else v for k, v in table.items()},
            {k: np.array(v) for k, v in long.items()})


def orders_figure(long, path):
    """Force error against N, one panel per movement, one line per rule."""
    from nsfric.plotting import figure, save

    names = list(dict.fromkeys(long["movement"]))
    fig, axes = figure(2, 2, figsize=(13, 9))
    for ax, mname in zip(axes.ravel(), names):
        sel = long["movement"] == mname
        for i, rule in enumerate(dict.fromkeys(long["rule"][sel])):
            r = sel & (long["rule"] == rule)
            ax.loglog(long["N"][r], long["force_error"][r], ("-" if i < 5 else "--"), marker="osd^vx+*<>ph"[i],
                      ms=4 + (i % 3), mfc="none", color=f"C{i}", label=rule)
        Ns = sorted(set(long["N"][sel].tolist()))
        ax.set_xticks(Ns, [f"{n:g}" for n in Ns])
        ax.minorticks_off()
        ax.set_title(mname + " (overlapping lines: equal errors)", fontsize=9)
        ax.set_xlabel("N increments")
        ax.grid(alpha=0.3, which="both")
    # one legend for all panels, outside them (inside, it covers the curves)
    handles = {}
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), fontsize=7, loc="upper left", bbox_to_anchor=(0.91, 0.88))
    axes[0, 0].set_ylabel("|f_t - f_t,ref| at the end (body frame)")
    axes[1, 0].set_ylabel("|f_t - f_t,ref| at the end (body frame)")
    fig.suptitle("Kuhn et al.: each rule along curved movements against the exact reference", fontsize=10)
    return save(fig, path)


def write(out_dir, meta, progress=None):
    """``orders.csv`` (the table, + JSON), ``orders-errors.csv`` (every run), ``orders.png``."""
    from nsfric.io import write_csv_with_sidecar

    table, long = orders_table(progress=progress)
    path = os.path.join(out_dir, "orders.csv")
    side = {**meta, "Ns": list(NS), "fit": "nsfric.study.fit.fit_order, automatic range",
            "rolling+twirling": "90 deg about (1, 1, 1)/sqrt 3", "same_as": SAME_AS,
            "own_reference": {r: "the continuous 3D C-SDS (nsfric.papers.kuhn.csds.csds_reference)"
                              for r in OWN_REFERENCE}}
    written = [path, write_csv_with_sidecar(path, table, side)]
    path = os.path.join(out_dir, "orders-errors.csv")
    written += [path, write_csv_with_sidecar(path, long, side)]
    written.append(orders_figure(long, os.path.join(out_dir, "orders.png")))
    return written
