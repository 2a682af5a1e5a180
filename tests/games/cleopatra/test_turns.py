"""Setup, market, refill, hand limit, deck rebuild, Offering, characters and the end of the game."""

from __future__ import annotations

import json
import random

import pytest

import obelisk
from obelisk.core import IllegalActionError
from obelisk.games.cleopatra.data import KINDS
from obelisk.games.cleopatra.rules import Q_STALL, ROUND_CAP, draw_outcomes, is_draw_outcome
from tests.games.cleopatra.helpers import action, chance, do, labels, set_hand, start

K = {name: i for i, name in enumerate(KINDS)}
UP = len(KINDS)


def test_setup_kits_hands_market_and_stack() -> None:
    game = obelisk.load("cleopatra", 4)
    s = game.new_initial_state(3)
    rng = random.Random(3)
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    assert [sum(h) for h in s.hands] == [3] * 4
    assert s.talents == [5] * 4 and s.merchants == [3] * 4 and s.statues == [2] * 4
    assert [len(stall) for stall in s.stalls] == [1, 1, 1]
    assert sum(s.deck) == 109 - 12 - 3 and s.stack_top >= 0 and len(s.stack_rest) == 11
    face_up = sum(up for stall in s.stalls for _, up in stall)
    assert s.deck_up + face_up == (109 - 12) // 2
    assert s.cleopatra == 0 and s.altar == 0 and s.phase == "turn" and s.turn == 0


def test_take_stall_refill_and_knowledge_of_face_up_cards() -> None:
    s = start()
    s.stalls = [[(K["stone"], 1), (K["wood"], 0)], [(K["marble"], 1)], [(K["lapis"], 0)]]
    s._legal = None
    do(s, "take stall A: Stone, face-down")
    assert s.hands[0][K["stone"]] == 1 and s.hands[0][K["wood"]] == 1
    assert s.known[1][0][K["stone"]] == 1 and s.known[1][0][K["wood"]] == 0
    chance(s, K["artisan"])
    chance(s, K["artisan"])
    chance(s, UP + K["stone"])
    assert labels(s) == ["refill A<-face-down, B<-face-down, C<-Stone", "refill A<-face-down, B<-Stone, C<-face-down",
                         "refill A<-Stone, B<-face-down, C<-face-down"]
    do(s, "refill A<-Stone")
    # Seat 0 could hold a character in the face-down card, for all the others know: it ends the turn itself.
    assert s.stalls[0] == [(K["stone"], 1)] and s.phase == "after" and labels(s) == ["end turn"]
    do(s, "end turn")
    assert s.turn == 1
    view = s.observation(2)
    assert view["market"][2] == ["face-down", "face-down"]
    assert view["players"][0]["known_cards"] == {"Stone": 1}


def test_empty_stall_cannot_be_taken() -> None:
    s = start()
    s.stalls[1] = []
    s._legal = None
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="stall B is empty"):
        s.apply_action(action(s, "take", 1))
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_deck_rebuilt_from_discards_half_face_up() -> None:
    s = start()
    s.deck = [0] * len(KINDS)
    s.deck_up = 0
    s.discards = [0] * len(KINDS)
    s.discards[K["wood"]] = 5
    s.stalls = [[(K["stone"], 1)], [], []]
    s._legal = None
    do(s, "take stall A")
    assert sum(s.deck) == 5 and s.deck_up == 2 and not any(s.discards)


def hand_of(n: int) -> dict[str, int]:
    return {"artisan": n}


def test_hand_limit_discard_option() -> None:
    s = start()
    set_hand(s, 0, **hand_of(10))
    s.stalls = [[(K["stone"], 1), (K["wood"], 1)], [(K["marble"], 1)], [(K["lapis"], 1)]]
    s._legal = None
    do(s, "take stall A")
    for _ in range(3):
        chance(s, K["artisan"])
    # Three face-down cards look alike: the refill is no choice and happens by itself.
    assert [len(stall) for stall in s.stalls] == [1, 2, 2] and s.pending == []
    do(s, "end turn")
    assert s.phase == "limit"
    do(s, "discard down to 10 cards (+1 amulet)", "discard Stone", "discard Wood")
    assert s.amulets[0] == 1 and sum(s.hands[0]) == 10 and s.turn == 1


