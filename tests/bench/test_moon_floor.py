"""bench/moon_floor.py: the floor of moons conceded to three rule-based shooters
counts a hand only when no line of the hero's stops the moon."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

# bench/ is not an installed package
import moon_floor
from shooter import ShooterBot
from strength import RULES, deal_for

from hearts.cards import mask_of, parse_cards
from hearts.hand import HandState


def _hand(*cards: str) -> int:
    return mask_of(parse_cards(cards))


def test_a_stop_it_finds_is_a_line_the_engine_plays_and_the_moon_is_stopped() -> None:
    # Deal 4: the face-up oracle conceded three moons of four here (moons-shooter-oracle).
    deal, number = deal_for(4)
    for hero in (0, 3):
        verdict, passed, line = moon_floor.stop_line(deal, number, hero, 20_000)
        assert verdict == moon_floor.STOPPED
        state = HandState(RULES, deal, RULES.pass_direction(number))
        bot = ShooterBot()
        if state.offset:
            for seat in range(state.n):
                view = state.view(seat, hand_number=number)
                state.pass_cards(seat, passed if seat == hero else bot.choose_pass(view))
        cards = iter(line)
        for card in cards:
            while state.turn != hero:
                state.play(bot.choose_play(state.view(state.turn, hand_number=number)))
            state.play(card, hero)  # checked: a legal card of the hero's
        while state.turn != hero and not state.is_terminal():  # the trick's other cards
            state.play(bot.choose_play(state.view(state.turn, hand_number=number)))
        takers = [s for s, p in enumerate(state.penalties()) if p]
        assert hero in takers or len(takers) > 1  # no opponent can take every point now


def test_a_seat_that_holds_every_winner_and_the_lead_is_unstoppable() -> None:
    # North (2) wins the first trick with A♣ and then every trick: its cards top
    # their suits.  Held hand (no pass): whatever South (0) plays, North shoots.
    north = _hand("AC", "KC", "QC", "JC", "TC", "9C", "8C", "AS", "KS", "QS", "AH", "KH", "QH")
    rest = [c for c in range(52) if not north >> c & 1]
    deal = [mask_of(rest[0:13]), mask_of(rest[13:26]), north, mask_of(rest[26:39])]
    hold = next(n for n in range(1, 5) if RULES.pass_direction(n) == "none")
    for hero in (0, 1, 3):
        assert moon_floor.hand_floor(deal, hold, hero, 20_000) == moon_floor.UNSTOPPABLE
    # North as the hero shoots the moon itself: no moon conceded.
    assert moon_floor.hand_floor(deal, hold, 2, 20_000) == moon_floor.STOPPED


def test_a_search_out_of_budget_is_undecided_and_counts_as_stopped() -> None:
    deal, number = deal_for(75)  # East (1) cannot stop the moon here: a long proof
    assert moon_floor.hand_floor(deal, number, 1, 50) == moon_floor.UNDECIDED
    rows = {75: [moon_floor.STOPPED, moon_floor.UNDECIDED, moon_floor.STOPPED, "stopped"]}
    assert moon_floor.per_100(rows) == 0.0


def test_a_conceded_moon_is_put_down_to_the_card_after_which_no_line_stops_it() -> None:
    from moon_blame import blame, stoppable
    from strength import Seat

    deal, number = deal_for(7)
    why = blame(deal, number, 1, Seat("medium", {}), 20_000)  # Vừa in East concedes here
    assert why[0] == "play" and why[2] in ("none", "queen", "hearts")
    # Replayed to that trick, the search finds a stop before Vừa's card and none after.
    state = HandState(RULES, deal, RULES.pass_direction(number))
    vua, bot = Seat("medium", {}).bot, ShooterBot()
    for seat in range(state.n if state.offset else 0):
        view = state.view(seat, hand_number=number)
        state.pass_cards(seat, (vua if seat == 1 else bot).choose_pass(view))
    trick = int(why[1])
    while not (state.turn == 1 and len(state.plays) // state.n + 1 == trick):
        player = vua if state.turn == 1 else bot
        state.play(player.choose_play(state.view(state.turn, hand_number=number)))
    assert stoppable(state, 1, number, 20_000)
    state.play(vua.choose_play(state.view(1, hand_number=number)))
    assert stoppable(state, 1, number, 20_000) is False
    # A hand the hero shot the moon in itself is not blamed.
    four, number4 = deal_for(4)
    assert blame(four, number4, 3, Seat("medium", {}), 20_000) == ()
