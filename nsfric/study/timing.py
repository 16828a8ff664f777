"""The time of a run as a measurement: the work axis of the work-precision diagrams.

A compiled run of a few thousand steps takes 0.1-1 ms; timed once by the wall clock on
a machine shared with other processes, its time is timer and scheduler noise (it
zig-zags along a ladder of steps).  :func:`best_cpu_seconds` measures instead the CPU
time of this process (``time.process_time``: not charged while another process runs)
of one call, the best of at least :data:`REPEATS` repeats, the call repeated until the
repeats add up to :data:`MIN_SECONDS` -- the minimum over the repeats is the time of
the call without the interruptions that only ever add to it.
"""
from __future__ import annotations

import time

#: the clock of the measurement (its name goes into the notes of a study)
CLOCK = "time.process_time"
#: the repeats of a call add up to at least this CPU time [s]
MIN_SECONDS = 0.02
#: at least this many repeats of a call; its time is the best of them
REPEATS = 3
#: at most this many calls (a clock too coarse to see one call must not loop forever)
MAX_CALLS = 1000


def timing_note(min_seconds: float = MIN_SECONDS, repeats: int = REPEATS) -> dict:
    """How :func:`best_cpu_seconds` measures, for the notes (JSON) of a study."""
    return {"clock": CLOCK, "min_seconds": float(min_seconds), "repeats": int(repeats),
            "what": (f"CPU time of one run (one call of simulate: the integration and its Solution), "
                     f"the best of >= {repeats} repeats, repeated until >= {min_seconds * 1e3:g} ms in all")}


def timing_label(note: dict) -> str:
    """A short form of :func:`timing_note` for a panel's title."""
    return f"CPU time, best of {note['repeats']} or more repeats (>= {note['min_seconds'] * 1e3:g} ms in all)"


def best_cpu_seconds(run, min_seconds: float = MIN_SECONDS, repeats: int = REPEATS, done=()):
    """CPU time of one call of ``run()``: the best of its repeats.

    Parameters
    ----------
    run : callable without arguments (its result is discarded)
    min_seconds : float >= 0
        The repeats go on until their CPU times add up to this.
    repeats : int >= 1
        The fewest repeats (at most :data:`MAX_CALLS` calls unless ``repeats`` is more).
    done : sequence of float, optional
        The CPU times of calls already made (each counts as a repeat; a convergence
        study passes the grid phases of a run, scaled to its step count).

    Returns
    -------
    (float, int, float)
        The smallest CPU time of one call [s], the number of calls measured and their
        total CPU time [s] (``done`` included).
    """
    if not (isinstance(repeats, int) and repeats >= 1):
        raise ValueError(f"repeats must be an integer >= 1, got {repeats!r}")
    if not min_seconds >= 0.0:
        raise ValueError(f"min_seconds must be >= 0, got {min_seconds!r}")
    times = [float(x) for x in done]
    while (len(times) < repeats or sum(times) < min_seconds) and len(times) < max(repeats, MAX_CALLS):
        tic = time.process_time()
        run()
        times.append(time.process_time() - tic)
    return min(times), len(times), sum(times)
