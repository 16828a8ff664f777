"""The sweep cache in chunks (issue 27 item 7): a few chunk files per sweep, not one
file per point; every entry checksummed and keyed by its whole specification; concurrent
writers lose nothing; tampered entries are recomputed; files that are not nsfric's
chunks (the one-file-per-point entries of older versions included) are left alone."""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import threading

import pytest

import nsfric
from nsfric import cache_store, chunk_store
from nsfric.chunk_store import ChunkStore
from nsfric.study.cache import PointCache
from nsfric.study.sweep import FunctionPoint


def double(point):
    """A cheap point function."""
    return {"y": 2.0 * point["x"]}


GRID = {"x": [float(i) for i in range(400)]}


def _sweep(root, grid=GRID, **kw):
    return nsfric.sweep(double, grid=grid, observables=["y"], cache_dir=str(root), **kw)


def _files(root):
    return sorted(os.path.join(d, n) for d, _, names in os.walk(root) for n in names)


def _chunks(root):
    return [p for p in _files(root) if p.endswith(".chunk")]


def test_a_sweep_writes_a_few_chunks_not_a_file_per_point(tmp_path):
    ds = _sweep(tmp_path)
    assert json.loads(ds.attrs["computed_points"]) == 400
    files = _files(tmp_path)
    assert files == _chunks(tmp_path) and len(files) <= 16, files  # at most one per shard
    again = _sweep(tmp_path)
    assert json.loads(again.attrs["computed_points"]) == 0
    assert again["y"].values.tolist() == [2.0 * x for x in GRID["x"]]
    assert _files(tmp_path) == files  # a warm sweep writes nothing


def test_many_small_sweeps_are_merged(tmp_path):
    for i in range(12):
        _sweep(tmp_path, grid={"x": [float(i)]})
    shards = [os.path.basename(p)[0] for p in _chunks(tmp_path)]
    assert max(shards.count(s) for s in set(shards)) <= chunk_store.COMPACT_FILES
    ds = _sweep(tmp_path, grid={"x": [float(i) for i in range(12)]})
    assert json.loads(ds.attrs["computed_points"]) == 0


def _writer(root, keys, rounds):
    """Store ``keys`` in ``rounds`` sessions, each flushed in small chunks and compacted."""
    for r in range(rounds):
        with ChunkStore(root, "sweep") as store:
            for k in keys[r::rounds]:
                store.put(k, json.dumps({"key": k}), {"v": int(k[:8], 16)})


def _keys(tag, n):
    import hashlib

    return [hashlib.sha256(f"{tag}{i}".encode()).hexdigest() for i in range(n)]


def test_concurrent_writers_and_compactors_lose_no_entry(tmp_path, monkeypatch):
    monkeypatch.setattr(chunk_store, "FLUSH_ENTRIES", 7)
    monkeypatch.setattr(chunk_store, "COMPACT_FILES", 1)  # compaction at every close, racing the others
    shared = _keys("shared", 60)
    jobs = [(str(tmp_path), _keys(w, 150) + shared, 5) for w in "abc"]
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_writer, args=job) for job in jobs]
    threads = [threading.Thread(target=_writer, args=(str(tmp_path), _keys("t", 150) + shared, 5))]
    for p in procs + threads:
        p.start()
    for p in procs + threads:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    store = ChunkStore(str(tmp_path), "sweep")
    for k in shared + _keys("t", 150) + [k for w in "abc" for k in _keys(w, 150)]:
        assert store.get(k, json.dumps({"key": k})) == {"v": int(k[:8], 16)}, k
    assert not [p for p in _files(tmp_path) if not p.endswith(".chunk")]  # no temporaries left


def _line_of(root, key):
    for path in _chunks(root):
        with open(path) as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            if line.startswith(key):
                return path, lines, i
    raise AssertionError(f"no entry {key}")


def _flip(line):
    i = line.rindex('"y":') + 5
    return line[:i] + str((int(line[i]) + 1) % 10) + line[i + 1:]


KEY = FunctionPoint(double).key({"x": 7.0})


def _resign(line, edit):
    """The entry with its body edited and a correct checksum (so only the content tells)."""
    key, _, body = line.split(" ", 2)
    body = edit(body)
    return f"{key} {chunk_store._line_sum(key, body)} {body}"