def test_hand_limit_keep_option_costs_one_amulet_per_extra_card() -> None:
    s = start()
    set_hand(s, 0, **hand_of(10))
    s.stalls = [[(K["stone"], 1), (K["wood"], 1), (K["lapis"], 1)], [(K["marble"], 1)], [(K["lapis"], 1)]]
    s._legal = None
    do(s, "take stall A")
    for _ in range(3):
        chance(s, K["artisan"])
    do(s, "end turn", "keep all cards (+3 amulets)")
    assert s.amulets[0] == 3 and sum(s.hands[0]) == 13 and s.turn == 1


def test_smugglers_skip_the_hand_limit() -> None:
    s = start()
    set_hand(s, 0, smugglers=1, **hand_of(10))
    s.stalls = [[(K["stone"], 1), (K["wood"], 1)], [(K["marble"], 1)], [(K["lapis"], 1)]]
    s._legal = None
    do(s, "play Smugglers", "take stall A")
    for _ in range(3):
        chance(s, K["artisan"])
    do(s, "end turn")
    assert s.turn == 1 and s.amulets[0] == 1 and sum(s.hands[0]) == 12


def offering_state(bids: list[int], talents: list[int], amulets: list[int], players: int = 3, **options):
    s = start(players, **options)
    s.talents, s.amulets, s.altar = list(talents), list(amulets), 4
    set_hand(s, 0, scribes=1)
    do(s, "play Scribes: set a High Priest die")
    assert s.phase == "offering" and s.actor == 0
    for seat, bid in enumerate(bids):
        assert s.actor == seat
        s.apply_action(action(s, "bid", bid))
    return s


def test_offering_ranks_highest_loses_three_others_gain() -> None:
    s = offering_state([2, 6, 1], [10, 10, 10], [5, 2, 0])
    assert s.talents == [8, 4, 9]
    assert s.amulets == [6, 0, 2]
    assert s.last_offering == {"bids": [2, 6, 1], "amulets": [1, -2, 2]}
    assert s.altar == 0 and s.phase == "turn" and s.turn == 0


def test_offering_at_five_players_gives_one_to_four_amulets() -> None:
    """ "Hráč s druhou nejvyšší nabídkou si do pyramidy vloží 1 korupční amulet, třetí 2, čtvrtý 3 a pátý 4"."""
    s = offering_state([9, 7, 5, 3, 1], [10] * 5, [1] * 5, players=5)
    assert s.amulets == [0, 2, 3, 4, 5] and s.talents == [1, 3, 5, 7, 9]


def test_offering_ties_take_the_worse_place_by_default() -> None:
    s = offering_state([4, 4, 1], [10, 10, 10], [5, 5, 5])
    assert s.amulets == [6, 6, 7]


def test_offering_ties_better_option() -> None:
    s = offering_state([4, 4, 1], [10, 10, 10], [5, 5, 5], offering_ties="better")
    assert s.amulets == [2, 2, 7]


def test_bids_are_secret_until_revealed() -> None:
    s = start()
    s.altar = 4
    set_hand(s, 0, scribes=1)
    do(s, "play Scribes: set a High Priest die")
    bid = action(s, "bid", 3)
    assert s.public_action_string(bid, 1) == "placed a secret bid"
    s.apply_action(bid)
    assert s.observation(1)["offering"] == ["bid", None, "waiting"] or s.observation(1)["offering"][0] == "bid"
    assert s.observation(0)["offering"][0] == 3
    with pytest.raises(IllegalActionError, match="you hold only 5 talents"):
        s.apply_action(action(s, "bid", 9))


