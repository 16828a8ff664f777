"""Exceptions shared by every layer (ground floor: imports no layer)."""


class ZenoError(RuntimeError):
    """Events accumulate (chattering or Zeno behaviour); the run is stopped."""
