"""Bots in every registered game: legal moves, reproducibility, no peeking, strength."""

from __future__ import annotations

import math
import random

import pytest

import obelisk
from obelisk.bots import ismcts, make_bot
from obelisk.bots.ismcts import ISMCTSBot
from obelisk.core import State
from obelisk.core.testing import random_playout

CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in obelisk.list_games()
    for n in range(info.min_players, info.max_players + 1)
]
# The fewest and the most players of each game: enough to exercise 2-seat and many-seat code paths.
EDGE_CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in obelisk.list_games()
    for n in sorted({info.min_players, info.max_players})
]
REAL_GAMES = [pytest.param(info.id, id=info.id) for info in obelisk.list_games() if info.id != "highcard"]
# Small budgets and truncated rollouts keep the suite fast; the search code paths are the same.
SPECS = ["ismcts:6,rollout=random,depth=3", "greedy:samples=1", "cheater:6", "random", "ismcts:6"]


def play(game: obelisk.Game, specs: list[str], seed: int, decisions: int | None = None) -> State:
    """A game between bots (stopped after ``decisions`` if given), every choice checked against the legal actions."""
    bots = [make_bot(spec, game, seat, seed) for seat, spec in enumerate(specs)]
    state = game.new_initial_state(seed)
    made = 0
    while not state.is_terminal() and (decisions is None or made < decisions):
        actor = state.current_player()
        if actor < 0:
            state.apply_action(state.sample_chance())
            continue
        legal = state.legal_actions()
        action = bots[actor].choose(state)
        assert action in legal, f"{specs[actor]} chose {action}, legal: {legal}"
        state.apply_action(action)
        made += 1
        assert state.move_number() <= game.max_game_length()
    return state


@pytest.mark.parametrize("game_id,players", CASES)
def test_bots_make_only_legal_moves(game_id: str, players: int) -> None:
    """One full game per player count, every bot kind seated (rotating with the count)."""
    game = obelisk.load(game_id, players)
    specs = [SPECS[(players + seat) % len(SPECS)] for seat in range(players)]
    final = play(game, specs, seed=players)
    assert final.is_terminal()


def decision_states(game: obelisk.Game, games: int, seed: int, per_game: int = 2) -> list[State]:
    """States where a seat is to act with a real choice, spread over random games."""
    found: list[State] = []
    for g in range(games):
        final = random_playout(game, seed + g)
        history = final.history()
        rng = random.Random(f"cut:{seed + g}")
        picked = 0
        for cut in sorted(rng.randrange(len(history)) for _ in range(per_game * 4)):
            state = game.replay(seed + g, history[:cut])
            if state.current_player() >= 0 and len(state.legal_actions()) > 1 and picked < per_game:
                found.append(state)
                picked += 1
    return found


def pinned(state: State, base: State) -> State:
    """A copy of ``state`` whose determinizations are drawn from ``base``'s information set.

    Giving a bot the true state and a re-dealt one, both pinned to the same
    base, isolates the bot: any difference in its choice means it read the
    state some other way than through ``resample_from_infostate``.
    """
    copy = state.clone()
    copy.resample_from_infostate = base.resample_from_infostate  # type: ignore[method-assign]
    return copy


SEARCH_SPECS = ["greedy", "ismcts:20", "ismcts:20,rollout=random,depth=4,prior=2", "ismcts:4,rollout=greedy,depth=2"]


@pytest.mark.parametrize("spec", SEARCH_SPECS)
@pytest.mark.parametrize("game_id,players", EDGE_CASES)
def test_choice_reads_hidden_information_only_through_resampling(game_id: str, players: int, spec: str) -> None:
    game = obelisk.load(game_id, players)
    rng = random.Random(99)
    for index, state in enumerate(decision_states(game, 2, seed=700)):
        seat = state.current_player()
        redealt = state.resample_from_infostate(seat, rng)
        honest = make_bot(spec, game, seat, seed=index).choose(pinned(state, state))
        assert make_bot(spec, game, seat, seed=index).choose(pinned(redealt, state)) == honest, (
            f"{spec} changed its choice when the hidden information it cannot know was re-dealt "
            f"(move {state.move_number()})"
        )


