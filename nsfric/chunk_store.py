"""Many checksummed cache entries in few files: chunks written once, by one writer each.

A store is a folder of *chunk files* ``<shard>-<stamp>-<host>-<pid>-<token>.chunk``:
``shard`` the first hex digit of the keys it holds (16 shards, so that a lookup reads
about a sixteenth of the store), ``stamp`` the 16-hex-digit time it was written.  A
chunk's first line is ``nsfric-chunk <FORMAT> <kind>``; then one line per entry::

    <key> <sha256> <spec>\\t<data>

``spec`` is the canonical text of the whole specification the key stands for (one
line, no tab: canonical JSON, given by the caller), ``data`` the strict JSON text of what
is cached (no NaN or infinity: the caller encodes them), and the SHA-256 is taken over
``<key> <spec>\\t<data>``.

* **Read** (:meth:`ChunkStore.get`): the shard's chunks are listed once, in the order
  of their stamps (a later entry of a key replaces an earlier one); an entry is served
  only if its line is whole, its checksum matches, its specification equals the one
  asked for, its data is strict JSON and the caller's ``check`` passes.  Anything else
  -- a flipped digit, a truncated chunk, garbage, a file of another format, a directory
  in the way -- is a *miss*: the caller recomputes and :meth:`put` stores a new entry.
  Files that are not chunks (the one-file-per-point entries of older nsfric versions
  included) are ignored and left alone.
* **Write** (:meth:`ChunkStore.put`, :meth:`flush`): entries are buffered and written
  as new chunk files (one per shard) every :data:`FLUSH_ENTRIES` entries or
  :data:`FLUSH_SECONDS` seconds and at :meth:`close`, each to a temporary file moved into
  place atomically (:func:`nsfric.cache_store.write_text`).  No chunk is ever rewritten:
  concurrent writers (worker processes, two sweeps at once) each add their own files and
  lose nothing.  A store that cannot be written is skipped with a note.
* **Compaction** (at :meth:`close`, and every :data:`COMPACT_EVERY` flushes): when a
  shard holds more than :data:`COMPACT_FILES` chunks smaller than :data:`CHUNK_BYTES`,
  those that are wholly valid are merged into one new chunk (stamped as the newest of
  them), published first, and only then removed.
  A file is removed only after every one of its lines has been read, verified and
  published again, so no entry is lost when writers and compactors race; a chunk with
  a corrupt line, a file of another format, a directory, a symbolic link are never
  removed.

Ground floor: imports no layer of nsfric.
"""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import socket
import time

from . import cache_store

#: bump when the chunk layout changes (older chunks are then ignored)
FORMAT = 1
MAGIC = "nsfric-chunk"
SUFFIX = ".chunk"
#: entries buffered before they are written
FLUSH_ENTRIES = 16384
#: seconds of buffered entries before they are written (an interrupted run loses at most these)
FLUSH_SECONDS = 5.0
#: chunks of a shard beyond which its small chunks are merged (at close)
COMPACT_FILES = 4
#: flushes of one store between compactions (a long sweep flushing every few seconds)
COMPACT_EVERY = 64
#: a chunk at least this large is left as it is by compaction
CHUNK_BYTES = 16 * 1024 ** 2
_HOST = "".join(c if c.isalnum() else "_" for c in socket.gethostname())[:32] or "host"


def _line_sum(key: str, body: str) -> str:
    return hashlib.sha256(f"{key} {body}".encode()).hexdigest()


def _reject(name):
    raise ValueError(f"not strict JSON: {name}")


