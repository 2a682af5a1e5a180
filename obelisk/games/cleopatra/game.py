"""The ``cleopatra`` game object: options, data tables, the action layout, size bounds and new states."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from obelisk.core import Game, GameInfo, Option, State
from obelisk.core.help import GameHelp
from obelisk.core.previews import Preview
from obelisk.core.shortcuts import Shortcut
from obelisk.games.cleopatra.actions import make_actions
from obelisk.games.cleopatra.data import SCORE_HEADINGS, DataError, build_help, load_tables, tr
from obelisk.games.cleopatra.rules import NUM_KINDS, VIZIER_DRAWS, Rules
from obelisk.games.cleopatra.state import DECISIONS, CleopatraState
from obelisk.games.cleopatra.status import payment, previews, render_decision, render_progress
from obelisk.games.cleopatra.tensor import TensorLayout
from obelisk.games.cleopatra.view import render_legend, render_observation


class CleopatraGame(Game):
    """Static description: data tables, the action layout and size bounds."""

    info = GameInfo(
        id="cleopatra",
        name="Cleopatra and the Society of Architects",
        min_players=3,
        max_players=5,
        default_players=4,
        turns=(20, 40),
        description="build Cleopatra's palace for talents without becoming the most corrupt architect",
        options=(
            Option("data", "", "path of a replacement component data file (JSON, see docs/games/cleopatra.md)",
                   label="Component file"),
            Option("offering_ties", "worse", "players tied in the Offering all take the worse (or better) of their places",
                   ("worse", "better"), label="When offerings tie",
                   help="Where players who offer the High Priest the same number of talents rank.",
                   value_labels=("All take the lower place", "All take the higher place"),
                   value_help=("Tied players share the worse of their places; a tie for the highest offering "
                               "removes nobody's amulets", "Tied players share the better of their places"),
                   rare=True),
            Option("crocodile_ties", "most",
                   "players tied for the most amulets: 'most' = all of them are eaten, but nobody when every player "
                   "ties; 'all' = all of them, even when every player ties (nobody wins); 'none' = none of them; "
                   "'richest' = the richest of them",
                   ("most", "all", "none", "richest"), label="When several players are the most corrupt",
                   value_labels=("All are eaten, unless everyone ties", "All are eaten", "Nobody is eaten",
                                 "The richest of them are eaten"),
                   value_help=("Everyone tied for the most amulets is eaten and cannot win; when every player has "
                               "as many, nobody has the most and nobody is eaten",
                               "Everyone tied for the most amulets is eaten, even when that is every player "
                               "(then nobody wins)",
                               "A tie for the most amulets saves them all",
                               "Only the tied players with the most talents are eaten"),
                   rare=True),
            Option("mosaic_mirror", False, "mosaic tiles may also be laid mirrored (not only rotated)", (True, False),
                   label="Mosaic tiles", help="How a mosaic tile may be turned when it is laid in the garden.",
                   value_labels=("Turned or flipped over", "Turned only"), rare=True),
            Option("priest_faces", 1, "High Priest symbols per die (of 6 faces)", (1, 2, 3),
                   label="High Priest symbols on each die",
                   help="The more symbols, the sooner all five dice reach the altar and an Offering follows.",
                   value_labels=("1 of 6 faces", "2 of 6 faces", "3 of 6 faces"),
                   value_help=("Offerings are rare", "Offerings come more often", "Offerings come often")),
            Option("merchant_artisan", True, "a Nile merchant may replace an artisan", (True, False),
                   label="A Nile merchant may stand in for an artisan",
                   value_labels=("Yes, it is a joker", "No, only for materials"), rare=True),
            Option("anubis_talents", 1, "talents for each Anubis statue placed in a new sanctuary (0: none)", (1, 0),
                   label="Talents for an Anubis statue",
                   help="For each statue placed in a sanctuary that the new mosaic tile closed.",
                   value_labels=("1 talent", "No talent"),
                   value_help=("", "The statue only removes amulets at the end"), rare=True),
            Option("bonus_four_plus", 5, "multi-build bonus for 4 or more pieces in one turn", (5, 2, 0),
                   label="Bonus for 4 or more pieces in one turn",
                   value_labels=("5 talents", "2 talents", "No bonus"),
                   value_help=("The same as for 3 pieces", "The same as for 2 pieces", ""), rare=True),
            Option("max_rounds", 0, "the game also ends after this many rounds (0: no limit, as in the rulebook)",
                   bounds=(0, 10_000), label="Round limit", unit="rounds",
                   help="0: no limit, as in the rulebook; otherwise the game also ends after this many rounds.",
                   rare=True),
        ),
    )
    state_class = CleopatraState

    def _setup(self) -> None:
        try:
            self.tables = load_tables(self.options["data"], self.options["mosaic_mirror"])
        except DataError as error:
            raise ValueError(str(error)) from None
        self.actions = make_actions(self.tables)
        self._sizes = (self.actions.size, max(2 * NUM_KINDS, self.tables.dice + 1, len(self.tables.tile_ids)))
        self.tensor = TensorLayout(self.tables)
        dispatch = [(DECISIONS[name], index)
                    for name, size in self.actions.ranges for index in range(size)]
        dice_outcomes = [self._dice(rolled) for rolled in range(self.tables.dice, -1, -1)]
        self.rules = Rules(self.tables, self.options, self.actions, dispatch, dice_outcomes)

    def _dice(self, rolled: int) -> tuple[tuple[int, float], ...]:
        """Binomial chances of 0..``rolled`` priest symbols."""
        p = self.options["priest_faces"] / self.tables.faces
        return tuple((k, math.comb(rolled, k) * p ** k * (1 - p) ** (rolled - k)) for k in range(rolled + 1))

    def help(self) -> GameHelp:
        """The rules summary, the cards, palace pieces and kit of this game's data file."""
        return build_help(self.tables)

    def score_heading(self, category: str) -> str:
        """The rulebook's name of a scoring category, in the active language."""
        if category in SCORE_HEADINGS:
            return tr.term("score", SCORE_HEADINGS[category])
        return super().score_heading(category)

    def num_distinct_actions(self) -> int:
        return self._sizes[0]

    def max_chance_outcomes(self) -> int:
        return self._sizes[1]

    def max_game_length(self) -> int:
        """Turns are bounded by ``max_rounds`` (else ``ROUND_CAP``); each turn by the cards in play.

        Per turn: at most every card played as a character (each with up to
        one decision per card in the game for the Envoys' offers and
        acceptances, the Vizier's draws and one per opponent), every piece of
        the palace built (choice, payments, placement, claims, stack draws),
        a dice roll and an Offering, the hand-limit discards and a deck
        rebuild's worth of market draws.
        """
        t = self.tables
        n = self.num_players
        cards = t.deck_size
        pieces = sum(t.pieces.values())
        statues = n * t.kit["anubis_statues"]
        per_character = 2 * cards + 2 * n + 2 * VIZIER_DRAWS + 4
        per_turn = (self.rules.max_plays * per_character + pieces * (2 + 2 * max(sum(c) for c in t.costs.values()) + 2)
                    + statues + len(t.tile_ids) + 4 * (n + 2) + cards + 20)
        return self.rules.max_rounds * n * per_turn + 3 * n * t.kit["cards_dealt"] + 20

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return render_observation(self.tables, view)

    def render_decision(self, view: Mapping[str, Any]) -> str:
        return render_decision(view)

    def render_progress(self, view: Mapping[str, Any]) -> str:
        return render_progress(view)

    def shortcuts(self, state: State, seat: int) -> list[Shortcut]:
        """Paying in one answer (``status.payment``)."""
        found = payment(state, seat)
        return [found] if found is not None else []

    def previews(self, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
        """The cells a mosaic, a sanctuary or a wall concerns, and whether a payment is tainted (``status.previews``)."""
        return previews(self, view, actions)

    def render_legend(self, view: Mapping[str, Any]) -> str:
        return render_legend(self.tables, view)

    def observation_tensor_size(self) -> int:
        """Fixed for a data file, the same at every player count (seat blocks are padded to 5)."""
        return self.tensor.size

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """The view encoded as in docs/games/cleopatra.md, "Observation tensor"."""
        return self.tensor.encode(view)

