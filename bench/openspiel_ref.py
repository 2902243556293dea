"""Bench-only bridge to OpenSpiel's ``hearts`` (PyPI ``open-spiel`` 2.0.2).

OpenSpiel is a *reference* for our benchmarks (speed yardstick, ISMCTS opponent),
never a runtime dependency of ``src/hearts``: nothing outside ``bench/`` and
``tests/bench/`` may import this module.

Game parameters (``GAME_PARAMS``), chosen so OpenSpiel plays SPEC §1's default table:

* ``pass_cards=True``: passing exists; the direction is the first chance outcome.
* ``no_pts_on_first_trick=True``: no heart / Q♠ on trick 1 unless the hand holds
  nothing else (OpenSpiel then allows any card, as SPEC rule 6 does).
* ``can_lead_any_club=False``: the 2♣ holder must lead the 2♣ (rule 3).
* ``must_break_hearts=True``: hearts may not be led before broken; a hand of only
  hearts may lead one (OpenSpiel falls back to "any card") (rule 7).
* ``qs_breaks_hearts=False``: SPEC rule 7 (OpenSpiel's default is True!).
* ``can_lead_hearts_instead_of_qs=False``: a leader holding only Q♠ + hearts before
  hearts are broken must lead the Q♠, as in rule 7 (only an all-hearts hand may lead
  a heart).
* ``jd_bonus=False``, ``avoid_all_tricks_bonus=False``: variants off by default.

Moon scoring in OpenSpiel is "add 26 to the others" (our default), and it needs all
point cards in the shooter's tricks, i.e. 13 hearts + Q♠ (rule 9).

Encoding differences (both verified against the 2.0.2 binary):

* Cards: OpenSpiel action = ``rank * 4 + suit`` with suits C, D, H, S; ours is
  ``suit * 13 + rank`` with suits C, D, S, H. Card *strings* ("QS", "TH") coincide.
* Seats: OpenSpiel players are 0=N, 1=E, 2=S, 3=W and play goes to ``(p + 1) % 4``
  (N→E→S→W), the same clockwise order as our S→W→N→E. So the seat map is a
  rotation, ``player = (seat + 2) % 4`` (its own inverse), and directions agree:
  OpenSpiel "Left" gives to ``(p + 1) % 4`` like ours.
* Pass direction chance action: 0 No Pass, 1 Left, 2 Across, 3 Right.
* The deal: the k-th deal chance action gives that card to player ``k % 4``.
* Passing: players pass in OpenSpiel order N, E, S, W, three single-card actions
  each; cards change hands only after West's third card.
* Returns: ``26 - points`` per player (so higher is better, range 0..26 here);
  ``hand_points`` converts back to points taken (moon: 0 for the shooter, 26 others).
* ``undo_action`` is not implemented for hearts (SpielError "UndoAction function is
  not overridden"), so search-style stepping must be ``clone()`` + ``apply_action``.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Sequence

import pyspiel

GAME_PARAMS: dict[str, bool] = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": False,
    "can_lead_hearts_instead_of_qs": False,
}

PASS_DIR_ACTION: dict[str, int] = {"none": 0, "left": 1, "across": 2, "right": 3}
"""Our pass direction name -> OpenSpiel's first chance action."""

TOTAL_POINTS = 26
_OUR_TO_OS_SUIT = (0, 1, 3, 2)  # our C D S H -> OpenSpiel C D H S
_OS_TO_OUR_SUIT = (0, 1, 3, 2)  # the swap is its own inverse
_RANKS = "23456789TJQKA"
_SUITS = "CDSH"  # our suit order


@functools.cache
def game() -> pyspiel.Game:
    """The OpenSpiel hearts game with our default table's rules (loaded once)."""
    return pyspiel.load_game("hearts", dict(GAME_PARAMS))


# ---------------------------------------------------------------- mappings


def card_to_action(card: int) -> int:
    """Our card int (suit*13+rank, suits CDSH) -> OpenSpiel action (rank*4+suit, CDHS)."""
    if not 0 <= card < 52:
        raise ValueError(f"card out of range: {card}")
    suit, rank = divmod(card, 13)
    return rank * 4 + _OUR_TO_OS_SUIT[suit]


