"""``nsfric verify``: another code's results measured against the exact reference.

``nsfric verify CASE --law LAW [--law ...] [--convention NAME] [--param NAME=VALUE ...]
--input FILE.csv --out DIR`` reads one row per run (``dt``, varied parameters,
observables; :mod:`nsfric.study.verify_input`), prints one line per parameter point and
observable (its status, order, limit and offset) and writes ``verify.json``,
``verify.csv`` and ``verify.png`` (:mod:`nsfric.study.verify`).  ``--law auto`` tests
every law of the case.  Bad input: one line on stderr, exit code 2, nothing written.
"""
from __future__ import annotations

import os


def cmd_verify(args):
    from .names import check_case

    laws = args.law or [None]
    for law in laws:
        check_case(args.case, None if law == "auto" else law)  # before SymPy and SciPy load
    from ..cases import get_case, verify
    from ..conventions import get_convention
    from ..io import check_output_path
    from ..outputs import output_folder
    from ..study.verify_result import VERIFY_FILES
    from ._common import UsageError, _progress, parse_params

    dup = sorted({v for v in laws if v is not None and laws.count(v) > 1})
    if dup:
        raise UsageError(f"--law given more than once: {', '.join(dup)}")
    convention = get_convention(args.convention) if args.convention else None
    case = get_case(args.case)
    params = parse_params(args.param)
    check_output_path(args.out, "--out", "dir", beside=args.beside_existing, expect=VERIFY_FILES)
    if not os.path.isfile(args.input):
        raise UsageError(f"--input {args.input!r}: no such file")
    with output_folder(args.out, beside=args.beside_existing) as stage:  # all three files or none
        res = verify(case, None if laws == [None] else laws, convention=convention, input=args.input,
                     params=params, observables=args.observable, t_end=args.t_end, progress=_progress)
        paths = [os.path.join(args.out, os.path.relpath(p, stage)) for p in res.write(stage)]
    _progress("")
    print(res.summary())
    for p in paths:
        print(p)
    return 0


def register(sub):
    """Add ``verify`` to the ``nsfric`` parser."""
    from ._common import _beside_option, _positive

    s = sub.add_parser("verify", help="measure another code's results (CSV per dt) against the exact reference")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law", action="append",
                   help="law (repeatable), or auto: every law of the case; default: the convention's laws, "
                        "else the case's default law")
    s.add_argument("--convention", metavar="NAME", help="a named convention (its parameters and laws)")
    s.add_argument("--param", action="append", metavar="NAME=VALUE", help="fixed parameter of the case")
    s.add_argument("--input", required=True, metavar="FILE.csv",
                   help="one row per run: dt, varied parameters (nsfric's names), observables (e.g. psi_f, "
                        "<state>_end), optionally E_kin_before and E_kin_after")
    s.add_argument("--observable", action="append", metavar="NAME",
                   help="compare only this column (repeatable; default: every observable column)")
    s.add_argument("--t-end", type=_positive("--t-end"), help="end time of the reference (default: the case's)")
    s.add_argument("--out", required=True, metavar="DIR")
    _beside_option(s)
    s.set_defaults(func=cmd_verify)
    return sub
