"""Cảnh báo nước đi (the play checker): which of South's legal cards Khó's search
rates clearly worse than its own choice, each with a line that says why.

:func:`check` runs in the bot workers like a hint and reads the same search
(:meth:`HardBot.weigh_play`, the hint's budget, from South's view only): Khó's
choice is the hint's card, and the check of a view is deterministic.  A card is
flagged only beyond the search's noise: another seed of Khó never chose another
card when its choice led the runner-up by more than 2 points far from the target,
or 6 percentage points of the chance to win near it (``bench/coach_margins.py``,
docs/api.md, Hint), so a flagged card is one no seed of Khó would play.
"""

from __future__ import annotations

from typing import Any

from hearts.bots.hard import Weighing
from hearts.cards import QS_BIT, QUEEN_SPADES, SPADES, card_name, cards_of
from hearts.server.coach import hint
from hearts.server.i18n import lang
from hearts.view import PlayerView

#: What Khó's choice must lead a card by for the card to be flagged: in points far
#: from the target (Khó's value, moons counted), in percentage points of the chance
#: to win the match near it.  Beyond the noise of ``bench/coach_margins.py``.
CHECK_POINTS = 2.0
CHECK_CHANCE = 6.0
#: Why a card is flagged (``why`` of a flagged card): it may take Q♠, it may take
#: the trick, it makes another's moon likelier, or South's own less likely, it costs
#: points (none of those said), or near the end it lowers the chance to win the match.
CHECK_CODES = ("queen", "trick", "moon", "own_moon", "points", "match")
_SAY = {
    "vi": {
        "queen": "Lá này có thể làm bạn ăn đầm bích",
        "trick": "Lá này có thể làm bạn phải ăn vòng này",
        "moon": "Lá này dễ để có người bắn trăng",
        "own_moon": "Lá này có thể làm bạn mất cơ hội bắn trăng",
        "points": "Lá này có thể làm bạn ăn thêm điểm",
        "match": "Lá này làm giảm cơ hội thắng trận",
        "by": "{why}: trung bình +{gap} điểm so với {card}",
        "by_moon": "{why}: trung bình +{gap} điểm tính cả trăng so với {card}",
        "by_match": "{why}: thắng trận khoảng {p}%, so với {q}% nếu đánh {card}",
    },
    "en": {
        "queen": "This card may make you take the queen of spades",
        "trick": "This card may make you take this trick",
        "moon": "This card makes a moon likelier",
        "own_moon": "This card may cost you your moon",
        "points": "This card may cost you points",
        "match": "This card lowers your chance to win the match",
        "by": "{why}: {gap} more points on average than {card}",
        "by_moon": "{why}: {gap} more points on average, moons counted, than {card}",
        "by_match": "{why}: you win the match about {p}% of the time, {q}% with {card}",
    },
}
#: A moon is the reason when the card's deals ended in one this much more often.
MOON_SHARE = 0.1


def check(view: PlayerView, language: lang.Lang = "vi") -> dict[str, Any]:
    """The check of South's play in ``view``: ``card`` (Khó's choice) and ``flagged``
    (each legal card rated clearly worse → ``why``, a code of :data:`CHECK_CODES`,
    ``measure`` and ``figures`` as a hint's, and ``line``, in ``language``)."""
    with lang.using(language):
        w = hint._bot().weigh_play(view)
        choice = w.choice
        kept = kept_for(view, set(w.options))
        flagged = {}
        for card in cards_of(view.legal):
            option = kept.get(card, card)
            if option != choice and option in w.value and _clearly_worse(view, w, option):
                flagged[card_name(card)] = _flag(view, w, card, option)
        return {"card": card_name(choice), "flagged": flagged}


def kept_for(view: PlayerView, options: set[int]) -> dict[int, int]:
    """Each legal card → the card of its run of equal cards that the search weighed:
    :func:`hearts.bots.hard.bot.candidates` keeps the lowest of each run, so a card
    not weighed plays like the weighed one below it in its suit."""
    out: dict[int, int] = {}
    run = -1
    for c in cards_of(view.legal):
        if c in options or run < 0 or run // 13 != c // 13:
            run = c
        out[c] = run
    return out


def _clearly_worse(view: PlayerView, w: Weighing, option: int) -> bool:
    """Whether Khó's choice leads ``option`` beyond the search's noise, in the
    measure Khó chose by."""
    if w.near:
        return w.value[w.choice] - w.value[option] > CHECK_CHANCE
    gap = hint.moon_points(view, w, option) - hint.moon_points(view, w, w.choice)
    return gap > CHECK_POINTS


def _flag(view: PlayerView, w: Weighing, card: int, option: int) -> dict[str, Any]:
    choice = w.choice
    shown = hint.label(choice)
    if w.near:
        p, q = w.value[option], w.value[choice]
        words = {"p": round(p), "q": round(q), "card": shown}
        return {
            "why": "match",
            "measure": "match",
            "figures": _figures(view, w, option, "match"),
            "line": _say("by_match", why=_say("match"), **words),
        }
    # The plain points when they say the same as Khó's measure; else moons counted.
    measured = "points" if w.points[option] - w.points[choice] > CHECK_POINTS else "moon"
    x = hint.figure(view, w, option, measured) - hint.figure(view, w, choice, measured)
    code = _why(view, w, card, option)
    say = "by" if measured == "points" else "by_moon"
    return {
        "why": code,
        "measure": measured,
        "figures": _figures(view, w, option, measured),
        "line": _say(say, why=_say(code), gap=hint.number(x), card=shown),
    }


def _figures(view: PlayerView, w: Weighing, option: int, measured: str) -> dict[str, float]:
    """The card's figure and Khó's choice's, in ``measured`` (a hint's figures)."""
    return {card_name(o): hint.figure(view, w, o, measured) for o in (option, w.choice)}


def _why(view: PlayerView, w: Weighing, card: int, option: int) -> str:
    """Why ``card`` is worse, from what South sees (the search's figures say how much)."""
    more = hint.moon_share(view, w, option) - hint.moon_share(view, w, w.choice)
    if more >= MOON_SHARE:
        return "moon"  # more moons and worse for South: another seat's
    if more <= -MOON_SHARE:
        return "own_moon"  # fewer moons and worse for South: South's own
    queen_out = not (view.played | view.hand) & QS_BIT
    trick = view.trick
    led = trick[0][1] // 13 if trick else -1
    # A spade above Q♠ while she is still out, or Q♠ herself on a trick South heads.
    if (queen_out and card // 13 == SPADES and card > QUEEN_SPADES) or (
        card == QUEEN_SPADES and led == SPADES and _heads(view, card)
    ):
        return "queen"
    if led >= 0 and _heads(view, card):
        return "trick"  # (a lead's fate is the others' to say: no reason of its own)
    return "points"


def _heads(view: PlayerView, card: int) -> bool:
    """Whether ``card`` would head the trick on the table (none led: False)."""
    trick = view.trick
    if not trick:
        return False
    led = trick[0][1] // 13
    return card // 13 == led and all(card > c for _, c in trick if c // 13 == led)


def _say(key: str, **words: object) -> str:
    return _SAY[lang.current()][key].format(**words)
