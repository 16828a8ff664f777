"""Plug-ins: registries filled from installed packages' entry points.

A package extends nsfric by declaring entry points (``pyproject.toml``)::

    [project.entry-points."nsfric.cases"]
    my-case = "my_package.cases:MyCase"        # a Case subclass (or instance)

    [project.entry-points."nsfric.laws"]
    my-law = "my_package.laws:my_law"          # a law factory

    [project.entry-points."nsfric.schemes"]
    my-rk = "my_package.schemes:my_rk"         # a scheme (e.g. an ExplicitRK tableau)

:func:`load_entry_points` loads one group into a registry; :class:`LazyRegistry` is a
registry (a dict) that does so on its first read, so that importing nsfric stays cheap
and a plug-in may itself ``import nsfric``.  A plug-in that fails to load is skipped
with a :class:`PluginWarning` naming it, never a crash.

This module is on the ground floor: it imports no layer of nsfric.
"""
from __future__ import annotations

import importlib
import warnings
from importlib.metadata import entry_points

#: the entry-point groups nsfric reads
GROUPS = {"cases": "nsfric.cases", "laws": "nsfric.laws", "schemes": "nsfric.schemes"}


class PluginWarning(UserWarning):
    """A plug-in (an entry point of an nsfric group) could not be loaded."""


def load_entry_points(group: str, registry: dict, register=None) -> list:
    """Load the entry points of ``group`` into ``registry``.

    Parameters
    ----------
    group : str
        Entry-point group, e.g. ``"nsfric.cases"``.
    registry : dict
        Name -> object; names already present (explicit registrations) are kept.
    register : callable ``(name, obj, registry)``, optional
        Adds a loaded object (and may check or convert it; raise to reject it).
        Default: ``registry[name] = obj``.  With an attribute ``takes_module = True`` it
        is called with the entry point's module as a fourth argument (an instance, such
        as a scheme, does not know the module that made it).

    Returns
    -------
    list of str
        The names added.  A plug-in that raises on loading or registering is skipped
        with a :class:`PluginWarning` naming the plug-in, its target and the error.
    """
    added = []
    for ep in entry_points(group=group):
        if ep.name in registry:
            continue
        try:
            obj = ep.load()
            if register is None:
                registry[ep.name] = obj
            elif getattr(register, "takes_module", False):  # where an instance was made
                register(ep.name, obj, registry, ep.module)
            else:
                register(ep.name, obj, registry)
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break nsfric
            warnings.warn(f"nsfric: plug-in {ep.name!r} = {ep.value!r} (group {group!r}) not loaded: "
                          f"{type(exc).__name__}: {exc}", PluginWarning, stacklevel=3)
            continue
        added.append(ep.name)
    return added


class LazyRegistry(dict):
    """A registry (name -> object) completed from an entry-point group on first read.

    Writes (explicit registrations) never trigger loading; any read -- ``[]``, ``in``,
    iteration, ``len``, ``keys``/``values``/``items``, ``get`` -- loads the group once
    (see :func:`load_entry_points`).

    ``builtins`` (name -> the module that registers it) are the package's own entries:
    :meth:`find` imports only the module of the one it is asked for, and a full load
    imports them all and keeps them first, in their declared order (not in the order
    their modules happened to be imported).
    """

    def __init__(self, group: str, register=None, loader=None, builtins=None):
        super().__init__()
        self.group = group
        self._register = register
        self._loader = loader  # a shared loader, where one group fills several registries
        self.builtins = dict(builtins or {})
        self._loaded = False

    def load(self) -> list:
        """Load the group now (once); returns the names added."""
        if self._loaded:
            return []
        self._loaded = True  # first: a plug-in reading the registry must not recurse
        for module in dict.fromkeys(self.builtins.values()):
            importlib.import_module(module)
        for name in self.builtins:
            if super().__contains__(name):
                super().__setitem__(name, super().pop(name))
        if self._loader is not None:
            return list(self.builtins) + list(self._loader() or [])
        return list(self.builtins) + load_entry_points(self.group, self, self._register)

    def find(self, name: str):
        """The entry ``name`` (KeyError if none): a built-in by importing its module alone,
        anything else after loading the whole group."""
        if name in self.builtins and not super().__contains__(name):
            importlib.import_module(self.builtins[name])
        if super().__contains__(name):
            return super().__getitem__(name)
        return self[name]

    def __getitem__(self, key):
        self.load()
        return super().__getitem__(key)

    def __contains__(self, key):
        self.load()
        return super().__contains__(key)

    def __iter__(self):
        self.load()
        return super().__iter__()

    def __len__(self):
        self.load()
        return super().__len__()

    def keys(self):
        self.load()
        return super().keys()

    def values(self):
        self.load()
        return super().values()

    def items(self):
        self.load()
        return super().items()

    def get(self, key, default=None):
        self.load()
        return super().get(key, default)

    def __repr__(self):
        return f"LazyRegistry({self.group!r}, {dict.__repr__(self) if self._loaded else '<not loaded>'})"
