"""The pure-Python reference twin of Khó's compiled kernel (:mod:`hearts.bots.hard.kernel`).

Same algorithm, same random stream (:mod:`hearts.bots.hard.splitmix`), same order
of floating-point additions: for the same seed both give the same deals, the
same playouts and the same sums, bit for bit (tests/bots/test_kernel.py).  The
parts: :mod:`.policy` (the playout policy, a hand played out by it; also the
face-up oracle's playouts in bench), :mod:`.looks` (the look ahead),
:mod:`.value` (a finished hand's value), :mod:`.batches` (the deal draw and the
searches' batches of playouts).
"""

from __future__ import annotations

from hearts.bots.hard.reference.batches import (
    draw,
    kind,
    likeness,
    pass_batch,
    pass_scores,
    play_batch,
    quick_pass,
    unlike,
)
from hearts.bots.hard.reference.looks import (
    MAX_DEALS,
    MIX_SWAPS,
    hide,
    hides,
    look,
    mix,
    policy_card,
    rollout_look,
)
from hearts.bots.hard.reference.policy import (
    QUEEN_RUNS,
    SUSPECT,
    SUSPECT_SHIFT,
    SWITCHES,
    rollout,
    runs_for_the_moon,
    suspect_bits,
)
from hearts.bots.hard.reference.value import score, value

__all__ = [
    "MAX_DEALS",
    "MIX_SWAPS",
    "QUEEN_RUNS",
    "SUSPECT",
    "SUSPECT_SHIFT",
    "SWITCHES",
    "draw",
    "hide",
    "hides",
    "kind",
    "likeness",
    "look",
    "mix",
    "pass_batch",
    "pass_scores",
    "play_batch",
    "policy_card",
    "quick_pass",
    "rollout",
    "rollout_look",
    "runs_for_the_moon",
    "score",
    "suspect_bits",
    "unlike",
    "value",
]
