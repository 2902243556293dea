"""What Khó believed about the hidden cards at a decision: for each other seat,
the share of the deals its search imagined in which that seat held each of the
cards that matter most (Q♠, A♠, K♠ and the hearts from J up).

The deals are exactly those of its search (:meth:`HardBot.weigh_play`,
:meth:`HardBot.weigh_pass`): the same sampler built from the same view, the same
seed, deal number ``0, 1, …`` of the same random stream, as many as its search
plays at its whole budget (a search that stops early, its leader clear, played
the first of them only).  Everything comes from the :class:`PlayerView`: a
belief cannot tell where the hidden cards really are (tests/bots/test_belief.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.bots.hard import kernel, reference
from hearts.bots.hard.bot import HardBot, pass_candidates, play_sampler
from hearts.bots.hard.options import Options
from hearts.bots.hard.sampling import DealSampler, DealTables, deal_tables
from hearts.bots.hard.search import halving_batches
from hearts.bots.hard.splitmix import world_state
from hearts.bots.medium import pass_cards as medium_pass
from hearts.cards import parse_card
from hearts.view import PlayerView

#: The cards a belief is reported for, highest stakes first.
WATCHED = tuple(parse_card(c) for c in ("QS", "AS", "KS", "AH", "KH", "QH", "JH"))


@dataclass(frozen=True, slots=True)
class Belief:
    """``worlds`` deals imagined; ``shares[seat][card]``: in how many of them (a
    share, 0 to 1) ``seat`` held ``card``, for each other seat and each watched
    card the deciding seat could not see."""

    worlds: int
    shares: dict[int, dict[int, float]]


def _worlds(k: int, budget: int) -> int:
    """How many deals successive halving over ``k`` candidates plays at ``budget``
    (the deals are numbered from 0: one more than the last one's number)."""
    last = [0]

    def batch(w0: int, w1: int, alive: list[int]) -> None:
        last[0] = max(last[0], w1)

    halving_batches(k, batch, [0.0] * k, list(range(k)), budget)
    return last[0]


def _search(bot: HardBot, view: PlayerView) -> tuple[DealTables, int] | None:
    """The sampler's tables and the number of deals of Khó's search from ``view``;
    None when it does not search (one legal card, one candidate, Vừa's pass)."""
    o = bot.options
    if view.phase == "pass":
        if o.passing != "search":
            return None
        rules = view.rules
        offset = rules.pass_offset(view.direction)
        base = medium_pass(
            view.hand, rules.pass_count, offset, view.n, True, rules.jd_bonus, rules.deck
        )
        k = len(pass_candidates(view.hand, rules.pass_count, base, jd=rules.jd_bonus))
        models = 2 if "pass-mix" in bot.queen_places(view) else 1
        return deal_tables(DealSampler(view)), _worlds(k, o.pass_iterations // models)
    legal = view.legal
    if legal & (legal - 1) == 0:
        return None
    k = len(bot.play_candidates(view))
    if k == 1:
        return None
    return deal_tables(play_sampler(view, o)), _worlds(k, bot.play_playouts(view))


def belief(view: PlayerView, options: Options | None = None) -> Belief | None:
    """Khó's belief at its decision from ``view`` (None: it chose without
    imagining any deal, having no choice to weigh)."""
    bot = HardBot(options)
    found = _search(bot, view)
    if found is None:
        return None
    tables, worlds = found
    seed = view.seed(bot.options.seed)
    hidden = [c for c in WATCHED if view.unseen() >> c & 1]
    others = [s for s in range(view.n) if s != view.seat]
    counts = {s: dict.fromkeys(hidden, 0) for s in others}
    compiled = bot.options.engine == "compiled"
    for w in range(worlds):
        if compiled:
            hands = kernel.draw_deal(tables, seed, w)
        else:
            hands = reference.draw(tables, world_state(seed, w))[0]
        for s in others:
            held = hands[s]
            for c in hidden:
                if held >> c & 1:
                    counts[s][c] += 1
    shares = {s: {c: k / worlds for c, k in row.items()} for s, row in counts.items()}
    return Belief(worlds, shares)
