"""The Valley of the Kings game object: options, card table, action space and bounds."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import obelisk.games.valley.rules as R
from obelisk.core import Game, State
from obelisk.core.help import GameHelp
from obelisk.core.previews import Preview
from obelisk.core.shortcuts import Shortcut
from obelisk.games.valley.actions import make_actions
from obelisk.games.valley.data import INFO, SET, STARTER, CardTable, build_help, load_cards
from obelisk.games.valley.effects import EFFECTS
from obelisk.games.valley.rules import Rules
from obelisk.games.valley.scoring import card_worth, score_heading
from obelisk.games.valley.state import ValleyState
from obelisk.games.valley.status import payment, previews, render_decision, render_progress
from obelisk.games.valley.tensor import Encoder, tensor_size
from obelisk.games.valley.view import render_legend, render_view

_TABLE_CACHE: dict[str, CardTable] = {}


class ValleyGame(Game):
    """Valley of the Kings for 2–4 players, with the card table of the ``cards`` option."""

    info = INFO
    state_class = ValleyState

    def _setup(self) -> None:
        path = self.options["cards"]
        table = _TABLE_CACHE.get(path) if not path else None
        if table is None:
            table = load_cards(path)
            if not path:
                _TABLE_CACHE[path] = table
        self.table = table
        self.encoder = Encoder(table)
        self.actions = make_actions(table.size)
        start = self.actions.start
        self.a_buy, self.a_play, self.a_entomb = start("buy"), start("play"), start("entomb")
        self.a_end, self.a_pay, self.a_fill = start("end_turn"), start("pay"), start("fill_b2")
        self.a_remove, self.a_take, self.a_choose = start("remove"), start("take"), start("choose")
        self.a_discard, self.a_tomb, self.a_repeat = start("from_discard"), start("from_tomb"), start("repeat")
        self.a_boat, self.a_pass, self.a_censer = start("boat"), start("pass"), start("censer")
        # Per-kind tables for the hot paths (draws, legal moves, card actions, evaluation).
        self.rules = Rules(
            table,
            self.actions,
            self.num_players,
            R.ALL_SLOTS if self.options["forced_removal"] == "any" else R.BASE,
            card_worth(table),
            self.options["spent_cards"] == "discard",
            EFFECTS,
        )

    def help(self) -> GameHelp:
        """The rules summary and every card and set of this game's card table."""
        return build_help(self.table)

    def num_distinct_actions(self) -> int:
        return self.actions.size

    def max_chance_outcomes(self) -> int:
        return self.table.size

    def max_game_length(self) -> int:
        """Every turn removes a pyramid or stock card until both are empty, so turns are bounded.

        Within a turn every card action moves a distinct card out of the hand
        into the play area, where it stays until the turn ends; every payment
        spends a hand card, and a turn's hand cards are the five drawn plus
        those its actions bring (with ``spent_cards=discard`` a spent card can
        be reshuffled and drawn again, but only by such an action). Each step
        brings at most a bounded number of follow-up steps (draws, picks,
        victims' choices, Boat windows, crumbles, refills).
        """
        table = self.table
        cards = sum(table.copies)
        per_step = 30 + 4 * self.num_players + 9
        turns = table.stock_total() + self.num_players + 1
        setup = 7 + 5 * self.num_players
        return setup + turns * (3 * cards * per_step + 20)

    def score_range(self) -> tuple[int, int]:
        """Every starter of the players' decks and every unique at its VP, and each set with all its different
        cards.

        A tomb holds each copy once and scores a set by its different cards, so
        no tomb can score outside these sums (the lower one is 0 unless a card
        table has negative VP).
        """
        table = self.table
        n = self.num_players
        vp = [table.vp[kind] * (table.per_player[kind] * n if table.kind_type[kind] == STARTER else table.copies[kind])
              for kind in range(table.size) if table.kind_type[kind] != SET]
        kinds = [sum(1 for kind in range(table.size) if table.kind_type[kind] == SET and table.set_of[kind] == s)
                 for s in range(len(table.set_names))]
        return sum(v for v in vp if v < 0), sum(v for v in vp if v > 0) + sum(k * k for k in kinds)

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return render_view(view)

    def render_decision(self, view: Mapping[str, Any]) -> str:
        return render_decision(view)

    def render_progress(self, view: Mapping[str, Any]) -> str:
        return render_progress(view)

    def shortcuts(self, state: State, seat: int) -> list[Shortcut]:
        """Paying in one answer (``status.payment``)."""
        found = payment(state, seat)
        return [found] if found is not None else []

    def previews(self, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
        """A buy's price and the cards that would pay it (``status.previews``)."""
        return previews(self, view, actions)

    def score_heading(self, category: str) -> str:
        return score_heading(category)

    def render_legend(self, view: Mapping[str, Any]) -> str:
        return render_legend(self.table)

    def observation_tensor_size(self) -> int:
        return tensor_size(self.table.size)

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """See ``obelisk.games.valley.tensor`` for the layout (also in docs/games/valley.md)."""
        return self.encoder.encode(view)