@pytest.mark.parametrize("spec", ["greedy", "ismcts:20"])
@pytest.mark.parametrize("game_id,players", EDGE_CASES)
def test_choice_is_the_same_on_a_resampled_state(game_id: str, players: int, spec: str) -> None:
    """The bot given ``state.resample_from_infostate(seat, rng)`` instead of the true state: same action.

    This also needs the game's re-deal to depend on the seat's information and
    the generator only, which the conformance suite checks for every game.
    """
    game = obelisk.load(game_id, players)
    rng = random.Random(7)
    for index, state in enumerate(decision_states(game, 2, seed=900)):
        seat = state.current_player()
        redealt = state.resample_from_infostate(seat, rng)
        honest = make_bot(spec, game, seat, seed=index).choose(state)
        assert make_bot(spec, game, seat, seed=index).choose(redealt) == honest


@pytest.mark.parametrize("spec", ["greedy", "ismcts:20", "ismcts:10,rollout=random,depth=4", "cheater:20"])
@pytest.mark.parametrize("game_id", ["highcard"] + [p.values[0] for p in REAL_GAMES])
def test_fixed_seed_is_reproducible(game_id: str, spec: str) -> None:
    game = obelisk.load(game_id)
    specs = [spec] * game.num_players
    first = play(game, specs, seed=5, decisions=30).history()
    assert play(game, specs, seed=5, decisions=30).history() == first


def test_spec_strings() -> None:
    game = obelisk.load("highcard", 2)
    bot = make_bot("ismcts:1s", game, 0)
    assert isinstance(bot, ISMCTSBot) and bot.budget.seconds == 1.0 and bot.budget.iterations is None
    assert make_bot("ismcts:250ms", game, 0).budget.seconds == 0.25
    default = make_bot("ismcts:2000", game, 0)
    assert (default.budget.iterations, default.rollout, default.depth, default.prior) == (2000, "none", 10, 0)
    custom = make_bot("ismcts:500,rollout=greedy,depth=20,c=0.5", game, 1)
    assert (custom.budget.iterations, custom.rollout, custom.depth, custom.c) == (500, "greedy", 20, 0.5)
    assert make_bot("ismcts:time=0.5", game, 0).budget.seconds == 0.5
    assert make_bot("cheater:iterations=30", game, 0).budget.iterations == 30
    assert make_bot("greedy:samples=7", game, 0).samples == 7


@pytest.mark.parametrize(
    "spec,message",
    [
        ("ismcts:abc", "budget must be"),
        ("ismcts:1000000000", "from 1 to 100,000,000"),
        ("ismcts:100000s", "at most a day"),
        ("ismcts:" + "9" * 5000, r"got '9{37}\.\.\.'$"),
        ("ismcts:depth=" + "7" * 5000, r"must be an integer, got '7{37}\.\.\.'$"),
        ("ismcts:1s,2000", "only one budget"),
        ("ismcts:0", "budget must be"),
        ("ismcts:-1s", "positive"),
        ("ismcts:foo=1", "unknown parameter 'foo'"),
        ("ismcts:rollout=smart", "rollout must be one of"),
        ("ismcts:prior=-1", "must not be negative"),
        ("ismcts:depth=x", "'depth' must be an integer"),
        ("ismcts:c=nan", "'c' must be a finite number"),
        ("ismcts:c=inf", "'c' must be a finite number"),
        ("ismcts:c=x", "'c' must be a finite number"),
        ("ismcts:infs", "positive and finite"),
        ("ismcts:time=inf", "must be a finite number"),
        ("cheater:nans", "positive and finite"),
        ("ismcts:100,iterations=5", "one budget"),
        ("greedy:3", "only name=value"),
        ("greedy:samples=0", "at least 1"),
        ("random:1", "takes no argument"),
        ("random:" + "9" * 5000, "takes no argument, got '999"),
        ("greedy:" + "9" * 5000, "only name=value"),
        ("ismcts:" + "9" * 5000, "budget must be iterations"),
        ("minimax", "unknown bot 'minimax'"),
        ("m" * 5000, "unknown bot 'mmm"),
    ],
    ids=lambda value: value[:40],
)
def test_bad_specs_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        make_bot(spec, obelisk.load("highcard", 2), 0)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize("c", [math.nan, math.inf, -0.5])
def test_search_bot_constructor_refuses_a_bad_exploration_constant(c: float) -> None:
    with pytest.raises(ValueError, match="c must be finite and not negative"):
        ISMCTSBot(obelisk.load("highcard", 2), 0, c=c)


