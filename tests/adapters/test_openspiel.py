"""The OpenSpiel adapter: registration, OpenSpiel's own conformance test, observers, determinization, bots."""

from __future__ import annotations

import json
import os
import pickle
import random
import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import obelisk  # noqa: E402
from obelisk.adapters import openspiel  # noqa: E402
from obelisk.core import GameInfo, Option, registry  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from tests.adapters.common import CASES, GAME_CASES, TWO_PLAYER_CASES  # noqa: E402
from tests.core.toy import HighCardGame  # noqa: E402

SIMS = int(os.environ.get("OBELISK_ADAPTER_SIMS", "1"))
"""Games per random_sim_test; long games make each one cost seconds through pyspiel."""
SIM_OPTIONS = {"tomb": {"max_rounds": 30}}
"""Options that keep a random game within a few hundred decisions: random archaeologists wander the Tomb for
300 rounds (3,700 actions at 5 players, a minute or more of pyspiel's checks); the round cap then ends it, an
end pyspiel's checks must pass too. The engine's own conformance tests play the full-length games."""


def _random_states(game: pyspiel.Game, seed: int, games: int = 1, checkpoints: int = 25):
    """``checkpoints`` states evenly spread along each random playout, then its terminal state.

    The playout is chosen natively (cheap) and replayed through pyspiel; the
    checks on each yielded state are what cost, so long games are sampled.
    """
    rng = random.Random(seed)
    native = game.obelisk
    for index in range(games):
        playout = native.new_initial_state(seed)
        while not playout.is_terminal():
            if playout.is_chance_node():
                playout.apply_action(playout.sample_chance(rng))
            else:
                playout.apply_action(rng.choice(playout.legal_actions()))
        history = playout.history()
        wanted = {round(i * len(history) / checkpoints) for i in range(checkpoints)}
        state = game.new_initial_state()
        for step, action in enumerate(history):
            if step in wanted:
                yield state
            state.apply_action(action)
        yield state


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for info in obelisk.list_games():
        assert f"obelisk_{info.id}" in names


@pytest.mark.parametrize("game_id,players", CASES)
def test_game_type_and_info(game_id: str, players: int) -> None:
    native = obelisk.load(game_id, players)
    game = pyspiel.load_game(f"obelisk_{game_id}", {"players": players})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (native.info.min_players, native.info.max_players)
    assert set(kind.parameter_specification) == {"players", "utility", *(o.name for o in native.info.options)}
    assert kind.parameter_specification["utility"] == "rank"
    assert game.num_players() == players
    assert game.num_distinct_actions() == native.num_distinct_actions()
    assert game.max_chance_outcomes() == native.max_chance_outcomes()
    assert game.max_game_length() == native.max_game_length()
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


@pytest.mark.parametrize("game_id,players", CASES)
def test_random_sim_test(game_id: str, players: int) -> None:
    game = openspiel.load(game_id, players, **SIM_OPTIONS.get(game_id, {}))
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def test_options_are_parameters_and_survive_the_game_string() -> None:
    game = pyspiel.load_game("obelisk_highcard", {"players": 3, "allow_swap": False})
    assert game.obelisk.options["allow_swap"] is False
    assert pyspiel.load_game(str(game)).obelisk.options == game.obelisk.options
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions() == [0]  # hold only


class _LabelledHighCard(HighCardGame):
    """High Card with a free-text option whose default is empty."""

    info = GameInfo(
        id="highcard_labelled",
        name="High Card (labelled)",
        min_players=2,
        max_players=2,
        description="test-only: a string option with an empty default",
        options=HighCardGame.info.options + (Option("label", "", "any text"),),
    )


def test_empty_string_option_is_a_valid_parameter() -> None:
    registry.register(_LabelledHighCard)
    try:
        openspiel.register_games()
        game = pyspiel.load_game("obelisk_highcard_labelled")
        assert game.obelisk.options["label"] == ""
        assert pyspiel.load_game(str(game)).obelisk.options["label"] == ""
        assert pyspiel.load_game("obelisk_highcard_labelled", {"label": "12"}).obelisk.options["label"] == "12"
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    finally:
        registry.unregister(_LabelledHighCard.info.id)


@pytest.mark.parametrize("game_id,players", GAME_CASES)
def test_strings_come_from_the_engine_view_with_perfect_recall(game_id: str, players: int) -> None:
    """Observation strings are the seat's view; information states add a recall that only grows."""
    game = openspiel.load(game_id, players)
    previous: list[list] = [[] for _ in range(players)]
    for state in _random_states(game, seed=11):
        inner = openspiel.obelisk_state(state)
        for seat in range(players):
            view = json.loads(state.observation_string(seat))
            assert view == json.loads(json.dumps(inner.observation(seat)))
            info = json.loads(state.information_state_string(seat))
            assert info["now"] == view
            recall = info["recall"]
            assert recall[: len(previous[seat])] == previous[seat]
            previous[seat] = recall
        assert len(previous[0]) == state.move_number()
        for actor, told in previous[0]:
            assert -1 <= actor < players and isinstance(told, (int, str))


