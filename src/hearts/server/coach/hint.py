"""Gợi ý (the hint): Khó's own choice for South, with why, from South's view only.

:func:`hint` runs in the bot workers like Khó's decisions.  It reads Khó's search
(:meth:`HardBot.weigh_play`, :meth:`HardBot.weigh_pass`), so the hinted card is
the card Khó would play, and it is deterministic for a view (the search is seeded
from it): the hidden cards cannot change it.

Every hint opens with why (:func:`why`, a code of :data:`WHY_CODES`): what Khó's
choice beat its runner-up by, on the deals both were tried on, in the measure
Khó chose by (:func:`hearts.bots.hard.value.hand_utility`): far from the
target the points others take minus South's, which orders like South's own
points except for moons; near it, the chance to win the match.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from hearts.bots.hard import HardBot, Weighing
from hearts.cards import HEARTS, QS_BIT, QUEEN_SPADES, SPADES, SUIT_MASKS, card_name, cards_of
from hearts.rules import SUBTRACT_FROM_SELF
from hearts.server.i18n import lang, messages_en
from hearts.server.i18n.messages import SUITS_VI
from hearts.view import PlayerView

_SYMBOLS = "♣♦♠♥"
_SUITS = {"vi": SUITS_VI, "en": messages_en.SUITS}
#: The reasons' lines, by language.
_SAY: dict[str, dict[str, str]] = {
    "vi": {
        "only": "Đây là lá duy nhất bạn được đánh.",
        "void": "Bạn đã hết {suit}: được bỏ lá khác, {card} là lá nên bỏ.",
        "drop_queen": "Thả đầm bích khi người khác phải ăn vòng này.",
        "shed_high": "Đầm bích vẫn chưa ra: bớt {card} đi để khỏi phải ăn đầm.",
        "hold_high": "Đầm bích vẫn chưa ra mà bạn còn giữ {held}: coi chừng phải ăn đầm.",
        "and": " và ",
        "my_moon": "Bạn đã ăn cả {n} điểm của ván: có thể bắn trăng.",
        "their_moon": "{name} đã ăn cả {n} điểm của ván: coi chừng bắn trăng.",
        "play": "đánh",
        "pass": "chuyền",
        "same": "Các lá bạn được đánh đều như nhau: lá nào cũng vậy.",
        "fewest": "Ít điểm nhất: {act} {card}, trung bình bạn ăn {p} điểm; "
        "{act} {other} thì {q} điểm.",
        "close": "Gần như ngang nhau: {act} {card} hay {other} chênh nhau không quá {gap} điểm, "
        "cách nào cũng được.",
        "moon_more": "Tính cả bắn trăng, {act} {card} lợi hơn: Khó so điểm của bạn với các nhà "
        "khác, mà ván có trăng thì các nhà khác cũng ăn 26 điểm; tính như vậy, trung bình "
        "bạn ăn {p} điểm, {act} {other} thì {q}.",
        "moon_less": "Ít rủi ro bị bắn trăng hơn: {act} {card} thì {mc}% số ván thử có người "
        "bắn trăng, {other} thì {mr}%; tính cả trăng, trung bình bạn ăn {p} điểm, so với {q}.",
        "match": "Trận sắp kết thúc: Khó chọn theo cơ hội thắng trận, không theo điểm: "
        "{act} {card} thắng khoảng {pc}%, {other} khoảng {pr}%.",
        "match_close": "Trận sắp kết thúc, và {act} {card} hay {other} cho cơ hội thắng trận "
        "gần như nhau (khoảng {pc}% và {pr}%): cách nào cũng được.",
        "few_low": "Bạn chỉ có {low} lá bích nhỏ hơn Q: {cards} dễ dính đầm bích.",
        "cover": "Bạn có {low} lá bích nhỏ che đầm bích: giữ lại.",
        "void_pass": "Chuyền hết {suit}: bạn sẽ được bỏ bài xấu khi ai đi {suit}.",
        "high_hearts": "{cards} là cơ cao, dễ phải ăn điểm.",
        "mean": "trung bình ",
        "points": "điểm",
        "moon_mean": "trung bình ",
        "moon_points": "điểm tính cả trăng",
        "match_mean": "thắng trận khoảng ",
    },
    "en": {
        "only": "This is the only card you may play.",
        "void": "You have no {suit} left: you may discard, and {card} is the card to shed.",
        "drop_queen": "Drop the queen of spades while someone else must take this trick.",
        "shed_high": "The queen of spades is still out: shed {card} so you do not take her.",
        "hold_high": "The queen of spades is still out and you hold {held}: beware of taking her.",
        "and": " and ",
        "my_moon": "You have taken all {n} points of the hand: you may shoot the moon.",
        "their_moon": "{name} has taken all {n} points of the hand: beware of a moon.",
        "play": "play",
        "pass": "pass",
        "same": "The cards you may play are all alike: any of them will do.",
        "fewest": "Fewest points: {act} {card} and you take {p} points on average, "
        "{q} if you {act} {other}.",
        "close": "Too close to matter: {act} {card} or {other}, at most {gap} points apart "
        "on average; either will do.",
        "moon_more": "Counting moons, {card} comes out ahead: Hard weighs your points "
        "against the others', and in a moon hand the others take 26 too; counted so, you "
        "take {p} points on average, {q} if you {act} {other}.",
        "moon_less": "Less risk of a moon: {act} {card} and someone shoots the moon in {mc}% "
        "of the deals tried, {mr}% with {other}; moons counted, you take {p} points on "
        "average against {q}.",
        "match": "The match is nearly over: Hard picks by the chance to win it, not by "
        "points: {act} {card} wins about {pc}%, {other} about {pr}%.",
        "match_close": "The match is nearly over, and {act} {card} or {other} give about the "
        "same chance to win it ({pc}% and {pr}%): either will do.",
        "few_low": "You have only {low} spades below the Q: {cards} may catch the queen.",
        "cover": "You have {low} low spades to cover the queen of spades: keep them.",
        "void_pass": "Pass all your {suit}: you can shed bad cards when {suit} are led.",
        "high_hearts": "{cards}: high hearts, likely to take points.",
        "mean": "mean ",
        "points": "points",
        "moon_mean": "mean ",
        "moon_points": "points counting moons",
        "match_mean": "wins the match about ",
    },
}


def _say(key: str, **words: object) -> str:
    return _SAY[lang.current()][key].format(**words)


def _suit(suit: int) -> str:
    return _SUITS[lang.current()][suit]


#: How many options the estimates line names.
SHOWN = 3
_local = threading.local()


def _bot() -> HardBot:
    bot: HardBot | None = getattr(_local, "coach", None)
    if bot is None:
        bot = _local.coach = HardBot()  # Khó as players meet it
    return bot


def label(card: int) -> str:
    """``9♦``, ``10♥``, ``Q♠``: a card as the hint's lines show it."""
    rank = "23456789TJQKA"[card % 13]
    return ("10" if rank == "T" else rank) + _SYMBOLS[card // 13]


def number(x: float) -> str:
    """Points with one decimal: a decimal comma in Vietnamese (``1,2``), a point in
    English, and the page's minus sign (−, as in its scores) where they are below 0.

    >>> number(-3.25), number(-0.04)
    ('−3,2', '0,0')
    """
    text = f"{x:.1f}".replace("-0.0", "0.0").replace("-", "\u2212")
    return text if lang.english() else text.replace(".", ",")


def _labels(mask: int) -> str:
    return " ".join(label(c) for c in cards_of(mask))


def hint(view: PlayerView, names: dict[int, str], language: lang.Lang = "vi") -> dict[str, Any]:
    """The hint for the seat of ``view`` (its pass or its play): ``card`` or
    ``cards``, ``estimates`` (option → mean points), ``why`` (a code of
    :data:`WHY_CODES`) and ``reasons`` (in ``language``: it runs in a worker,
    outside the request), why first, the estimates line last. ``names``: the name
    of each other seat, for the reasons."""
    with lang.using(language):
        return _hint(view, names)


def _hint(view: PlayerView, names: dict[int, str]) -> dict[str, Any]:
    bot = _bot()
    if view.phase == "pass":
        w = bot.weigh_pass(view)
        code, line = why(view, w, _labels)
        return {
            "cards": [card_name(c) for c in cards_of(w.choice)],
            "estimates": {_key(m): round(w.points[m], 2) for m in w.options},
            "why": code,
            **_figures(view, w, code, _key),
            "reasons": [
                line,
                *_pass_reasons(view, w.choice),
                _estimates_line(view, w, code, _labels),
            ],
        }
    w = bot.weigh_play(view)
    code, line = why(view, w, label)
    return {
        "card": card_name(w.choice),
        "estimates": {card_name(c): round(w.points[c], 2) for c in w.options},
        "why": code,
        **_figures(view, w, code, card_name),
        "reasons": [line, *_play_reasons(view, w, names), _estimates_line(view, w, code, label)],
    }


def _key(mask: int) -> str:
    """A pass's key in the estimates: its cards, space-separated (``"QS AH KH"``)."""
    return " ".join(card_name(c) for c in cards_of(mask))


#: Why a hint chose as it did: the only card; cards all alike; the fewest mean
#: points; too close to matter; a moon counted (more or fewer of them than the
#: runner-up); near the end, the chance to win the match (or too close).
WHY_CODES = ("only", "same", "fewest", "close", "moon_more", "moon_less", "match", "match_close")
#: Options less than this many points apart (in Khó's measure, on the same deals)
#: are too close to matter: a search with another seed often chooses the other
#: (docs/api.md, Hint).
CLOSE_POINTS = 0.5
#: The same near the end of a match, in chances to win (percentage points).
CLOSE_CHANCE = 3.0


def _rivals(w: Weighing) -> list[int]:
    """The options compared with Khó's choice on the same deals (the survivors of
    its last round), best first; those dropped earlier were tried on fewer deals."""
    return [o for o in w.options[1:] if w.deals[o] == w.deals[w.choice]]


def why(view: PlayerView, w: Weighing, show: Any) -> tuple[str, str]:
    """Why Khó chose ``w.choice``: the code and its line, from what the search
    measured against the runner-up, or against an option with fewer points if one
    was tried on the same deals (``show``: an option as the line names it)."""
    act = _say("pass" if view.phase == "pass" else "play")
    if view.phase == "play" and view.legal.bit_count() == 1:
        return "only", _say("only")
    rivals = _rivals(w) or list(w.options[1:2])
    if not rivals:
        return "same", _say("same")
    c, r = w.choice, rivals[0]
    low = min(rivals, key=lambda o: w.points[o])
    if w.points[low] < w.points[c]:
        r = low  # what a player asks: why not the option with fewer points?
    words: dict[str, object] = {"act": act, "card": show(c), "other": show(r)}
    words |= {"p": number(w.points[c]), "q": number(w.points[r])}
    if w.near:
        # The value near the end is 100 × the chance to win the match.
        pc, pr = w.value[c], w.value[r]
        code = "match_close" if abs(pc - pr) < CLOSE_CHANCE else "match"
        return code, _say(code, pc=round(pc), pr=round(pr), **words)
    # Far from the end Khó's value in points (:func:`moon_points`): South's points
    # with a moon counted at its worth.  ``gap``: what the choice gains by it.
    gap = moon_points(view, w, r) - moon_points(view, w, c)
    fewer = w.points[r] - w.points[c]  # the points the choice saves, moons and all
    if fewer >= CLOSE_POINTS:
        return "fewest", _say("fewest", **words)
    if gap < CLOSE_POINTS and fewer > -CLOSE_POINTS:
        return "close", _say("close", gap=number(CLOSE_POINTS), **words)
    # Not fewer points, yet Khó's measure prefers it: only moons set them apart, so
    # the line's figures are that measure (the plain points would rank them the
    # other way round).
    words |= {"p": number(moon_points(view, w, c)), "q": number(moon_points(view, w, r))}
    mc, mr = moon_share(view, w, c), moon_share(view, w, r)
    code = "moon_less" if mc < mr else "moon_more"
    return code, _say(code, mc=round(100 * mc), mr=round(100 * mr), **words)


#: What a hint's figures measure (``measure`` in the answer): South's mean points;
#: ``moon``, Khó's own measure far from the end in points (:func:`moon_points`),
#: when moons set the options apart; near the end, the chance to win the match (%).
MEASURES = ("points", "moon", "match")


def moon_points(view: PlayerView, w: Weighing, option: int) -> float:
    """Khó's mean value of ``option`` far from the end, in South's points: South's
    mean points where no deal ended in a moon (the value is then the others' mean
    points minus South's, (plain - n × points) / (n - 1)), a moon counted at what it
    changes between South and the others (who take 26 too).  Lower is better, in
    the order of Khó's value."""
    n = view.n
    plain = 26 - (10 if view.rules.jd_bonus else 0)  # every card taken, no moon
    return (plain - (n - 1) * w.value[option]) / n


def measure(w: Weighing, code: str) -> str:
    """The measure a hint's figures are in (:data:`MEASURES`): the one Khó chose by,
    in points while the plain points agree with it on the options shown."""
    if w.near:
        return "match"
    if code in ("moon_more", "moon_less"):
        return "moon"
    c = w.choice
    return "points" if all(w.points[c] <= w.points[o] for o in _shown(w)) else "moon"


def figure(view: PlayerView, w: Weighing, option: int, measured: str) -> float:
    """``option``'s figure in the measure ``measured``, rounded as the answer gives it."""
    if measured == "match":
        return round(w.value[option], 2)
    if measured == "moon":
        return round(moon_points(view, w, option), 2)
    return round(w.points[option], 2)


def _shown(w: Weighing) -> list[int]:
    """The options the estimates line names: Khó's choice and the next options
    tried on the same deals (those dropped earlier were tried on fewer)."""
    return [w.choice, *_rivals(w)][:SHOWN]


def _figures(view: PlayerView, w: Weighing, code: str, key: Any) -> dict[str, Any]:
    measured = measure(w, code)
    return {
        "measure": measured,
        "figures": {key(o): figure(view, w, o, measured) for o in _shown(w)},
    }


def why_pattern(language: lang.Lang, code: str) -> re.Pattern[str]:
    """The lines :func:`why` words ``code`` with in ``language``, any figures in
    their places: how a reader (a test, a tool) knows a hint's why."""
    parts = re.split(r"\{\w+\}", _SAY[language][code])
    return re.compile(".+?".join(re.escape(p) for p in parts))


def moon_share(view: PlayerView, w: Weighing, option: int) -> float:
    """The share of ``option``'s deals that ended in a moon, far from the end: from
    its mean value and points (the value is the others' points minus South's, so
    together they give the mean of all seats' points, which a moon alone moves)."""
    rules, n = view.rules, view.n
    total = (n - 1) * w.value[option] + n * w.points[option]
    plain = 26 - (10 if rules.jd_bonus else 0)  # every card taken, no moon
    # Far from the end a shooter who may choose adds 26 to the others.
    if rules.moon == SUBTRACT_FROM_SELF:
        share = (plain - total) / 52
    else:
        share = (total - plain) / (26 * (n - 2))
    return min(1.0, max(0.0, share))


def _estimates_line(view: PlayerView, w: Weighing, code: str, show: Any) -> str:
    """``9♦: trung bình 1,2 điểm · K♠: 3,5 điểm``: the options :func:`_shown` names,
    in the measure of the why (:func:`measure`), so that no figure ranks them
    against Khó's choice."""
    measured = measure(w, code)
    parts = []
    for i, option in enumerate(_shown(w)):
        # From the figure the answer carries (rounded to 2 places), so that the
        # line and the figures never round a ...x5 apart.
        x = figure(view, w, option, measured)
        if measured == "match":
            words = _say("match_mean") if i == 0 else ""
            parts.append(f"{show(option)}: {words}{round(x)}%")
            continue
        mean, unit = ("moon_mean", "moon_points") if measured == "moon" else ("mean", "points")
        words = _say(mean) if i == 0 else ""
        parts.append(f"{show(option)}: {words}{number(x)} {_say(unit if i == 0 else 'points')}")
    return " · ".join(parts)


def _play_reasons(view: PlayerView, w: Weighing, names: dict[int, str]) -> list[str]:
    out: list[str] = []
    card = w.choice
    if view.legal.bit_count() == 1:
        return []
    trick = view.trick
    led = trick[0][1] // 13 if trick else -1
    qs_out = not (view.played | view.hand) & QS_BIT
    high_spades = view.hand & ~((1 << (QUEEN_SPADES + 1)) - 1) & SUIT_MASKS[SPADES]
    if led >= 0 and not view.hand & SUIT_MASKS[led]:
        out.append(_say("void", suit=_suit(led), card=label(card)))
    if card == QUEEN_SPADES and led >= 0 and trick:
        out.append(_say("drop_queen"))
    elif qs_out and high_spades:
        held = _say("and").join(label(c) for c in cards_of(high_spades))
        if (1 << card) & high_spades:
            out.append(_say("shed_high", card=label(card)))
        else:
            out.append(_say("hold_high", held=held))
    taken = view.points_taken()
    scorers = [s for s, p in enumerate(taken) if p > 0]
    if len(scorers) == 1 and taken[scorers[0]] >= 10:
        s = scorers[0]
        if s == view.seat:
            out.append(_say("my_moon", n=taken[s]))
        else:
            out.append(_say("their_moon", name=names[s], n=taken[s]))
    return out


def _pass_reasons(view: PlayerView, passing: int) -> list[str]:
    out: list[str] = []
    hand = view.hand
    spades = hand & SUIT_MASKS[SPADES]
    low = (spades & ((1 << QUEEN_SPADES) - 1)).bit_count()
    high = spades & ~((1 << QUEEN_SPADES) - 1)
    if passing & high and low < 4:
        out.append(_say("few_low", low=low, cards=_labels(passing & high)))
    elif hand & QS_BIT and not passing & QS_BIT and low >= 4:
        out.append(_say("cover", low=low))
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if mine and not mine & ~passing:
            out.append(_say("void_pass", suit=_suit(suit)))
    high_hearts = passing & SUIT_MASKS[HEARTS] & ~((1 << (HEARTS * 13 + 8)) - 1)
    if high_hearts:
        out.append(_say("high_hearts", cards=_labels(high_hearts)))
    return out
