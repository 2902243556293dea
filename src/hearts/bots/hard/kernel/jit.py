"""Khó's compiled kernel, the parts every other part uses: the compiler switch
(:func:`_jit`), the random stream (:mod:`hearts.bots.hard.splitmix` in wrapping
int64 arithmetic with logical shifts), bit counting, and the card masks of
:mod:`hearts.bots.hard.masks` under the names the kernel reads."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

from hearts.bots.hard.masks import FLUSH as _FLUSH
from hearts.bots.hard.masks import HEART_DUMP as _HEART_DUMP
from hearts.bots.hard.masks import HEARTS_BITS as _HEARTS
from hearts.bots.hard.masks import HIGH_SPADES as _HIGH_SPADES
from hearts.bots.hard.masks import JD as _JD
from hearts.bots.hard.masks import LOW_SPADES as _LOW_SPADES
from hearts.bots.hard.masks import NO_POINTS as _NO_POINTS
from hearts.bots.hard.masks import NOT_HEARTS as _NOT_HEARTS
from hearts.bots.hard.masks import POINTS as _POINTS
from hearts.bots.hard.masks import QS as _QS
from hearts.bots.hard.masks import STAKES as _STAKES
from hearts.bots.hard.masks import VOID_RISK as _VOID_RISK
from hearts.bots.hard.splitmix import GOLDEN, HIDE_SALT, MIX1, MIX2

__all__ = [
    "_FLUSH",
    "_HEARTS",
    "_HEART_DUMP",
    "_HIGH_SPADES",
    "_JD",
    "_LOW_SPADES",
    "_NOT_HEARTS",
    "_NO_POINTS",
    "_POINTS",
    "_QS",
    "_STAKES",
    "_VOID_RISK",
]

F = TypeVar("F", bound=Callable[..., Any])


def _sources_digest() -> str:
    """A digest of every source of Khó's package (this kernel and what it reads)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


_SOURCES = _sources_digest()


def _stamped(dispatcher: Any) -> Any:
    """``dispatcher`` whose disk cache is also keyed by :data:`_SOURCES`: numba checks
    a cached function against its own file only, yet the code it keeps holds what
    it inlined or called from the kernel's other files."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        cache_file._source_stamp = (cache_file._source_stamp, _SOURCES)
    return dispatcher


def _jit(fn: F) -> F:
    """``numba.njit(cache=True)`` (stamped, :func:`_stamped`), or without the disk
    cache when no cache directory can be written (numba refuses ``cache=True`` then)."""
    try:
        return cast(F, _stamped(numba.njit(cache=True)(fn)))
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return cast(F, numba.njit(cache=False)(fn))


def _jit_inline(fn: F) -> F:
    """:func:`_jit`, the body inlined where it is called (the playouts' hot loop)."""
    try:
        return cast(F, _stamped(numba.njit(cache=True, inline="always")(fn)))
    except RuntimeError:
        return cast(F, numba.njit(cache=False, inline="always")(fn))


def _signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


_GOLDEN = _signed(GOLDEN)
_MIX1 = _signed(MIX1)
_MIX2 = _signed(MIX2)
_LOW30 = (1 << 34) - 1  # logical shifts of a 64-bit pattern held in an int64
_LOW27 = (1 << 37) - 1
_LOW31 = (1 << 33) - 1
_LOW11 = (1 << 53) - 1
_HIDE_SALT = _signed(HIDE_SALT)

_QS_BIT = 1 << _QS


@_jit
def _next(state: int) -> tuple[int, int]:
    state = state + _GOLDEN
    z = state
    z = (z ^ ((z >> 30) & _LOW30)) * _MIX1
    z = (z ^ ((z >> 27) & _LOW27)) * _MIX2
    return state, z ^ ((z >> 31) & _LOW31)


@_jit
def _unit(x: int) -> float:
    return ((x >> 11) & _LOW11) * (1.0 / 9007199254740992.0)


@_jit
def _world_state(seed: int, world: int) -> int:
    return seed ^ ((world + 1) * _MIX2)


@_jit
def _bitlen(x: int) -> int:
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        x >>= 1
        n += 1
    return n + x


@_jit
def _pop(x: int) -> int:
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@_jit
def _low(x: int) -> int:
    return _bitlen(x & -x) - 1


@_jit_inline
def _shuffle(buf: Any, size: int, state: int) -> int:
    """Fisher-Yates over ``buf[:size]`` (from the top down, as the reference's
    draws); the generator's new state."""
    for i in range(size - 1, 0, -1):
        state, x = _next(state)
        r = (((x >> 11) & _LOW11) * (i + 1)) >> 53
        tmp = buf[i]
        buf[i] = buf[r]
        buf[r] = tmp
    return state