def action_to_card(action: int) -> int:
    """OpenSpiel card action -> our card int."""
    if not 0 <= action < 52:
        raise ValueError(f"action out of range: {action}")
    rank, os_suit = divmod(action, 4)
    return _OS_TO_OUR_SUIT[os_suit] * 13 + rank


def seat_to_player(seat: int) -> int:
    """Our seat (0=S,1=W,2=N,3=E) -> OpenSpiel player (0=N,1=E,2=S,3=W)."""
    return (seat + 2) % 4


def player_to_seat(player: int) -> int:
    """OpenSpiel player -> our seat (the rotation by two is its own inverse)."""
    return (player + 2) % 4


def card_from_str(text: str) -> int:
    """'QS' -> 36; OpenSpiel's card strings use the same notation as SPEC §4."""
    return _SUITS.index(text[1]) * 13 + _RANKS.index(text[0])


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _mask(cards: Sequence[str]) -> int:
    mask = 0
    for text in cards:
        mask |= 1 << card_from_str(text)
    return mask


# ---------------------------------------------------------------- state set-up


def new_state(deal_masks: Sequence[int], pass_dir: str) -> pyspiel.State:
    """OpenSpiel state right after our deal (indexed by our seat) and pass direction.

    Chance outcomes are applied explicitly, so the OpenSpiel hand is exactly ours.
    """
    if len(deal_masks) != 4 or any(m.bit_count() != 13 for m in deal_masks):
        raise ValueError("need four hands of 13 cards")
    if deal_masks[0] | deal_masks[1] | deal_masks[2] | deal_masks[3] != (1 << 52) - 1:
        raise ValueError("hands must partition the 52 cards")
    state = game().new_initial_state()
    state.apply_action(PASS_DIR_ACTION[pass_dir])
    per_player = [_cards(deal_masks[player_to_seat(p)]) for p in range(4)]
    for i in range(13):
        for p in range(4):  # deal action k goes to player k % 4
            state.apply_action(card_to_action(per_player[p][i]))
    return state


def apply_passes(state: pyspiel.State, passes: Sequence[int]) -> None:
    """Apply every seat's 3-card pass (masks indexed by our seat) in OpenSpiel's order.

    On a no-pass hand the state is already in play; pass all-zero masks (or []).
    """
    if not any(passes):
        if _phase(state) == "Pass":
            raise ValueError("this hand passes cards; masks are empty")
        return
    if _phase(state) != "Pass" or len(passes) != 4:
        raise ValueError("not in the pass phase, or not four masks")
    hands = hand_masks(state)
    for p in range(4):
        seat = player_to_seat(p)
        mask = passes[seat]
        if mask.bit_count() != 3 or mask & ~hands[seat]:
            raise ValueError(f"seat {seat}: pass must be 3 cards from the hand")
        for card in _cards(mask):
            if state.current_player() != p:
                raise ValueError("OpenSpiel is not waiting for this player's pass")
            state.apply_action(card_to_action(card))


def apply_play(state: pyspiel.State, card: int) -> None:
    """Play our card for the player to move; refuses moves OpenSpiel deems illegal."""
    action = card_to_action(card)
    if action not in state.legal_actions():
        raise ValueError(f"{card} is not legal for OpenSpiel here")
    state.apply_action(action)


# ---------------------------------------------------------------- reading state


def _phase(state: pyspiel.State) -> str:
    return str(state.to_struct().phase)


def hand_masks(state: pyspiel.State) -> list[int]:
    """Current hand of each of our seats, as masks (read through OpenSpiel's struct)."""
    hands = state.to_struct().hands
    return [_mask(hands[seat_to_player(seat)]) for seat in range(4)]


def current_seat(state: pyspiel.State) -> int | None:
    """Our seat to move, or None at chance / terminal nodes."""
    p = state.current_player()
    return player_to_seat(p) if p >= 0 else None


def legal_cards(state: pyspiel.State) -> list[int]:
    """Legal cards of the player to move, in our encoding, sorted."""
    return sorted(action_to_card(a) for a in state.legal_actions())


def hand_points(state: pyspiel.State) -> list[int]:
    """Points taken per our seat after moon scoring (OpenSpiel returns 26 - points)."""
    if not state.is_terminal():
        raise ValueError("hand not finished")
    returns = state.returns()
    return [round(TOTAL_POINTS - returns[seat_to_player(seat)]) for seat in range(4)]


# ---------------------------------------------------------------- ISMCTS


