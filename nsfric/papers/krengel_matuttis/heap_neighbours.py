"""The neighbour list of the disc heap's time loop: template of a generated module.

Appended to :mod:`nsfric.papers.krengel_matuttis.heap_loop`'s text by
:func:`nsfric.papers.krengel_matuttis.heap_run.kernel_source` (not imported to run).  A
Verlet list built with a cell list: at the build positions ``Xb`` the candidate slots
are the disc pairs closer than ``r_i + r_j + margin`` (cells of side ``2 max r +
margin``, each disc against the discs of its own and the 8 surrounding cells) and the
discs within ``r_i + margin`` of a wall; pairs of fixed discs and fixed discs on walls
are left out (never in contact).  While every disc stays within ``margin/2`` of its
build position (the classical criterion; ``reach``, a part in 1e9 less for rounding),
no pair outside the list can touch.  The time loop builds a new list at the start of
a step when the largest move since the build plus a look-ahead of two predictor steps
reaches ``reach``, and does a step again after a new list when its end state has left
it.  The margin is the skin, or 4 look-aheads where a disc moves more than an eighth of
the skin per step (a fast disc).  The list is
kept sorted by slot number ``s = i M + j``, so the loops visit the contacts in the
order of the all-pairs loop and the run is the same to the last bit.  A slot's
membership is the build number ``listed[s] == counts[0]`` (no clearing between
builds).  An infinite skin, or a position that is not finite, lists every slot ``i <
j`` (the all-pairs loop) and never builds again.  The cell grid has at most ``4 N + 16``
cells (larger cells where the discs spread far).
"""
# ---- loop ----


@njit(cache=True, error_model="numpy")
def _neighbours(X, ahead, skin, minv, rad, wall_p, wall_n, cand, listed, Xb, reach, counts):
    """Build the list at ``X`` into ``cand`` (returns its length): margin ``max(skin, 4
    ahead)``; ``Xb``, ``reach``, ``listed`` set; ``counts`` [builds, -, most candidates]
    updated."""
    N = X.shape[0]
    M = cand.shape[0] // N
    margin = max(skin, 4.0 * ahead)
    nc = _cell_pairs(X, margin, minv, rad, wall_p, wall_n, cand) if _math.isfinite(margin) else -1
    if nc < 0:  # every slot, never built again
        nc = 0
        for i in range(N):
            for j in range(i + 1, M):
                cand[nc] = i * M + j
                nc += 1
        reach[0] = _np.inf
    else:
        reach[0] = 0.5 * margin * (1 - 1e-9)
    counts[0] += 1
    counts[2] = max(counts[2], nc)
    for k in range(nc):
        listed[cand[k]] = counts[0]
    for i in range(N):
        Xb[i, 0], Xb[i, 1] = X[i, 0], X[i, 1]
    return nc


@njit(cache=True, error_model="numpy")
def _cell_pairs(X, margin, minv, rad, wall_p, wall_n, cand):
    """The candidate slots at ``X`` with ``margin``, in slot order (row by row; the walls,
    ``j >= N``, after the discs of a row), into ``cand``; returns their count, or -1 where
    the positions span too far for a grid."""
    N = X.shape[0]
    M = cand.shape[0] // N
    x0, x1, y0, y1, side = X[0, 0], X[0, 0], X[0, 1], X[0, 1], 0.0
    for i in range(N):
        if not (_math.isfinite(X[i, 0]) and _math.isfinite(X[i, 1])):
            return -1
        x0, x1 = min(x0, X[i, 0]), max(x1, X[i, 0])
        y0, y1 = min(y0, X[i, 1]), max(y1, X[i, 1])
        side = max(side, 2 * rad[i])
    if not (_math.isfinite(x1 - x0) and _math.isfinite(y1 - y0)):
        return -1
    side += margin
    while ((x1 - x0) / side + 1) * ((y1 - y0) / side + 1) > 4 * N + 16:  # a sparse spread: larger cells
        side *= 2
    ncx, ncy = int((x1 - x0) / side) + 1, int((y1 - y0) / side) + 1
    head = _np.empty(ncx * ncy, _np.int64)
    head[:] = -1
    nxt = _np.empty(N, _np.int64)
    cx = _np.empty(N, _np.int64)
    cy = _np.empty(N, _np.int64)
    for i in range(N):
        cx[i] = min(int((X[i, 0] - x0) / side), ncx - 1)
        cy[i] = min(int((X[i, 1] - y0) / side), ncy - 1)
        c = cx[i] * ncy + cy[i]
        nxt[i] = head[c]
        head[c] = i
    nc = 0
    for i in range(N):
        row = nc  # the slots of row i, kept sorted (an insertion: a few per disc)
        for a in range(max(cx[i] - 1, 0), min(cx[i] + 2, ncx)):
            for b in range(max(cy[i] - 1, 0), min(cy[i] + 2, ncy)):
                j = head[a * ncy + b]
                while j >= 0:
                    if j > i and not (minv[i] == 0 and minv[j] == 0):
                        dx, dy = X[j, 0] - X[i, 0], X[j, 1] - X[i, 1]
                        lim = rad[i] + rad[j] + margin
                        if dx * dx + dy * dy < lim * lim:
                            k = nc
                            while k > row and cand[k - 1] > i * M + j:
                                cand[k] = cand[k - 1]
                                k -= 1
                            cand[k] = i * M + j
                            nc += 1
                    j = nxt[j]
        if minv[i] > 0:
            for w in range(wall_p.shape[0]):
                gap = (X[i, 0] - wall_p[w, 0]) * wall_n[w, 0] + (X[i, 1] - wall_p[w, 1]) * wall_n[w, 1]
                if gap < rad[i] + margin:
                    cand[nc] = i * M + N + w
                    nc += 1
    return nc


@njit(cache=True, error_model="numpy")
def _largest_move(X, Xb):
    """The largest distance of a disc centre ``X[:, :2]`` from ``Xb`` (inf if not finite)."""
    m = 0.0
    for i in range(X.shape[0]):
        dx, dy = X[i, 0] - Xb[i, 0], X[i, 1] - Xb[i, 1]
        d2 = dx * dx + dy * dy
        if not _np.isfinite(d2):
            return _np.inf
        m = max(m, d2)
    return _math.sqrt(m)


@njit(cache=True, error_model="numpy")
def _release_unlisted(stuck, xi, Fs, listed, build):
    """The state given for the slots out of the list (out of contact): released as the
    all-pairs loop releases a slot out of contact; returns whether a stuck flag changed."""
    changed = False
    for s in range(stuck.shape[0]):
        if listed[s] != build:
            if stuck[s]:
                changed = True
            stuck[s] = 0
            xi[s] = 0.0
            Fs[s] = 0.0
    return changed


@njit(cache=True, error_model="numpy")
def _unlisted(cand, listed, build, N):
    """The slots ``i < j`` out of the list of build ``build``, in order, into ``cand``;
    returns their count."""
    M = cand.shape[0] // N
    n = 0
    for i in range(N):
        for j in range(i + 1, M):
            if listed[i * M + j] != build:
                cand[n] = i * M + j
                n += 1
    return n
