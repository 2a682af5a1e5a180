"""The action space, readable action labels and the reasons an action is illegal.

``make_actions`` lays out the action ids from the component data. Labels
are computed from the position with full information but show only what the
acting seat may see (a face-down card stays "face-down"). Reasons name the
rule that forbids an action, e.g. "the throne needs the pedestal first" or
"the next unit to pay is stone".
"""

from __future__ import annotations

from typing import Any

from obelisk.core import ActionSpace
from obelisk.games.cleopatra.data import KINDS, RESOURCES, TAINTED0, TROMPE, Tables
from obelisk.games.cleopatra.rules import (
    CHARACTER_PLAYS, MAX_BID, MAX_SEATS, NUM_KINDS, PERMS, SOURCES, STALL_NAMES, STALLS, affordable, cost_text,
)


def make_actions(tables: Tables) -> ActionSpace:
    """The action-id layout; ranges sized from the data (walls, doors, tiles, placements, garden cells)."""
    playable = bin(tables.playable_mask).count("1")
    return ActionSpace([
        ("take", STALLS),
        ("refill", len(PERMS)),
        ("wall", len(tables.wall_ids)),
        ("sphinx", 1),
        ("pedestal", 1),
        ("throne", 1),
        ("obelisk", 1),
        ("door", len(tables.door_ids)),
        ("mosaic", len(tables.tile_ids)),
        ("place", max(len(p) for p in tables.placements)),
        ("pay", len(RESOURCES) * len(SOURCES)),
        ("finish", 1),
        ("claim", max(1, playable)),
        ("no_claim", 1),
        ("play", len(CHARACTER_PLAYS)),
        ("courtesan", NUM_KINDS),
        ("give_talents", 1),
        ("give_card", len(RESOURCES)),
        ("offer", len(RESOURCES)),
        ("offer_done", 1),
        ("accept", MAX_SEATS * len(RESOURCES)),
        ("accept_done", 1),
        ("keep", 1),
        ("reject", 1),
        ("bid", MAX_BID + 1),
        ("end_turn", 1),
        ("limit_discard", 1),
        ("limit_keep", 1),
        ("discard", NUM_KINDS),
        ("pass", 1),
    ])


PLAY_TEXT = {
    "beggars": "play Beggars: every opponent gives 2 talents or a standard card",
    "courtesans": "play Courtesans: take a card from the discard pile",
    "envoys": "play Envoys: ask the opponents for standard cards",
    "scribes_pick": "play Scribes: build any mosaic of the stack this turn",
    "scribes_die": "play Scribes: set a High Priest die on the altar",
    "smugglers": "play Smugglers: ignore the hand limit this turn",
    "vizier": "play Vizier: draw 5 cards, keep any",
}
PHASE_RANGES = {
    "turn": {"take", "wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic", "play", "pass"},
    "build": {"wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic", "finish", "play"},
    "after": {"play", "end_turn"},
    "pay": {"pay"},
    "place": {"place"},
    "refill": {"refill"},
    "claim": {"claim", "no_claim"},
    "courtesans": {"courtesan"},
    "beggars": {"give_talents", "give_card"},
    "envoy_offer": {"offer", "offer_done"},
    "envoy_accept": {"accept", "accept_done"},
    "vizier": {"keep", "reject"},
    "offering": {"bid"},
    "limit": {"limit_discard", "limit_keep"},
    "limit_discard": {"discard"},
}


def cell_list(state: Any, cells: Any) -> str:
    t = state.tables
    return " ".join(t.cell_name(r * t.cols + c) for r, c in cells)


def mask_cells(state: Any, mask: int) -> str:
    t = state.tables
    return " ".join(t.cell_name(c) for c in range(t.rows * t.cols) if mask >> c & 1)


def _amulet(n: int) -> str:
    return f" (+{n} amulet{'s' if n != 1 else ''})" if n else ""