TAMPERS = {
    "flipped digit": _flip,
    "cut short": lambda line: line[: len(line) // 2],
    "another specification": lambda line: _resign(line, lambda b: b.replace('"x":"7.0"', '"x":"8.0"')),
    "NaN literal": lambda line: _resign(line, lambda b: b.replace('"y":[14.0]', '"y":[NaN]')
                                        .replace('"y":14.0', '"y":NaN')),
    "malformed result": lambda line: _resign(line, lambda b: b.replace('"observables"', '"observations"')),
}


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_entry_is_recomputed_the_others_served(tmp_path, tamper, monkeypatch):
    monkeypatch.setattr(chunk_store, "COMPACT_FILES", 0)  # every close compacts: never the tampered chunk
    grid = {"x": [float(i) for i in range(20)]}
    clean = _sweep(tmp_path, grid=grid)
    path, lines, i = _line_of(tmp_path, KEY)
    changed = TAMPERS[tamper](lines[i])
    assert changed != lines[i]
    lines[i] = changed
    with open(path, "w") as f:
        f.write("\n".join(lines))
    tampered = open(path).read()
    healed = _sweep(tmp_path, grid=grid)
    assert json.loads(healed.attrs["computed_points"]) == 1
    assert healed["y"].values.tolist() == clean["y"].values.tolist()
    assert json.loads(_sweep(tmp_path, grid=grid).attrs["computed_points"]) == 0
    if tamper in ("flipped digit", "cut short"):  # checksum broken: neither merged nor removed
        assert open(path).read() == tampered


def test_files_that_are_not_chunks_are_ignored_and_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(chunk_store, "COMPACT_FILES", 0)  # every close compacts
    grid = {"x": [7.0]}
    foreign = {  # the names a chunk could have, but not nsfric's chunks; and an old entry
        KEY[0] + "-0000000000000001-host-1-aaaa.chunk": "not a chunk\n",
        KEY[0] + "-0000000000000002-host-1-bbbb.chunk/notes.txt": "a directory with a file\n",
        "notes.txt": "mine\n",
    }
    for rel, text in foreign.items():
        os.makedirs(os.path.dirname(tmp_path / rel), exist_ok=True)
        (tmp_path / rel).write_text(text)
    elsewhere = tmp_path.parent / (tmp_path.name + "-elsewhere.chunk")  # a link to a whole chunk
    with ChunkStore(str(tmp_path.parent / (tmp_path.name + "-other")), "sweep") as other:
        other.put(KEY, "{}", {})
    os.rename(_chunks(tmp_path.parent / (tmp_path.name + "-other"))[0], elsewhere)
    link = tmp_path / (KEY[0] + "-0000000000000003-host-1-cccc.chunk")
    os.symlink(elsewhere, link)
    spec = FunctionPoint(double).spec({"x": 7.0})
    old = tmp_path / KEY[:2] / (KEY + ".json")  # the one-file-per-point entry of before: a wrong value
    cache_store.write(str(old), PointCache.KIND, spec, {"observables": {"y": 99.0}, "estimate": {},
                                                        "stats": {}})
    old_text = old.read_text()
    for i in range(3):  # the same entry rewritten (force): its shard's chunks merged at each close
        ds = _sweep(tmp_path, grid=grid, force=i > 0)
        assert ds["y"].values.tolist() == [14.0] and json.loads(ds.attrs["computed_points"]) == 1
    assert json.loads(_sweep(tmp_path, grid=grid).attrs["computed_points"]) == 0
    assert os.path.islink(link) and os.path.isfile(elsewhere)
    assert len([p for p in _chunks(tmp_path) if os.path.isfile(p) and not os.path.islink(p)]) == 2  # merged, foreign
    for rel, text in foreign.items():
        assert (tmp_path / rel).read_text() == text
    assert old.read_text() == old_text


def test_an_interrupted_sweep_keeps_what_it_computed(tmp_path):
    def interrupt(done, total):
        if done == 150:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _sweep(tmp_path, progress=interrupt)
    resumed = _sweep(tmp_path)
    assert json.loads(resumed.attrs["computed_points"]) == 400 - 150


def _sweep_in_child(root, jobs):
    ds = _sweep(root, jobs=jobs, chunksize=25)  # some points perhaps from the other's chunks
    assert ds["y"].values.tolist() == [2.0 * x for x in GRID["x"]]


def test_two_sweeps_at_once_on_one_cache_lose_nothing(tmp_path, monkeypatch):
    """Two sweeps (one on a local pool, --jobs 2) write the same cache at once, in small
    chunks: afterwards every point is served and every file is a whole chunk."""
    monkeypatch.setattr(chunk_store, "FLUSH_ENTRIES", 16)
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_sweep_in_child, args=(tmp_path, jobs)) for jobs in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    assert json.loads(_sweep(tmp_path).attrs["computed_points"]) == 0
    assert all(open(p).readline() == "nsfric-chunk 1 sweep\n" for p in _files(tmp_path))


def test_a_long_run_merges_its_chunks_as_it_goes(tmp_path, monkeypatch):
    """Flushed every entry (a slow sweep flushes every few seconds), one store keeps the
    number of its chunk files bounded before it is closed."""
    monkeypatch.setattr(chunk_store, "FLUSH_ENTRIES", 1)
    monkeypatch.setattr(chunk_store, "COMPACT_FILES", 1)
    monkeypatch.setattr(chunk_store, "COMPACT_EVERY", 10)
    keys = ["a" + k[1:] for k in _keys("long", 100)]  # one shard
    store = ChunkStore(str(tmp_path), "sweep")
    for k in keys:
        store.put(k, json.dumps({"key": k}), {"v": k})
    assert len(_chunks(tmp_path)) <= 1 + 10
    fresh = ChunkStore(str(tmp_path), "sweep")
    assert all(fresh.get(k, json.dumps({"key": k})) == {"v": k} for k in keys)


def test_a_small_sweep_holds_only_its_own_entries(tmp_path):
    """A sweep of a few points in a large store keeps only their lines in memory; a key
    asked for later is still found (the store is read again in full)."""
    keys = _keys("many", 300)
    with ChunkStore(str(tmp_path), "sweep") as store:
        for k in keys:
            store.put(k, json.dumps({"key": k}), {"v": k})
    store = ChunkStore(str(tmp_path), "sweep")
    store.want(keys[:3])
    assert [store.get(k, json.dumps({"key": k})) for k in keys[:3]] == [{"v": k} for k in keys[:3]]
    assert sum(map(len, store._index.values())) == 3
    assert store.get(keys[-1], json.dumps({"key": keys[-1]})) == {"v": keys[-1]}
