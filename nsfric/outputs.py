"""Output folders guarded by a manifest: nsfric replaces only what it wrote.

Every folder nsfric writes into holds a manifest, ``.nsfric-manifest.json``: each file
nsfric wrote there, with its SHA-256 and its *group* (``"folder"`` for the outputs of a
folder command -- ``run``, ``report``, ``sweep``, ``converge`` --, ``"file:NAME"`` for a
single-file output and its sidecar).  The rules:

- a file is replaced only when the manifest lists it and its content still has the
  listed checksum; any other existing file of the same name is refused (ValueError,
  nothing written): nsfric never overwrites a file it did not write;
- a folder command publishes its new files all at once (staged in a temporary folder
  inside the output folder, then moved into place; on failure everything is put back);
  the files of its previous run that it no longer writes are removed, but only if they
  are unchanged -- a changed one is kept, named by a :class:`KeptFileWarning`, and is
  no longer listed;
- a non-empty folder without a manifest is refused, unless the caller asks to write
  beside the files already there (``beside=True``, the CLI's ``--beside-existing``);
- a folder inside, equal to or above the cache directory is refused;
- temporary files and folders are named ``.tmp-nsfric-<host>-<pid>-<random>``; a write
  into a folder first removes the ones of dead processes of this host (after a SIGKILL),
  putting back the files of a publication that was interrupted half way.

The manifest itself is replaced atomically, last: it is the commit of a publication.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import socket
import tempfile
import warnings
from contextlib import contextmanager

MANIFEST = ".nsfric-manifest.json"
FORMAT = "nsfric-manifest-1"
FOLDER = "folder"
BESIDE = "--beside-existing"
_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:16] or "host"
_TMP = re.compile(r"^\.tmp-nsfric-([A-Za-z0-9]+)-(\d+)-")
JOURNAL = "journal.json"


class KeptFileWarning(UserWarning):
    """A file of an earlier output that the user changed is kept (no longer listed)."""


def tmp_prefix() -> str:
    """Prefix of this process's temporary names: ``.tmp-nsfric-<host>-<pid>-``."""
    return f".tmp-nsfric-{_HOST}-{os.getpid()}-"


def is_temporary(name: str) -> bool:
    return bool(_TMP.match(name))


def in_stage(path: str) -> bool:
    """Whether ``path`` lies in a staging folder of nsfric (written freely, published
    later as a whole)."""
    return any(is_temporary(part) for part in os.path.abspath(path).split(os.sep))


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# -- the manifest ---------------------------------------------------------------------
def _valid_rel(rel) -> bool:
    return (isinstance(rel, str) and rel and not os.path.isabs(rel) and os.path.normpath(rel) == rel
            and not rel.startswith("..") and rel != MANIFEST and not any(is_temporary(p) for p in rel.split(os.sep)))


def read_manifest(folder: str, option: str = "--out"):
    """The entries ``{relative path: {"sha256", "group"}}`` of ``folder``'s manifest, or
    None without one; a manifest nsfric cannot read is a ValueError naming ``option``."""
    path = os.path.join(folder, MANIFEST)
    if not os.path.lexists(path):
        return None
    try:
        if os.path.islink(path) or not os.path.isfile(path):
            raise ValueError
        with open(path) as f:
            data = json.load(f)
        files = data["files"]
        if data.get("format") != FORMAT or not isinstance(files, dict):
            raise ValueError
        for rel, entry in files.items():
            if not (_valid_rel(rel) and isinstance(entry, dict) and isinstance(entry.get("sha256"), str)
                    and isinstance(entry.get("group"), str)):
                raise ValueError
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ValueError(f"{option}: {path!r} is not a manifest nsfric can read; nothing is written "
                         f"(move it away, or choose another folder)") from None
    return files


def _manifest_text(files: dict) -> str:
    return json.dumps({"format": FORMAT, "files": dict(sorted(files.items()))}, indent=1) + "\n"


