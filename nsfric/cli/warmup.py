"""``nsfric warm-up``: build the disk caches of the installed cases in one go.

``nsfric warm-up [--case NAME ...] [--progress MODE]`` derives and stores the numerics of
every law of every case (or of the cases named) and compiles each mode's DOP853 stepper
(:mod:`nsfric.cases.warmup`), printing one line per case and law and a last line saying
whether anything was built: a second run only reads the caches.  An unknown case: one
line on stderr, exit code 2, nothing built.
"""
from __future__ import annotations


def cmd_warm_up(args):
    from .names import check_case

    for name in args.case or ():
        check_case(name)  # an unknown name before any work
    from ..cases.warmup import warm_up
    from ._common import _progress

    done = warm_up(args.case, progress=_progress)
    _progress("")
    for w in done:
        print(w.line())
    built = [w for w in done if w.built]
    seconds = sum(w.seconds for w in done)
    if built:
        print(f"warm-up: built the caches of {len(built)} of {len(done)} case laws in {seconds:.1f} s")
    else:
        print(f"warm-up: every cache was already warm, nothing built ({len(done)} case laws, {seconds:.1f} s)")
    return 0


def register(sub):
    """Add ``warm-up`` to the ``nsfric`` parser."""
    from ._common import progress_option

    s = sub.add_parser("warm-up", help="build every disk cache (derived numerics, compiled steppers) of the "
                       "installed cases in one go, so first runs pay no derivation or compilation")
    s.add_argument("--case", action="append", metavar="NAME",
                   help="only this case (repeatable; default: every case, see nsfric list)")
    progress_option(s, "case, law and step")
    s.set_defaults(func=cmd_warm_up)
    return sub
