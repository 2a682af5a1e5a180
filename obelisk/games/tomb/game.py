"""The ``Game`` of Secret of the Ancient Tomb: options, static tables and rules, sizes and new states."""

from __future__ import annotations

from typing import Any, Mapping

from obelisk.core import Game, GameInfo, Option
from obelisk.core.help import GameHelp

from obelisk.games.tomb.actions import SPACE, TILE_OFFSET
from obelisk.games.tomb.board import Tables
from obelisk.games.tomb.data import build_help, load_tables
from obelisk.games.tomb.rules import Rules
from obelisk.games.tomb.scoring import heading
from obelisk.games.tomb.state import TombState
from obelisk.games.tomb.status import render_decision, render_progress
from obelisk.games.tomb.tensor import SIZE as TENSOR_SIZE
from obelisk.games.tomb.tensor import TombTensor
from obelisk.games.tomb.view import render_brief, render_legend, render_view

ROUND_CAP = 300
"""Default ``max_rounds``: far beyond the rounds bot games take (docs/games/tomb.md, ruling 28), low enough that
random playouts, which need not ever finish, stay short."""
PER_TURN_BOUND = 500
"""Actions one turn can take at most: roll, choice, at most 6 steps, item uses (each spends a token and a
turn gains at most a dozen), their follow-ups and the robberies of an ambush (see the docs)."""
REVEAL_BOUND = 3 * 81
"""Every square is revealed at most once (a draw, an orientation, a map choice)."""
MAX_ROUNDS = 1_000_000
"""Highest ``max_rounds``: far beyond any real game, and it keeps ``max_game_length`` a 64-bit integer."""


class TombGame(Game):
    """Secret of the Ancient Tomb (Tajemství prastaré hrobky), 2-6 players."""

    info = GameInfo(
        id="tomb",
        name="Secret of the Ancient Tomb",
        min_players=2,
        max_players=6,
        description=(
            "Explore a face-down pyramid maze with three archaeologists, read five ancient inscriptions, "
            "then be first into the burial chamber; items, obstacles, ambushes."
        ),
        options=(
            Option("pyramid", "small", "small (7x7, 48 tiles, 5 colours) or big (9x9, 80 tiles, 7 colours)", ("small", "big"),
                   label="Pyramid", value_labels=("Small", "Big"),
                   value_help=("7×7 squares, 48 tiles, 5 colours of inscriptions; for a first game",
                               "9×9 squares, 80 tiles, 7 colours of inscriptions")),
            Option("all_inscriptions", False, "the chamber opens only with every colour in play (long variant)", (False, True),
                   label="Inscriptions that open the chamber", value_labels=("Five colours", "Every colour in play"),
                   value_help=("", "A longer game: seven colours in the big pyramid")),
            Option(
                "data",
                "",
                "path of a JSON tile list replacing the stand-in mix; earlier mixes ship as "
                "obelisk/games/tomb/tomb_narrow.json, tomb_crossings.json and tomb_rebalanced.json (see docs/games/tomb.md)",
                label="Tile file",
            ),
            Option(
                "max_rounds",
                ROUND_CAP,
                "technical cap, not a rule: a game still running after this many rounds stops (players outside the "
                "chamber then rank by inscriptions read); real games end long before, when the last player enters",
                bounds=(1, MAX_ROUNDS), label="Round limit", unit="rounds",
                help="A technical stop, not a rule: a game still running after this many rounds ends; players "
                     "outside the chamber then rank by inscriptions read.",
                rare=True,
            ),
            Option(
                "chamber_entry",
                "opening",
                "'opening': the square next to the chamber must open toward it (digest ruling 15); 'adjacent': "
                "the chamber is entered from any orthogonal neighbour, so it can never be walled off",
                ("opening", "adjacent"), label="Entering the burial chamber",
                value_labels=("Through an opening", "From any neighbouring square"),
                value_help=("The square beside the chamber must open toward it", "The chamber can never be walled off"),
                rare=True,
            ),
            Option(
                "end",
                "last",
                "when the game ends: 'last' (the last player enters, rulebook), 'decided' (all places fixed), "
                "'first' (house rule: once someone enters)",
                ("last", "decided", "first"), label="The game ends",
                value_labels=("When the last player enters", "When the places are decided",
                              "When the first player enters"),
                value_help=("As in the rulebook", "When at most one player is still outside", "A shorter house rule"),
            ),
        ),
        default_players=4,
        minutes=(40, 40),
        turns=(26, 38),
    )
    state_class = TombState

    def _setup(self) -> None:
        end = self.options["end"]
        entries_to_end = 1 if end == "first" else self.num_players - 1 if end == "decided" else self.num_players
        self.actions = SPACE
        self.tables: Tables = load_tables(self.options["pyramid"], self.options["all_inscriptions"], self.options["data"])
        self.rules = Rules(
            self.tables, self.options["chamber_entry"] == "adjacent", self.options["max_rounds"], entries_to_end
        )
        self.tensor = TombTensor(self.tables)

    def help(self) -> GameHelp:
        """The rules summary and every item, obstacle and tile feature, counted for this pyramid."""
        return build_help(self.tables)

    def score_heading(self, category: str) -> str:
        """The scoring categories' headings from the game's catalog (``scoring.heading``)."""
        return heading(category)

    def num_distinct_actions(self) -> int:
        return SPACE.size

    def max_chance_outcomes(self) -> int:
        return TILE_OFFSET + len(self.tables.pool)

    def max_game_length(self) -> int:
        return self.options["max_rounds"] * self.num_players * PER_TURN_BOUND + REVEAL_BOUND

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return render_view(view)

    def render_decision(self, view: Mapping[str, Any]) -> str:
        return render_decision(view)

    def render_progress(self, view: Mapping[str, Any]) -> str:
        return render_progress(view)

    def render_legend(self, view: Mapping[str, Any]) -> str:
        return render_legend(view)

    def render_brief(self, view: Mapping[str, Any]) -> str:
        return render_brief(view)

    def observation_tensor_size(self) -> int:
        return TENSOR_SIZE

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """The layout is in ``obelisk.games.tomb.tensor`` and docs/games/tomb.md."""
        return self.tensor.encode(view)
