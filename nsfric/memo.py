"""One memo mechanism: bounded, least recently used, keyed by content (ground floor).

Every in-process cache of nsfric (generated functions, compiled kernels, closed-form
flows, content hashes, references of a running study) is a :class:`Memo`: at most
``maxsize`` entries, the least recently used one evicted first, :meth:`Memo.clear` to
empty it.  A key is the *content* an entry depends on -- plain hashable values (names,
numbers, SymPy expressions) or a model's content hash
(:func:`nsfric.symbolic.content.model_key`).

An object without a content key is keyed by :class:`Identity`, never by a bare
``id()``: CPython reuses the id of a collected object for the next one allocated at
that address, so an ``id()`` key hands the dead object's entry to a stranger.  An
:class:`Identity` holds a weak reference and equals only a key of the very same live
object; the entries of dead objects are dropped.

:func:`memo` is the decorator form for functions of hashable arguments, as
:func:`functools.lru_cache` but always bounded and listed in :data:`MEMOS`.
"""
from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict

#: every :class:`Memo` of the process (weakly), by name: :func:`clear_all` empties them
MEMOS: "weakref.WeakValueDictionary[str, Memo]" = weakref.WeakValueDictionary()


class Identity:
    """The key of one live object (equal only to a key of that very object).

    Holds a weak reference where the object allows one (a strong one otherwise: the
    object then lives as long as its entry, so its id cannot be reused meanwhile)."""

    __slots__ = ("_id", "_ref", "_strong", "__weakref__")

    def __init__(self, obj):
        self._id = id(obj)
        try:
            self._ref, self._strong = weakref.ref(obj), None
        except TypeError:
            self._ref, self._strong = None, obj

    def target(self):
        """The object, or ``None`` once it was collected."""
        return self._strong if self._ref is None else self._ref()

    @property
    def alive(self) -> bool:
        return self.target() is not None

    def __hash__(self):
        return self._id

    def __eq__(self, other):
        if not isinstance(other, Identity) or other._id != self._id:
            return False
        obj = self.target()
        return obj is not None and obj is other.target()

    def __repr__(self):
        obj = self.target()
        return f"Identity({type(obj).__name__ if obj is not None else 'dead'} @ {self._id:#x})"


def _alive(key) -> bool:
    if isinstance(key, Identity):
        return key.alive
    if isinstance(key, tuple):
        return all(_alive(k) for k in key)
    return True


def _has_identity(key) -> bool:
    """Whether ``key`` holds an :class:`Identity` (an entry that may die with its object)."""
    if isinstance(key, Identity):
        return True
    if isinstance(key, tuple):
        return any(_has_identity(k) for k in key)
    return False


class _Failure:
    """A remembered exception (a build tried once and failed)."""

    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


class Memo:
    """A bounded least-recently-used map of built values (see module docstring).

    Parameters
    ----------
    maxsize : int
        The most entries kept (>= 1); the least recently used is evicted first.
    name : str
        Its name in :data:`MEMOS` (unique per process; a later Memo of the same name
        replaces the earlier one there).
    """

    def __init__(self, maxsize: int = 128, name: str = ""):
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize must be an integer >= 1, got {maxsize!r}")
        self.maxsize, self.name = maxsize, name or f"memo-{id(self):x}"
        self._data: OrderedDict = OrderedDict()
        #: the stored keys that hold an :class:`Identity` (only they can die): a full
        #: memo's put scans these, not every key
        self._mortal: dict = {}
        self._lock = threading.RLock()
        self.hits = self.misses = 0
        MEMOS[self.name] = self

    def __len__(self):
        return len(self._data)

    def __contains__(self, key):
        with self._lock:
            return key in self._data

    def clear(self) -> None:
        """Forget every entry (and the hit and miss counts)."""
        with self._lock:
            self._data.clear()
            self._mortal.clear()
            self.hits = self.misses = 0

    def values(self) -> list:
        """The stored values, least recently used first (a remembered failure as its exception)."""
        with self._lock:
            return [v.error if isinstance(v, _Failure) else v for v in self._data.values()]

    def lookup(self, key):
        """``(True, value)`` of ``key`` (now the most recently used), or ``(False, None)``."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return True, self._data[key]
            self.misses += 1
            return False, None

    def put(self, key, value) -> None:
        """Store ``value`` as ``key``; the entries of collected objects go first, then
        the least recently used beyond ``maxsize``."""
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            if _has_identity(key):
                self._mortal[key] = None
            if len(self._data) > self.maxsize:
                for k in [k for k in self._mortal if not _alive(k)]:
                    del self._data[k], self._mortal[k]
            while len(self._data) > self.maxsize:
                self._mortal.pop(self._data.popitem(last=False)[0], None)

    def get(self, key, build, failure=()):
        """The value of ``key``, built by ``build()`` on a miss and stored.

        ``failure``: exception type(s) that ``build`` may raise and that are remembered
        like a value (raised again on the next lookup, without building again: a
        compiled kernel that cannot be built is tried once)."""
        found, value = self.lookup(key)
        if not found:
            try:
                value = build()
            except failure as e:
                self.put(key, _Failure(e))
                raise
            self.put(key, value)
        if isinstance(value, _Failure):
            raise value.error
        return value


def memo(maxsize: int = 128, key=None):
    """Decorator: a function's results in a :class:`Memo` of ``maxsize`` entries.

    ``key(*args, **kwargs)`` gives an entry's key (default: the arguments themselves,
    which must be hashable).  The wrapper has ``memo`` (its :class:`Memo`) and
    ``cache_clear()``, as :func:`functools.lru_cache`'s."""
    def decorate(fn):
        store = Memo(maxsize, f"{fn.__module__}.{fn.__qualname__}")

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs) if key is not None else (args, tuple(sorted(kwargs.items())))
            return store.get(k, lambda: fn(*args, **kwargs))

        wrapper.memo = store
        wrapper.cache_clear = store.clear
        return wrapper
    return decorate


def clear_all() -> None:
    """Empty every :class:`Memo` of the process."""
    for m in list(MEMOS.values()):
        m.clear()


__all__ = ["Identity", "MEMOS", "Memo", "clear_all", "memo"]
