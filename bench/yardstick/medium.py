"""Vừa (medium): the careful player of the tips in seeds 000 and 003.

It passes the cards hardest to get rid of (Q♠ unless five low spades guard it,
unguarded K♠/A♠, high cards of short side suits, a short suit to void it), keeps
low cards and high hearts, ducks under the trick when it can, takes with its
highest card when it must win a trick without points, dumps Q♠ and then its most
dangerous cards when void, leads low spades to flush Q♠, watches for a moon
(one seat with every point) and takes a heart to stop it, and shoots the moon
with a hand that can, giving up as soon as another seat takes a point.

The weights below were set with :func:`hearts.bots.arena.duplicate`: one variant
against three copies of the current player, 1,200-2,500 deals each.  Most were
flat within noise; keeping high hearts in the pass and passing for the moon were
worth about 0.5 and 0.2 points a hand.

No randomness: the choice is a function of the view alone.  The decisions are
written on :class:`~hearts.bots.tactics.Table` (masks), so a search can call
:func:`play_card` and :func:`pass_cards` inside its own simulated deals.
"""

from __future__ import annotations

from dataclasses import replace

from hearts.cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    HEARTS_MASK,
    JACK_DIAMONDS,
    JD_BIT,
    QS_BIT,
    QUEEN_SPADES,
    SPADES,
    SUIT_MASKS,
    cards_of,
)
from hearts.view import PlayerView

from .tactics import (
    HIGH_SPADES,
    LOW_SPADES,
    Table,
    above,
    below,
    danger,
    highest_below,
    highest_in,
    lowest_above,
    lowest_in,
    point_cards,
    sure_loser,
    sure_winner,
    trick_winner,
    winners_and_losers,
)

#: Moon watch: a seat with every point so far and Q♠ + this many hearts, or this
#: many hearts alone, is treated as running for the moon.
WATCH = (2, 4)
#: Low spades enough to keep Q♠ instead of passing it.
QUEEN_GUARDS = 5
#: A hand that keeps its high cards to shoot: hearts held, and honours (J♥ up) with A♥.
MOON_PASS_HEARTS = 4
MOON_PASS_HONOURS = 2
#: Running for the moon in play: losers allowed, hearts held, point cards already won.
SHOOT = (1, 5, 3)
#: Worth of a side-suit void made by the pass.
VOID_VALUE = 10.0
#: Low spades enough to keep K♠/A♠ (passing right, one is enough: seed 003).
TOP_SPADE_GUARDS = 3
#: Passing side cards: weight per rank, per low card of the suit, per card of the suit.
PASS_SIDE = (3.0, 8.0, 2.0)
#: Passing hearts: weight per rank, and extra for J♥ and above.
PASS_HEART = (1.0, 0.0)
#: Weight of a side suit's length against leading it (short suits make voids).
VOID_PUSH = 0.5
#: Leading a suit some seat is void in: risk factor and offsets (may win / sure loser).
LEAD_VOID = (1.5, 3.0, -2.0)
#: Leading hearts: offsets (may win / sure loser) and weight per rank.
LEAD_HEART = (2.0, -1.0, 0.3)
#: Leading a low spade while holding Q♠.
LEAD_SPADE_WITH_QUEEN = 4.0
#: Low spades per top spade (beyond one each) to flush Q♠ while holding K♠/A♠.
FLUSH_GUARDS = 3
#: The J♦'s pass score under the J♦ rule: far below any card worth passing.
KEEP_JD = -100.0
#: What the J♦ is worth taking under the J♦ rule (points on the trick it may cost).
JD_WORTH = 10
#: Keep the top heart while one seat has taken every point.
KEEP_STOPPER = True
#: ... when that seat holds Q♠ and this many hearts, or this many hearts alone,
STOPPER_WATCH = (1, 2)
#: ... and at most this many higher hearts are out.
STOPPER_RANK = 2


_HEART_HONOURS = HEARTS_MASK & ~((1 << (HEARTS * 13 + 9)) - 1)  # J♥ Q♥ K♥ A♥


