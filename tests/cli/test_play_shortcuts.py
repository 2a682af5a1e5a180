"""Shortcuts at the move prompt: Valley's payment with the cheapest cards in one answer, taken back as one."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

import obelisk
from obelisk.core.shortcuts import offered as shortcuts
from obelisk.games.cleopatra.status import payment as cleopatra_payment
from obelisk.games.valley.status import payment as valley_payment
from obelisk.core import State
from tests.cli.test_terminal import keyboard, run

SEED = 0


def before_a_payment(undoable: bool) -> tuple[State, list[str]]:
    """A two-seat Valley game (every seat at the keyboard) at a payment of several cards, and the answers
    (listed numbers) that lead there; ``undoable``: a payment that shows nothing hidden, so undo may take it back."""
    state = obelisk.load("valley", 2).new_initial_state(SEED)
    rng = random.Random(SEED)
    answers = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        seat = state.current_player()
        offered = shortcuts(state, seat)
        if offered and len(offered[0].actions) > 1:
            after = state.clone()
            for action in offered[0].actions:
                after.apply_action(action)
            if (after.undo_points(seat) >= len(offered[0].actions)) == undoable:
                return state, answers
        legal = state.legal_actions()
        action = rng.choice(legal)
        answers.append(str(legal.index(action) + 1))
        state.apply_action(action)
    raise AssertionError("no payment of several cards in the game")


def test_the_cheapest_payment_is_the_cheapest_that_covers_the_price() -> None:
    state, _ = before_a_payment(undoable=True)
    seat = state.current_player()
    shortcut = valley_payment(state, seat)
    assert shortcut is not None
    view = state.observation(seat)
    table = state.game.table  # type: ignore[attr-defined]
    kind_of = {name: kind for kind, name in enumerate(table.names)}
    hand = [kind_of[name] for name in view["players"][seat]["hand"]]
    due = view["pending"]["gold_due"]
    paid = [state.game.actions.decode(action)[1] for action in shortcut.actions]  # type: ignore[attr-defined]
    remaining = list(hand)
    for kind in paid:
        remaining.remove(kind)  # only cards of the hand, each at most once
    price = sum(table.cost[kind] for kind in paid)
    gold = sum(table.gold[kind] for kind in paid)
    assert gold >= due and all(gold - table.gold[kind] < due for kind in paid)
    for size in range(1, len(hand) + 1):  # no other choice covering the price is cheaper
        for other in {tuple(sorted(c)) for c in itertools.combinations(hand, size)}:
            if sum(table.gold[kind] for kind in other) >= due:
                assert sum(table.cost[kind] for kind in other) >= price
    assert shortcut.text.startswith(f"the {due} gold at once with the cheapest cards — ")


def test_only_a_payment_offers_it() -> None:
    state = obelisk.load("valley", 2).new_initial_state(SEED)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    assert shortcuts(state, state.current_player()) == []
    assert shortcuts(obelisk.load("tomb", 2).new_initial_state(1), 0) == []


def test_pay_at_the_prompt_plays_the_payment_and_undo_takes_it_back_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state, answers = before_a_payment(undoable=True)
    seat = state.current_player()
    (shortcut,) = shortcuts(state, seat)
    path = tmp_path / "g.json"
    keyboard(monkeypatch, [*answers, "pay", "undo", "PAY"], lambda: "q")
    code, out, err = run(capsys, "play", "valley", "--seats", "you,you", "--seed", str(SEED), "--no-auto",
                         "--save", str(path))
    assert code == 0 and not err
    offer = " ".join(f"pay: {shortcut.text}".split())
    before_undo, after_undo = out.split("took back 1 move")
    assert offer in " ".join(before_undo.split()) and offer in " ".join(after_undo.split())
    actions = [entry["id"] for entry in json.loads(path.read_text())["actions"]]
    before = state.history()
    assert actions[:len(before)] == before
    assert actions[len(before):len(before) + len(shortcut.actions)] == list(shortcut.actions)


def test_the_cards_may_still_be_picked_one_by_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state, answers = before_a_payment(undoable=True)
    (shortcut,) = shortcuts(state, state.current_player())
    first = state.legal_actions().index(shortcut.actions[0]) + 1
    path = tmp_path / "g.json"
    keyboard(monkeypatch, [*answers, str(first), "undo"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--seats", "you,you", "--seed", str(SEED), "--no-auto",
                       "--save", str(path))
    assert code == 0 and "took back 1 move" in out
    actions = [entry["id"] for entry in json.loads(path.read_text())["actions"]]
    assert actions == state.history()  # one card paid, one card taken back


def test_a_payment_that_shows_a_hidden_card_cannot_be_taken_back(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state, answers = before_a_payment(undoable=False)
    (shortcut,) = shortcuts(state, state.current_player())
    path = tmp_path / "g.json"
    keyboard(monkeypatch, [*answers, "pay", "undo"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--seats", "you,you", "--seed", str(SEED), "--no-auto",
                       "--save", str(path))
    assert code == 0 and "nothing to undo: " in out
    actions = [entry["id"] for entry in json.loads(path.read_text())["actions"]]
    assert actions[len(state.history()):len(state.history()) + len(shortcut.actions)] == list(shortcut.actions)


def kind_of(state: State, action: int) -> str:
    """The name of the action's range in the game's action space (``pay``, ``wall`` …)."""
    return state.game.actions.decode(action)[0]  # type: ignore[attr-defined, no-any-return]


def cleopatra_payments(wanted: int) -> list[tuple[State, list[str]]]:
    """Positions of three-seat Cleopatra games (every seat at the keyboard) at a payment with more than one
    way to pay the next unit, each with the answers that lead there."""
    found = []
    for seed in range(40):
        state = obelisk.load("cleopatra", 3).new_initial_state(seed)
        rng = random.Random(seed)
        answers: list[str] = []
        while not state.is_terminal() and len(found) < wanted:
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            legal = state.legal_actions()
            paying = [a for a in legal if kind_of(state, a) == "pay"]
            if len(paying) > 1:
                found.append((state.clone(), list(answers)))
            building = [a for a in legal if kind_of(state, a) in ("wall", "sphinx", "obelisk")]
            action = rng.choice(building) if building and rng.random() < 0.8 else rng.choice(legal)
            answers.append(str(legal.index(action) + 1))
            state.apply_action(action)
        if len(found) == wanted:
            return found
    raise AssertionError("too few payments with a choice")


def test_a_cleopatra_building_is_paid_with_plain_cards_only_when_they_pay_it_all() -> None:
    offered = refused = 0
    for state, _ in cleopatra_payments(12):
        seat = state.current_player()
        shortcut = cleopatra_payment(state, seat)
        trial = state.clone()
        plain_to_the_end = True
        while trial.current_player() == seat:
            paying = [a for a in trial.legal_actions() if kind_of(trial, a) == "pay"]
            if not paying:
                break
            plain = [a for a in paying if trial.game.actions.decode(a)[1] % 4 == 0]  # type: ignore[attr-defined]
            if not plain:
                plain_to_the_end = False
                break
            trial.apply_action(plain[0])
        if shortcut is None:
            refused += 1
            assert not plain_to_the_end or trial.move_number() - state.move_number() < 2
            continue
        offered += 1
        assert plain_to_the_end and trial.history() == state.history() + list(shortcut.actions)
        assert all(state.action_to_string(a).split(" with ")[1] in shortcut.text for a in shortcut.actions[:1])
    assert offered and refused


def test_pay_at_a_cleopatra_building_prompt(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for state, answers in cleopatra_payments(8):
        offered = shortcuts(state, state.current_player())
        if offered:
            break
    (shortcut,) = offered
    path = tmp_path / "g.json"
    keyboard(monkeypatch, [*answers, "pay"], lambda: "q")
    code, out, _ = run(capsys, "play", "cleopatra", "-p", "3", "--seats", "you", "--seed", str(state.seed), "--no-auto",
                       "--save", str(path))
    assert code == 0 and " ".join(f"pay: {shortcut.text}".split()) in " ".join(out.split())
    actions = [entry["id"] for entry in json.loads(path.read_text())["actions"]]
    assert actions == state.history() + list(shortcut.actions)
