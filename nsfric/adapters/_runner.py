"""What the impact adapters share: the set-up of one run (:func:`impact_setup`) and the
callable an adapter hands :func:`nsfric.verify`, ``(dt, params) -> observables``
(:func:`impact_runner`)."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class ImpactSetup:
    """One run of an adapter on an impact case: the case, the law the code's style
    discretises, the bound parameter values, the contact duration ``t_n`` of the law's
    normal part and the step budget ``max_steps`` (four contact durations)."""

    case: object
    law: str
    values: dict
    t_n: float
    max_steps: int
    dt: float


def impact_setup(case_name: str, styles: dict, style: str, dt, params) -> ImpactSetup:
    """Check ``style`` and ``dt`` and bind ``params`` on the case ``case_name`` (the key
    ``arm_overlap`` is dropped: the code's own lever arm applies).

    Raises
    ------
    ValueError
        For an unknown ``style`` (listing the known ones), ``dt`` not > 0 or not below the
        contact duration, or a parameter out of its range (named by ``Case.bind``).
    """
    from ..arguments import positive
    from ..cases import get_case

    if style not in styles:
        raise ValueError(f"style must be one of {sorted(styles)}, got {style!r}")
    dt = positive(dt, "dt")
    case = get_case(case_name)
    law = styles[style]
    case.numeric_model(law)
    values = case.bind(law, {k: v for k, v in (params or {}).items() if k != "arm_overlap"})
    t_n = case.contact_t_end(law, values) / 2
    if dt >= t_n:
        raise ValueError(f"dt must be below the contact duration t_n = {t_n:.4g} s, got {dt:g}")
    return ImpactSetup(case, law, values, t_n, int(math.ceil(4 * t_n / dt)), dt)


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


def conformance_ladder(params: dict, divisions, psi_default) -> tuple:
    """``(divisions, psi_i)`` of a conformance run's ``params``: the ladder ``divisions``
    up to ``max_division`` (at least 3 kept) and one ``psi_i`` (> 0) or ``psi_default``.

    Raises
    ------
    ValueError
        Naming ``max_division`` or ``psi_i`` and its allowed range.
    """
    finest = params.get("max_division", divisions[-1])
    kept = [n for n in divisions if n <= finest]
    if len(kept) < 3:
        raise ValueError(f"max_division must be >= {divisions[2]} (3 steps of the ladder {list(divisions)}), "
                         f"got {finest:g}")
    psi = (float(params["psi_i"]),) if "psi_i" in params else tuple(psi_default)
    if not all(math.isfinite(p) and p > 0 for p in psi):
        raise ValueError(f"psi_i must be > 0 (an oblique impact; a normal one is run where the study has it), "
                         f"got {psi[0]:g}")
    return kept, psi
