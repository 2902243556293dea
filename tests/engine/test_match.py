"""The match (SPEC §1.10): totals, pass direction by hand, end, winner, ties, and the
seed 001 worked example."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_positions import S, hand_of, m, play, play_out, random_pass

from hearts.cards import HEARTS_MASK
from hearts.hand import HandState
from hearts.match import HandResult, Match, match_winner
from hearts.record import read_record
from hearts.rules import ADD_TO_OTHERS, SHOOTER_CHOOSES, SUBTRACT_FROM_SELF, Rules

DATA = Path(__file__).resolve().parent / "data"
SUITS = ("2C-AC", "2D-AD", "2S-AS", "2H-AH")  # South shoots the moon
MOON_BY_S = [26, 0, 0, 0]  # hearts + 13 for Q♠ taken: South took them all


def rigged(totals: list[int], rules: Rules | None = None) -> Match:
    """A match whose totals stand at ``totals`` after one hand."""
    match = Match(rules)
    match.results.append(HandResult(tuple(totals), -1))
    match.totals = list(totals)
    return match


def finished(hand: HandState, prefer: str = "") -> HandState:
    play_out(hand, prefer)
    return hand


# -- the seed 001 worked example ------------------------------------------------------------
def test_worked_example_hand_scores_4_15_7_0() -> None:
    hand, number = read_record((DATA / "hand_4_15_7_0.json").read_text())
    assert number == 4 and hand.points() == [4, 15, 7, 0]
    hearts = [(t & HEARTS_MASK).bit_count() for t in hand.taken]
    queen = [bool(t & m("QS")) for t in hand.taken]
    assert hearts == [4, 2, 7, 0]  # four hearts; Q♠ + two hearts; seven hearts
    assert queen == [False, True, False, False]


def test_worked_example_totals_end_the_match_lowest_wins() -> None:
    match = rigged([32, 88, 40, 55])
    assert not match.over
    hand, _ = read_record((DATA / "hand_4_15_7_0.json").read_text())
    match.start(hand)
    result = match.finish_hand()
    assert result.points == (4, 15, 7, 0) and result.shooter == -1
    assert match.totals == [36, 103, 47, 55]
    assert match.over
    assert match.winner == 0  # the 36, not East who scored 0 in the last hand
    with pytest.raises(ValueError):
        match.deal(random.Random(0))


def test_queen_and_five_hearts_is_eighteen() -> None:
    state = hand_of(("2C-KC KH", "2D-AD", "2S-JS KS AS AH", "AC QS 2H-QH"))
    # North takes Q♠ on trick 2, then a heart on each of five spade leads.
    play(state, "2C 2D 2S AC  QS 3C 3D AS  KS 2H 4C 4D  3S 3H 5C 5D")
    play(state, "4S 4H 6C 6D  5S 5H 7C 7D  6S 6H 8C 8D")
    assert state.raw_points() == [0, 0, 18, 0]


# -- the end of the match ----------------------------------------------------------------
def test_match_goes_on_below_the_target() -> None:
    assert match_winner(Rules(), [99, 0, 50, 98]) == -1
    assert match_winner(Rules(), [100, 0, 50, 98]) == 1


def test_target_score_variant() -> None:
    rules = Rules(target=50)
    assert match_winner(rules, [49, 10, 20, 30]) == -1
    assert match_winner(rules, [50, 10, 20, 30]) == 1


def test_tie_for_lowest_plays_another_hand() -> None:
    assert match_winner(Rules(), [100, 40, 40, 60]) == -1
    match = rigged([74, 40, 40, 80])
    match.start(finished(hand_of(SUITS)))
    match.finish_hand()  # South shoots the moon: 26 to each other seat
    assert match.totals == [74, 66, 66, 106]
    assert not match.over and match.winner == -1
    hand = match.deal(random.Random(1))  # one more hand is dealt
    assert match.hand_number == 3 and hand.direction == "across"
    match.start(finished(hand_of(("2D-AD", "2C-AC", "2S-AS", "2H-AH"))))
    match.finish_hand()  # West shoots: alone at the lowest now
    assert match.totals == [100, 66, 92, 132]
    assert match.over and match.winner == 1


# -- moon scoring through the match -------------------------------------------------------
def test_moon_adds_26_to_the_others_in_the_match() -> None:
    match = Match()
    match.start(finished(hand_of(SUITS)))
    result = match.finish_hand()
    assert result.shooter == S and match.totals == [0, 26, 26, 26]


def test_moon_subtract_from_self_in_the_match() -> None:
    match = rigged([30, 20, 20, 20], Rules(moon=SUBTRACT_FROM_SELF))
    match.start(finished(hand_of(SUITS, rules=match.rules)))
    match.finish_hand()
    assert match.totals == [4, 20, 20, 20]


def test_shooter_chooses_adding_when_it_does_not_lose_the_match() -> None:
    rules = Rules(moon=SHOOTER_CHOOSES)
    assert rules.moon_choice([10, 20, 30, 40], MOON_BY_S, -1) == ADD_TO_OTHERS
    match = rigged([10, 20, 30, 40], rules)
    match.start(finished(hand_of(SUITS, rules=rules)))
    match.finish_hand()
    assert match.totals == [10, 46, 56, 66]


def test_shooter_chooses_subtracting_when_adding_would_lose_the_match() -> None:
    rules = Rules(moon=SHOOTER_CHOOSES)
    # Adding would give 90, 106, 96, 86: the match ends and East wins.
    assert rules.moon_choice([90, 80, 70, 60], MOON_BY_S, -1) == SUBTRACT_FROM_SELF
    match = rigged([90, 80, 70, 60], rules)
    match.start(finished(hand_of(SUITS, rules=rules)))
    result = match.finish_hand()
    assert result.points == (-26, 0, 0, 0)
    assert match.totals == [64, 80, 70, 60]


def test_moon_choice_follows_fixed_rules() -> None:
    assert Rules().moon_choice([90, 80, 70, 60], MOON_BY_S, -1) == ADD_TO_OTHERS
    sub = Rules(moon=SUBTRACT_FROM_SELF)
    assert sub.moon_choice([0, 0, 0, 0], MOON_BY_S, -1) == SUBTRACT_FROM_SELF


# -- pass direction by hand number ------------------------------------------------------------
def test_match_deals_the_pass_cycle_and_hand_five_passes_left() -> None:
    match = Match()
    rng = random.Random(4)
    directions = []
    for _ in range(5):
        hand = match.deal(rng)
        directions.append(hand.direction)
        if hand.phase == "pass":
            random_pass(hand, rng)
        play_out(hand)
        match.finish_hand()
    assert directions == ["left", "right", "across", "none", "left"]
    # The fifth hand stays on the table, scored, until the next deal.
    assert len(match.results) == 5 and match.hand_number == 5 and match.hand is hand
    assert match.deal(rng).direction == "right" and match.hand_number == 6
    assert match.totals == [sum(r.points[s] for r in match.results) for s in range(4)]


def test_match_refuses_to_deal_over_an_unfinished_hand() -> None:
    match = Match()
    match.deal(random.Random(0))
    with pytest.raises(ValueError):
        match.deal(random.Random(0))
    with pytest.raises(ValueError):
        match.finish_hand()


def test_match_view_carries_totals_and_hand_number() -> None:
    match = rigged([5, 6, 7, 8])
    match.deal(random.Random(2))
    view = match.view(S)
    assert view.totals == (5, 6, 7, 8) and view.hand_number == 2
    assert view.direction == "right"


# -- the finished hand on the table -----------------------------------------------------------
def test_a_finished_hand_stays_on_the_table_scored_once_until_the_next_deal() -> None:
    match = rigged([10, 20, 30, 40])
    hand = match.start(finished(hand_of(SUITS)))
    assert match.hand_number == 2 and not match.scored and match.result is None
    first = match.finish_hand()
    again = match.finish_hand()  # scoring is idempotent: the totals move once
    assert first == again == match.result and len(match.results) == 2
    assert match.totals == [10, 46, 56, 66]
    assert match.hand is hand and match.hand_number == 2 and match.scored
    view = match.view(S)  # a view's totals are those before its hand
    assert view.totals == (10, 20, 30, 40) and view.hand_number == 2
    match.deal(random.Random(0))
    assert match.hand_number == 3 and not match.scored and match.view(S).totals == (10, 46, 56, 66)


def test_a_finished_hand_is_scored_before_the_next_deal() -> None:
    match = Match()
    match.start(finished(hand_of(SUITS)))
    with pytest.raises(ValueError):
        match.deal(random.Random(0))
    match.finish_hand()
    match.deal(random.Random(0))
    assert match.hand_number == 2


def test_a_match_copy_is_independent() -> None:
    match = rigged([1, 2, 3, 4])
    hand = match.deal(random.Random(5))
    copy = match.copy()
    if hand.phase == "pass":
        random_pass(hand, random.Random(5))
    play_out(hand)
    match.finish_hand()
    assert copy.hand is not None and not copy.hand.is_terminal()
    assert copy.totals == [1, 2, 3, 4] and len(copy.results) == 1
    assert copy.hand_number == match.hand_number == 2


def test_a_match_rebuilt_from_its_record_is_the_same_match() -> None:
    results = [HandResult((0, 26, 0, 0), -1), HandResult((26, 0, 0, 0), -1)]
    match = Match(Rules(), results)
    assert match.totals == [26, 26, 0, 0] and match.hand_number == 3 and match.hand is None
    done = finished(hand_of(SUITS))
    scored = Match(Rules(), [*results, HandResult((0, 26, 26, 26), S)], hand=done, hand_number=3)
    assert scored.scored and scored.result == HandResult((0, 26, 26, 26), S)
    assert scored.finish_hand().points == (0, 26, 26, 26) and len(scored.results) == 3


# -- the rules' one home for a hand's points (issue 8) ---------------------------------------
def test_a_hands_points_under_every_rule_come_from_rules_score() -> None:
    """The hand, the match and the record agree with Rules.score: hearts 1, Q♠ 13,
    the J♦ −10 under its rule, a moon scored as the rules (or the shooter) say."""
    jd = Rules(jd_bonus=True)
    assert jd.card_points(m("QS 2H 3H 4H 5H 6H")) == 18 == Rules().card_points(m("QS 2H-6H"))
    assert jd.card_points(m("JD 2H")) == -9 and Rules().card_points(m("JD 2H")) == 1
    assert jd.score([26, 0, 0, 0], 0) == [-10, 26, 26, 26]
    assert Rules(moon=SUBTRACT_FROM_SELF).score([26, 0, 0, 0], -1) == [-26, 0, 0, 0]
    assert Rules(moon=SHOOTER_CHOOSES).score([26, 0, 0, 0], -1, SUBTRACT_FROM_SELF) == [
        -26,
        0,
        0,
        0,
    ]
    hand = finished(hand_of(SUITS, rules=Rules(moon=SUBTRACT_FROM_SELF, jd_bonus=True)))
    assert hand.points() == hand.rules.score(hand.penalties(), hand.jd_taker()) == [-36, 0, 0, 0]


def test_hand_result_says_how_the_moon_was_scored() -> None:
    assert HandResult((0, 26, 26, 26), 0).moon == ADD_TO_OTHERS
    assert HandResult((-10, 26, 26, 26), 0).moon == ADD_TO_OTHERS
    assert HandResult((-26, 0, 0, 0), 0).moon == SUBTRACT_FROM_SELF
    assert HandResult((-36, 0, 0, 0), 0).moon == SUBTRACT_FROM_SELF
    assert HandResult((4, 15, 7, 0), -1).moon is None


def test_the_computer_moon_choice_counts_the_jack() -> None:
    # Adding 26 gives W 101, N 106, E 91: South at 100 would not be lowest, so South
    # subtracts; with the J♦ (−10) South ends at 90, alone at the lowest: South adds.
    rules = Rules(moon=SHOOTER_CHOOSES, jd_bonus=True)
    assert rules.moon_choice([100, 75, 80, 65], [26, 0, 0, 0], -1) == SUBTRACT_FROM_SELF
    assert rules.moon_choice([100, 75, 80, 65], [26, 0, 0, 0], 0) == ADD_TO_OTHERS


# -- the match's memory: earlier hands' plays in later views ----------------------------
def test_later_views_remember_every_play_of_the_earlier_hands() -> None:
    match = Match()
    hand = match.deal(random.Random(3))
    assert all(match.view(s).earlier == () for s in range(4))  # the first hand
    random_pass(hand, random.Random(4))
    play_out(hand)
    plays = hand.seat_plays()
    result = match.finish_hand()
    assert result.plays == plays and len(plays) == 52
    assert match.view(0).earlier == ()  # the finished hand is still the one on the table
    match.deal(random.Random(5))
    assert all(match.view(s).earlier == (plays,) for s in range(4))
    # Saved and read back (a server's results column), the memory stays.
    again = Match(match.rules, [HandResult.from_json(r.to_json()) for r in match.results])
    again.start(match.hand)
    assert again.view(2).earlier == (plays,)


def test_results_saved_before_the_memory_read_without_plays() -> None:
    old = HandResult.from_json({"points": [3, 10, 13, 0], "shooter": -1})
    assert old == HandResult((3, 10, 13, 0), -1) and old.plays == ()
    match = Match(Rules(), [old])
    match.deal(random.Random(1))
    assert match.view(0).earlier == ()
