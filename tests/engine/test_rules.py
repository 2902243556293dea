"""Every rule of SPEC §1's default table and its variants, each on the smallest
position that shows it.  Positions are dealt explicitly (see ``engine_positions``)."""

from __future__ import annotations

import random
from typing import get_args

import pytest
from engine_positions import E, N, S, W, c, hand_of, m, play, play_out

from hearts.cards import HEARTS_MASK, cards_of, mask_of
from hearts.hand import HandState
from hearts.rules import (
    ADD_TO_OTHERS,
    MOON_RULES,
    MOON_SCORINGS,
    SHOOTER_CHOOSES,
    SUBTRACT_FROM_SELF,
    Moon,
    MoonScoring,
    Rules,
    RulesError,
)

# One suit per seat: South (all clubs) wins every trick and shoots the moon.
SUITS = ("2C-AC", "2D-AD", "2S-AS", "2H-AH")

# Card c dealt to seat c % 4: every seat holds every suit.
ROUND_ROBIN = (
    "2C 6C TC AC 5D 9D KD 4S 8S QS 3H 7H JH",
    "3C 7C JC 2D 6D TD AD 5S 9S KS 4H 8H QH",
    "4C 8C QC 3D 7D JD 2S 6S TS AS 5H 9H KH",
    "5C 9C KC 4D 8D QD 3S 7S JS 2H 6H TH AH",
)

# East wins trick 1 with A♣ and then holds only Q♠ and hearts; North holds A♥ with spades.
QS_LEAD = ("2C-KC KH", "2D-AD", "2S-JS KS AS AH", "AC QS 2H-QH")

# East wins trick 1 with A♣ and then holds nothing but hearts, unbroken.
ALL_HEARTS_LEAD = ("2C-KC AH", "2D-AD", "2S-AS", "AC 2H-KH")

# West's hand is Q♠ and hearts only; North holds A♥ among diamonds.
POINTS_ONLY = ("2C-AC", "QS 2H-KH", "2D-KD AH", "AD 2S-JS KS AS")

# Played out lowest-first (Q♠ whenever legal), South takes 12 hearts and Q♠,
# North the last heart: not a moon.
TWELVE_HEARTS_AND_QUEEN = ("3C-AC 2S", "2C 3D-AD", "2D 3S-AS", "2H-AH")


# -- the deck and the deal ------------------------------------------------------------
def test_default_table_is_four_players_thirteen_cards_each() -> None:
    rules = Rules()
    assert (rules.players, rules.hand_size, rules.deck.bit_count()) == (4, 13, 52)
    assert rules.seats == ("S", "W", "N", "E")
    state = HandState.deal(rules, 1, random.Random(0))
    assert [h.bit_count() for h in state.hands] == [13] * 4
    assert state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3] == rules.deck


def test_play_goes_to_the_left_south_west_north_east() -> None:
    state = hand_of(ROUND_ROBIN)
    assert state.turn == S
    seats = []
    for card in ("2C", "3C", "4C"):
        state.play(c(card))
        seats.append(state.turn)
    assert seats == [W, N, E]


# -- leading the first trick ------------------------------------------------------------
def test_two_of_clubs_holder_leads_it() -> None:
    state = hand_of(SUITS)
    assert (state.turn, state.legal_mask()) == (S, m("2C"))
    rotated = hand_of(SUITS[1:] + SUITS[:1])  # East holds the clubs
    assert (rotated.turn, rotated.legal_mask()) == (E, m("2C"))


def test_two_of_clubs_leads_from_whoever_holds_it_after_the_pass() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    state.pass_cards(S, m("2C 6C TC"))
    state.pass_cards(W, m("3C 7C JC"))
    state.pass_cards(N, m("4C 8C QC"))
    state.pass_cards(E, m("5C 9C KC"))
    assert state.phase == "play"
    assert state.hands[W] & m("2C")
    assert (state.turn, state.legal_mask()) == (W, m("2C"))


def test_five_players_three_of_clubs_leads() -> None:
    rules = Rules(players=5)
    assert not rules.deck & m("2C 2D")
    state = HandState.deal(rules, 1, random.Random(5))
    for seat in range(5):  # pass the first three cards of every hand
        state.pass_cards(seat, mask_of(list(cards_of(state.hands[seat]))[:3]))
    assert state.hands[state.turn] & m("3C")
    assert state.legal_mask() == m("3C")


# -- following suit and winning tricks --------------------------------------------------
def test_must_follow_suit_when_able() -> None:
    state = hand_of(ROUND_ROBIN)
    play(state, "2C")
    assert state.legal_mask() == m("3C 7C JC")


