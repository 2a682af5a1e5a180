"""Unit tests of the core protocol, using the test-only High Card game."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import obelisk
from obelisk.core import CHANCE, TERMINAL, ActionSpace, IllegalActionError, Option, codec, rank_returns
from obelisk.core.pools import deal_random, draw_random, pool_outcomes
from obelisk.core.rng import make_rng
from tests.core.toy import HighCardGame


def dealt(players: int = 2, seed: int = 0, cards: tuple[int, ...] = (5, 0, 3, 1)) -> obelisk.State:
    """A High Card game with the given card kinds dealt to the seats."""
    state = HighCardGame(players).new_initial_state(seed)
    for kind in cards[:players]:
        state.apply_action(kind)
    return state


def test_list_games_lists_registered_games_and_games_is_the_package_of_the_shipped_ones() -> None:
    ids = [info.id for info in obelisk.list_games()]
    assert "highcard" in ids and ids == sorted(ids)
    import obelisk.games as package

    assert obelisk.games is package and not callable(package)
    assert set(package.shipped()) == set(ids) - {"highcard"}


def test_load_rejects_unknown_game_players_and_options() -> None:
    with pytest.raises(ValueError, match="unknown game 'nope'; known games: .*highcard"):
        obelisk.load("nope")
    with pytest.raises(ValueError, match="players must be from 2 to 4, got 5"):
        obelisk.load("highcard", 5)
    with pytest.raises(ValueError, match="players must be a whole number"):
        obelisk.load("highcard", "three")
    with pytest.raises(ValueError, match="unknown option.*colour.*allowed options: allow_swap"):
        obelisk.load("highcard", 2, colour="red")
    with pytest.raises(ValueError, match="option 'allow_swap' must be one of True, False, got 'maybe'"):
        obelisk.load("highcard", 2, allow_swap="maybe")


def test_options_parse_text_from_the_command_line() -> None:
    game = obelisk.load("highcard", "3", allow_swap="false")
    assert game.num_players == 3 and game.options["allow_swap"] is False
    with pytest.raises(TypeError):
        game.options["allow_swap"] = True  # type: ignore[index]


@given(st.integers(min_value=-1000, max_value=1000))
def test_integer_option_accepts_integers_in_its_bounds_and_their_text(value: int) -> None:
    option = Option("turns", 10, "a count", bounds=(-1000, 1000))
    assert option.parse(value) == value
    assert option.parse(str(value)) == value


@given(st.text().filter(lambda t: not t.strip().lstrip("+-").isdigit()))
def test_integer_option_rejects_other_text(text: str) -> None:
    with pytest.raises(ValueError, match="option 'turns' must be an int from 1 to 99, got"):
        Option("turns", 10, "a count", bounds=(1, 99)).parse(text)


@pytest.mark.parametrize("value", [0, 100, -5, 10**400, "1" * 5000, "100", 5.0, True, "1e2"])
def test_integer_option_rejects_values_outside_its_bounds(value: object) -> None:
    with pytest.raises(ValueError, match="option 'turns' must be an int from 1 to 99, got .{1,60}$"):
        Option("turns", 10, "a count", bounds=(1, 99)).parse(value)


@pytest.mark.parametrize("value", [0.0, float("inf"), float("nan"), "nan", "1e400", 2])
def test_float_option_rejects_values_outside_its_bounds(value: object) -> None:
    with pytest.raises(ValueError, match="option 'rate' must be a float from 0.5 to 1.5, got"):
        Option("rate", 1.0, "a rate", bounds=(0.5, 1.5)).parse(value)


def test_every_numeric_option_is_bounded() -> None:
    with pytest.raises(ValueError, match="numeric option 'turns' needs allowed values or bounds"):
        Option("turns", 10, "a count")
    with pytest.raises(ValueError, match="must hold the default"):
        Option("turns", 10, "a count", bounds=(1, 5))
    with pytest.raises(ValueError, match="bounds are for numeric options"):
        Option("name", "x", "a text", bounds=(1, 5))
    for info in obelisk.list_games():
        for option in info.options:
            if type(option.default) in (int, float):
                described = option.to_dict()
                assert option.allowed is not None or described["min"] <= option.default <= described["max"]
    assert Option("turns", 10, "a count", bounds=(1, 99)).to_dict()["max"] == 99


def test_chance_nodes_and_pools() -> None:
    state = HighCardGame(2).new_initial_state(0)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert outcomes == [(k, 2 / 12) for k in range(6)]
    assert state.legal_actions() == list(range(6))
    assert state.legal_actions(player=0) == []


def test_illegal_actions_explain_and_change_nothing() -> None:
    state = dealt()
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError, match="action 7 .* is not legal now|outside"):
        state.apply_action(7)
    with pytest.raises(IllegalActionError, match="integer id"):
        state.apply_action("hold")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="it is not seat 1's turn: seat 0 is to act"):
        state.apply_action(0, player=1)
    assert json.dumps(state.to_json()) == before
    state.apply_action(0, player=0)
    state.apply_action(0)
    assert state.current_player() == TERMINAL
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)
    chance = HighCardGame(2).new_initial_state(0)
    with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
        chance.apply_action(9)


def test_numpy_style_integers_are_accepted() -> None:
    class Index:
        def __index__(self) -> int:
            return 1

    state = dealt()
    state.apply_action(Index())  # type: ignore[arg-type]
    assert state.history()[-1] == 1


def test_labels_round_trip_case_and_space_insensitively() -> None:
    state = dealt()
    assert state.action_to_string(1) == "swap"
    assert state.string_to_action("  SWAP ") == 1
    assert state.string_to_action("0") == 0
    with pytest.raises(IllegalActionError, match="no legal action is labelled 'pass'; legal now: 'hold', 'swap'"):
        state.string_to_action("pass")
    with pytest.raises(ValueError, match="outside the action space"):
        state.action_to_string(99)


@pytest.mark.parametrize(
    "text",
    ["²", "١", "--5", "-0", "0x1", "1.0", "9" * 5000, "1" + "0" * 30, "", " ", "\x00", "swap\x1b[31m", None, 1, b"swap",
     ["swap"], 1.0, True],
)
def test_string_to_action_refuses_anything_else_with_illegal_action_error(text: object) -> None:
    state = dealt()
    with pytest.raises(IllegalActionError):
        state.string_to_action(text)


def test_string_to_action_reads_ascii_ids_and_says_when_the_game_is_over() -> None:
    state = dealt()
    assert state.string_to_action(" 01 ") == 1
    with pytest.raises(IllegalActionError, match=r"labelled '9999999999999999999999999999999999999999…'"):
        state.string_to_action("9" * 5000)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.string_to_action("hold")


def test_public_action_string_at_the_end_is_refused() -> None:
    state = dealt()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.action_to_string(0) == "hold"
    for seat in (None, 0, 1):
        with pytest.raises(IllegalActionError, match="the game is over"):
            state.public_action_string(0, seat)


def test_public_action_string_hides_other_seats_draws() -> None:
    state = dealt(cards=(5,))
    assert state.current_player() == CHANCE
    assert state.public_action_string(2, 1) == "draw 3"
    assert state.public_action_string(2, 0) == "seat 1 draws a card"
    assert state.public_action_string(2, None) == "seat 1 draws a card"


def test_observation_shows_own_card_only_and_legal_actions_to_the_actor() -> None:
    state = dealt()
    mine, theirs = state.observation(0), state.observation(1)
    assert mine["hands"] == [6, "hidden"] and theirs["hands"] == ["hidden", 1]
    assert mine["legal_actions"] == [[0, "hold"], [1, "swap"]]
    assert "legal_actions" not in theirs
    assert state.observation(None)["hands"] == ["hidden", "hidden"]
    with pytest.raises(ValueError, match="seat must be None or 0..1"):
        state.observation(2)


def test_resample_keeps_own_knowledge_and_redeals_the_rest() -> None:
    state = dealt()
    hands = {tuple(state.resample_from_infostate(0, random.Random(i)).hands) for i in range(50)}
    assert all(h[0] == 5 for h in hands)
    assert len({h[1] for h in hands}) > 2
    with pytest.raises(ValueError):
        state.resample_from_infostate(5, random.Random(0))


@pytest.mark.parametrize(
    "keys,expected",
    [
        ([3, 1], [1.0, -1.0]),
        ([2, 2], [0.0, 0.0]),
        ([1, 5, 3], [-1.0, 1.0, 0.0]),
        ([4, 4, 1, 0], [2 / 3, 2 / 3, -1 / 3, -1.0]),
        ([(1, 0), (1, 2), (0, 9)], [0.0, 1.0, -1.0]),
    ],
)
def test_rank_returns(keys: list, expected: list[float]) -> None:
    assert rank_returns(keys) == pytest.approx(expected)
    assert sum(rank_returns(keys)) == pytest.approx(0.0)


plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4)
    | st.tuples(inner, inner)
    | st.dictionaries(st.integers() | st.text(max_size=3), inner, max_size=3),
    max_leaves=20,
)


@given(plain)
def test_codec_encoding_survives_json_exactly(value: object) -> None:
    encoded = codec.encode(value)
    assert codec.same_data(json.loads(json.dumps(encoded)), encoded)


def test_codec_refuses_sets() -> None:
    with pytest.raises(TypeError, match="not set"):
        codec.encode({1, 2})


@pytest.mark.parametrize(
    ("first", "second"),
    [(1, 1.0), (1, True), (0, False), ([1], (1,)), ({"a": 1}, {"a": 1.0}), ([1, 2], [1, 2, 3]), ({"a": 1}, {"b": 1})],
)
def test_same_data_tells_types_and_shapes_apart(first: object, second: object) -> None:
    assert codec.same_data(first, first) and not codec.same_data(first, second)
    assert not codec.same_data(second, first)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ("[" * 65 + "]" * 65, "nested too deeply"),
        ("1" * 5000, "an integer of 5000 digits"),
        ("[1e400]", "overflows a float"),
        ('{"a": NaN}', "NaN, which is not a number JSON allows"),
        ("-Infinity", "-Infinity"),
        (b"\xff\xfe", "not valid JSON"),
        ("{oops", "not valid JSON"),
    ],
)
def test_parse_json_refuses_what_would_break_later(text: str | bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        codec.parse_json(text, "the file")
    assert str(caught.value).startswith("the file ") and "\n" not in str(caught.value)
    assert codec.parse_json("[" * 64 + "]" * 64, "the file") is not None


def test_describe_is_short_for_any_value() -> None:
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert codec.describe(10**400) == "an integer of 1329 bits"
    assert codec.describe("x" * 500).endswith("...") and len(codec.describe("x" * 500)) == 60
    assert codec.describe([[1]] * 9) == "[[1], [1], [1], [1], [1], [1], [1], [1], [1]]"
    assert codec.describe([[1]] * 30) == "a list of 30 entries"
    assert codec.describe(deep) == "a list of 1 entry"
    assert codec.describe([10**5000]) == "a list of 1 entry"
    assert codec.describe({"a": (1,)}) == "{'a': (1,)}"
    assert codec.describe("a\nb") == "'a\\nb'"
    assert codec.describe(object()) == "an object"


def _with_field(doc: dict, name: str, value: object) -> dict:
    broken = json.loads(json.dumps(doc))
    for pair in broken["state"]["#d"]:
        if pair[0] == name:
            pair[1] = value
    return broken


def test_state_from_json_refuses_corrupt_documents() -> None:
    game = HighCardGame(2)
    doc = dealt().to_json()
    assert game.state_from_json(json.dumps(doc)).to_json() == doc
    broken_fields = json.loads(json.dumps(doc))
    broken_fields["state"]["#d"] = [pair for pair in broken_fields["state"]["#d"] if pair[0] != "turn"]
    twice = json.loads(json.dumps(doc))
    twice["state"]["#d"].append(twice["state"]["#d"][0])
    reordered = json.loads(json.dumps(doc))
    reordered["state"]["#d"].reverse()
    cases = [
        ("{oops", "not valid JSON"),
        ("[" * 3000 + "]" * 3000, "nested too deeply"),
        ('{"seed": ' + "9" * 500 + "}", "an integer of 500 digits"),
        ([doc], "must be a JSON object"),
        ({**doc, "format_version": 2}, "not an obelisk-state document"),
        ({**doc, "format_version": 1.0}, "not an obelisk-state document"),
        ({**doc, "format_version": True}, "not an obelisk-state document"),
        ({**doc, "players": 3}, "players=3"),
        ({**doc, "": None}, "saved state: missing keys \\[\\], unexpected keys \\[\"''\"\\]"),
        ({k: v for k, v in doc.items() if k != "state"}, "saved state: missing keys \\['state'\\]"),
        ({**doc, "players": 2.0}, "players=2.0"),
        ({**doc, "options": {"allow_swap": 1}}, "options={'allow_swap': 1}, this game has {'allow_swap': True}"),
        ({**doc, "seed": -1}, "'seed': seed must be an integer from 0"),
        ({**doc, "seed": True}, "'seed'"),
        ({**doc, "seed": 10**400}, "'seed'"),
        ({**doc, "history": "5,0"}, "'history' must be a list"),
        ({**doc, "history": ["x"]}, "'history' #0 is 'x'"),
        ({**doc, "history": [5, 0, 1.0]}, "'history' #2 is 1.0"),
        ({**doc, "history": [5, 0, 10**400]}, "'history' #2 is an integer of 1329 bits"),
        ({**doc, "history": [5, 0, 999]}, "'history' #2 is 999, not an action id below"),
        ({**doc, "history": [5, 0, 5]}, "'history' does not replay: action #2 \\(5\\) cannot be replayed"),
        ({**doc, "history": doc["history"][:-1]}, "field '[a-z]+'.* is .*, expected .* \\(from replaying the history\\)"),
        ({**doc, "history": [0] * 10**5}, "more than a game can have"),
        ({**doc, "state": [1]}, "'state' must be the encoded fields"),
        ({**doc, "state": {"#d": [["turn"]]}}, "'state' must list \\[name, value\\] pairs"),
        (broken_fields, "missing fields \\['turn'\\], unexpected fields \\[\\]"),
        (twice, "lists a field twice"),
        (reordered, "lists the fields in another order than to_json writes them"),
        (_with_field(doc, "hands", [1]), "field 'hands' is \\[1\\], expected \\[5, 0\\]"),
        (_with_field(doc, "turn", 10**400), "field 'turn' is an integer of 1329 bits, expected 0"),
        (_with_field(doc, "turn", True), "field 'turn' is True, expected 0"),
        (_with_field(doc, "hands", {"#t": [3, 1]}), "field 'hands' is {'#t': \\[3, 1\\]}, expected \\[5, 0\\]"),
        (_with_field(doc, "hands", [[[[[[[]]]]]]] * 2), "field 'hands'\\[0\\] is \\[\\[\\[\\[\\[\\[\\]\\]\\]\\]\\]\\], expected 5"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message) as caught:
            game.state_from_json(bad)
        assert "\n" not in str(caught.value)
    assert dealt().to_json() == doc


def test_a_loaded_state_is_the_replayed_one() -> None:
    game = HighCardGame(2)
    state = dealt()
    swapped = _with_field(state.to_json(), "hands", list(reversed(state.hands)))
    with pytest.raises(ValueError, match="field 'hands'"):
        game.state_from_json(swapped)
    restored = game.state_from_json(json.dumps(state.to_json()))
    assert restored.history() == state.history() and restored.seed == state.seed


def test_replay_names_the_bad_action() -> None:
    game = HighCardGame(2)
    assert game.replay(0, [5, 0, 1, 3, 0]).is_terminal()
    with pytest.raises(IllegalActionError, match="action #2 \\(7\\) cannot be replayed"):
        game.replay(0, [5, 0, 7])


def test_sample_chance_is_reproducible_from_the_seed() -> None:
    game = HighCardGame(3)
    first = [game.new_initial_state(11).sample_chance() for _ in range(3)]
    assert len(set(first)) == 1
    draws = {game.new_initial_state(seed).sample_chance() for seed in range(40)}
    assert len(draws) > 3


def test_action_space_ranges() -> None:
    space = ActionSpace([("buy", 3), ("play", 2), ("end_turn", 1)])
    assert space.size == 6
    assert space.encode("play", 1) == 4 and space.decode(4) == ("play", 1)
    assert space.decode(5) == ("end_turn", 0)
    with pytest.raises(ValueError):
        space.encode("buy", 3)
    with pytest.raises(ValueError):
        space.decode(6)
    with pytest.raises(ValueError):
        ActionSpace([("a", 1), ("a", 2)])


def test_pools_draw_without_replacement() -> None:
    counts = [2, 0, 1]
    assert pool_outcomes(counts, offset=10) == [(10, 2 / 3), (12, 1 / 3)]
    drawn = deal_random(counts, 3, random.Random(1))
    assert sorted(drawn) == [0, 0, 2] and counts == [0, 0, 0]
    with pytest.raises(ValueError, match="empty pool"):
        draw_random(counts, random.Random(1))


def test_states_pickle_with_their_game_and_cached_outcomes() -> None:
    import pickle

    state = HighCardGame(3, allow_swap=False).new_initial_state(5)
    assert state.legal_actions() == list(range(6))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.chance_outcomes() == state.chance_outcomes()
    assert copy.game.options["allow_swap"] is False and copy.to_json() == state.to_json()
    copy.apply_action(2)
    assert state.move_number() == 0


def test_chance_outcomes_stay_valid_after_the_cache_is_refreshed() -> None:
    state = HighCardGame(2).new_initial_state(0)
    first = state.chance_outcomes()
    state.apply_action(first[0][0])
    assert state.chance_outcomes() == [(k, (1 if k == 0 else 2) / 11) for k in range(6)]
    state.apply_action(3)
    assert state.chance_outcomes() == [] and state.legal_actions() == [0, 1]


def test_resample_accepts_a_seed_or_nothing_and_refuses_other_generators() -> None:
    state = dealt()
    assert state.resample_from_infostate(0, 3).hands == state.resample_from_infostate(0, 3).hands
    other_seed = dealt(seed=99)
    for k in range(20):  # an integer generator seed is all the re-deal reads besides the seat's information
        assert other_seed.resample_from_infostate(0, k).hands == state.resample_from_infostate(0, k).hands
    assert state.resample_from_infostate(0).observation(0) == state.observation(0)
    with pytest.raises(ValueError, match="rng must be a random.Random"):
        state.resample_from_infostate(0, "seed")  # type: ignore[arg-type]


def test_action_to_string_refuses_non_ids() -> None:
    state = dealt()
    for bad in ("hold", None, True, 1.5):
        with pytest.raises(ValueError, match="integer id"):
            state.action_to_string(bad)  # type: ignore[arg-type]


_ODD_VALUES = [None, "3", 3.0, 3.5, -1, 10**30, True, [1], {}, b"x", float("nan"), object()]


@pytest.mark.parametrize("game_id", [info.id for info in obelisk.list_games()])
def test_entry_points_answer_odd_values_with_value_errors(game_id: str) -> None:
    """Values of any type get ValueError (or IllegalActionError) and change nothing, compiled or not."""
    game = obelisk.load(game_id)
    state = game.new_initial_state(5)
    rng = random.Random(0)
    for step in range(40):
        if state.is_terminal():
            break
        before = json.dumps(state.to_json(), sort_keys=True)
        first = state.legal_actions()[0]
        calls = [
            state.apply_action,
            lambda odd: state.clone().apply_action(first, odd),  # None is a valid "any seat"
            state.legal_actions,
            state.action_to_string,
            lambda odd: state.public_action_string(first, odd),
            lambda odd: state.public_action_string(odd, None),
            state.string_to_action,
            state.observation,
            lambda odd: state.resample_from_infostate(odd, 1),
            lambda odd: state.resample_from_infostate(0, odd),
            state.sample_chance,
        ]
        if step == 0:
            calls += [game.new_initial_state, lambda odd: game.replay(odd, []), lambda odd: game.replay(0, [odd])]
            calls += [game.state_from_json, lambda odd: obelisk.load(game_id, players=odd)]
        for call in calls:
            for odd in _ODD_VALUES:
                try:
                    call(odd)
                except ValueError:  # IllegalActionError is one
                    pass
        assert json.dumps(state.to_json(), sort_keys=True) == before
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))


HUGE = 10**5000
"""An integer Python will not print in full (more than 4,300 digits)."""


def repr_short(value: object) -> str:
    return codec.describe(value)


@pytest.mark.parametrize("player", [False, True, 0.0, "0", [0], 0.5, 2, -2, 10**5000], ids=repr_short)
def test_apply_action_refuses_a_player_that_is_not_a_seat_number(player: object) -> None:
    state = dealt()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"player must be a seat number \(0..1\), CHANCE \(-1\) or None"):
        state.apply_action(state.legal_actions()[0], player=player)
    assert state.to_json() == before
    state.apply_action(state.legal_actions()[0], player=0)


@pytest.mark.parametrize("call,error", [
    (lambda s: s.apply_action(HUGE), IllegalActionError),
    (lambda s: s.apply_action(-HUGE), IllegalActionError),
    (lambda s: s.apply_action([0] * 10**5), IllegalActionError),
    (lambda s: s.action_to_string(HUGE), ValueError),
    (lambda s: s.action_to_string([0] * 10**5), ValueError),
    (lambda s: s.public_action_string(0, HUGE), ValueError),
    (lambda s: s.public_action_string(0, [1] * 10**5), ValueError),
    (lambda s: s.observation(HUGE), ValueError),
    (lambda s: s.tie_break(HUGE, 0), ValueError),
    (lambda s: s.undo(HUGE), ValueError),
    (lambda s: s.undo_points([0] * 10**5), ValueError),
    (lambda s: s.resample_from_infostate(HUGE), ValueError),
    (lambda s: s.resample_from_infostate(0, [0] * 10**5), ValueError),
    (lambda s: s.game.replay(0, [5, HUGE]), IllegalActionError),
])
def test_huge_or_long_arguments_get_a_short_message(call: Callable[[obelisk.State], object],
                                                    error: type[Exception]) -> None:
    """A value too long to print is described (its type and size), never printed or converted: at a chance
    node and at a decision."""
    for state in (dealt(2, cards=(5,)), dealt()):
        before = state.to_json()
        with pytest.raises(error) as refused:
            call(state)
        message = str(refused.value)
        assert len(message) < 200 and "\n" not in message and "Exceeds the limit" not in message, message
        assert state.to_json() == before


def test_a_redeal_is_not_the_game_it_came_from() -> None:
    state = dealt(4, seed=12)
    state.apply_action(1)  # seat 0 swaps: its old card is discarded, a new one is drawn
    state.apply_action(4)
    redeal = state.resample_from_infostate(0, random.Random(3))
    assert state.replayable and not redeal.replayable
    assert redeal.history() == [] and redeal.move_number() == state.move_number() == 6
    assert redeal.seed != state.seed and redeal.observation(0) == state.observation(0)
    assert repr(redeal) == "<highcard re-dealt state move=6 player=1>"
    with pytest.raises(ValueError, match="re-dealt state .* cannot be saved"):
        redeal.to_json()
    redeal.apply_action(0)
    assert redeal.history() == [0] and redeal.move_number() == 7 and redeal.observation(0)["move_number"] == 7
    again = redeal.resample_from_infostate(1, random.Random(4))
    assert again.move_number() == 7 and again.history() == [] and again.clone().move_number() == 7


def test_sampling_chance_on_a_redeal_follows_its_own_seed() -> None:
    state = dealt(2, seed=5, cards=(5,))
    redeals = [state.resample_from_infostate(0, random.Random(k)) for k in range(30)]
    assert {r.sample_chance() for r in redeals} != {state.sample_chance()}


def test_resampler_that_returns_the_state_itself_is_refused() -> None:
    state = dealt()
    state._resample = lambda seat, rng: state  # type: ignore[method-assign]
    with pytest.raises(TypeError, match="returned the state itself"):
        state.resample_from_infostate(0, 1)


def test_any_integer_seeds_a_redeal_and_a_bot() -> None:
    """Integers too long to print in decimal still seed, and reproducibly."""
    state = dealt()
    first, again = state.resample_from_infostate(0, HUGE), state.resample_from_infostate(0, HUGE)
    assert str(first) == str(again)
    assert make_rng("x", HUGE).random() == make_rng("x", HUGE).random() != make_rng("x", HUGE + 1).random()