def test_beggars_each_opponent_gives_or_shows_hand() -> None:
    s = start()
    set_hand(s, 0, beggars=1)
    set_hand(s, 1, stone=1)
    set_hand(s, 2, trompe_l_oeil=2)
    s.talents = [5, 5, 1]
    do(s, "play Beggars")
    assert s.amulets[0] == 2 and s.actor == 1
    assert labels(s) == ["give player 1 2 talents", "give player 1 a Stone"]
    give = action(s, "give_card", K["stone"])
    assert s.public_action_string(give, 2) == "gave player 1 a standard card"
    assert s.public_action_string(give, 0) == "give player 1 a Stone"
    s.apply_action(give)
    # seat 2 has neither 2 talents nor a standard card: it shows its hand instead
    assert s.hands[0][K["stone"]] == 1 and s.known[0][2][K["trompe_l_oeil"]] == 2
    assert s.phase == "turn" and s.discards[K["beggars"]] == 1  # played before the action: back to it


def test_courtesans_take_a_discard() -> None:
    s = start()
    set_hand(s, 0, courtesans=1)
    s.discards[K["lapis"]] = 1
    s._legal = None
    do(s, "play Courtesans", "take Lapis from the discard pile")
    assert s.hands[0][K["lapis"]] == 1 and s.amulets[0] == 1 and s.discards[K["courtesans"]] == 1


def test_envoys_offers_accepts_and_amulet_from_giver() -> None:
    s = start()
    set_hand(s, 0, envoys=1)
    set_hand(s, 1, stone=2)
    set_hand(s, 2, wood=1)
    s.amulets = [0, 2, 0]
    do(s, "play Envoys")
    do(s, "offer a Stone", "offer a Stone", "offer nothing more")
    do(s, "offer a Wood", "offer nothing more")
    assert s.phase == "envoy_accept"
    assert labels(s) == ["accept Stone from player 2 (+1 amulet)", "accept Wood from player 3 (+1 amulet)",
                         "accept no more offers"]
    do(s, "accept Stone from player 2", "accept Wood from player 3", "accept no more offers")
    assert s.hands[0][K["stone"]] == 1 and s.hands[0][K["wood"]] == 1 and s.hands[1][K["stone"]] == 1
    assert s.amulets == [2, 1, 0]  # seat 2 had none: that amulet comes from the supply


def test_vizier_draws_five_keeps_any_for_one_amulet_each() -> None:
    s = start()
    set_hand(s, 0, vizier=1)
    do(s, "play Vizier")
    for outcome in (K["stone"], K["wood"], UP + K["lapis"], K["artisan"], K["marble"]):
        chance(s, outcome)
    do(s, "keep Stone", "discard Wood", "keep Lapis", "discard Artisan", "keep Marble")
    assert s.amulets[0] == 3 and s.hands[0][K["stone"]] == 1 and s.discards[K["vizier"]] == 1
    assert s.discards[K["wood"]] == 1 and s.discards[K["artisan"]] == 1 and sum(s.hands[0]) == 3


def test_characters_only_on_own_turn() -> None:
    s = start()
    set_hand(s, 1, smugglers=1)
    with pytest.raises(IllegalActionError, match="you hold no Smugglers"):
        s.apply_action(action(s, "play", 5))


def end_state(**options):
    s = start(**options)
    s.talents = [30, 25, 20]
    s.amulets = [4, 6, 6]
    return s


def test_end_tainted_cards_in_hand_and_sanctuary_relief() -> None:
    """ "Hráči obdrží 1 korupční amulet za každou kartu se symbolem korupčního amuletu, která jim zůstala
    v ruce" and "Zůstane-li karta písaře na konci hry ve vašich rukou, musíte si za ni vzít 1 korupční
    amulet"; each sanctuary cell, the statue's included, removes one."""
    s = end_state()
    set_hand(s, 0, tainted_stone=1, scribes=1, artisan=3)
    s.sanctuaries = [(1, (1, 2, 3))]
    s._end_game()
    f = s.final
    assert f["tainted_in_hand"] == [2, 0, 0] and f["sanctuary_relief"] == [0, 3, 0]
    assert f["amulets"] == [6, 3, 6]
    assert f["eaten"] == [True, False, True]
    assert s.returns()[1] == 1.0


