"""SplitMix64: the small integer random generator of Khó's search.

Khó's search draws its deals from it in two implementations that must agree
card for card: the compiled kernel (:mod:`hearts.bots.hard.kernel`) and the
pure-Python reference (:mod:`hearts.bots.hard.reference`).  Its state is one 64-bit
integer, its steps are additions, shifts, xors and multiplications modulo 2**64,
which both can do exactly; each imagined deal gets its own stream
(:func:`world_state`), so the deals do not depend on the order they are drawn in.

>>> s = world_state(12345, 0)
>>> s, x = next_u64(s)
>>> 0 <= x < 2**64 and 0.0 <= to_unit(x) < 1.0
True
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
#: Salt of the seed of the generator that deals the others' cards again in a look
#: ahead (:func:`hearts.bots.hard.reference.hide`): a stream apart from the deals'.
HIDE_SALT = 0xD1B54A32D192ED03
#: 2**-53: a 53-bit integer times this is a float in [0, 1), exactly.
UNIT = 1.0 / (1 << 53)


def world_state(seed: int, world: int) -> int:
    """The generator's state for imagined deal number ``world`` of a search seeded ``seed``."""
    return ((seed & MASK64) ^ ((world + 1) * MIX2 & MASK64)) & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """(new state, a uniform 64-bit integer)."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return state, z ^ (z >> 31)


def to_unit(x: int) -> float:
    """A uniform float in [0, 1) from a 64-bit integer (its top 53 bits)."""
    return (x >> 11) * UNIT