def test_void_in_the_suit_led_may_play_any_card() -> None:
    state = hand_of(QS_LEAD)
    play(state, "2C 2D 2S AC  QS")  # South has no spade left: clubs and K♥
    assert state.legal_mask() == m("3C-KC KH")


def test_highest_card_of_the_suit_led_wins_and_leads_next() -> None:
    state = hand_of(ROUND_ROBIN)
    play(state, "2C 3C 4C 5C")
    assert state.winners == [E] and state.turn == E
    assert state.taken[E] == m("2C 3C 4C 5C")
    play(state, "9C TC JC QC")  # led by East; North's Q♣ is the highest club
    assert state.winners == [E, N] and state.turn == N


def test_off_suit_card_never_wins_even_when_higher() -> None:
    state = hand_of(SUITS)
    play(state, "2C AD AS AH")
    assert state.winners == [S]
    assert state.taken[S] == m("2C AD AS AH")


# -- the first trick: no hearts, no Q♠ ---------------------------------------------------
def test_first_trick_no_queen_of_spades_while_other_cards_remain() -> None:
    state = hand_of(SUITS)
    play(state, "2C 2D")
    assert state.legal_mask() == m("2S-AS") & ~m("QS")


def test_first_trick_no_heart_while_other_cards_remain() -> None:
    state = hand_of(POINTS_ONLY)
    play(state, "2C QS")
    assert state.legal_mask() == m("2D-KD")  # North holds A♥ but has diamonds


def test_first_trick_hearts_allowed_when_the_hand_is_only_hearts() -> None:
    state = hand_of(SUITS)
    play(state, "2C 2D 2S")
    assert state.legal_mask() == m("2H-AH")
    play(state, "AH")
    assert state.broken


def test_first_trick_hearts_and_queen_allowed_when_the_hand_is_only_those() -> None:
    state = hand_of(POINTS_ONLY)
    play(state, "2C")
    assert state.legal_mask() == m("QS 2H-KH")


def test_first_trick_rule_ends_with_the_first_trick() -> None:
    state = hand_of(SUITS)
    play(state, "2C 2D 2S 2H 3C 3D")
    assert state.legal_mask() == m("2S-AS") & ~m("2S")  # Q♠ now allowed


# -- leading hearts ------------------------------------------------------------------------
def test_hearts_not_led_before_broken() -> None:
    state = hand_of(ROUND_ROBIN)
    play(state, "2C 3C 4C 5C")
    assert state.turn == E and not state.broken
    assert state.legal_mask() == state.hands[E] & ~HEARTS_MASK


def test_hearts_may_be_led_once_broken() -> None:
    state = hand_of(QS_LEAD)
    play(state, "2C 2D 2S AC  QS 3C 3D AS  KS 2H 4C 4D")  # East discards 2♥ on trick 3
    assert state.broken and state.turn == N
    assert state.legal_mask() == state.hands[N]
    assert state.legal_mask() & m("AH")


def test_a_hand_of_only_hearts_may_lead_one_before_broken() -> None:
    state = hand_of(ALL_HEARTS_LEAD)
    play(state, "2C 2D 2S AC")
    assert state.turn == E and not state.broken
    assert state.legal_mask() == m("2H-KH")
    play(state, "2H")
    assert state.plays[-1] == c("2H")


def test_queen_of_spades_may_be_led_before_hearts_are_broken() -> None:
    state = hand_of(QS_LEAD)
    play(state, "2C 2D 2S AC")
    assert state.turn == E and not state.broken
    # Q♠ + hearts only: the Q♠ is the one card East may lead.
    assert state.legal_mask() == m("QS")


def test_queen_of_spades_may_be_led_beside_other_spades() -> None:
    state = hand_of(("2C-KC QH", "2D-AD", "2S 4S-JS KS AS KH AH", "AC QS 3S 2H-JH"))
    play(state, "2C 2D 2S AC")
    assert state.turn == E and not state.broken
    assert state.legal_mask() == m("QS 3S")
    play(state, "QS")
    assert state.trick == [c("QS")]


def test_queen_of_spades_does_not_break_hearts() -> None:
    state = hand_of(QS_LEAD)
    play(state, "2C 2D 2S AC  QS 3C 3D AS")
    assert state.turn == N and not state.broken
    assert state.legal_mask() == m("3S-JS KS")  # North may not lead its A♥