@pytest.mark.parametrize("game_id", [p.values[0] for p in REAL_GAMES])
def test_search_bots_take_the_games_defaults(game_id: str) -> None:
    """``Game.search_defaults`` replaces the bots' defaults, through a spec or the constructor; a spec overrides it."""
    game = obelisk.load(game_id)
    expected = {**ismcts.DEFAULTS, **game.search_defaults}
    for spec in ("ismcts:10", "cheater:10"):
        bot = make_bot(spec, game, 0)
        assert {"c": bot.c, "rollout": bot.rollout, "depth": bot.depth, "prior": bot.prior} == {
            name: expected[name] for name in ("c", "rollout", "depth", "prior")
        }
    direct = ISMCTSBot(game, 0)
    assert (direct.rollout, direct.depth) == (expected["rollout"], expected["depth"])
    custom = make_bot("ismcts:10,rollout=random,depth=3", game, 0)
    assert (custom.rollout, custom.depth) == ("random", 3)
    assert ISMCTSBot(game, 0, rollout="none").rollout == "none"


def test_solomon_searches_with_one_greedy_rollout_decision() -> None:
    game = obelisk.load("solomon", 2)
    assert dict(game.search_defaults) == {"rollout": "greedy", "depth": 1}
    bot = make_bot("ismcts:10", game, 0)
    assert (bot.rollout, bot.depth, bot.c, bot.prior) == ("greedy", 1, 1.0, 0)


@pytest.mark.parametrize(
    "defaults,message",
    [
        ({"foo": 1}, "game 'valley': search_defaults: unknown search parameter 'foo'"),
        ({"iterations": 100}, "unknown search parameter 'iterations'"),
        ({"depth": "1"}, "'depth' must be of type int, got '1'"),
        ({"c": 1}, "'c' must be of type float, got 1"),
        ({"rollout": "smart"}, "rollout must be one of"),
    ],
)
def test_bad_search_defaults_of_a_game_are_refused(defaults: dict[str, object], message: str) -> None:
    valley = type(obelisk.load("valley", 2))
    odd = type("OddValley", (valley,), {"search_defaults": defaults})(2)
    with pytest.raises(ValueError, match=message):
        make_bot("ismcts:10", odd, 0)
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(odd, 0)


def test_time_budget_runs_and_counts_iterations() -> None:
    game = obelisk.load("highcard", 2)
    state = game.new_initial_state(3)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    bot = make_bot("ismcts:30ms", game, state.current_player(), seed=1)
    assert bot.choose(state) in state.legal_actions()
    assert bot.last_iterations >= 1


def _first_decision(game: obelisk.Game, hands: list[int]) -> State:
    """High Card with the given cards dealt (value index per seat), seat 0 to act."""
    state = game.new_initial_state(0)
    for card in hands:
        state.apply_action(card)
    return state


