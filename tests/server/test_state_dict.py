"""The State is built as plain dicts (game.py: a room builds one per seat after every
action); they must be exactly what its schema gives: every field, no other, the same
values, at every step of whole matches of 3 to 7 seats, in both languages."""

from __future__ import annotations

import json

import pytest
from pydantic_core import to_json

from hearts.fairness import HandSeeds, derived_seed
from hearts.rules import SHOOTER_CHOOSES, Rules
from hearts.server.i18n.lang import using
from hearts.server.table.computers import decide
from hearts.server.table.game import Game, Job
from hearts.server.web.schema import State


def states_of_a_match(players: int) -> list[dict]:
    rules = Rules(players=players, target=40, moon=SHOOTER_CHOOSES, jd_bonus=players == 4)
    game = Game.new(rules, 1, HandSeeds(derived_seed(5, f"s{players}")))
    out = []
    for step in range(400):
        for language in ("vi", "en"):
            with using(language):
                out.append(game.state(step, "medium", step % 2 == 0, take_back=step % 3 > 0))
        if game.over:
            return out
        hand = game.hand
        if hand.phase == "pass":
            job = Job(
                "pass", tuple(game.match.view(s) for s in range(hand.n) if not hand.passes[s])
            )
        elif hand.phase == "play":
            job = Job("play", (game.match.view(hand.turn),))
        elif game.moon_pending:
            game.match.finish_hand()
            continue
        else:
            game.next_hand(HandSeeds(derived_seed(5, f"{players}:{game.hand_no}")))
            continue
        game.apply_computer(job, decide("easy", job))
    return out


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_state_is_its_schema_s_dict_at_every_step(players: int) -> None:
    states = states_of_a_match(players)
    assert any(s["match"]["over"] for s in states)
    assert any(s["hand"]["illegal_reasons"] for s in states)
    for state in states:
        assert State.model_validate(state).model_dump() == state
        assert json.loads(to_json(state)) == json.loads(json.dumps(state))