def action_label(state: Any, action: int) -> str:
    """The label of any action id in this position."""
    name, i = state.game.actions.decode(action)
    t = state.tables
    names = t.names
    if name == "take":
        cards = ", ".join(state._card_look(c) for c in state.stalls[i]) or "empty"
        return f"take stall {STALL_NAMES[i]}: {cards}"
    if name == "refill":
        parts = [f"{STALL_NAMES[PERMS[i][j]]}<-{state._card_look(card)}" for j, card in enumerate(state.pending)]
        return "refill " + (", ".join(sorted(parts)) or "nothing")
    if name == "wall":
        reward = t.rewards["walls"]["base"] + t.rewards["walls"]["per_adjacent_mosaic"] * state._wall_tiles(i)
        return f"build wall {t.wall_ids[i]} (+{reward})"
    if name == "sphinx":
        number = len(state.sphinxes) + 1
        return f"build sphinx #{number} (+{t.rewards['sphinxes']['odd' if number % 2 else 'even']})"
    if name in ("pedestal", "throne"):
        return f"build {name} (+{t.rewards['throne'][name]})"
    if name == "obelisk":
        return f"build obelisk (+{t.rewards['obelisks']['each']})"
    if name == "door":
        reward = t.rewards["doors"]["base"] + t.rewards["doors"]["per_wall"] * state._door_run(i)
        return f"build door frame {t.door_ids[i]} (+{reward})"
    if name == "mosaic":
        how = "top of the stack" if i == state.stack_top else "Scribe pick"
        return f"build mosaic {t.tile_ids[i]} ({how})"
    if name == "place":
        piece = state.piece
        if not piece or piece[0] != "mosaic" or i >= len(t.placements[piece[1]]):
            return f"lay mosaic in placement {i}"
        placement = t.placements[piece[1]][i]
        palms = bin(placement.mask & t.palm_mask).count("1")
        reward = t.rewards["mosaics"]["base"] + t.rewards["mosaics"]["per_palm"] * palms
        return f"lay {t.tile_ids[piece[1]]} on {cell_list(state, placement.cells)} (+{reward})"
    if name == "pay":
        r, s = divmod(i, 4)
        source = SOURCES[s]
        if source == "merchant":
            return f"pay {RESOURCES[r]} with a Nile merchant"
        kind = (r, TAINTED0 + r, TROMPE)[s]
        return f"pay {RESOURCES[r]} with {names[kind]}{_amulet(t.amulets[kind])}"
    if name == "finish":
        bonus = state._bonus(state.built)
        return "finish building" + (f" (+{bonus} bonus)" if bonus else "")
    if name == "claim":
        if i < len(state.claimable):
            region = state.claimable[i]
            reward = state.game.options["anubis_talents"]
            gain = f", +{reward}" if reward else ""
            return f"claim sanctuary {mask_cells(state, region)} ({bin(region).count('1')} cells{gain})"
        return f"claim sanctuary #{i + 1}"
    if name == "no_claim":
        return "claim no sanctuary"
    if name == "play":
        play = CHARACTER_PLAYS[i]
        cost = {"scribes_die": t.scribes_die_amulets}.get(play, t.amulets[KINDS.index(play.split("_")[0])])
        return PLAY_TEXT[play] + _amulet(cost)
    if name == "courtesan":
        return f"take {names[i]} from the discard pile"
    if name == "give_talents":
        return f"give seat {state.turn} 2 talents"
    if name == "give_card":
        return f"give seat {state.turn} a {names[i]}"
    if name == "offer":
        return f"offer a {names[i]} to seat {state.turn}"
    if name == "offer_done":
        return "offer nothing more"
    if name == "accept":
        giver, r = divmod(i, 5)
        return f"accept {names[r]} from seat {giver}{_amulet(t.envoys_per_card)}"
    if name == "accept_done":
        return "accept no more offers"
    if name in ("keep", "reject"):
        card = names[state.pending[0][0]] if state.pending else "the card"
        return f"keep {card}{_amulet(t.vizier_per_card)}" if name == "keep" else f"discard {card}"
    if name == "bid":
        return f"bid {i} talent{'s' if i != 1 else ''}"
    if name == "end_turn":
        return "end turn"
    if name == "limit_discard":
        return f"discard down to {t.kit['hand_limit']} cards (+1 amulet)"
    if name == "limit_keep":
        extra = sum(state.hands[state.turn]) - t.kit["hand_limit"]
        return f"keep all cards (+{max(extra, 0)} amulets)"
    if name == "discard":
        return f"discard {names[i]}"
    return "pass: no stall to take and nothing to build"