@pytest.mark.parametrize("game_id,players", GAME_CASES)
def test_resampling_keeps_the_information_state(game_id: str, players: int) -> None:
    """OpenSpiel's ResampleInfostate check, through both entry points."""
    game = openspiel.load(game_id, players)
    resampler = openspiel.make_resampler(seed=5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    has_tensor = game.get_type().provides_information_state_tensor
    for state in _random_states(game, seed=13, games=2):
        if state.is_chance_node() or state.is_terminal():
            continue
        player = state.current_player()
        for other in (resampler(state, player), state.resample_from_infostate(player, sampler)):
            assert other.current_player() == player
            assert other.history() == [], "the real game's history (hidden outcomes included) reached a re-deal"
            assert openspiel.obelisk_state(other).move_number() == state.move_number()
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            if has_tensor:
                assert other.information_state_tensor(player) == state.information_state_tensor(player)
            for seat in range(players):
                if seat != player:
                    assert json.loads(other.information_state_string(seat))["recall"] == []
                    if has_tensor:
                        assert not any(other.information_state_tensor(seat)[-game.num_distinct_actions() - 1:-1])


def test_resampled_state_redeals_and_serializes() -> None:
    game = pyspiel.load_game("obelisk_highcard", {"players": 4})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    resampler = openspiel.make_resampler(seed=1)
    deals = {str(resampler(state, 0)) for _ in range(30)}
    assert len(deals) > 1, "the hidden cards of seats 1-3 should be re-dealt"
    other = resampler(state, 0)
    restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, other))[1]
    assert str(restored) == str(other)
    assert restored.information_state_string(0) == other.information_state_string(0)
    assert str(pickle.loads(pickle.dumps(other._box)).inner) == str(other)


def test_toy_tensors() -> None:
    game = pyspiel.load_game("obelisk_highcard", {"players": 2})
    native = game.obelisk
    size = native.observation_tensor_size()
    assert game.observation_tensor_size() == size
    assert game.information_state_tensor_size() == size + native.num_distinct_actions() + 1
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(1)  # seat 0 swaps
    inner = openspiel.obelisk_state(state)
    assert state.observation_tensor(0) == pytest.approx(native.observation_tensor(inner.observation(0)))
    tensor = state.information_state_tensor(0)
    scale = openspiel.length_scale(native)
    assert scale == native.max_game_length()  # a game without a typical length keeps its bound
    assert tensor[size:size + 2] == pytest.approx([0.0, 2.0 / scale])
    assert tensor[-1] == pytest.approx(state.move_number() / scale)
    assert state.information_state_tensor(1)[size:size + 2] == [0.0, 0.0]


def test_spectator_observer_sees_the_public_view() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("obelisk_highcard", {"players": 2})
    observation = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    view = json.loads(observation.string_from(state, 0))
    assert view["seat"] is None and view["hands"] == ["hidden", "hidden"]
    with pytest.raises(ValueError):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def _play_out(game: pyspiel.Game, bot: pyspiel.Bot, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("game_id", TWO_PLAYER_CASES)
def test_python_ismcts_plays_complete_games(game_id: str) -> None:
    """OpenSpiel's Python ISMCTSBot with our determinizer (3 simulations: the first only expands the root)."""
    game = openspiel.load(game_id, 2)
    bot = ismcts.ISMCTSBot(game, openspiel.EngineEvaluator(), uct_c=2.0, max_simulations=3,
                           random_state=np.random.RandomState(3))
    bot.set_resampler(openspiel.make_resampler(seed=3))
    state = _play_out(game, bot, seed=7)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_evaluate_bots_plays_python_ismcts_through_the_restartable_shim() -> None:
    """OpenSpiel's own game loop needs ``restart_at``, which its Python ISMCTSBot lacks."""
    from open_spiel.python.algorithms import evaluate_bots

    game = openspiel.load("valley", 2)

    def bot(seed: int) -> ismcts.ISMCTSBot:
        made = ismcts.ISMCTSBot(game, openspiel.EngineEvaluator(), uct_c=2.0, max_simulations=2,
                                random_state=np.random.RandomState(seed))
        made.set_resampler(openspiel.make_resampler(seed))
        return made

    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [bot(1), bot(2)], np.random.RandomState(0))
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(),
                                          [openspiel.Restartable(bot(1)), openspiel.Restartable(bot(2))],
                                          np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