def test_queen_of_spades_breaks_hearts_with_the_variant() -> None:
    state = hand_of(QS_LEAD, rules=Rules(qs_breaks_hearts=True))
    play(state, "2C 2D 2S AC  QS 3C 3D AS")
    assert state.turn == N and state.broken
    assert state.legal_mask() == m("3S-JS KS AH")


# -- scoring -------------------------------------------------------------------------------
def test_points_are_one_per_heart_thirteen_for_the_queen_only_for_cards_taken() -> None:
    state = hand_of(QS_LEAD)
    play(state, "2C 2D 2S AC  QS 3C 3D AS")
    assert state.raw_points() == [0, 0, 13, 0]  # East still holds 11 hearts: 0
    play(state, "KS 2H 4C 4D")
    assert state.raw_points() == [0, 0, 14, 0]


def test_a_hand_scores_26_points() -> None:
    state = hand_of(TWELVE_HEARTS_AND_QUEEN)
    play_out(state, prefer="QS")
    assert state.points() == [25, 0, 1, 0]
    assert state.shooter() == -1


def test_twelve_hearts_and_the_queen_is_not_a_moon() -> None:
    for moon in MOON_RULES:
        state = hand_of(TWELVE_HEARTS_AND_QUEEN, rules=Rules(moon=moon))  # type: ignore[arg-type]
        play_out(state, prefer="QS")
        assert state.taken[S] & (HEARTS_MASK | m("QS")) == m("QS 2H-KH")
        assert state.points() == [25, 0, 1, 0]


def test_shooting_the_moon_scores_zero_and_26_to_each_other() -> None:
    state = hand_of(SUITS)
    play_out(state)
    assert state.shooter() == S
    assert state.raw_points() == [26, 0, 0, 0]
    assert state.points() == [0, 26, 26, 26]


def test_moon_variant_subtract_from_self() -> None:
    state = hand_of(SUITS, rules=Rules(moon=SUBTRACT_FROM_SELF))
    play_out(state)
    assert state.points() == [-26, 0, 0, 0]


def test_moon_variant_shooter_chooses_either_scoring() -> None:
    state = hand_of(SUITS, rules=Rules(moon=SHOOTER_CHOOSES))
    play_out(state)
    assert state.points(ADD_TO_OTHERS) == [0, 26, 26, 26]
    assert state.points(SUBTRACT_FROM_SELF) == [-26, 0, 0, 0]
    assert state.points() == [0, 26, 26, 26]


def test_moon_choice_is_ignored_unless_the_rules_let_the_shooter_choose() -> None:
    state = hand_of(SUITS)
    play_out(state)
    assert state.points(SUBTRACT_FROM_SELF) == [0, 26, 26, 26]


def test_no_moon_while_the_hand_runs() -> None:
    state = hand_of(SUITS)
    play(state, "2C 2D 2S 2H")
    assert state.shooter() == -1


def test_jack_of_diamonds_variant_counts_minus_ten() -> None:
    plain = hand_of(TWELVE_HEARTS_AND_QUEEN)
    bonus = hand_of(TWELVE_HEARTS_AND_QUEEN, rules=Rules(jd_bonus=True))
    for state in (plain, bonus):
        play_out(state, prefer="QS")
        assert state.taken[S] & m("JD")
    assert plain.points() == [25, 0, 1, 0]
    assert bonus.points() == [15, 0, 1, 0]


def test_jack_of_diamonds_stays_with_a_moon_shooter() -> None:
    state = hand_of(SUITS, rules=Rules(jd_bonus=True))
    play_out(state)
    assert state.points() == [-10, 26, 26, 26]


# -- pass cycle and player counts --------------------------------------------------------
def test_pass_cycle_left_right_across_none_repeats() -> None:
    rules = Rules()
    got = [rules.pass_direction(h) for h in range(1, 10)]
    assert got == ["left", "right", "across", "none"] * 2 + ["left"]


def test_pass_left_right_across_reach_the_right_seat() -> None:
    for direction, receiver in (("left", W), ("right", E), ("across", N)):
        state = hand_of(ROUND_ROBIN, direction)
        assert state.receiver(S) == receiver and state.passer(receiver) == S


def test_passed_cards_arrive_only_when_everyone_has_chosen() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    state.pass_cards(S, m("QS AC KD"))
    assert state.hands[S] & m("QS AC KD") == m("QS AC KD")  # not yet exchanged
    assert state.received(W) == 0
    state.pass_cards(W, m("AD KS QH"))
    state.pass_cards(N, m("AS KH QC"))
    state.pass_cards(E, m("AH QD JS"))
    assert state.hands[W] & m("QS AC KD") == m("QS AC KD")
    assert not state.hands[S] & m("QS AC KD")
    assert state.received(S) == m("AH QD JS")
    assert [h.bit_count() for h in state.hands] == [13] * 4