def action_to_string(state: Any, action: int) -> str:
    """The label of ``action``: a chance outcome while a chance event waits, else a decision."""
    if state.queue and state.phase != "end":
        return _chance_label(state, action)
    return action_label(state, action)


def _chance_label(state: Any, outcome: int) -> str:
    head = state.queue[0]
    t = state.tables
    if head == "tile":
        return f"mosaic stack top: {t.tile_ids[outcome]}" if outcome < len(t.tile_ids) else f"tile {outcome}"
    if head == "dice":
        return f"{outcome} priest symbol(s) rolled"
    kind, up = outcome % NUM_KINDS, outcome // NUM_KINDS
    if up > 1:
        return f"outcome {outcome}"
    face = "face-up" if up else "face-down"
    if head.startswith("hand:"):
        return f"deal {t.names[kind]} to seat {head[5:]}"
    return f"draw {t.names[kind]} ({face})"


def _expected(state: Any) -> str:
    phase = state.phase
    seat = state.actor
    text = {
        "turn": f"seat {seat} takes a market stall or builds (characters may be played)",
        "build": f"seat {seat} builds another piece or finishes building (characters may be played)",
        "after": f"seat {seat} may play characters, then ends the turn",
        "pay": f"seat {seat} pays {RESOURCES[state._next_unit()]}" if any(state.to_pay) else "payment",
        "place": f"seat {seat} lays the mosaic",
        "refill": f"seat {seat} puts the drawn cards on the stalls",
        "claim": f"seat {seat} may claim a new sanctuary",
        "courtesans": f"seat {seat} takes a card from the discard pile",
        "beggars": f"seat {seat} answers the Beggars",
        "envoy_offer": f"seat {seat} offers cards to the Envoys",
        "envoy_accept": f"seat {seat} accepts offered cards",
        "vizier": f"seat {seat} keeps or discards a Vizier card",
        "offering": f"seat {seat} bids in the Offering",
        "limit": f"seat {seat} chooses how to meet the hand limit",
        "limit_discard": f"seat {seat} discards down to the hand limit",
    }
    return text.get(phase, phase)


def illegal_reason(state: Any, action: int) -> str:
    """Why ``action`` is not legal now, as specifically as the rules allow."""
    actions = state.game.actions
    if not 0 <= action < actions.size:
        return f"action {action} is outside the action space (0..{actions.size - 1})"
    name, i = actions.decode(action)
    label = state._safe_label(action)
    if name not in PHASE_RANGES.get(state.phase, set()):
        return f"'{label}' is not possible now: {_expected(state)}"
    specific = _specific(state, name, i)
    return f"'{label}' is illegal: {specific}" if specific else f"'{label}' is not legal now"


