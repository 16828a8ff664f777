"""Plug-ins: registries filled from installed packages' entry points.

A package extends nsfric by declaring entry points (``pyproject.toml``)::

    [project.entry-points."nsfric.cases"]
    my-case = "my_package.cases:MyCase"        # a Case subclass (or instance)

    [project.entry-points."nsfric.laws"]
    my-law = "my_package.laws:my_law"          # a law factory

    [project.entry-points."nsfric.schemes"]
    my-rk = "my_package.schemes:my_rk"         # a scheme (e.g. an ExplicitRK tableau)

    [project.entry-points."nsfric.papers"]
    my-paper = "my_package:PAPER"              # a Paper: its claims, cases, verdicts, checks

nsfric's own papers (``nsfric.papers.<paper>``) are plug-ins of exactly this kind: the
engine finds them through these groups and never imports them by name.

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
GROUPS = {"cases": "nsfric.cases", "laws": "nsfric.laws", "schemes": "nsfric.schemes", "papers": "nsfric.papers",
          "conventions": "nsfric.conventions", "studies": "nsfric.studies",
          "solvers": "nsfric.solvers"}


class PluginWarning(UserWarning):
    """A plug-in (an entry point of an nsfric group) could not be loaded."""


def load_entry_points(group: str, registry: dict, register=None, only=None) -> list:
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
    only : importlib.metadata.EntryPoint, optional
        Load this entry point of ``group`` alone.

    Returns
    -------
    list of str
        The names added.  A plug-in that raises on loading or registering is skipped
        with a :class:`PluginWarning` naming the plug-in, its target and the error.
    """
    added = []
    for ep in (entry_points(group=group) if only is None else (only,)):
        if dict.__contains__(registry, ep.name):
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

    def __init__(self, group: str, register=None, loader=None, builtins=None, order=None):
        super().__init__()
        self._order = order  # (registry, names) -> the names in the order to list them
        self._found = set()  # plug-ins loaded one by one (:meth:`find`)
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
        added = load_entry_points(self.group, self, self._register)
        # the plug-ins after the explicit registrations, in the registry's order (by
        # name: installers sort entry points), whichever was found first (:meth:`find`)
        plugins = [n for n in dict.keys(self) if n in added or n in self._found]
        for n in (self._order(self, plugins) if self._order else sorted(plugins)):
            dict.__setitem__(self, n, dict.pop(self, n))
        return list(self.builtins) + added

    def find(self, name: str):
        """The entry ``name`` (KeyError if none): a built-in by importing its module alone,
        a plug-in by loading its entry point alone, anything else after loading the whole
        group."""
        if name in self.builtins and not super().__contains__(name):
            importlib.import_module(self.builtins[name])
        if not self._loaded and self._loader is None and not super().__contains__(name):
            for ep in entry_points(group=self.group, name=name):
                self._found.update(load_entry_points(self.group, self, self._register, only=ep))
                break
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


class Paper:
    """A published paper as a plug-in: what it claims, the cases that reproduce it, and the
    modules that declare its verdicts, symbolic checks and model builders.

    Parameters
    ----------
    key : str
        The ``source`` its verdicts name (e.g. ``"Führer, Brendel & Wolf (2024)"``).
    title : str
        Heading of its part of the report.
    cases : tuple of str
        The registered cases reproducing it, in report order.
    claims : str
        What the paper claims, in a few sentences.
    label : str
        Short label of its symbolic checks' sources (``"F eq 11"``).
    citation : str
        Full citation (authors, year, title).
    modules : dict
        ``{"verdicts": (...), "checks": (...), "systems": (...)}``: the modules (absolute
        names) that register what :meth:`load` is asked for.
    doi : str, optional
        The paper's DOI, where known.
    order : int, optional
        Position among the papers (report, ``nsfric list``); ties by name.
    """

    def __init__(self, key, title, cases, claims, label, citation, modules, doi="", order=100):
        self.key, self.title, self.cases, self.claims = key, title, tuple(cases), claims
        self.order = order
        self.label, self.citation, self.doi = label, citation, doi
        self.modules = {k: tuple(v) for k, v in modules.items()}

    def load(self, part: str) -> None:
        """Import the modules that register ``part`` (``verdicts``, ``checks``, ``systems``)."""
        for m in self.modules.get(part, ()):
            importlib.import_module(m)

    def __repr__(self):
        return f"Paper({self.key!r}, cases={self.cases})"


def named_adder(cls, what: str):
    """The ``register`` hook of a :class:`LazyRegistry` of ``cls`` instances known by their
    ``name``: TypeError for another object, ValueError when the entry point's name is not
    the object's (``what``: the kind's word in the message, e.g. ``"study"``)."""
    def add(name, obj, registry):
        if not isinstance(obj, cls):
            raise TypeError(f"{obj!r} is not an {cls.__module__}.{cls.__qualname__}")
        if obj.name != name:
            raise ValueError(f"the entry point is named {name!r} but the {what} {obj.name!r}")
        registry[name] = obj
    return add


def register_named(registry, obj, cls, function: str):
    """Add the ``cls`` instance ``obj`` to ``registry`` under its name (the body of
    ``register_study``, ``register_convention``; ``function`` names the caller in the
    TypeError); returns ``obj``."""
    if not isinstance(obj, cls):
        raise TypeError(f"{function} takes a {cls.__name__}, got {obj!r}")
    registry[obj.name] = obj
    return obj


def _add_paper(name, obj, registry):
    if not isinstance(obj, Paper):
        raise TypeError(f"{obj!r} is not an nsfric.plugins.Paper")
    registry[name] = obj


#: name -> :class:`Paper`: the installed papers (entry-point group ``nsfric.papers``), in
#: the order the installed distributions declare them
PAPERS = LazyRegistry(GROUPS["papers"], _add_paper,
                      order=lambda reg, names: sorted(names, key=lambda n: (dict.__getitem__(reg, n).order, n)))


def paper_order(reg, names) -> list:
    """``names`` of a registry of cases in the papers' order (:data:`PAPERS`, each paper's
    ``cases`` in its order), the cases of no paper after them by name."""
    rank = {c: (i, j) for i, p in enumerate(PAPERS.values()) for j, c in enumerate(p.cases)}
    return sorted(names, key=lambda n: (rank.get(n, (len(rank), 0)), n))
