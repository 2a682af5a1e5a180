"""Clauses of the rulebook that make a choice optional or restrict an item, each quoted in its test."""

import pytest

from obelisk.bots import make_bot
from obelisk.core import IllegalActionError
from obelisk.games.tomb.actions import A_STEP
from obelisk.games.tomb.board import ITEM_IDS
from obelisk.games.tomb.rules import IN_CHAMBER, MAP_PICK, MOVE, RESERVE, ROB, ROLL, TAKE
from obelisk.games.tomb.state import TombState

from tests.games.tomb.helpers import cell, draw, figure, give, holds, labels, new, play, tile, turn


def test_ghost_may_not_enter_the_closed_chamber() -> None:
    """Papyrus: "Jediná pole, na která nemůžete vstoupit, jsou pohřební komnata (pokud již není otevřena)"."""
    s = new(2, pyramid="big")
    tile(s, "E4", "cross", "NESW")
    figure(s, 0, "E4")
    give(s, 0, "papyrus_of_the_dead")
    s.insc[0] = 0b11111
    turn(s, 0, 2, "E4")
    play(s, "read the papyrus of the dead: ghost walk")
    assert "step south to E5 (ghost)" not in labels(s), "five inscriptions do not let a ghost through the walls"
    with pytest.raises(IllegalActionError, match="ghost may not enter the burial chamber before it is opened"):
        s.apply_action(A_STEP + 2)
    s = new(2, pyramid="big")
    tile(s, "E4", "cross", "NESW")
    figure(s, 0, "E4")
    give(s, 0, "papyrus_of_the_dead")
    s.chamber_open = True
    s.finished = [1]
    turn(s, 0, 2, "E4")
    play(s, "read the papyrus of the dead: ghost walk", "step south to E5 (ghost)")
    assert s.finished == [1, 0], "the open chamber is no obstacle to a ghost"


def test_ghost_must_use_the_whole_roll() -> None:
    """Papyrus: "Také musíte vyčerpat celý hod kostkou." A step after which the walk cannot go on is not legal."""
    s = new(2, pyramid="big")
    tile(s, "C1", "cross", "NESW")
    tile(s, "A2", "cross", "NESW")
    figure(s, 0, "C1")
    give(s, 0, "papyrus_of_the_dead")
    s.curse = cell("A2")
    turn(s, 0, 3, "C1")
    play(s, "read the papyrus of the dead: ghost walk", "step west to B1 (ghost)")
    assert "step west to A1 (ghost)" not in labels(s), "from A1 only the cursed A2 or the way back would remain"
    assert labels(s) == ["step south to B2 (ghost)"]


def test_papyrus_is_offered_only_when_a_whole_walk_exists() -> None:
    """Papyrus: "Také musíte vyčerpat celý hod kostkou." With no walk of the remaining steps the papyrus waits."""
    s = new(2, pyramid="big")
    tile(s, "C1", "straight", "EW")
    tile(s, "B1", "straight", "EW")
    tile(s, "A1", "corner", "ES")
    tile(s, "A2", "cross", "NESW")
    figure(s, 0, "C1")
    give(s, 0, "papyrus_of_the_dead")
    s.curse = cell("A2")
    turn(s, 0, 3, "C1")
    play(s, "step west to B1", "step west to A1")
    assert s.player == 1 and holds(s, 0, "papyrus_of_the_dead"), "stuck in A1: no ghost walk of 1 step (A2 cursed)"


def test_map_may_be_left_unused() -> None:
    """Map: "Jestliže otočíte pole s nakreslenou mapou, můžete odkrýt jakékoliv neprozkoumané pole"."""
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    draw(s, "t junction with map")
    play(s, "orient tile: openings N,S,W")
    assert s.phase == MAP_PICK and "leave the map unused" in labels(s)
    face_down = sum(1 for k in s.kind if k < 0)
    play(s, "leave the map unused")
    assert sum(1 for k in s.kind if k < 0) == face_down and s.player == 1 and s.fig[0] == cell("C2")


def test_map_may_reveal_the_next_square_and_the_archaeologist_may_step_onto_it() -> None:
    """Map: "Pokud jste vybrali dílek vedle vašeho archeologa (vedle dílku s mapou) a zbývají vám body pohybu,
    můžete se se svou figurkou pohnout i na toto místo, pokud je to možné." The revealed tile is turned freely."""
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 2, "C1")
    play(s, "step south to C2")
    draw(s, "t junction with map")
    play(s, "orient tile: openings N,E,S", "use the map: reveal D2")
    draw(s, "corner")
    assert labels(s) == [f"orient tile: openings {o}" for o in ("N,E", "E,S", "N,W", "S,W")], "any orientation"
    play(s, "orient tile: openings S,W")
    assert "step east to D2" in labels(s)
    play(s, "step east to D2")
    assert s.fig[0] == cell("D2") and s.player == 1


def test_item_on_a_tile_may_be_left_there() -> None:
    """Items: "Pokaždé když vstoupíte ... na takové odkryté či neodkryté pole, můžete si vzít žeton tohoto předmětu"."""
    s = new()
    tile(s, "C2", "corner with Food", "NE")
    figure(s, 0, "B1")
    turn(s, 0, 3, "B1")
    play(s, "step east to C1", "step south to C2")
    assert s.phase == TAKE and labels(s) == ["take the Food", "leave the Food on the tile"]
    play(s, "leave the Food on the tile")
    assert not holds(s, 0, "food") and s.supply[ITEM_IDS.index("food")] == 6
    assert s.phase == MOVE and s.steps == 2, "movement goes on"


