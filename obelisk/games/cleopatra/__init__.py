"""Cleopatra and the Society of Architects (Days of Wonder 2006, original edition), 3–5 players.

Architects build Cleopatra's palace for talents while corruption piles up in
their hidden pyramids. On a turn a player does exactly one of:

* **visit the market** – take every card of one of the 3 stalls (face-down
  cards stay secret), then put one new deck card on each stall, keeping its
  face; the deck is half face up, half face down, and is rebuilt the same way
  from the discard pile when empty;
* **visit the quarry** – build any number of palace pieces, paying resource
  cards: standard cards, tainted doubles (2 units, halves may go to different
  pieces this turn), Trompe-l'oeil (any 1 standard resource) and Nile
  merchants (any 1 unit, then removed). Walls (3 + 1 per mosaic touching the
  wall), sphinxes in order (2 odd / 5 even), pedestal then throne (12 each),
  obelisks (12), door frames (4 + 1 per wall in the unbroken run from the
  door) and mosaics from the top of the stack (4 + 1 per palm covered + 1
  per Anubis statue placed in a sanctuary the mosaic closed). 2
  pieces give +2 talents, 3 or more +5. Each finished category moves
  Cleopatra one step; then the High Priest dice not on the altar are rolled.

Every tainted card or character played adds its amulets. With all 5 dice on
the altar comes the Offering: secret talent bids, the highest bidder loses
up to 3 amulets, the others gain 1, 2, 3, 4. Mosaic pockets that no
remaining tile can fill become sanctuaries claimed with an Anubis statue;
at the end each sanctuary cell cancels an amulet. Character cards (Beggars,
Courtesans, Envoys, Scribes, Smugglers, Vizier) bend the rules on their
owner's turn; every opponent affected makes its own decision.

The game ends when Cleopatra reaches step 5 (5 of 6 categories complete):
tainted cards in hand add amulets, sanctuaries remove them, the most corrupt
architect is eaten by the crocodile, survivors get 3 talents per unused
merchant, and the most talents wins (ties: fewer amulets).

Rulings where the rulebook is silent are options or are listed in
docs/games/cleopatra.md.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from obelisk.core import Game, GameInfo, Option, register
from obelisk.games.cleopatra.data import DataError, load_tables
from obelisk.games.cleopatra.rules import MAX_BID, NUM_KINDS, VIZIER_DRAWS, Rules, make_actions
from obelisk.games.cleopatra.state import CleopatraState
from obelisk.games.cleopatra.tensor import TensorLayout
from obelisk.games.cleopatra.view import render_observation


@register
class CleopatraGame(Game):
    """Static description: data tables, the action layout and size bounds."""

    info = GameInfo(
        id="cleopatra",
        name="Cleopatra and the Society of Architects",
        min_players=3,
        max_players=5,
        default_players=4,
        description="build Cleopatra's palace for talents without becoming the most corrupt architect",
        options=(
            Option("data", "", "path of a replacement component data file (JSON, see docs/games/cleopatra.md)"),
            Option("offering_ties", "worse", "players tied in the Offering all take the worse (or better) of their places",
                   ("worse", "better")),
            Option("crocodile_ties", "all", "several most corrupt players: all are eaten, none is, or the richest of them",
                   ("all", "none", "richest")),
            Option("mosaic_mirror", False, "mosaic tiles may also be laid mirrored (not only rotated)", (True, False)),
            Option("priest_faces", 1, "High Priest symbols per die (of 6 faces)", (1, 2, 3)),
            Option("merchant_artisan", True, "a Nile merchant may replace an artisan", (True, False)),
            Option("anubis_talents", 1, "talents for each Anubis statue placed in a new sanctuary (0: none)", (1, 0)),
            Option("bonus_four_plus", 5, "multi-build bonus for 4 or more pieces in one turn", (5, 2, 0)),
            Option("max_rounds", 0, "the game also ends after this many rounds (0: no limit, as in the rulebook)",
                   bounds=(0, 10_000)),
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
        dispatch = [(getattr(CleopatraState, "_do_" + name), index)
                    for name, size in self.actions.ranges for index in range(size)]
        dice_outcomes = [self._dice(rolled) for rolled in range(self.tables.dice, -1, -1)]
        self.rules = Rules(self.tables, self.options, self.actions, dispatch, dice_outcomes)

    def _dice(self, rolled: int) -> tuple[tuple[int, float], ...]:
        """Binomial chances of 0..``rolled`` priest symbols."""
        p = self.options["priest_faces"] / self.tables.faces
        return tuple((k, math.comb(rolled, k) * p ** k * (1 - p) ** (rolled - k)) for k in range(rolled + 1))

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

    def observation_tensor_size(self) -> int:
        """Fixed for a data file, the same at every player count (seat blocks are padded to 5)."""
        return self.tensor.size

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """The view encoded as in docs/games/cleopatra.md, "Observation tensor"."""
        return self.tensor.encode(view)


__all__ = ["CleopatraGame", "CleopatraState", "MAX_BID"]
