"""The ``solomon`` game object: options, action space, size bounds and the data tables."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

import obelisk.games.solomon.data as d
from obelisk.core import Game, GameInfo, Option
from obelisk.core.help import GameHelp
from obelisk.core.previews import Preview
from obelisk.games.solomon.actions import make_actions
from obelisk.games.solomon.rules import ROUNDS, START_COINS, Rules
from obelisk.games.solomon.scoring import (
    CURSE_PRIZES,
    MAGIC_PRIZES,
    SCROLL_SET_BONUS,
    score_heading,
    scroll_sets,
    treasure_total,
)
from obelisk.games.solomon.state import SolomonState
from obelisk.games.solomon.status import previews, render_decision, render_progress
from obelisk.games.solomon.tensor import encode, tensor_size
from obelisk.games.solomon.view import render_legend, render_view


class SolomonGame(Game):
    """King Solomon's Treasury for 2-5 players."""

    info = GameInfo(
        id="solomon",
        name="King Solomon's Treasury",
        min_players=2,
        max_players=5,
        description=(
            "Dig tiles out of a 6x6 cave with secretly chosen excavation cards; move tiles to level the "
            "dig, pay for moves and curses, collect treasures, scroll sets and majorities."
        ),
        default_players=3,
        minutes=(45, 60),
        turns=(5, 12),
        options=(
            Option("data", "", "JSON file with the tile mix and the excavation cards (default: packaged stand-in data)",
                   label="Component file"),
            Option("uphill", False, "beginner variant: tiles may also be moved up (a stack still holds at most 4)",
                   (False, True), label="Moving tiles up",
                   value_labels=("Not allowed", "Allowed (first game)"),
                   value_help=("A tile moves only to a neighbouring stack of the same height or lower",
                               "A tile may also move onto a higher stack; a stack still holds at most 4")),
            Option(
                "move_limit",
                0,
                "fixed cap on tile moves per turn, 1-36 (0 = no fixed cap: at most as many moves as all the money "
                "in the game, more than anyone could pay)",
                bounds=(0, 36), label="Most tile moves in a turn", unit="moves",
                help="0: no fixed limit; you may move as often as all the money in the game could pay for.",
                rare=True,
            ),
            Option(
                "change",
                "supply",
                "change for an overpaying treasure: 'supply' = what the supply can make, 'unlimited' = always in coins",
                ("supply", "unlimited"), label="Change for a treasure",
                help="When a treasure pays more than you owe.",
                value_labels=("From the supply", "Always in full"),
                value_help=("Only as much as the coins and treasures in the supply can make",
                            "Always paid in full in coins"),
                rare=True,
            ),
            Option(
                "unaffordable",
                "penalty",
                "moves a player cannot pay for: 'penalty' = allowed, paid at the end of the turn, the penalty "
                "applies if coins and treasures (this turn's included) fall short (rulebook); 'forbid' = pay-bound "
                "variant for research and bots: a move is offered only while the coins and treasures already held "
                "pay for every move so far",
                ("penalty", "forbid"), label="Moves you cannot pay for",
                value_labels=("Allowed, paid at the end of the turn", "Not offered"),
                value_help=("As the rulebook says: if your coins and treasures, those dug this turn included, "
                            "cannot pay at the end of the turn, the tiles you dug go to the other players",
                            "A variant: only moves your coins and treasures already pay for are offered"),
                rare=True,
            ),
            Option("mirror_reflect", False, "the Mirror may also flip the card over, not only turn it", (False, True),
                   label="The Mirror", value_labels=("Turns the card", "Turns or flips the card"), rare=True),
            Option("tiebreak", "shared", "equal points: 'shared' win, or more 'coins' wins", ("shared", "coins"),
                   label="Equal points", value_labels=("Share the win", "More coins wins"), rare=True),
        ),
    )
    state_class = SolomonState
    search_defaults = MappingProxyType({"rollout": "greedy", "depth": 1})
    """A tile move only costs a coin until the dig it makes possible, which the evaluation cannot see, so
    the search scores each new leaf after one greedy decision (typically the best dig). At 1 s a move it
    beat greedy in 97.5% of 40 games; scoring the leaf at once, in 52.5% (docs/bots.md)."""

    def _setup(self) -> None:
        self.tables = d.load(self.options["data"])
        self.actions = make_actions(len(self.tables.cards))
        self.rules = Rules(self.tables, self.options, self.num_players, self.actions)
        self.num_chance = max(d.NUM_KINDS, len(self.tables.cards))
        self.card_numbers = self.rules.card_numbers

    def help(self) -> GameHelp:
        """The rules summary, tile types, magic items and excavation cards of this game's data."""
        return d.build_help(self.tables)

    def num_distinct_actions(self) -> int:
        return self.actions.size

    def max_chance_outcomes(self) -> int:
        return self.num_chance

    def max_game_length(self) -> int:
        n = self.num_players
        rounds = ROUNDS[n]
        limit = self.rules.move_limit
        max_dig = max(card.size for card in self.tables.cards)
        # One turn: moves, item uses, a dig (square by square with the Seal) or "end",
        # payments (each pays at least 1 of moves + curses), penalty deals and gifts.
        turn = limit + len(d.MAGIC_KINDS) + max_dig + 1 + (limit + max_dig * max(d.CURSE_VALUES)) + max_dig + n
        chance = d.SQUARES + n * rounds + d.SQUARES * d.DARK_PER_SQUARE
        return chance + rounds * n * (1 + turn)

    def score_range(self) -> tuple[int, int]:
        """0 up to all the money of the table, every scroll set of the box and both first prizes alone.

        Paying never raises a seat's coins and treasure values (the change is
        less than the treasure paid, by what was owed), and gifts and penalty
        deals only move tiles between seats, so a seat ends with at most the
        starting coins of all seats plus every treasure of the box.
        """
        tables = self.tables
        in_box = [gold + dark for gold, dark in zip(tables.gold, tables.dark)]
        money = START_COINS[self.num_players] * self.num_players + treasure_total(in_box)
        return 0, money + SCROLL_SET_BONUS * scroll_sets(in_box) + CURSE_PRIZES[0] + MAGIC_PRIZES[0]

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return render_view(view)

    def render_decision(self, view: Mapping[str, Any]) -> str:
        return render_decision(view)

    def render_progress(self, view: Mapping[str, Any]) -> str:
        return render_progress(view)

    def previews(self, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
        """A dig's squares and the coins the turn would cost, a move's coins (``status.previews``)."""
        return previews(self, view, actions)

    def render_legend(self, view: Mapping[str, Any]) -> str:
        return render_legend(view)

    def score_heading(self, category: str) -> str:
        return score_heading(category) or super().score_heading(category)

    def observation_tensor_size(self) -> int:
        return tensor_size(self.card_numbers)

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """See ``obelisk.games.solomon.tensor`` for the layout."""
        return encode(view, self.card_numbers)