def test_python_ismcts_uses_the_state_resampler_without_set_resampler() -> None:
    game = pyspiel.load_game("obelisk_highcard", {"players": 3})
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(2)), uct_c=2.0,
                           max_simulations=20, random_state=np.random.RandomState(2))
    for seed in range(3):
        assert sum(_play_out(game, bot, seed=seed).returns()) == pytest.approx(0.0)


def test_cpp_ismcts_cannot_determinize_python_games_in_this_open_spiel() -> None:
    """open_spiel 2.0's C++ ISMCTSBot calls C++ ResampleFromInfostate, which a Python game cannot override.

    (Its ``step`` also releases the GIL, which crashes on any Python game, so
    only ``step_with_policy`` is safe to call.) When this starts failing, the
    C++ bot can be wired up as docs/research.md describes.
    """
    game = pyspiel.load_game("obelisk_highcard", {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = pyspiel.ISMCTSBot(seed=1, evaluator=pyspiel.RandomRolloutEvaluator(1, 1), uct_c=2.0, max_simulations=8)
    assert not hasattr(bot, "set_resampler")
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        bot.step_with_policy(state)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (9, {}, "tomb: players must be from 2 to 6, got 9"),
        (2.5, {}, "tomb: players must be a whole number"),
        (2, {"max_rounds": 10**7}, "option 'max_rounds' must be an int from 1 to 1000000, got 10000000"),
        (2, {"max_rounds": 0}, "option 'max_rounds' must be an int from 1 to 1000000, got 0"),
        (2, {"all_inscriptions": 3}, "option 'all_inscriptions' must be one of False, True, got 3"),
        (2, {"turns": 3}, "unknown option"),
    ],
)
def test_bad_parameters_get_the_engines_error(players: object, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        obelisk.load("tomb", players, **options)
    with pytest.raises(ValueError, match=re.escape(message)):
        openspiel.load("tomb", players, **options)
    if type(players) is int and "turns" not in options and "all_inscriptions" not in options:
        with pytest.raises(ValueError, match=re.escape(message)):
            pyspiel.load_game("obelisk_tomb", {"players": players, **options})


def _told_so_far(game: pyspiel.Game, history: list[int]) -> tuple[list[list[tuple[int, str]]], object]:
    """Per seat, every (actor, text) it was told along ``history``, straight from the engine; and the end state."""
    native = game.obelisk.new_initial_state(0)
    told: list[list[tuple[int, str]]] = [[] for _ in range(game.num_players())]
    for action in history:
        for seat in range(game.num_players()):
            told[seat].append((native.current_player(), native.public_action_string(action, seat)))
        native.apply_action(action)
    return told, native


@pytest.mark.parametrize("game_id,players", [("valley", 2), ("solomon", 2), ("cleopatra", 3)])
def test_information_state_strings_tell_apart_exactly_the_different_information_states(
        game_id: str, players: int) -> None:
    """Twin games that part at a chance node or a decision, and re-deals: one string per information state."""
    game = openspiel.load(game_id, players)
    rng = random.Random(3)
    trunk = next(s for s in _random_states(game, seed=21, checkpoints=1) if s.is_terminal()).history()
    entries = []
    for part in (len(trunk) // 3, len(trunk) // 2, 2 * len(trunk) // 3):
        branches = [trunk[:part]]
        _, native = _told_so_far(game, trunk[:part])
        legal = native.legal_actions()
        branches += [trunk[:part] + [a] for a in legal[:3]]
        for branch in branches:
            told, native = _told_so_far(game, branch)
            state = game.new_initial_state()
            for action in branch:
                state.apply_action(action)
            if state.is_terminal():
                continue
            for seat in range(players):
                truth = (json.dumps(told[seat]), json.dumps(native.observation(seat), sort_keys=True))
                entries.append((state.information_state_string(seat), truth))
                other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(rng.random(), 1.0))
                entries.append((other.information_state_string(seat), truth))
    by_string: dict[str, object] = {}
    by_truth: dict[object, str] = {}
    for text, truth in entries:
        assert by_string.setdefault(text, truth) == truth, "two information states share a string"
        assert by_truth.setdefault(truth, text) == text, "one information state got two strings"
    assert len(by_truth) > players, "every state was alike"


@pytest.mark.parametrize("game_id,players",
                         [("valley", 2), ("valley", 4), ("solomon", 2), ("tomb", 2), ("cleopatra", 3)])
def test_serialized_states_stay_small(game_id: str, players: int) -> None:
    """The recall is derivable (or packed, for a re-deal), so a saved state is small at any move."""
    game = openspiel.load(game_id, players)
    resampler = openspiel.make_resampler(seed=2)
    longest = 0
    for state in _random_states(game, seed=17, checkpoints=6):
        states = [state]
        if not state.is_chance_node() and not state.is_terminal():
            states.append(resampler(state, state.current_player()))
        for one in states:
            text = pyspiel.serialize_game_and_state(game, one)
            assert len(text) <= 20_000, (state.move_number(), len(text))
            restored = pyspiel.deserialize_game_and_state(text)[1]
            assert str(restored) == str(one)
            for seat in range(players):
                assert restored.information_state_string(seat) == one.information_state_string(seat)
        longest = max(longest, state.move_number())
    assert longest >= 300


SCORED = [("solomon", n, {}) for n in range(2, 6)] + [("valley", n, {}) for n in range(2, 5)] + [
    ("solomon", 2, {"change": "unlimited", "uphill": True}),
    ("solomon", 3, {"move_limit": 3, "unaffordable": "penalty"}),
    ("valley", 2, {"spent_cards": "discard", "forced_removal": "any"}),
]


@pytest.mark.parametrize("game_id,players,options", SCORED)
def test_score_utility_returns_each_seats_final_score_within_true_bounds(game_id: str, players: int,
                                                                        options: dict) -> None:
    game = openspiel.load(game_id, players, utility="score", **options)
    low, high = game.obelisk.score_range()
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (float(low), float(high))
    assert pyspiel.load_game(str(game)).utility == "score"
    rng = random.Random(players)
    for seed in range(4):
        state = game.new_initial_state()
        native = game.obelisk.new_initial_state(seed)
        while not state.is_terminal():
            assert state.returns() == [0.0] * players
            if state.is_chance_node():
                action = native.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            native.apply_action(action)
        totals = [row["total"] for row in native.scores()]
        assert state.returns() == [float(t) for t in totals]
        assert all(low <= t <= high for t in totals)
        assert openspiel.obelisk_state(state).returns() == native.returns()  # the engine's own returns stay by place


@pytest.mark.parametrize("game_id,players", [("solomon", 3), ("valley", 2)])
def test_score_utility_passes_open_spiels_simulation_test(game_id: str, players: int) -> None:
    pyspiel.random_sim_test(openspiel.load(game_id, players, utility="score"), num_sims=SIMS, serialize=True,
                            verbose=False)


def test_solomons_score_bound_holds_money_that_payments_never_raise() -> None:
    """The bound's premise, checked at every step: the seats together never hold more coins and treasure values
    than their starting coins plus the treasures that have left the cave (change, gifts and penalty deals only
    move money, and a payment lowers it), by default (moves paid at the end of the turn, the penalty when
    they cannot be), with unlimited change and under the pay-bound variant."""
    from obelisk.games.solomon.scoring import treasure_total

    for options in ({}, {"change": "unlimited"}, {"unaffordable": "forbid"}):
        native = obelisk.load("solomon", 3, **options)
        in_box = treasure_total([g + d for g, d in zip(native.tables.gold, native.tables.dark)])
        rng = random.Random(5)
        for seed in range(6):
            state = native.new_initial_state(seed)
            start = sum(state.coins)
            while not state.is_terminal():
                in_cave = treasure_total(state.gold_pool) + treasure_total(state.dark_pool) + sum(
                    treasure_total([stack.count(kind) for kind in range(len(state.gold_pool))])
                    for stack in state.stacks)
                wealth = [state.coins[s] + treasure_total(state.tiles[s]) for s in range(3)]
                assert sum(wealth) <= start + in_box - in_cave
                if state.is_chance_node():
                    state.apply_action(state.sample_chance(rng))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id,players,utility,message", [
    ("tomb", 2, "score", "tomb: utility 'score' is only for games whose score decides the ranking"),
    ("cleopatra", 3, "score", "cleopatra: utility 'score' is only for games whose score decides the ranking"),
    ("valley", 2, "points", "valley: utility must be 'rank' or 'score', got 'points'"),
    ("solomon", 2, "", "solomon: utility must be 'rank' or 'score', got ''"),
    ("solomon", 2, 1, "solomon: utility must be 'rank' or 'score', got 1"),
])
def test_bad_utility_is_refused_in_both_ways_in(game_id: str, players: int, utility: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        openspiel.load(game_id, players, utility=utility)
    # OpenSpiel checks a parameter's type itself, before the game sees it.
    expected = (ValueError, re.escape(message)) if isinstance(utility, str) else (pyspiel.SpielError, "utility")
    with pytest.raises(expected[0], match=expected[1]):
        pyspiel.load_game(f"obelisk_{game_id}", {"players": players, "utility": utility})


def test_rank_utility_stays_the_default_and_zero_sum() -> None:
    game = pyspiel.load_game("obelisk_valley")
    assert game.utility == "rank" and "utility=rank" in str(game)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert obelisk.load("tomb").score_range() is None and obelisk.load("cleopatra").score_range() is None


def test_engine_evaluator_refuses_scores() -> None:
    state = openspiel.load("valley", 2, utility="score").new_initial_state()
    with pytest.raises(ValueError, match="EngineEvaluator estimates places, not scores"):
        openspiel.EngineEvaluator().evaluate(state)
