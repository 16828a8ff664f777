"""The callable an adapter hands :func:`nsfric.verify`: ``(dt, params) -> observables``."""
from __future__ import annotations


def impact_runner(run, style: str, styles: dict, case: str):
    """``(dt, params) -> observables``: ``run(params, dt, style)`` of an adapter that runs
    its code to separation, restricted to the case's declared observables.

    Parameters
    ----------
    run : callable
        The adapter's ``run_sphere_wall``-like function ``(params, dt, style) -> dict``.
    style : str
        The code's contact style, a key of ``styles``.
    styles : dict
        The adapter's styles: style name -> the nsfric law it is a discretisation of.
    case : str
        The registered case the adapter runs.

    Raises
    ------
    ValueError
        For a style the adapter does not know, listing the known ones.
    """
    if style not in styles:
        raise ValueError(f"style must be one of {sorted(styles)}, got {style!r}")

    def runner(dt, params=None):
        from ..cases import get_case

        # verify hands a runner the reference's end time too; the codes run to separation
        out = run({k: v for k, v in (params or {}).items() if k != "t_end"}, dt, style)
        return {k: out[k] for k in get_case(case).observable_names if k in out}

    runner.style, runner.case, runner.law = style, case, styles[style]
    return runner