class ISMCTSPlayer:
    """OpenSpiel's ISMCTS with random rollouts, used as a reference opponent for plays.

    Only for the play phase: the 2.0.2 resampler is broken during passing.
    ``time_budget`` (seconds) maps to the binding's ``max_wall_clock_time``; the
    simulation count still caps the search. Returns span 0..26, so the UCT constant
    is scaled up from the textbook ~1.4 for [0, 1] rewards: at 100 simulations c=10
    beat c=2 and c=30 in 240-hand duplicate duels (6.4-6.6 vs 7.3-7.6 points/hand).
    No crash in 900+ hands of play with ISMCTS at every seat (incl. searching forced
    moves); calling ``bot.step`` in the pass phase SEGFAULTs (uncatchable) as soon as
    one player has finished passing, hence the phase guard in ``choose_play``.
    """

    def __init__(
        self,
        simulations: int = 1000,
        seed: int = 0,
        *,
        time_budget: float | None = None,
        uct_c: float = 10.0,
        rollouts: int = 1,
    ) -> None:
        self.simulations = simulations
        self._evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
        self._bot = pyspiel.ISMCTSBot(
            seed,
            self._evaluator,
            uct_c,
            simulations,
            -1,  # unlimited world samples: resample each simulation
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,  # argmax, not a sample
            False,
            False,
            -1.0 if time_budget is None else time_budget,
        )

    def choose_play(self, os_state: pyspiel.State) -> int:
        """Our card for the player to move (search skipped when only one is legal)."""
        legal = os_state.legal_actions()
        if not legal or _phase(os_state) != "Play":
            raise ValueError("ISMCTSPlayer only chooses plays")
        if len(legal) == 1:
            return action_to_card(legal[0])
        return action_to_card(self._bot.step(os_state))


# ---------------------------------------------------------------- speed references


def _random_to_terminal(state: pyspiel.State, rng: random.Random) -> None:
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


def random_hands_per_second(seconds: float, seed: int = 0) -> float:
    """Full random hands per second through the Python binding.

    Each hand: new state, random chance outcomes (direction + 52 deal actions; all
    chance outcomes are uniform so a uniform pick over legal actions is exact),
    random passes, 13 random tricks, then ``returns()``.
    """
    rng = random.Random(seed)
    g = game()
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = g.new_initial_state()
        _random_to_terminal(state, rng)
        state.returns()
        hands += 1
    return hands / (time.perf_counter() - start)


def clone_apply_steps_per_second(seconds: float, seed: int = 0) -> float:
    """Play-phase steps per second, each ``legal_actions`` + ``clone()`` + ``apply_action``.

    ``undo_action`` raises for hearts in 2.0.2, so clone-then-apply is how a search
    over OpenSpiel states has to step. Starting states (dealt, passed) are built
    outside the timed loop.
    """
    rng = random.Random(seed)
    g = game()
    starts = []
    for _ in range(32):
        state = g.new_initial_state()
        while _phase(state) != "Play":
            state.apply_action(rng.choice(state.legal_actions()))
        starts.append(state)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = starts[steps % len(starts)]
        while not state.is_terminal():
            child = state.clone()
            child.apply_action(rng.choice(child.legal_actions()))
            state = child
            steps += 1
    return steps / (time.perf_counter() - start)


def ismcts_ms_per_move(simulations: int, moves: int = 40, seed: int = 0) -> float:
    """Median ms per ISMCTS play decision (only decisions with 2+ legal cards count)."""
    rng = random.Random(seed)
    player = ISMCTSPlayer(simulations, seed)
    times: list[float] = []
    while len(times) < moves:
        state = game().new_initial_state()
        while not state.is_terminal():
            if _phase(state) == "Play" and len(state.legal_actions()) > 1:
                t0 = time.perf_counter()
                card = player.choose_play(state)
                times.append((time.perf_counter() - t0) * 1000)
                apply_play(state, card)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return statistics.median(times)


if __name__ == "__main__":
    print(f"random hands/s: {random_hands_per_second(3.0):.0f}")
    print(f"clone+apply steps/s: {clone_apply_steps_per_second(3.0):.0f}")
    for sims in (100, 300, 1000):
        print(f"ISMCTS {sims} sims: {ismcts_ms_per_move(sims):.1f} ms/move (median)")