def test_most_corrupt_is_eaten_survivors_get_merchant_bonus() -> None:
    s = end_state()
    s.merchants = [0, 2, 1]
    s.amulets = [9, 2, 3]
    s._end_game()
    assert s.final["eaten"] == [True, False, False]
    assert s.final["talents"] == [30, 31, 23]
    assert s.returns() == [-1.0, 1.0, 0.0]
    assert s.scores()[1]["breakdown"]["merchant_bonus"] == 6


@pytest.mark.parametrize("rule,eaten", [("most", [False, True, True]), ("all", [False, True, True]),
                                        ("none", [False, False, False]), ("richest", [False, True, False])])
def test_crocodile_tie_rules(rule: str, eaten: list[bool]) -> None:
    s = end_state(crocodile_ties=rule)
    s._end_game()
    assert s.final["eaten"] == eaten


@pytest.mark.parametrize("players,amulets", [(3, [2, 2, 2]), (3, [0, 0, 0]), (4, [5, 5, 5, 5])])
def test_nobody_is_eaten_when_every_architect_has_as_many_amulets(players: int, amulets: list[int]) -> None:
    """ "Hráč, který jich má nejvíc, je sežrán královniným krokodýlem a nemůže hru vyhrát. … Nejbohatší
    architekt je vítěz." With everybody level nobody has the most: by default nobody is eaten and the richest
    architect wins (ruling 8)."""
    s = start(players)
    assert s.game.options["crocodile_ties"] == "most"
    s.talents = [30, 25, 20, 10][:players]
    s.amulets = list(amulets)
    s.merchants = [0, 1, 0, 0][:players]
    s._end_game()
    assert s.final["eaten"] == [False] * players
    assert s.final["talents"] == [30, 28, 20, 10][:players]  # every architect keeps the merchant bonus
    assert s.returns()[0] == 1.0 and max(s.returns()[1:]) < 1.0


@pytest.mark.parametrize("rule,eaten", [("most", [False, False, False]), ("none", [False, False, False]),
                                        ("all", [True, True, True]), ("richest", [True, False, False])])
def test_every_architect_level_under_each_tie_option(rule: str, eaten: list[bool]) -> None:
    """Option ``crocodile_ties=all`` keeps eating everybody when all are level (then nobody wins), so games
    stored with it replay as they were played; ``richest`` eats the richest of the level architects."""
    s = end_state(crocodile_ties=rule)
    s.amulets = [2, 2, 2]
    s._end_game()
    assert s.final["eaten"] == eaten


def test_talent_tie_goes_to_fewer_amulets_then_shared() -> None:
    s = end_state(crocodile_ties="none")
    s.talents = [20, 20, 20]
    s.amulets = [1, 2, 9]
    s._end_game()
    assert s.returns() == [1.0, 0.0, -1.0]
    s2 = end_state()
    s2.talents = [20, 20, 10]
    s2.amulets = [1, 1, 9]
    s2._end_game()
    assert s2.returns() == [0.5, 0.5, -1.0]


def test_round_limit_ends_the_game() -> None:
    s = start(max_rounds=20)
    s.turns_played = 20 * 3 - 1
    s.turn = 2
    s._next_turn()
    assert s.is_terminal() and s.log[-2] == "the round limit is reached"


def test_no_round_limit_by_default() -> None:
    """The rulebook ends the game only when Cleopatra reaches step 5 ("Hra končí v okamžiku, kdy Kleopatra
    dosáhne políčka číslo 5"): no round limit unless the option asks for one."""
    s = start()
    assert s.game.options["max_rounds"] == 0
    s.turns_played = 100 * 3 - 1
    s.turn = 2
    s._next_turn()
    assert not s.is_terminal() and s.turn == 0
    assert "Round 101: player 1, " in s.game.render_observation(s.observation(0))


def test_technical_round_cap_bounds_the_game_length() -> None:
    s = start()
    s.turns_played = ROUND_CAP * 3 - 1
    s.turn = 2
    s._next_turn()
    assert s.is_terminal() and s.log[-2] == "the round cap is reached"
    assert s.game.max_game_length() > ROUND_CAP * 3 * 50


def test_max_rounds_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="'max_rounds' must be an int from 0 to 10000, got -1"):
        obelisk.load("cleopatra", 3, max_rounds=-1)