class MediumBot:
    """Vừa: deterministic, fast (well under a millisecond a card)."""

    name = "medium"

    def __init__(self, moon: bool = True) -> None:
        #: Whether it ever tries to shoot the moon itself.
        self.moon = moon

    def choose_pass(self, view: PlayerView) -> int:
        rules = view.rules
        return pass_cards(
            view.hand,
            rules.pass_count,
            rules.pass_offset(view.direction),
            view.n,
            self.moon,
            rules.jd_bonus,
            rules.deck,
        )

    def choose_play(self, view: PlayerView) -> int:
        return play_card(Table.of(view), self.moon)


# -- passing ----------------------------------------------------------------------


def moon_hand(hand: int) -> bool:
    """A hand to pass for the moon: A♥ with another heart honour and length.

    Generous on purpose: against careful players, keeping the high cards and
    trying for the moon paid more than passing them (measured in the arena);
    play still gives up the run as soon as another seat takes a point.
    """
    hearts = hand & HEARTS_MASK
    if not hearts >> (HEARTS * 13 + 12) & 1:
        return False
    honours = (hearts & _HEART_HONOURS).bit_count()
    return hearts.bit_count() >= MOON_PASS_HEARTS and honours >= MOON_PASS_HONOURS


def pass_cards(
    hand: int,
    count: int = 3,
    offset: int = 1,
    n: int = 4,
    moon: bool = True,
    jd: bool = False,
    deck: int = FULL_DECK,
) -> int:
    """The ``count`` cards to pass from ``hand`` (``offset``: seats to the receiver,
    of ``n``); ``jd``: the J♦ counts −10, so it is kept; ``deck``: the cards in play."""
    if moon and moon_hand(hand):
        return _moon_pass(hand, count, jd)
    scores = {c: _pass_score(c, hand, offset % n if n else 1, n) for c in cards_of(hand)}
    if jd and hand & JD_BIT:
        scores[JACK_DIAMONDS] = KEEP_JD  # worth −10 to its taker: never hand it over
    ranked = sorted(scores, key=lambda c: (-scores[c], -c))
    best = _mask(ranked[:count])
    best_value = _hand_value(hand & ~best, deck) - _pass_bonus(best)
    # Voiding a short side suit may beat passing the single worst cards.
    for suit in (CLUBS, DIAMONDS):
        cards = hand & SUIT_MASKS[suit]
        k = cards.bit_count()
        if 0 < k <= count and not (jd and cards & JD_BIT):
            rest = [c for c in ranked if not (cards >> c) & 1][: count - k]
            choice = cards | _mask(rest)
            value = _hand_value(hand & ~choice, deck) - _pass_bonus(choice)
            if value < best_value:
                best, best_value = choice, value
    return best


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _pass_score(card: int, hand: int, offset: int, n: int) -> float:
    """How much we want to be rid of ``card`` before play (higher: pass it)."""
    suit, rank = divmod(card, 13)
    spades = hand & SUIT_MASKS[SPADES]
    low_spades = (spades & LOW_SPADES).bit_count()
    if card == QUEEN_SPADES:
        # Guarded by many low spades the queen can be kept and dumped later.
        return 5.0 if low_spades >= QUEEN_GUARDS else 100.0
    if suit == SPADES:
        if rank > 10:  # K♠, A♠: they catch the queen
            if hand & QS_BIT and low_spades < 4:
                return 90.0 - (12 - rank)  # passing the queen too; the top spades follow
            if low_spades >= TOP_SPADE_GUARDS or (offset == n - 1 and low_spades >= 1):
                return 8.0 + rank  # a guarded top spade is safe enough
            return 80.0 + rank
        return -50.0  # never pass a low spade: it flushes the queen
    cards = hand & SUIT_MASKS[suit]
    length = cards.bit_count()
    lows = (cards & below(suit * 13 + 5)).bit_count()  # 2..6 of the suit
    if suit == HEARTS:
        score = PASS_HEART[0] * rank - 4.0 * lows
        if rank >= 9:
            score += PASS_HEART[1]
        return score
    score = PASS_SIDE[0] * rank - PASS_SIDE[1] * lows - PASS_SIDE[2] * length
    if rank <= 2:
        score -= 20.0  # keep the twos and threes
    return score


