"""Khó's options: one frozen value holding every option that changes its play,
and the defaults (how each was chosen: docs/kho.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts.bots.hard.reference import MAX_DEALS

#: Playouts per play decision at 40 cards in hands (:func:`playouts_for`): a fixed
#: number, so the same view gives the same card on any machine (docs/kho.md).
DEFAULT_ITERATIONS = 500

#: Turns of each seat that a playout plays by a look ahead (:func:`kernel._look`)
#: instead of the policy: every turn; the others' looks are what pays.
DEFAULT_LOOKAHEAD = 52

#: The play search stops once its leader leads the runner-up by this many
#: standard errors (:func:`clear_lead`): an obvious card does not take the whole budget.
DEFAULT_CLEAR = 3.0

#: How the look ahead in Khó's playouts sees the deal (:func:`reference.hides`):
#: 0, face up (hiding pays against Vừa only, so :data:`DEFAULT_ADAPT` decides).
DEFAULT_HIDE = 0

#: Khó adapts its model of the other seats to how they play
#: (:meth:`HardBot._plays_like_the_policy`): players of habit, as Vừa, are modelled
#: by looks that hide the cards (``adapt_hide``), players who search by face-up looks.
DEFAULT_ADAPT = 0.22
DEFAULT_ADAPT_FROM = 3
DEFAULT_ADAPT_HIDE = 4

#: Sampled deals over which the others' plays are compared with the policy's.
ADAPT_DRAWS = 32

#: Where a seat alone with Q♠ runs for the moon in Khó's playouts
#: (:data:`hearts.bots.hard.reference.QUEEN_RUNS`): ``never`` by itself; the match's memory
#: opens it against players of habit (:data:`DEFAULT_REMEMBER`).
DEFAULT_QUEEN_RUNS = "never"
QUEEN_RUNS_PLACES = ("never", "habit", "play", "pass", "pass-mix", "adapt", "everywhere")

#: Khó's memory of the match (``remember``): the places of the queen rule opened for
#: a hand when the match's earlier hands show players of habit
#: (:func:`hearts.bots.hard.memory.unlike_share`).
DEFAULT_REMEMBER = "everywhere"
DEFAULT_REMEMBER_SHARE = 0.12
DEFAULT_REMEMBER_FROM = 20

#: Playouts per pass decision when the pass is searched (more did not pay).
DEFAULT_PASS_ITERATIONS = 1500

#: The ``hide`` of the play search's looks while one other seat alone has taken
#: points (its moon open) and the others are not judged players of habit: Khó then
#: spends its own point to stop the runner sooner.  None: ``hide`` throughout.
DEFAULT_BLOCK_HIDE: int | None = 4

#: ``suspect``: an other seat that won each of the last two tricks while no other
#: seat took a point is chased in the play search's playouts before it has points
#: (fewer moons conceded to a shooter that runs from its first trick, the same play
#: against searching players: docs/kho.md).
DEFAULT_SUSPECT: int | None = 2


def parse_places(text: str, option: str) -> frozenset[str]:
    """The places of the queen rule ``text`` names (:data:`QUEEN_RUNS_PLACES` joined
    with ``+``; ``everywhere`` adds ``play``, ``pass`` and ``adapt``), or ValueError
    naming ``option``."""
    places = set(text.split("+"))
    if not places <= set(QUEEN_RUNS_PLACES):
        raise ValueError(
            f"{option} must join some of {', '.join(QUEEN_RUNS_PLACES)} with +, not {text!r}"
        )
    if "everywhere" in places:
        places |= {"play", "pass", "adapt"}
    return frozenset(places)


def _checked_hide(hide: int) -> int:
    """``hide`` as an int, or ValueError when the kernel has no such look."""
    value = int(hide)
    if value < 0 or value % 10 > 4 or value // 10 >= MAX_DEALS:
        # The compiled look keeps room for MAX_DEALS deals and no more.
        raise ValueError(
            f"unknown hide {hide!r}: 0 to 4, plus ten a deal more (at most {MAX_DEALS} deals)"
        )
    return value


_INTS = ("iterations", "seed", "pass_iterations", "lookahead", "lookahead_others",
         "adapt_from", "remember_from")  # fmt: skip
_FLOATS = ("infer", "shoot", "mismatch", "clear", "adapt", "remember_share")


@dataclass(frozen=True, slots=True)
class Options:
    """Khó's options (only those that change its play; every default is Khó's).

    ``iterations``: playouts per play at 40 cards (deterministic; the default
    keeps a decision well under a second), or ``budget_ms``: wall-clock per play
    (machine-dependent); ``pass_iterations``: playouts for the pass;
    ``passing``: ``search``, or ``medium`` (Vừa's pass); ``infer``: the weight of
    deals that put Q♠ where the play says it is not (0 or 1: no inference);
    ``spread``: more playouts when they are short; ``seed``: salt; ``engine``:
    ``compiled`` (the numba kernel) or ``reference`` (its pure-Python twin, the
    same results more slowly); ``shoot``: a bonus on the value of a moon of its
    own (the bench's moon-hungry opponent); ``moon``: moon defence (while a moon
    is live, part of the deals give the runner the high hearts,
    :mod:`hearts.bots.hard.moon`); ``mismatch``: the weight a sampled deal keeps per
    play of another seat that the playout policy would not have made with that
    deal's hands (1.0: every deal the same, :func:`reference.likeness`);
    ``lookahead``: in each playout Khó's next this many turns after the card
    weighed are played by trying each of its cards with a plain playout and
    keeping the best (:func:`kernel._look`; 0: the plain policy),
    ``lookahead_others``: the same for the other seats; ``clear``: the play search
    stops once its leader leads the runner-up by this many standard errors
    (:func:`clear_lead`; 0: the whole budget); ``hide``: a look ahead plays its
    cards out where the others' cards of each suit are dealt again among them
    (:func:`reference.hide`: 1, every seat's look; 2, the other seats' only; 3,
    Khó's own only; 4, the other seats' looks with the others' cards mixed across
    suits too, the voids shown kept, :func:`reference.mix`; 0, face up; plus ten
    for each more such deal); ``adapt``: once the other seats have made
    ``adapt_from`` plays, a play searches with ``hide`` = ``adapt_hide`` when fewer
    than this share of their plays are unlike the playout policy's
    (:func:`reference.unlike`: players of habit; 0: never); ``queen_runs``: where,
    in the playouts, a seat alone with Q♠ runs for the moon unchased (``play``,
    ``pass``, ``pass-mix``, ``adapt``, ``habit`` joined with ``+``, ``everywhere``
    or ``never``); ``remember``: those places opened for a hand when the match's
    earlier hands (:attr:`PlayerView.earlier`) show the others playing like the
    playout policy: fewer than ``remember_share`` of their plays unlike it, over
    at least ``remember_from`` (:func:`hearts.bots.hard.memory.unlike_share`);
    ``block_hide``: the ``hide`` of a play while one other seat alone has taken
    points and the others are not judged players of habit (None: ``hide``);
    ``suspect``: in the play search's playouts, an other seat that won each of the
    last this many tricks while no other seat took a point runs for the moon and is
    chased before it has points (:func:`hearts.bots.hard.moon.suspect`; None: off).
    """

    iterations: int = DEFAULT_ITERATIONS
    budget_ms: float | None = None
    seed: int = 0
    passing: str = "search"
    pass_iterations: int = DEFAULT_PASS_ITERATIONS
    infer: float = 0.1
    spread: bool = True
    engine: str = "compiled"
    shoot: float = 0.0
    moon: bool = True
    mismatch: float = 1.0
    lookahead: int = DEFAULT_LOOKAHEAD
    lookahead_others: int = DEFAULT_LOOKAHEAD
    clear: float = DEFAULT_CLEAR
    hide: int = DEFAULT_HIDE
    adapt: float = DEFAULT_ADAPT
    adapt_hide: int = DEFAULT_ADAPT_HIDE
    adapt_from: int = DEFAULT_ADAPT_FROM
    queen_runs: str = DEFAULT_QUEEN_RUNS
    remember: str = DEFAULT_REMEMBER
    remember_share: float = DEFAULT_REMEMBER_SHARE
    remember_from: int = DEFAULT_REMEMBER_FROM
    block_hide: int | None = DEFAULT_BLOCK_HIDE
    suspect: int | None = DEFAULT_SUSPECT

    def __post_init__(self) -> None:
        if self.engine not in ("compiled", "reference"):
            raise ValueError(f"unknown engine {self.engine!r}")
        # Numbers as the kernels take them, whatever a command line gave.
        for name in _INTS:
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in _FLOATS:
            object.__setattr__(self, name, float(getattr(self, name)))
        object.__setattr__(self, "hide", _checked_hide(self.hide))
        object.__setattr__(self, "adapt_hide", _checked_hide(self.adapt_hide))
        if self.block_hide is not None:
            object.__setattr__(self, "block_hide", _checked_hide(self.block_hide))
        if self.suspect is not None:
            object.__setattr__(self, "suspect", int(self.suspect))
        if self.budget_ms is not None:
            object.__setattr__(self, "budget_ms", float(self.budget_ms))
        parse_places(self.queen_runs, "queen_runs")
        if self.remember:
            parse_places(self.remember, "remember")

    @classmethod
    def of(
        cls, iterations: int | None = None, pass_iterations: int | None = None, **options: Any
    ) -> Options:
        """The options from keywords; without ``pass_iterations``, a smaller play
        budget means a smaller pass budget too (never more than its default: more
        was not shown to pay)."""
        if pass_iterations is None:
            pass_iterations = (
                DEFAULT_PASS_ITERATIONS
                if iterations is None
                else max(1, min(DEFAULT_PASS_ITERATIONS, int(iterations) // 2))
            )
        return cls(
            iterations=DEFAULT_ITERATIONS if iterations is None else int(iterations),
            pass_iterations=int(pass_iterations),
            **options,
        )
