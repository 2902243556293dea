"""Khó's compiled kernel: the draw of a deal from a sampler's tables."""

from __future__ import annotations

from typing import Any

import numpy as np

from hearts.bots.hard.kernel.jit import (
    _jit,
    _next,
    _shuffle,
    _unit,
)


@_jit
def draw(
    t: Any,
    state: int,
    hands: Any,
    buf: Any,
) -> int:
    """One deal of the tables ``t`` (:class:`~hearts.bots.hard.sampling.DealTables`)
    into ``hands`` (a mask per seat); the generator's new state."""
    p = 0
    parts = t.part_cum.shape[0]
    if parts > 1:
        state, x = _next(state)
        u = _unit(x) * t.part_cum[parts - 1]
        while p < parts - 1 and t.part_cum[p] <= u:
            p += 1
    for s in range(hands.shape[0]):
        hands[s] = t.part_fixed[p, s]
    st = t.part_root[p]
    m = t.others.shape[0]
    while t.st_class[st] >= 0:
        k = t.st_class[st]
        first = t.st_first[st]
        count = t.st_count[st]
        j = 0
        if count > 1:
            state, x = _next(state)
            u = _unit(x) * t.sp_cum[first + count - 1]
            while j < count - 1 and t.sp_cum[first + j] <= u:
                j += 1
        start = t.cl_first[k]
        size = t.cl_len[k]
        for i in range(size):
            buf[i] = t.cl_cards[start + i]
        state = _shuffle(buf, size, state)
        at = 0
        for o in range(m):
            seat = t.others[o]
            for _ in range(t.sp_take[first + j, o]):
                hands[seat] |= 1 << buf[at]
                at += 1
        st = t.sp_next[first + j]
    return state


@_jit
def _deal_scratch(n: int) -> tuple[Any, Any, Any, Any, Any]:
    """Scratch every batch of playouts draws its deals into: the deal drawn, the
    hands and points a playout changes, the trick, the draw's shuffle buffer."""
    return (
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(64, np.int64),
    )