def _hand_value(hand: int, deck: int = FULL_DECK) -> float:
    """Badness of a hand to play (lower is better): its dangerous cards."""
    others = deck & ~hand
    total = 0.0
    for card in cards_of(hand):
        total += max(0, danger(card, hand, others))
    for suit in (CLUBS, DIAMONDS):
        if not hand & SUIT_MASKS[suit]:
            total -= VOID_VALUE  # a void: a chance to dump every time the suit is led
    return total


def _pass_bonus(passed: int) -> float:
    bonus = 0.0
    if passed & QS_BIT:
        bonus += 30.0
    return bonus


def _moon_pass(hand: int, count: int, jd: bool = False) -> int:
    """With a moon hand keep the high cards: pass the lowest side cards."""
    keep = HEARTS_MASK | QS_BIT | (JD_BIT if jd else 0)
    side = [c for c in cards_of(hand & ~keep)]
    side.sort(key=lambda c: (c % 13, c))
    chosen = side[:count]
    if len(chosen) < count:
        chosen += [c for c in cards_of(hand) if c not in chosen][: count - len(chosen)]
    return _mask(chosen)


# -- playing ----------------------------------------------------------------------


def play_card(t: Table, moon: bool = True) -> int:
    """The card Vừa plays in the position ``t``."""
    legal = t.legal
    if not legal & (legal - 1):
        return lowest_in(legal)
    if moon and _shooting(t):
        return _shoot(t)
    if not t.trick:
        return _lead(t)
    led = t.trick[0][1] // 13
    if legal & SUIT_MASKS[led]:
        if t.jd:
            card = _take_jack(t, led)
            if card >= 0:
                return card
        return _follow(t, led)
    if t.jd and legal & JD_BIT and legal != JD_BIT:
        # Never give the J♦ (−10) away on another seat's trick.
        return _discard(replace(t, legal=legal & ~JD_BIT))
    return _discard(t)


def _take_jack(t: Table, led: int) -> int:
    """Under the J♦ rule: the card that wins the J♦ for us in this diamond trick, if
    that is cheap (fewer points on the trick than the J♦ is worth) and sure; -1 if none."""
    if led != DIAMONDS or t.first_trick:
        return -1
    mine = t.legal & SUIT_MASKS[DIAMONDS]
    trick = _trick_mask(t)
    _, win = trick_winner(t.trick)
    last = not t.after()
    if _points_of(trick) >= JD_WORTH:
        return -1
    if trick & JD_BIT:
        # The J♦ is on the table: win it with the cheapest card that is sure to.
        over = mine & above(win)
        if not over:
            return -1
        card = lowest_in(over) if last else highest_in(over)
        return card if last or sure_winner(card, t.others) else -1
    if mine & JD_BIT and win < JACK_DIAMONDS and (last or sure_winner(JACK_DIAMONDS, t.others)):
        return JACK_DIAMONDS  # our J♦ wins the trick: keep its −10
    return -1


def _points_of(cards: int) -> int:
    return (cards & HEARTS_MASK).bit_count() + (13 if cards & QS_BIT else 0)