def test_character_plays_per_turn_are_bounded() -> None:
    """Two Courtesans could take each other back from the pile forever; a turn plays at most 11 characters."""
    s = start()
    set_hand(s, 0, courtesans=1)
    s._discard(K["courtesans"])
    s.deck[K["courtesans"]] -= 1
    s._legal = None
    plays = 0
    while any(label.startswith("play Courtesans") for label in labels(s)):
        do(s, "play Courtesans", "take Courtesans from the discard pile")
        plays += 1
    assert plays == s._rules.max_plays == 11 and s.amulets[0] == 11
    assert labels(s)[0].startswith("take stall")


def test_resample_keeps_cards_seen_in_hands() -> None:
    s = start()
    s.stalls = [[(K["stone"], 1), (K["wood"], 0)], [(K["marble"], 1)], [(K["lapis"], 0)]]
    s._legal = None
    do(s, "take stall A")
    rng = random.Random(5)
    hidden_card = set()
    for _ in range(30):
        other = s.resample_from_infostate(1, rng)
        assert other.hands[0][K["stone"]] >= 1 and sum(other.hands[0]) == 2
        assert other.observation(1) == s.observation(1)
        rest = list(other.hands[0])
        rest[K["stone"]] -= 1
        hidden_card.add(rest.index(1))
    assert len(hidden_card) > 2  # the face-down card is re-dealt
    assert all(s.resample_from_infostate(0, rng).hands[0] == s.hands[0] for _ in range(5))


def test_an_empty_market_is_restocked_when_cards_come_back() -> None:
    """Ruling 20: stalls emptied when no card was left to deal get a card each at the next turn's start."""
    s = start()
    set_hand(s, 0, artisan=1, stone=1, wood=1)
    s.stalls = [[], [], []]
    s.deck = [0] * len(KINDS)
    s.deck_up = 0
    s.discards = [0] * len(KINDS)
    s._legal = None
    do(s, "build wall L1", "finish building")
    chance(s, 0)  # no priest symbol rolled; the empty hand ends the turn by itself
    assert s.turn == 1 and s.is_chance_node() and s.queue == [(Q_STALL, 0), (Q_STALL, 1), (Q_STALL, 2)]
    assert sum(s.deck) == 3 and not any(s.discards)  # the paid cards became the new deck
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    assert [len(stall) for stall in s.stalls] == [1, 1, 1] and sum(s.deck) == 0
    assert "pass: no stall to take and nothing to build" not in labels(s)
    assert "the market is empty: one card is dealt to each stall" in s.observation(2)["log"]


def test_pass_only_when_no_card_is_left_to_deal() -> None:
    """Ruling 20: with the deck and the discard pile exhausted and no stall to take, a player passes."""
    s = start()
    s.stalls = [[], [], []]
    s.deck = [0] * len(KINDS)
    s.deck_up = 0
    s.discards = [0] * len(KINDS)
    s._legal = None
    do(s, "pass")
    assert s.turn == 1 and not s.is_chance_node()
    assert labels(s) == ["pass: no stall to take and nothing to build"]


def test_deck_draw_chances_are_exact():
    """Each card is equally likely and comes face up with chance face_up / size; an empty deck offers nothing."""
    deck = [0] * len(KINDS)
    deck[1], deck[4] = 3, 1
    for face_up in (0, 2, 4, 2):
        outcomes = draw_outcomes(deck, face_up)
        down, up = (4 - face_up) / 16, face_up / 16
        expected = [(1, 3 * down), (4, 1 * down)] if face_up < 4 else []
        expected += [(len(KINDS) + 1, 3 * up), (len(KINDS) + 4, 1 * up)] if face_up else []
        assert outcomes == expected
        assert [o for o in range(-1, 2 * len(KINDS) + 2) if is_draw_outcome(deck, face_up, o)] == [
            kind for kind, _ in expected]
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    deck[7] = 5
    assert draw_outcomes(deck, 1)[2] == (7, 5 * (8 / 81))
    assert draw_outcomes([0] * len(KINDS), 0) == []
    assert not any(is_draw_outcome([0] * len(KINDS), 0, o) for o in range(2 * len(KINDS)))