def _specific(state: Any, name: str, i: int) -> str | None:
    t = state.tables
    seat = state.actor
    hand = state.hands[seat]
    names = t.names
    if name == "take":
        return f"stall {STALL_NAMES[i]} is empty" if not state.stalls[i] else None
    if name in ("wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic"):
        return _piece_reason(state, name, i)
    if name == "pass":
        return "a stall can be taken or a piece built, so passing is not allowed"
    if name == "pay":
        r, s = divmod(i, 4)
        nxt = state._next_unit()
        if r != nxt:
            return f"the next unit to pay is {RESOURCES[nxt]}"
        source = SOURCES[s]
        if source == "merchant":
            if not state.merchants[seat]:
                return "you have no Nile merchant left"
            if r == 0 and not state.game.options["merchant_artisan"]:
                return "with merchant_artisan=false a Nile merchant cannot replace an artisan"
        else:
            kind = (r, TAINTED0 + r, TROMPE)[s]
            if not hand[kind]:
                return f"you hold no {names[kind]}"
        return "paying this way leaves the rest of the cost unpayable"
    if name == "place":
        tile = state.piece[1]
        if i >= len(t.placements[tile]):
            return f"mosaic {t.tile_ids[tile]} has only {len(t.placements[tile])} placements"
        return f"cells {mask_cells(state, t.placements[tile][i].mask & state.occupied)} are already covered"
    if name == "refill":
        return "face-down cards cannot be told apart: this assignment looks like an earlier one"
    if name == "claim":
        return f"only {len(state.claimable)} new sanctuar{'y' if len(state.claimable) == 1 else 'ies'} can be claimed"
    if name == "play":
        play = CHARACTER_PLAYS[i]
        kind = KINDS.index(play.split("_")[0])
        if not state.hands[state.turn][kind]:
            return f"you hold no {names[kind]} card"
        if play == "courtesans":
            return "the discard pile is empty"
        if play == "vizier":
            return "the deck and the discard pile are empty"
        if play == "smugglers":
            return "Smugglers were already played this turn"
        return "the any-mosaic mode is played before or during a build, with at least 2 tiles in the stack"
    if name == "courtesan":
        return f"the discard pile holds no {names[i]}"
    if name == "give_talents":
        return f"you hold only {state.talents[seat]} talent(s); give a standard card instead"
    if name in ("give_card", "offer"):
        return f"you hold no {names[i]}"
    if name == "accept":
        giver, r = divmod(i, 5)
        return f"seat {giver} has not offered a {names[r]}"
    if name == "bid":
        if i > MAX_BID:
            return f"bids above {MAX_BID} are not offered"
        return f"you hold only {state.talents[seat]} talents"
    if name == "discard":
        return f"you hold no {names[i]}"
    return None


def _piece_reason(state: Any, name: str, i: int) -> str | None:
    t = state.tables
    category = {"wall": "walls", "sphinx": "sphinxes", "pedestal": "throne", "throne": "throne",
                "obelisk": "obelisks", "door": "doors", "mosaic": "mosaics"}[name]
    if name == "wall" and state.walls[i] >= 0:
        return f"wall slot {t.wall_ids[i]} is already built"
    if name == "door" and state.doors[i] >= 0:
        return f"door frame {t.door_ids[i]} is already built"
    if name == "sphinx" and len(state.sphinxes) >= t.pieces["sphinxes"]:
        return f"all {t.pieces['sphinxes']} sphinxes are built"
    if name == "pedestal" and state.throne:
        return "the pedestal is already built"
    if name == "throne" and not state.throne:
        return "the throne needs the pedestal first"
    if name == "throne" and len(state.throne) >= 2:
        return "the throne is already built"
    if name == "obelisk" and len(state.obelisks) >= t.pieces["obelisks"]:
        return f"all {t.pieces['obelisks']} obelisks are built"
    if name == "mosaic":
        tile = t.tile_ids[i]
        if state.stack_top != i and i not in state.stack_rest:
            return f"mosaic {tile} is no longer in the stack"
        if state.stack_top != i and not state.scribe_picks:
            top = t.tile_ids[state.stack_top] if state.stack_top >= 0 else "none"
            return f"only the top mosaic ({top}) may be built; a Scribe played this turn allows another"
        if not state._fits(i):
            return f"mosaic {tile} fits nowhere in the garden"
    seat = state.turn
    if not affordable(t, list(t.costs[category]), state.credit, state.hands[seat], state.merchants[seat],
                      state.game.options["merchant_artisan"]):
        return (f"a {t.category_names[category]} piece costs {cost_text(t.costs[category])}; "
                f"your cards, tainted halves and Nile merchants cannot pay it")
    return None