@pytest.mark.parametrize(
    "visits,remaining,expected",
    [
        ([], 0, False),
        ([5], 4, True),
        ([5], 5, False),
        ([9, 3, 1], 5, True),
        ([9, 3, 1], 6, False),
        ([3, 9, 4], 4, True),
        ([3, 9, 9], 0, False),
        ([3, 9, 8], 0.5, True),
    ],
)
def test_decided_needs_a_lead_beyond_the_remaining_iterations(
    visits: list[int], remaining: float, expected: bool
) -> None:
    """An unexpanded edge counts 0; a tie for the most visits is never decided."""
    assert ismcts.decided(visits, remaining) is expected


def test_time_budget_ends_early_on_a_decided_choice() -> None:
    """Holding a 1 in High Card, swapping is clear long before the budget ends.

    It stops after half of it at the earliest: the lead grows by at most one visit per iteration.
    """
    game = obelisk.load("highcard", 2)
    state = _first_decision(game, [0, 3])
    bot = make_bot("ismcts:2s", game, 0, seed=4)
    assert state.action_to_string(bot.choose(state)) == "swap"
    assert bot.stopped_decided
    assert bot.last_iterations >= ismcts.DECIDED_CHECK


def test_iteration_budget_runs_in_full_on_a_decided_choice() -> None:
    game = obelisk.load("highcard", 2)
    state = _first_decision(game, [0, 3])
    bot = make_bot("ismcts:600", game, 0, seed=4)
    assert state.action_to_string(bot.choose(state)) == "swap"
    assert bot.last_iterations == 600
    assert not bot.stopped_decided


def test_a_stop_check_ends_the_search_with_the_most_visited_action_so_far() -> None:
    game = obelisk.load("highcard", 2)
    state = _first_decision(game, [0, 3])
    bot = make_bot("ismcts:600", game, 0, seed=4)
    assert isinstance(bot, ISMCTSBot)
    asked: list[int] = []
    bot.stop = lambda: asked.append(1) or len(asked) >= 50
    assert bot.choose(state) in state.legal_actions()
    assert bot.interrupted and bot.last_iterations == 50
    bot.stop = lambda: False
    bot.choose(state)
    assert not bot.interrupted and bot.last_iterations == 600


@pytest.mark.parametrize("spec", ["ismcts:600", "ismcts:600,prior=2,rollout=random,depth=0"])
@pytest.mark.parametrize("card,expected", [(0, "swap"), (1, "swap"), (4, "hold"), (5, "hold")])
def test_ismcts_finds_the_obvious_high_card_move(card: int, expected: str, spec: str) -> None:
    """Swap a 1 or 2, hold a 5 or 6: the search must see it from its own card alone."""
    game = obelisk.load("highcard", 2)
    state = _first_decision(game, [card, 3])
    action = make_bot(spec, game, 0, seed=4).choose(state)
    assert state.action_to_string(action) == expected


@pytest.mark.parametrize("opponent,expected", [(5, "swap"), (0, "hold")])
def test_cheater_reads_the_true_state(opponent: int, expected: str) -> None:
    """Holding a 4, the cheater swaps against a 6 and holds against a 1; an honest bot cannot tell them apart."""
    game = obelisk.load("highcard", 2)
    state = _first_decision(game, [opponent, 3])
    state.apply_action(state.string_to_action("hold"))
    assert state.current_player() == 1
    action = make_bot("cheater:400", game, 1, seed=2).choose(state)
    assert state.action_to_string(action) == expected


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_ismcts_beats_random(game_id: str) -> None:
    """A small fixed-seed match at the fewest players, ISMCTS seat rotating: the search wins clearly."""
    game = obelisk.load(game_id, obelisk.core.game_class(game_id).info.min_players)
    players = game.num_players
    wins = 0.0
    games = 4
    for seed in range(games):
        seat = seed % players
        specs = ["random"] * players
        specs[seat] = "ismcts:16"
        returns = play(game, specs, seed).returns()
        best = max(returns)
        if returns[seat] == best:
            wins += 1.0 / returns.count(best)
    assert wins >= 3, f"ismcts won only {wins} of {games} games against random"