class ChunkStore:
    """Checksummed entries of ``kind`` by key (64 hex digits) in the folder ``root``
    (created on the first write); see the module docstring."""

    def __init__(self, root: str, kind: str):
        self.root, self.kind = os.path.abspath(root), kind
        self.head = f"{MAGIC} {FORMAT} {kind}"
        self._index: dict = {}  # shard -> {key: line body}
        self._pending: dict = {}  # key -> line body, not yet written
        self._since = time.monotonic()
        self._flushes = 0
        self._wanted = None  # the keys the index keeps (None: all)

    # -- reading ----------------------------------------------------------------------------
    def _chunks(self, shard=None) -> list:
        """The chunk files (of ``shard``) by stamp: ``[(stamp, name)]``."""
        try:
            names = os.listdir(self.root)
        except OSError:
            return []
        out = [(n[2:18], n) for n in names
               if n.endswith(SUFFIX) and len(n) > 19 and n[1] == "-" and (shard is None or n[0] == shard)]
        return sorted(out)

    def _read(self, name: str):
        """The entry lines of chunk ``name`` as ``[(key, line)]`` and whether every line of it is
        whole; None when it is not a chunk of this kind (unreadable, another format, a directory)."""
        try:
            with open(os.path.join(self.root, name), encoding="utf-8", newline="\n") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            return None
        head, _, rest = text.partition("\n")
        if head != self.head:
            return None
        lines = rest.split("\n")
        whole = lines[-1] == ""  # a chunk ends with a newline
        entries = [(ln[:64], ln) for ln in lines[:-1] if len(ln) > 130]
        return entries, whole and len(entries) == len(lines) - 1

    def _shard(self, shard: str) -> dict:
        if shard not in self._index:
            found, wanted = {}, self._wanted
            for _, name in self._chunks(shard):
                got = self._read(name)
                if got is not None:
                    found.update(got[0] if wanted is None else ((k, ln) for k, ln in got[0] if k in wanted))
            self._index[shard] = found
        return self._index[shard]

    def want(self, keys):
        """Keep only the entries of ``keys`` in memory when reading (a sweep of a few points
        in a large store); asking for another key later reads the store again in full."""
        self._wanted, self._index = set(keys), {}

    def get(self, key: str, spec: str, check=None):
        """The data stored for ``key`` with the specification text ``spec`` if whole and
        trustworthy, else None (see the module docstring)."""
        if self._wanted is not None and key not in self._wanted:
            self._wanted, self._index = None, {}
        line = self._pending.get(key)
        if line is None:
            line = self._shard(key[:1]).get(key)
        if line is None:
            return None
        return _parse(key, line, spec, check)

    # -- writing ----------------------------------------------------------------------------
    def put(self, key: str, spec: str, data) -> bool:
        """Buffer the entry (written by :meth:`flush`, which this calls every
        :data:`FLUSH_ENTRIES` entries or :data:`FLUSH_SECONDS` seconds); False (and a note)
        when it cannot be stored (``data`` not strict JSON, ``spec`` not one line)."""
        try:
            if "\n" in spec or "\t" in spec or len(key) != 64:
                raise ValueError("a key of 64 characters and a one-line specification without tabs")
            body = spec + "\t" + json.dumps(data, sort_keys=True, allow_nan=False, separators=(",", ":"))
        except (TypeError, ValueError) as e:
            cache_store.skip(self.kind, self.root, f"not storable: {e}")
            return False
        self._pending[key] = f"{key} {_line_sum(key, body)} {body}"
        if len(self._pending) >= FLUSH_ENTRIES or time.monotonic() - self._since >= FLUSH_SECONDS:
            return self.flush()
        return True

    def flush(self) -> bool:
        """Write the buffered entries as new chunk files (one per shard), atomically; False
        (and a note) when the store cannot be written (the entries are then dropped)."""
        pending, self._pending, self._since = self._pending, {}, time.monotonic()
        by_shard: dict = {}
        for key, line in pending.items():
            by_shard.setdefault(key[:1], []).append((key, line))
        ok = True
        self._flushes += bool(pending)
        for shard, entries in sorted(by_shard.items()):
            written = self._write(shard, f"{time.time_ns():016x}", [ln for _, ln in entries])
            if written and shard in self._index:  # else read from the new file when first asked
                self._index[shard].update(entries)
            ok = ok and written
        if ok and self._flushes % COMPACT_EVERY == 0 and pending:  # a long run: merge as it goes
            self._compact_all()
        return ok

    def _write(self, shard: str, stamp: str, lines: list) -> bool:
        name = f"{shard}-{stamp}-{_HOST}-{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
        return cache_store.write_text(os.path.join(self.root, name), self.kind,
                                      self.head + "\n" + "\n".join(lines) + "\n", root=self.root)

    def close(self) -> bool:
        """:meth:`flush`, then merge each shard's many small chunks (module docstring)."""
        ok = self.flush()
        if ok:
            self._compact_all()
        return ok

    def _compact_all(self):
        for shard in sorted({n[0] for _, n in self._chunks()}):
            self._compact(shard)

    def _compact(self, shard: str):
        small = []
        for stamp, name in self._chunks(shard):
            try:
                path = os.path.join(self.root, name)
                if os.path.isfile(path) and not os.path.islink(path) and os.path.getsize(path) < CHUNK_BYTES:
                    small.append((stamp, name))
            except OSError:
                continue
        if len(small) <= COMPACT_FILES:
            return
        merged, used = {}, []
        for stamp, name in small:
            got = self._read(name)
            if got is None or not got[1] or not all(_intact(k, ln) for k, ln in got[0]):
                continue  # not wholly ours and intact: left alone
            merged.update(got[0])
            used.append((stamp, name))
        if len(used) < 2 or not self._write(shard, max(s for s, _ in used), list(merged.values())):
            return
        for _, name in used:  # published above: now removed
            try:
                os.remove(os.path.join(self.root, name))
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _intact(key: str, line: str) -> bool:
    parts = line.split(" ", 2)
    return len(parts) == 3 and parts[0] == key and len(parts[1]) == 64 and parts[1] == _line_sum(key, parts[2])


def _parse(key: str, line: str, spec_text: str, check):
    """The data of an entry ``line`` for ``key`` and ``spec_text``, or None (a miss)."""
    try:
        if not _intact(key, line):
            return None
        spec, _, data = line.split(" ", 2)[2].partition("\t")
        if spec != spec_text:
            return None
        data = json.loads(data, parse_constant=_reject)
        if check is not None and not check(data):
            return None
        return data
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


__all__ = ["ChunkStore", "FORMAT"]
