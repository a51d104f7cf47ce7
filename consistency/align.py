"""N-way alignment of the action sequences of a task's runs.

Progressive profile alignment over integer signature ids: the distinct sequences are added one
by one (most frequent first) to a profile whose columns hold the signatures seen there. Each
addition is a global alignment (Needleman-Wunsch, linear gap cost) against the profile, done only
on the part between the longest common prefix and suffix, so an extra step in one run becomes one
gap column instead of shifting every later step. Identical runs are aligned once; a task whose
runs are all identical costs one comparison.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MATCH = 3.0
"""Score of a tool call whose signature is already in the profile column."""
TEXT_MATCH = 1.0
"""Score of a reply or note whose meaning is already in the profile column."""
SAME_TOOL = 0.0
"""Score of a tool call whose tool (not its arguments) is in the profile column."""
TEXT_SAME_TOOL = 0.5
"""Score of a reply or note next to a reply or note of another meaning."""
MISMATCH = -1.0
"""Score of a step with another tool than the column's."""
GAP = -1.0
"""Score of a gap against a tool call."""
TEXT_GAP = -0.5
"""Score of a gap against a reply or note: extra replies are common and cheap."""

_DIAG, _UP, _LEFT = 0, 1, 2


@dataclass(slots=True)
class Alignment:
    """Columns of an N-way alignment.

    `columns[r][k]` is the column of run r's k-th signature; `matrix[r, c]` is the signature of
    run r in column c, or -1 where run r has no step there (a gap).
    """

    n_columns: int
    columns: list[list[int]]
    matrix: np.ndarray

    def position(self, run: int, column: int) -> int:
        """Index into run's signature sequence at a column, or -1 for a gap."""
        cols = self.columns[run]
        # Columns of a run increase strictly.
        pos = bisect_left(cols, column)
        return pos if pos < len(cols) and cols[pos] == column else -1


class _Profile:
    __slots__ = ("sigs", "text", "tools")

    def __init__(self, seq: Sequence[int], sig_tools: Sequence[int], sig_text: Sequence[bool]):
        self.sigs: list[set[int]] = [{s} for s in seq]
        self.tools: list[set[int]] = [{sig_tools[s]} for s in seq]
        self.text: list[bool] = [sig_text[s] for s in seq]


def _pair_middle(
    psigs: list[set[int]],
    ptools: list[set[int]],
    ptext: list[bool],
    seq: Sequence[int],
    seq_tools: Sequence[int],
    seq_text: Sequence[bool],
) -> list[tuple[int, int]]:
    """Global alignment of a profile slice and a sequence slice; returns (col, pos) pairs."""
    m, n = len(psigs), len(seq)
    if m == 0:
        return [(-1, j) for j in range(n)]
    if n == 0:
        return [(i, -1) for i in range(m)]
    # Row by row: `prev` holds the scores of the row above, `moves[i][j]` how cell (i, j) is
    # reached. The substitution scores of a row are computed in one pass before the recurrence.
    seq_gap = [TEXT_GAP if t else GAP for t in seq_text]
    prev = [0.0]
    for gap in seq_gap:
        prev.append(prev[-1] + gap)
    moves: list[list[int]] = [[_LEFT] * (n + 1)]
    for i in range(m):
        col_text = ptext[i]
        col_gap = TEXT_GAP if col_text else GAP
        col_sigs = psigs[i]
        col_tools = ptools[i]
        subs = [
            (TEXT_MATCH if text else MATCH)
            if s in col_sigs
            else (
                (TEXT_SAME_TOOL if text and col_text else SAME_TOOL) if t in col_tools else MISMATCH
            )
            for s, t, text in zip(seq, seq_tools, seq_text, strict=True)
        ]
        left = prev[0] + col_gap
        row = [left]
        how_row = [_UP]
        # `prev` has one cell more than the others (column 0): the last one is never a diagonal.
        for diag, above, sub, gap in zip(prev, prev[1:], subs, seq_gap, strict=False):
            best = diag + sub
            how = _DIAG
            up = above + col_gap
            if up >= best:
                best, how = up, _UP
            side = left + gap
            if side >= best:
                best, how = side, _LEFT
            row.append(best)
            how_row.append(how)
            left = best
        prev = row
        moves.append(how_row)
    pairs: list[tuple[int, int]] = []
    i, j = m, n
    while i > 0 or j > 0:
        how = moves[i][j]
        if i > 0 and j > 0 and how == _DIAG:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif i > 0 and (j == 0 or how == _UP):
            pairs.append((i - 1, -1))
            i -= 1
        else:
            pairs.append((-1, j - 1))
            j -= 1
    pairs.reverse()
    return pairs


