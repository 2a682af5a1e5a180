"""The per-game tables the rules read on every step, built once per game with their types.

The card table and the action space belong to the game object; the state
reads these typed copies instead (``ValleyState.rules``), so the compiled
rules index plain tuples rather than looking attributes up by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from obelisk.games.valley.effects import EFFECTS, Effect, PlayCheck, play_checks

if TYPE_CHECKING:
    from obelisk.core import ActionSpace
    from obelisk.games.valley.cards import CardTable


class Rules:
    """The card table's per-kind columns, the action offsets and the option-dependent tables.

    Pickled with its game (arena workers receive games by pickle) as its constructor's arguments.
    """

    def __init__(
        self,
        table: CardTable,
        actions: ActionSpace,
        num_players: int,
        forced_slots: tuple[int, ...],
        worth: tuple[float, ...],
        spent_to_discard: bool,
    ) -> None:
        self.table = table
        self.actions = actions
        self.num_players = num_players
        self.kind_ids: range = range(table.size)
        self.names: tuple[str, ...] = table.names
        self.cost: tuple[int, ...] = table.cost
        self.gold: tuple[int, ...] = table.gold
        self.vp: tuple[int, ...] = table.vp
        self.set_of: tuple[int, ...] = table.set_of
        self.params: tuple[dict[str, int], ...] = table.params
        self.effects: tuple[Effect, ...] = tuple(EFFECTS[name] for name in table.effect)
        self.play_checks: tuple[PlayCheck, ...] = play_checks(self.effects, self.params)
        self.boat_kinds: tuple[int, ...] = table.boat_kinds
        self.ward_kinds: tuple[int, ...] = table.ward_kinds
        self.stock_total: int = table.stock_total()
        self.forced_slots = forced_slots
        self.worth = worth
        self.spent_to_discard = spent_to_discard
        start = actions.start
        self.a_buy, self.a_play, self.a_entomb = start("buy"), start("play"), start("entomb")
        self.a_end, self.a_pay, self.a_fill = start("end_turn"), start("pay"), start("fill_b2")
        self.a_remove, self.a_take, self.a_choose = start("remove"), start("take"), start("choose")
        self.a_discard, self.a_tomb, self.a_repeat = start("from_discard"), start("from_tomb"), start("repeat")
        self.a_boat, self.a_pass, self.a_censer = start("boat"), start("pass"), start("censer")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rules, (self.table, self.actions, self.num_players, self.forced_slots, self.worth, self.spent_to_discard))