def written_by_nsfric(path: str, manifest=None) -> bool:
    """Whether ``path`` is listed in its folder's manifest with its present checksum."""
    folder, name = os.path.split(os.path.abspath(path))
    files = read_manifest(folder) if manifest is None else manifest
    entry = (files or {}).get(name)
    return bool(entry) and os.path.isfile(path) and not os.path.islink(path) and sha256(path) == entry["sha256"]


def _user_entries(folder: str) -> list:
    """The entries of ``folder`` other than the manifest and nsfric's temporary ones."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    return sorted(n for n in names if n != MANIFEST and not is_temporary(n))


# -- checks before any work -------------------------------------------------------------
def _cache_roots(extra=()) -> list:
    from .io import cache_root

    return [os.path.realpath(r) for r in (cache_root(), *extra) if r]


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_not_cache(path: str, option: str, kind: str, caches=()):
    """Refuse an output folder inside, equal to or above a cache folder (for a file:
    a file inside one)."""
    real = os.path.realpath(path if kind == "dir" else os.path.dirname(os.path.abspath(path)))
    for root in _cache_roots(caches):
        if _under(real, root) or (kind == "dir" and _under(root, real)):
            where = "inside" if _under(real, root) and real != root else "equal to" if real == root else "above"
            raise ValueError(f"{option}: {path!r} is {where} the cache folder {root!r}; choose an output "
                             f"folder outside it")


def check_file(path: str, option: str = "--out"):
    """Refuse a single-file output that would replace a file nsfric did not write (or
    that was changed since), or that lies in a cache folder."""
    check_not_cache(path, option, "file")
    if os.path.lexists(path) and not written_by_nsfric(path, read_manifest(os.path.dirname(os.path.abspath(path)), option)):
        raise ValueError(f"{option}: {path!r} exists and nsfric did not write it (or it was changed since); "
                         f"nothing is overwritten: move it away or choose another name")


def check_folder(path: str, option: str = "--out", beside: bool = False, caches=(), expect=()):
    """Refuse an output folder in or above a cache, non-empty without a manifest (unless
    ``beside``), or holding a file in the way of the outputs ``expect`` (relative paths
    known before the work)."""
    check_not_cache(path, option, "dir", caches)
    if not os.path.isdir(path):
        return
    manifest = read_manifest(path, option)
    if manifest is None and not beside:
        held = _user_entries(path)
        if held:
            raise ValueError(f"{option}: {path!r} is not empty ({held[0]!r}{' ...' if len(held) > 1 else ''}) "
                             f"and has no nsfric manifest; choose a new or empty folder, or pass {BESIDE} "
                             f"to write beside its files")
    for rel in expect:
        why = _conflict(os.path.abspath(path), rel, manifest or {}, option, path)
        if why:
            raise ValueError(why)


# -- locking, temporary entries of dead processes ---------------------------------------------
@contextmanager
def _locked(folder: str):
    """An exclusive lock on ``folder`` (flock on the folder itself: no lock file)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # pragma: no cover - a file system without locks: unlocked
            pass
        yield
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def remove_stale(folder: str):
    """Remove the temporary entries (``.tmp-nsfric-<host>-<pid>-*``) of dead processes of
    this host in ``folder``; an interrupted publication is first rolled back
    (:func:`_recover`).  Nothing else is touched."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        m = _TMP.match(name)
        if not m or m.group(1) != _HOST or _alive(int(m.group(2))):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path) and os.path.exists(os.path.join(path, JOURNAL)):
            if not _recover(folder, path):
                continue  # something it would have to overwrite: left for the user
        _remove(path)


def _remove(path: str):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        os.remove(path)


def _recover(folder: str, backup: str) -> bool:
    """Finish or undo the publication that left ``backup`` (its journal says which).

    Committed (the manifest is the new one): nothing to do.  Not committed: the new files
    still present unchanged are removed and the moved-aside files put back.  Returns
    False when a file to put back would replace something else (then nothing is lost:
    ``backup`` stays)."""
    try:
        with open(os.path.join(backup, JOURNAL)) as f:
            journal = json.load(f)
        current = os.path.join(folder, MANIFEST)
        if os.path.isfile(current) and sha256(current) == journal["manifest_sha256"]:
            return True
        for rel, digest in journal["new"].items():
            target = os.path.join(folder, rel)
            if _valid_rel(rel) and os.path.isfile(target) and sha256(target) == digest:
                os.remove(target)
        ok = True
        for rel in journal["moved"]:
            saved, target = os.path.join(backup, "files", rel), os.path.join(folder, rel)
            if not _valid_rel(rel) or not os.path.lexists(saved):
                continue
            if os.path.lexists(target):
                ok = False
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.rename(saved, target)
        return ok
    except (OSError, ValueError, KeyError, TypeError):
        return False


# -- publication ------------------------------------------------------------------------------
def _conflict(folder: str, rel: str, old: dict, option: str, shown: str):
    """Why ``rel`` may not be written into ``folder`` (shown as ``shown``; None: it may)."""
    shown = os.path.join(shown, rel)
    parts = rel.split(os.sep)
    for i in range(1, len(parts)):
        sub = os.path.join(folder, *parts[:i])
        if os.path.islink(sub) or (os.path.lexists(sub) and not os.path.isdir(sub)):
            return f"{option}: {os.path.join(shown, *parts[:i])!r} is in the way of {shown!r} (a file or a link); nothing written"
    target = os.path.join(folder, rel)
    if not os.path.lexists(target):
        return None
    entry = old.get(rel)
    if entry is None or os.path.islink(target) or not os.path.isfile(target):
        return (f"{option}: {shown!r} exists and nsfric did not write it; nothing written (move it away "
                f"or choose another folder)")
    if sha256(target) != entry["sha256"]:
        return (f"{option}: {shown!r} was changed since nsfric wrote it; nothing written (move it away "
                f"to keep it)")
    return None


def publish(folder: str, files: dict, group: str, option: str = "--out", beside: bool = True,
            shown: str | None = None):
    """Move the staged ``files`` (``{relative path: staged path}``) into ``folder``, all
    or nothing, and record them in its manifest under ``group``.

    Files of the same group listed before and not written now are removed when
    unchanged (kept with a :class:`KeptFileWarning` otherwise).  Raises ValueError
    (nothing changed) when a file would replace one nsfric did not write, or when the
    folder is non-empty without a manifest and ``beside`` is False.  Messages name the
    folder as ``shown`` (default ``folder``)."""
    shown = folder if shown is None else shown
    with _locked(folder):
        old = read_manifest(folder, option)
        if old is None:
            if not beside and _user_entries(folder):
                check_folder(shown, option, beside)  # raises
            old = {}
        digests = {rel: sha256(src) for rel, src in files.items()}
        for rel in files:
            why = _conflict(folder, rel, old, option, shown)
            if why:
                raise ValueError(why)
        manifest = {rel: e for rel, e in old.items() if e["group"] != group and rel not in files}
        stale = []
        for rel, entry in old.items():
            if entry["group"] != group or rel in files:
                continue
            target = os.path.join(folder, rel)
            if not os.path.lexists(target):
                continue
            if os.path.isfile(target) and not os.path.islink(target) and sha256(target) == entry["sha256"]:
                stale.append(rel)
            else:
                warnings.warn(f"kept {os.path.join(shown, rel)!r}: changed since nsfric wrote it "
                              f"(no longer in its manifest)", KeptFileWarning, stacklevel=2)
        manifest.update({rel: {"sha256": d, "group": group} for rel, d in digests.items()})
        _commit(folder, files, digests, stale, _manifest_text(manifest))


def _commit(folder, files, digests, stale, manifest_text):
    """Move ``files`` in, ``stale`` and the replaced files aside, then replace the
    manifest (the commit); undo everything on any failure.  A journal in the backup
    folder lets :func:`remove_stale` undo it after a SIGKILL."""
    backup = tempfile.mkdtemp(prefix=tmp_prefix(), dir=folder)
    moved, placed, made = [], [], []
    replaced = [rel for rel in files if os.path.lexists(os.path.join(folder, rel))]
    try:
        with open(os.path.join(backup, JOURNAL), "w") as f:
            json.dump({"new": digests, "moved": replaced + stale,
                       "manifest_sha256": hashlib.sha256(manifest_text.encode()).hexdigest()}, f)
        for rel in replaced + stale:
            saved = os.path.join(backup, "files", rel)
            os.makedirs(os.path.dirname(saved), exist_ok=True)
            os.rename(os.path.join(folder, rel), saved)
            moved.append(rel)
        for rel, src in files.items():
            target = os.path.join(folder, rel)
            made += _makedirs(os.path.dirname(target))
            os.rename(src, target)
            placed.append(rel)
        fd, tmp = tempfile.mkstemp(prefix=tmp_prefix(), dir=folder)
        with os.fdopen(fd, "w") as f:
            f.write(manifest_text)
        os.chmod(tmp, 0o666 & ~umask())
        os.replace(tmp, os.path.join(folder, MANIFEST))
    except BaseException:
        for rel in placed:
            os.remove(os.path.join(folder, rel))
        for rel in moved:
            os.rename(os.path.join(backup, "files", rel), os.path.join(folder, rel))
        _rmdirs(made)
        _remove_quietly(locals().get("tmp"))
        shutil.rmtree(backup, ignore_errors=True)
        raise
    shutil.rmtree(backup, ignore_errors=True)
    for rel in stale:  # folders left empty by removed outputs
        _rmdirs(_parents(folder, rel))


def _parents(folder, rel):
    parts = rel.split(os.sep)[:-1]
    return [os.path.join(folder, *parts[:i]) for i in range(1, len(parts) + 1)]


def _remove_quietly(path):
    if path and os.path.lexists(path):
        try:
            os.remove(path)
        except OSError:
            pass


def umask() -> int:
    """The process's file-creation mask (read without changing it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _makedirs(path: str) -> list:
    """``os.makedirs``; returns the folders it created (outermost first)."""
    made, p = [], os.path.abspath(path)
    while not os.path.lexists(p):
        made.append(p)
        p = os.path.dirname(p)
    for d in reversed(made):
        try:
            os.mkdir(d)
        except FileExistsError:
            pass
    return list(reversed(made))


