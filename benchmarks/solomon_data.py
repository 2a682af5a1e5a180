"""Does the stand-in data of King Solomon's Treasury give a playable game?

Plays seeded games through the core protocol only (``obelisk.load``, legal
actions and labels, ``apply_action``, ``resample_from_infostate``,
``evaluate``, ``observation``, ``scores``) and prints per player count:

- dig-ready turns: the share of turns where a dig is legal before any tile move;
- digs made, mean moves per turn;
- cannot pay: the share of turns that end with the player unable to pay;
- mean final score per player, and the mean winning score.

Two policies: ``random`` (uniform over legal actions) and ``greedy`` (cards
chosen at random; in a turn each action is scored by ``evaluate()`` on a
determinization of the seat's information, and a move or magic item by the
best dig or "end" that can follow it; 12 sampled moves per decision).

    .venv/bin/python benchmarks/solomon_data.py --games 40 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics

import obelisk
from obelisk.core import State


MOVE_SAMPLE = 12
"""Tile moves the greedy policy looks at per decision (a random sample keeps it fast)."""


def _resolve(state: State, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))


def _after(state: State, action: int, rng: random.Random) -> State:
    child = state.clone()
    child.apply_action(action)
    _resolve(child, rng)
    return child


def _greedy(state: State, seat: int, rng: random.Random) -> int:
    legal = state.legal_actions()
    labels = [state.action_to_string(a) for a in legal]
    if labels[0].startswith("choose"):
        return rng.choice(legal)
    if len(legal) == 1:
        return legal[0]
    world = state.resample_from_infostate(seat, rng)
    best, best_value = legal[0], -2.0
    candidates = list(zip(legal, labels))
    moves = [c for c in candidates if c[1].startswith("move")]
    if len(moves) > MOVE_SAMPLE:
        keep = set(rng.sample(range(len(moves)), MOVE_SAMPLE))
        dropped = {moves[i][0] for i in range(len(moves)) if i not in keep}
        candidates = [c for c in candidates if c[0] not in dropped]
    for action, label in candidates:
        child = _after(world, action, rng)
        value = child.evaluate()[seat]
        if (label.startswith("move") or label.startswith("use")) and child.current_player() == seat:
            follow = [a for a in child.legal_actions() if not child.action_to_string(a).startswith(("move", "use"))]
            value = max([_after(child, a, rng).evaluate()[seat] for a in follow] + [value])
        if value > best_value + 1e-12:
            best, best_value = action, value
    return best


def play_game(players: int, seed: int, policy: str, data: str = "") -> dict:
    game = obelisk.load("solomon", players, data=data)
    state = game.new_initial_state(seed)
    rng = random.Random(f"solomon-data:{seed}:{policy}")
    turns = ready = digs = moves = 0
    turn_key = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        view = state.observation(None)
        turn = view["turn"]
        if turn is not None and view["phase"] == "turn":
            key = (view["round"], turn["seat"])
            if key != turn_key:
                turn_key = key
                turns += 1
                ready += any(state.action_to_string(a).startswith("dig") for a in state.legal_actions())
        action = rng.choice(state.legal_actions()) if policy == "random" else _greedy(state, seat, rng)
        label = state.action_to_string(action)
        moves += label.startswith("move")
        state.apply_action(action)
        if label.startswith("dig card"):
            digs += 1
        elif label.startswith("Seal: dig"):
            after = state.observation(None)["turn"]
            digs += after is None or not after["seal_squares"]  # the Seal area is complete: dug
    final = state.observation(None)
    scores = [s["total"] for s in state.scores()]
    return {
        "turns": turns,
        "ready": ready,
        "digs": digs,
        "moves": moves,
        "penalties": len(final["penalties"]),
        "scores": scores,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count and policy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--policies", nargs="*", default=["random", "greedy"])
    parser.add_argument("--data", default="", help="a data file with real tiles and cards (default: stand-ins)")
    args = parser.parse_args()
    print("policy  players games  dig-ready  digs/turn  moves/turn  cannot-pay  mean-score  winner-score")
    for policy in args.policies:
        for players in args.players:
            results = [play_game(players, args.seed + g, policy, args.data) for g in range(args.games)]
            turns = sum(r["turns"] for r in results)
            print(
                f"{policy:7} {players:7} {args.games:5}"
                f"  {sum(r['ready'] for r in results) / turns:9.1%}"
                f"  {sum(r['digs'] for r in results) / turns:9.2f}"
                f"  {sum(r['moves'] for r in results) / turns:10.2f}"
                f"  {sum(r['penalties'] for r in results) / turns:10.1%}"
                f"  {statistics.mean(s for r in results for s in r['scores']):10.1f}"
                f"  {statistics.mean(max(r['scores']) for r in results):12.1f}"
            )


if __name__ == "__main__":
    main()
