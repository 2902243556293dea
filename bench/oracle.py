"""The face-up oracle: Khó's search given every hand (bench only).

It measures the ceiling of the search: the same playouts and the same budget,
but every playout is played on the true deal instead of a sampled one.  It
cheats by construction, so it lives only in ``bench/`` and nothing under
``src/hearts`` may import it.  Since the rollout policy is deterministic, the
first playout of each card is the pure policy on the true deal and later ones
add noise (each card of the playout, every seat's, is a random legal one with
probability 0.1) so that repeated playouts explore; the budget is the same
number of playouts as Khó's.  The pass is Khó's own (chosen before any card
is seen, from sampled deals): the oracle differs only in play.
"""

from __future__ import annotations

import random
from typing import Any

from hearts.bots.hard import HardBot, card_playout, successive_halving
from hearts.view import PlayerView


class OracleBot(HardBot):
    """Khó with the true deal in place of sampled deals.  ``choose_play`` takes
    the hands of every seat (``hands``) besides the view."""

    name = "oracle"
    needs_hands = True

    def __init__(self, iterations: int | None = None, **options: Any) -> None:
        # Pure-Python playouts: the budget of the Khó it was measured beside
        # (2,000 a play, 1,500 a pass), not the compiled Khó's 100,000.
        options.setdefault("pass_iterations", 1500)
        super().__init__(iterations=2000 if iterations is None else iterations, **options)

    def choose_play_face_up(self, view: PlayerView, hands: list[int]) -> int:
        return self._play(view, lambda v, cands: self._search_face_up(v, cands, hands))

    def _search_face_up(self, view: PlayerView, cands: list[int], hands: list[int]) -> int:
        base = view.seed(self.options.seed)
        play_out = card_playout(view)
        cache: dict[tuple[int, int], float] = {}

        def playout(card: int, w: int) -> float:
            # World 0 is the deterministic policy; later ones perturb it.
            key = (card, w)
            if key not in cache:
                noise = random.Random(base + w) if w else None
                cache[key] = play_out(hands, card, noise, 0.1)
            return cache[key]

        return successive_halving(cands, playout, self.play_playouts(view))