def test_robbing_is_optional_and_wounding_still_happens() -> None:
    """Ambush: "Smíte vzít předmět, který ještě nemáte" -- the attacker may take an item, or none."""
    s = new(2)
    figure(s, 0, "A1")
    figure(s, 1, "B1")
    give(s, 1, "torch")
    turn(s, 0, 1, "A1")
    play(s, "step east to B1")
    assert s.phase == ROB and labels(s) == ["rob Torch from player 2", "rob nothing from player 2"]
    play(s, "rob nothing from player 2")
    assert holds(s, 1, "torch") and not holds(s, 0, "torch")
    assert s.fig[3] == RESERVE and s.player == 1, "the figure is wounded all the same"


def test_chocolate_goes_below_the_number_rolled_not_the_die_after_food() -> None:
    """Chocolate: "můžete otočit kostku na libovolné nižší číslo než to, které vám právě padlo"."""
    s = new()
    figure(s, 0, "A1")
    give(s, 0, "chocolate", "food")
    turn(s, 0, 3)
    play(s, "eat food: die to 6")
    assert [label for label in labels(s) if "chocolate" in label] == ["eat chocolate: die to 1", "eat chocolate: die to 2"]
    play(s, "eat chocolate: die to 2")
    assert s.die == 2


def _open_chamber(players: int, finished: list[int], seat: int) -> TombState:
    """The chamber open, ``finished`` inside, ``seat`` on E4 (a cross above the chamber) with a 3 to move."""
    s = new(players)
    tile(s, "E4", "cross", "NESW")
    s.chamber_open = True
    s.finished = list(finished)
    for done in finished:
        s.fig[3 * done : 3 * done + 3] = [IN_CHAMBER] * 3
    figure(s, seat, "E4")
    turn(s, seat, 3, "E4")
    return s


def test_the_game_goes_on_until_the_last_player_enters() -> None:
    """End: "Ve chvíli, kdy do hrobky se svým archeologem vstoupí poslední hráč, hra končí." No round limit
    ends a real game: the default technical cap lies far beyond the rounds games take (docs: ruling 28)."""
    s = new(2)
    assert s.game.options["max_rounds"] >= 100
    s.round, s.player = 60, 1
    s._next_turn()
    assert s.round == 61 and s.phase == ROLL and not s.is_terminal()
    s = _open_chamber(2, [0], 1)
    play(s, "step south to E5")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_a_seat_outside_is_valued_below_the_next_free_place() -> None:
    """End: "Tím se určí další pořadí hráčů." Entering takes the best place still free, so it is worth more
    than any position outside, and the seats inside keep the value of their places."""
    s = _open_chamber(4, [0, 1], 2)
    before = s.evaluate()
    assert before[0] == 1.0 and before[1] == pytest.approx(1 / 3)
    assert -1.0 < before[2] < -1 / 3 and -1.0 < before[3] < -1 / 3
    play(s, "step south to E5")
    assert s.evaluate()[2] == pytest.approx(-1 / 3)


@pytest.mark.parametrize("bot", ["greedy", "ismcts:60"])
def test_bots_enter_the_open_chamber_also_as_the_last_player(bot: str) -> None:
    """A bot never gains by staying outside: with places open it takes the next one; as the last player
    outside (its place is fixed) it still ends the game instead of wandering on."""
    for finished, seat in (([0, 1], 2), ([0, 1, 2], 3)):
        for seed in range(4):
            s = _open_chamber(4, finished, seat)
            chosen = make_bot(bot, s.game, seat, seed=seed).choose(s)
            assert s.action_to_string(chosen) == "step south to E5", (finished, bot, seed)


def test_an_obstacle_acts_only_when_entered() -> None:
    """Obstacles: "V případě, že o předmět přijdete, zatímco stojíte na poli s překážkou ..., se ovšem nic neděje.
    Z pole můžete odejít a překážka vás neohrozí. Překážka účinkuje v okamžiku, kdy na ni vstoupíte.\""""
    s = new(2)
    tile(s, "C2", "straight with Snake", "NS")
    figure(s, 0, "C2")
    turn(s, 0, 1, "C2")
    play(s, "step north to C1")
    assert s.fig[0] == cell("C1") and s.player == 1, "leaving the snake without a torch is harmless"


def test_the_youngest_starts_and_play_goes_clockwise_skipping_players_inside() -> None:
    """Turn order: "Hru začíná nejmladší hráč ... Dále se hráči střídají po směru hodinových ručiček." and
    "Ten, kdo vstoupí do pohřební komnaty ..., dále ve hře nepokračuje." Seat 0 is the youngest player."""
    s = new(3)
    order = []
    for _ in range(3):
        order.append(s.player)
        s.apply_action(0)
        play(s, "enter at the north-west entrance")
    assert order == [0, 1, 2] and s.player == 0
    s.finished = [1]
    s.fig[3:6] = [IN_CHAMBER] * 3
    s.apply_action(0)
    play(s, "enter at the north-east entrance")
    assert s.player == 2


def test_big_pyramid_has_seven_colours_and_five_still_open_the_chamber() -> None:
    """Big pyramid: "je ve hře ... sedm různých starověkých nápisů ... K otevření pohřební komnaty však stále stačí
    přečíst jen pět z nich." TIP: "můžete hrát na všech sedm nápisů" (option all_inscriptions)."""
    big = new(2, pyramid="big")
    assert len(big.game.tables.colours) == 7 and big.game.tables.needed == 5
    assert new(2, pyramid="big", all_inscriptions=True).game.tables.needed == 7