def test_no_pass_hand_starts_in_play() -> None:
    state = hand_of(ROUND_ROBIN, "none")
    assert state.phase == "play" and state.received(S) == 0


@pytest.mark.parametrize(
    ("players", "removed", "size", "cycle"),
    [
        (3, "2D", 17, ["left", "right", "none"]),
        (4, "", 13, ["left", "right", "across", "none"]),
        (5, "2D 2C", 10, ["left", "right"]),
        (6, "2D 3D 3C 4C", 8, ["left", "right"]),
        (7, "2D 3D 3C", 7, ["left", "right"]),
    ],
)
def test_three_to_seven_players(players: int, removed: str, size: int, cycle: list[str]) -> None:
    rules = Rules(players=players)
    assert rules.removed == m(removed)
    assert rules.hand_size == size
    assert [rules.pass_direction(h) for h in range(1, 2 * len(cycle) + 1)] == cycle * 2
    lead = (rules.deck & -rules.deck).bit_length() - 1
    assert rules.lead_card == lead and lead // 13 == 0  # the lowest club left leads
    state = HandState.deal(rules, len(cycle) if cycle[-1] == "none" else 1, random.Random(9))
    assert [h.bit_count() for h in state.hands] == [size] * players
    union = 0
    for h in state.hands:
        union |= h
    assert union == rules.deck


def test_across_needs_four_players() -> None:
    with pytest.raises(RulesError):
        Rules(players=5).pass_offset("across")


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 2}, {"players": 8}, {"moon": "nobody"}, {"target": 0}, {"target": "100"}],
)
def test_rules_refuse_impossible_tables(kwargs: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_variants_are_off_by_default() -> None:
    rules = Rules()
    assert not rules.qs_breaks_hearts and not rules.jd_bonus
    assert (rules.moon, rules.target, rules.pass_count) == (ADD_TO_OTHERS, 100, 3)


def test_the_moon_rules_are_named_once_and_typed_alike() -> None:
    # The constants are the values of the types Rules.moon and a choice take.
    assert get_args(Moon) == MOON_RULES == (ADD_TO_OTHERS, SUBTRACT_FROM_SELF, SHOOTER_CHOOSES)
    assert get_args(MoonScoring) == MOON_SCORINGS == (ADD_TO_OTHERS, SUBTRACT_FROM_SELF)
    assert Rules().moon == ADD_TO_OTHERS


@pytest.mark.parametrize(
    ("data", "rule", "key"),
    [
        ([4], "object", ""),
        ("players=5", "object", ""),
        ({"players": 8}, "players", "players"),
        ({"players": 2}, "players", "players"),
        ({"players": "5"}, "players", "players"),
        ({"players": True}, "players", "players"),
        ({"pass_count": 2}, "unknown", "pass_count"),  # a record's rule, not the API's
        ({"colour": "red"}, "unknown", "colour"),
        ({"moon": "x"}, "moon", "moon"),
        ({"target": 49}, "target", "target"),
        ({"target": 501}, "target", "target"),
        ({"target": 100.0}, "target", "target"),
        ({"jd_bonus": 1}, "jd_bonus", "jd_bonus"),
        ({"qs_breaks_hearts": "yes"}, "qs_breaks_hearts", "qs_breaks_hearts"),
        ({"jd_bonus": True, "moon": "x", "colour": 1}, "moon", "moon"),  # the first at fault
    ],
)
def test_the_apis_rules_name_the_key_at_fault(data: object, rule: str, key: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_api(data)
    assert (caught.value.rule, caught.value.key) == (rule, key)
    assert isinstance(caught.value, ValueError) and str(caught.value)


def test_the_apis_rules_read_what_they_print_and_take_the_rest_from_the_base() -> None:
    for rules in (
        Rules(),
        Rules(players=3, qs_breaks_hearts=True, moon=SUBTRACT_FROM_SELF, jd_bonus=True, target=50),
        Rules(players=7, moon=SHOOTER_CHOOSES, target=500),
    ):
        assert Rules.from_api(rules.to_api()) == rules
        assert Rules.from_api({}, rules) == rules
    base = Rules(players=5, target=60)
    assert Rules.from_api({"jd_bonus": True}, base) == Rules(players=5, target=60, jd_bonus=True)
    # Options outside the API are the defaults', not the base's.
    assert Rules.from_api({}, Rules(pass_count=4)).pass_count == 3
