"""The secret cards of the Courtesans and the Vizier: a check run by the conformance suite.

Rulebook, translations of the character cards: Courtesans, *"Vybranou kartu
svým protihráčům nemusíte ukazovat"* (you need not show the card you chose to
your opponents); Vizier, *"Získané karty nemusíte ukazovat svým soupeřům"*
(you need not show the cards you obtained to your opponents).
"""

from __future__ import annotations

import json
import random

from obelisk.core import CHANCE, Game, State
from obelisk.core.testing import _diff
from obelisk.games.cleopatra.rules import CHARACTER_PLAYS, NUM_KINDS, Q_PENDING


def _seen(state: State, seat: int | None) -> str:
    return json.dumps(state.observation(seat), sort_keys=True)


def _child(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


def _alike_for_others(state: State, actions: list[int], owner: int, what: str) -> None:
    """Every seat but ``owner`` (and the spectator) sees and is told the same whichever action is taken."""
    children = [_child(state, a) for a in actions]
    for seat in [None, *range(state.num_players)]:
        if seat == owner:
            continue
        views = [child.observation(seat) for child in children]
        texts = {state.public_action_string(a, seat) for a in actions}
        for view in views[1:]:
            assert view == views[0], (
                f"{what}: seat {seat}'s view shows which card seat {owner} got: {_diff(views[0], view)}")
        assert len(texts) == 1, f"{what}: seat {seat} is told {sorted(texts)}"
        for child in children:
            for _ in range(2):
                other = child.resample_from_infostate(seat) if seat is not None else None
                if other is not None:
                    assert _seen(other, seat) == _seen(child, seat), f"{what}: a re-deal changes seat {seat}'s view"


def _twin_with_drawn(state: State, kind: int) -> State | None:
    """``state`` with the Vizier card about to be kept or discarded swapped for a ``kind`` from the deck."""
    twin = state.clone()
    old, up = twin.pending[0]
    if kind == old or not twin.deck[kind]:
        return None
    twin.deck[kind] -= 1
    twin.deck[old] += 1
    twin.pending[0] = (kind, up)
    twin._legal = None
    return twin


def check_character_cards_private(game: Game, games: int, seed: int = 0) -> int:
    """Play seeded games that favour the Courtesans and the Vizier; at every card they bring, check the others.

    Returns the number of secret cards checked, so a caller can demand that
    the games did reach them.
    """
    base = game.actions
    plays = {base.encode("play", CHARACTER_PLAYS.index(name)) for name in ("courtesans", "vizier")}
    keep = base.encode("keep", 0)
    checked = 0
    for g in range(games):
        rng = random.Random(f"private:{seed}:{g}")
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            owner = state.turn
            if state.is_chance_node():
                if state.queue[0][0] == Q_PENDING and state.phase == "vizier":
                    for face in (0, 1):
                        drawn = [a for a in state.legal_actions() if a // NUM_KINDS == face]
                        if len(drawn) > 1:
                            _alike_for_others(state, drawn, owner, "a Vizier draw")
                            checked += 1
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if state.phase == "courtesans" and len(legal) > 1:
                _alike_for_others(state, legal, owner, "a Courtesans take")
                checked += 1
            if state.phase == "vizier":
                for kind in range(NUM_KINDS):
                    twin = _twin_with_drawn(state, kind)
                    if twin is not None:
                        for seat in [None, *range(state.num_players)]:
                            if seat != owner:
                                assert _seen(_child(twin, keep), seat) == _seen(_child(state, keep), seat), (
                                    f"seat {seat} sees which card seat {owner} keeps with the Vizier")
                                assert twin.public_action_string(keep, seat) == state.public_action_string(keep, seat)
                        checked += 1
                        break
            favoured = [a for a in legal if a in plays]
            action = favoured[0] if favoured and rng.random() < 0.5 else rng.choice(legal)
            state.apply_action(action)
        assert state.current_player() != CHANCE
    return checked


def check_others_alike_in_lockstep(twins: list[State], owner: int, script: list[str | int]) -> int:
    """Play ``twins`` side by side; every seat but ``owner`` (and the spectator) must see and be told the same.

    The twins differ only in what ``owner`` keeps hidden. ``script`` drives
    them: a label prefix picks the same action in every twin (when one twin
    has just one legal action, it must be that one), an int is a chance
    outcome. Before and after every step the others' observations (log,
    move number and seat to act included) must be equal, and so must what they
    are told of the step. Returns the number of steps played.
    """
    steps = 0
    for entry in script:
        _others_see_the_same(twins, owner)
        if isinstance(entry, int):
            picked = [entry] * len(twins)
        else:
            picked = []
            for twin in twins:
                assert twin.current_player() == owner, f"{entry!r}: seat {twin.current_player()} acts, not {owner}"
                hits = [a for a in twin.legal_actions() if twin.action_to_string(a).startswith(entry)]
                assert len(hits) == 1, f"{entry!r} among {[twin.action_to_string(a) for a in twin.legal_actions()]}"
                picked.append(hits[0])
        for seat in [None, *range(twins[0].num_players)]:
            if seat != owner:
                told = {twin.public_action_string(a, seat) for twin, a in zip(twins, picked)}
                assert len(told) == 1, f"step {steps}: seat {seat} is told {sorted(told)}"
        for twin, a in zip(twins, picked):
            twin.apply_action(a)
        steps += 1
    _others_see_the_same(twins, owner)
    return steps


def _others_see_the_same(twins: list[State], owner: int) -> None:
    for seat in [None, *range(twins[0].num_players)]:
        if seat != owner:
            views = [twin.observation(seat) for twin in twins]
            for view in views[1:]:
                assert view == views[0], f"seat {seat} tells the twins apart: {_diff(views[0], view)}"