def _pair_with_profile(
    profile: _Profile, seq: Sequence[int], sig_tools: Sequence[int], sig_text: Sequence[bool]
) -> list[tuple[int, int]]:
    psigs, m, n = profile.sigs, len(profile.sigs), len(seq)
    head = 0
    while head < m and head < n and seq[head] in psigs[head]:
        head += 1
    tail = 0
    while tail < m - head and tail < n - head and seq[n - 1 - tail] in psigs[m - 1 - tail]:
        tail += 1
    body = seq[head : n - tail]
    middle = _pair_middle(
        psigs[head : m - tail],
        profile.tools[head : m - tail],
        profile.text[head : m - tail],
        body,
        [sig_tools[s] for s in body],
        [sig_text[s] for s in body],
    )
    pairs = [(k, k) for k in range(head)]
    pairs.extend((c + head if c >= 0 else -1, p + head if p >= 0 else -1) for c, p in middle)
    pairs.extend((m - tail + k, n - tail + k) for k in range(tail))
    return pairs


def align_runs(
    seqs: Sequence[Sequence[int]],
    sig_tools: Sequence[int],
    sig_text: Sequence[bool] | None = None,
) -> Alignment:
    """Align N signature sequences into columns.

    Args:
        seqs: one sequence of signature ids per run.
        sig_tools: the tool id of every signature id.
        sig_text: per signature id, True for replies/notes (they weigh less); default all False.

    Returns:
        The alignment; run order is that of `seqs`.
    """
    n_runs = len(seqs)
    groups: dict[tuple[int, ...], list[int]] = {}
    for r, seq in enumerate(seqs):
        groups.setdefault(tuple(seq), []).append(r)
    distinct = sorted(groups, key=lambda k: (-len(groups[k]), groups[k][0]))
    if len(distinct) == 1:
        only = distinct[0]
        cols = list(range(len(only)))
        matrix = np.tile(np.asarray(only, dtype=np.int64), (n_runs, 1)).reshape(n_runs, len(only))
        return Alignment(len(only), [cols] * n_runs, matrix)

    if sig_text is None:
        sig_text = [False] * len(sig_tools)
    profile = _Profile(distinct[0], sig_tools, sig_text)
    members: list[list[int]] = [list(range(len(distinct[0])))]
    for seq in distinct[1:]:
        pairs = _pair_with_profile(profile, seq, sig_tools, sig_text)
        if len(pairs) == len(seq) == len(profile.sigs) and all(c == p for c, p in pairs):
            # Step k against column k throughout (a substituted action): no column moves.
            for col_sigs, col_tools, s in zip(profile.sigs, profile.tools, seq, strict=True):
                col_sigs.add(s)
                col_tools.add(sig_tools[s])
            profile.text = [t and sig_text[s] for t, s in zip(profile.text, seq, strict=True)]
            members.append(list(range(len(seq))))
            continue
        remap = [0] * len(profile.sigs)
        own: list[int] = []
        sigs: list[set[int]] = []
        tools: list[set[int]] = []
        texts: list[bool] = []
        for new_col, (col, pos) in enumerate(pairs):
            if col >= 0:
                remap[col] = new_col
                col_sigs, col_tools = profile.sigs[col], profile.tools[col]
                col_text = profile.text[col]
            else:
                col_sigs, col_tools, col_text = set(), set(), True
            if pos >= 0:
                own.append(new_col)
                col_sigs.add(seq[pos])
                col_tools.add(sig_tools[seq[pos]])
                col_text = col_text and sig_text[seq[pos]]
            sigs.append(col_sigs)
            tools.append(col_tools)
            texts.append(col_text)
        profile.sigs, profile.tools, profile.text = sigs, tools, texts
        members = [[remap[c] for c in cols] for cols in members]
        members.append(own)

    n_columns = len(profile.sigs)
    columns: list[list[int]] = [[] for _ in range(n_runs)]
    # One row per distinct sequence, then one per run (runs of a sequence share its row).
    rows: list[list[int]] = []
    owner = [0] * n_runs
    for d, (seq, cols) in enumerate(zip(distinct, members, strict=True)):
        row = [-1] * n_columns
        for col, sig in zip(cols, seq, strict=True):
            row[col] = sig
        rows.append(row)
        for r in groups[seq]:
            columns[r] = cols
            owner[r] = d
    matrix = np.array(rows, dtype=np.int64).reshape(len(rows), n_columns)[owner]
    return Alignment(n_columns, columns, matrix)


__all__ = [
    "GAP",
    "MATCH",
    "MISMATCH",
    "SAME_TOOL",
    "TEXT_GAP",
    "TEXT_MATCH",
    "TEXT_SAME_TOOL",
    "Alignment",
    "align_runs",
]