def _rmdirs(dirs):
    """Remove the folders ``dirs`` that are empty, deepest first."""
    for d in sorted(dirs, key=len, reverse=True):
        try:
            os.rmdir(d)
        except OSError as e:
            if e.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOENT, errno.EBUSY):
                raise


@contextmanager
def output_folder(path: str, option: str = "--out", beside: bool = False, caches=(), expect=()):
    """Yield a staging folder; on success its files replace the previous outputs in
    ``path`` all at once (:func:`publish`, group ``"folder"``), else it is removed (and
    so are the folders this created).  A folder command is never left half written."""
    check_folder(path, option, beside, caches, expect)
    full = os.path.abspath(path)
    made = _makedirs(full)
    stage = None
    try:
        remove_stale(full)
        stage = tempfile.mkdtemp(prefix=tmp_prefix(), dir=full)
        os.chmod(stage, 0o777 & ~umask())
        yield stage
        files = {}
        for d, _, names in os.walk(stage):
            for n in names:
                src = os.path.join(d, n)
                files[os.path.relpath(src, stage)] = src
        if MANIFEST in files:
            raise ValueError(f"an output may not be named {MANIFEST}")
        publish(full, files, FOLDER, option, beside, shown=path)
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
        _rmdirs(made)


def publish_files(pairs, option: str = "--out"):
    """Publish the staged single files ``pairs`` (``(staged, target)``, one folder) under
    the group of the first target, after :func:`check_file`'s rule."""
    folder = os.path.dirname(pairs[0][1])
    if any(os.path.dirname(t) != folder for _, t in pairs):
        raise ValueError("the files of one output must share a folder")
    publish(folder, {os.path.basename(t): s for s, t in pairs}, "file:" + os.path.basename(pairs[0][1]),
            option, beside=True)