def _shooting(t: Table) -> bool:
    """Run for the moon: nobody else has a point, and the hand can take the rest."""
    for s in range(t.n):
        if s != t.seat and t.taken[s]:
            return False
    # Point cards still to be won: someone else may still be handed them.
    if t.trick:
        _, best = trick_winner(t.trick)
        if best > highest_in(t.hand & SUIT_MASKS[best // 13]):
            # We cannot win this trick: running now only wastes high cards.
            return bool(not point_cards(_trick_mask(t)) and _certain_run(t.hand, t.others))
    _won, lost = winners_and_losers(t.hand, t.others, t.n)
    hearts = t.hand & HEARTS_MASK
    mine_points = point_cards(t.taken[t.seat]).bit_count()
    if lost == 0:
        return mine_points > 0 or bool(hearts)
    if lost > SHOOT[0]:
        return False
    # A loser or so: only with the top hearts still in hand and points already ours.
    return (
        hearts.bit_count() >= SHOOT[1]
        and sure_winner(highest_in(hearts), t.others)
        and (mine_points >= SHOOT[2] or t.first_trick)
    )


def _certain_run(hand: int, others: int) -> bool:
    return all(sure_winner(c, others) for c in cards_of(hand))


def _shoot(t: Table) -> int:
    legal = t.legal
    if not t.trick:
        # Lead a sure winner, hearts last unless they are all ours to draw.
        winners = [c for c in cards_of(legal) if sure_winner(c, t.others)]
        if winners:
            non_hearts = [c for c in winners if c // 13 != HEARTS]
            return max(non_hearts or winners, key=lambda c: (_suit_len(t.hand, c), c))
        return highest_in(legal)
    led = t.trick[0][1] // 13
    follow = legal & SUIT_MASKS[led]
    if follow:
        return highest_in(follow)
    # Void: throw the cheapest card, never a point card if we can help it.
    safe = legal & ~HEARTS_MASK & ~QS_BIT
    return min(cards_of(safe or legal), key=lambda c: (c % 13, c))


def _suit_len(hand: int, card: int) -> int:
    return (hand & SUIT_MASKS[card // 13]).bit_count()


def _trick_mask(t: Table) -> int:
    m = 0
    for _, c in t.trick:
        m |= 1 << c
    return m


def _follow(t: Table, led: int) -> int:
    mine = t.legal & SUIT_MASKS[led]
    win_seat, win = trick_winner(t.trick)
    trick_mask = _trick_mask(t)
    points = point_cards(trick_mask)
    after = t.after()
    last = not after
    duck = highest_below(mine, win)
    threat = t.moon_threat(*WATCH)

    # A moon under way: take this trick if it carries points and the runner wins it.
    if threat >= 0:
        runner_on_top = win_seat == threat or threat in after
        heart_trick = points or led == HEARTS
        if runner_on_top and heart_trick:
            top = highest_in(mine)
            if top > win and (win_seat == threat or sure_winner(top, t.others)):
                return top
        if not runner_on_top and points and duck >= 0:
            return duck  # a point goes to someone else: the moon is dead

    if t.first_trick:
        # Nobody may throw points on the first trick: shed the top club for free.
        return highest_in(mine)

    if led == SPADES:
        return _follow_spades(t, mine, win, points, last, after)

    if duck >= 0:
        if last and not points:
            return highest_in(mine)  # nothing to lose: shed the highest card
        if not points and _safe_round(t, led, after):
            top = highest_in(mine)
            if _winning_is_harmless(t, top):
                return top
        return duck
    # Every card we hold wins over the trick so far.
    if last or (not points and _safe_round(t, led, after)):
        return highest_in(mine)
    return lowest_above(mine, win)


def _follow_spades(t: Table, mine: int, win: int, points: int, last: bool, after: list[int]) -> int:
    queen_out = bool(t.others & QS_BIT)
    if mine & QS_BIT:
        if win > QUEEN_SPADES:
            return QUEEN_SPADES  # K♠ or A♠ is on the trick: the queen goes under it
        under = highest_below(mine, win)
        if under >= 0:
            return under
        rest = mine & ~QS_BIT
        if rest:
            # Forced over: with the queen kept, prefer the card least likely to win.
            return highest_in(rest) if last else lowest_in(rest)
        return QUEEN_SPADES
    duck = highest_below(mine, win)
    if duck >= 0:
        if last and not points:
            top = highest_in(mine)
            if queen_out and top > QUEEN_SPADES and top == highest_in(mine & HIGH_SPADES):
                return top  # shed K♠/A♠ safely: the queen is not in this trick
            return top if not queen_out else duck
        return duck
    if last:
        return highest_in(mine)
    # Forced to go over with players still to come.
    if queen_out:
        safe = mine & ~HIGH_SPADES & above(win)
        if safe:
            return lowest_in(safe)  # below the queen: it cannot be dumped under us
        return lowest_in(mine)
    return highest_in(mine)


def _safe_round(t: Table, suit: int, after: list[int]) -> bool:
    """The players still to come are likely to follow ``suit`` (no points dumped)."""
    left = (t.others & SUIT_MASKS[suit]).bit_count()
    for s in after:
        if t.voids[s] >> suit & 1:
            return False
    return left >= 3 * len(after) + 1


def _winning_is_harmless(t: Table, top: int) -> bool:
    """Winning with ``top`` leaves us a safe lead next."""
    rest = t.hand & ~(1 << top)
    return any(sure_loser(c, t.others) and c // 13 != HEARTS for c in cards_of(rest))


def _discard(t: Table) -> int:
    legal = t.legal
    win_seat, _ = trick_winner(t.trick)
    after = t.after()
    threat = t.moon_threat(*WATCH)
    if threat >= 0 and (win_seat == threat or threat in after):
        # Never feed a runner: throw the worst non-point card instead.
        safe = legal & ~HEARTS_MASK & ~QS_BIT
        if safe:
            return _most_dangerous(t, safe)
    if legal & QS_BIT:
        return QUEEN_SPADES
    queen_out = bool(t.others & QS_BIT)
    if queen_out:
        tops = legal & HIGH_SPADES
        low = (t.hand & LOW_SPADES).bit_count()
        if tops and low < 3:
            return highest_in(tops)
    if KEEP_STOPPER and t.moon_threat(*STOPPER_WATCH) == win_seat:
        # One seat has every point so far: keep a top heart to stop a moon later.
        hearts = legal & HEARTS_MASK
        top = highest_in(hearts)
        if hearts and (t.others & above(top) & HEARTS_MASK).bit_count() <= STOPPER_RANK:
            rest = legal & ~(1 << top)
            if rest:
                return _most_dangerous(t, rest)
    return _most_dangerous(t, legal)


def _most_dangerous(t: Table, pool: int) -> int:
    return max(cards_of(pool), key=lambda c: (danger(c, t.hand, t.others), c))


def _lead(t: Table) -> int:
    legal = t.legal
    others = t.others
    threat = t.moon_threat(*WATCH)
    if threat >= 0:
        hearts = legal & HEARTS_MASK
        if hearts and sure_winner(highest_in(hearts), others):
            return highest_in(hearts)  # take a heart trick ourselves: the moon is dead

    # Flush Q♠ with low spades when it is out and our top spades, if any, are
    # guarded by enough low ones that we never have to play them under it.
    queen_out = bool(others & QS_BIT)
    low = legal & LOW_SPADES
    tops = (t.hand & HIGH_SPADES).bit_count()
    if queen_out and low and (not tops or low.bit_count() >= FLUSH_GUARDS + tops):
        return lowest_in(low)

    best = -1
    best_score = 1e9
    for card in cards_of(legal):
        score = _lead_risk(t, card, queen_out)
        if score < best_score:
            best, best_score = card, score
    return best


def _lead_risk(t: Table, card: int, queen_out: bool) -> float:
    """Expected trouble from leading ``card`` (lower is better)."""
    suit = card // 13
    others = t.others
    suit_others = others & SUIT_MASKS[suit]
    lower = (suit_others & below(card)).bit_count()
    higher = (suit_others & above(card)).bit_count()
    voids = [s for s in range(t.n) if s != t.seat and t.voids[s] >> suit & 1]
    # Points that could be thrown on the trick by a seat that cannot follow.
    dump = (13.0 if queen_out else 0.0) + 0.4 * (others & HEARTS_MASK).bit_count()
    if not suit_others:
        return 60.0 + dump + card % 13  # everybody is void: we take whatever they throw
    # A sure loser carries no risk; a sure winner the most.
    risk = 10.0 * lower / (lower + higher) + (8.0 if higher == 0 else 0.0) if lower else 0.0
    if voids:
        risk *= 1.0 + LEAD_VOID[0] * len(voids)
        risk += LEAD_VOID[1] * len(voids) if lower else LEAD_VOID[2] * len(voids)
    if suit == HEARTS:
        # A losing heart hands points to someone else.
        risk += LEAD_HEART[0] if lower else LEAD_HEART[1]
        risk += LEAD_HEART[2] * (card % 13)
    elif suit == SPADES:
        if card == QUEEN_SPADES:
            risk += 40.0 if others & HIGH_SPADES else 30.0
        elif card > QUEEN_SPADES and queen_out:
            risk += 30.0
        elif t.hand & QS_BIT:
            risk += LEAD_SPADE_WITH_QUEEN  # it draws out the cards that guard our queen
    else:
        # Running a short side suit out makes a void; keep the lowest card for later.
        length = (t.hand & SUIT_MASKS[suit]).bit_count()
        risk += VOID_PUSH * length
    risk -= 0.05 * (card % 13)  # among equal risks, shed the higher card
    return risk
