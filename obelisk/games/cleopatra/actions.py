"""The action space, readable action labels and the reasons an action is illegal.

``make_actions`` lays out the action ids from the component data. Labels
are computed from the position with full information but show only what the
acting seat may see (a face-down card stays "face-down"). Reasons name the
rule that forbids an action, e.g. "the throne needs the pedestal first" or
"the next unit to pay is stone".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from obelisk.core import ActionSpace, i18n
from obelisk.games.cleopatra.data import KINDS, RESOURCES, TAINTED0, TROMPE, Tables
from obelisk.games.cleopatra.rules import (
    CHARACTER_PLAYS, MAX_BID, MAX_SEATS, NUM_KINDS, PERMS, Q_DICE, Q_HAND, Q_TILE, SOURCES, STALL_NAMES, STALLS,
    affordable,
)

if TYPE_CHECKING:
    from obelisk.games.cleopatra.state import CleopatraState

tr = i18n.domain("cleopatra")


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




def _play_text(play: str) -> str:
    """The label of playing a character card (without its amulets)."""
    if play == "beggars":
        return tr.action("play Beggars: every opponent gives 2 talents or a standard card")
    if play == "courtesans":
        return tr.action("play Courtesans: take a card from the discard pile")
    if play == "envoys":
        return tr.action("play Envoys: ask the opponents for standard cards")
    if play == "scribes_pick":
        return tr.action("play Scribes: build any mosaic of the stack this turn")
    if play == "scribes_die":
        return tr.action("play Scribes: set a High Priest die on the altar")
    if play == "smugglers":
        return tr.action("play Smugglers: ignore the hand limit this turn")
    return tr.action("play Vizier: draw 5 cards, keep any")


def card_name(name: str) -> str:
    """A card's name in the active language."""
    return tr.term("card", name)


def resource_name(resource: str) -> str:
    """A resource (``stone``) in the active language."""
    return tr.term("resource", resource)


def cost_text(cost: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"{n} {resource_name(RESOURCES[r])}" for r, n in enumerate(cost) if n) or tr("nothing")
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


def cell_list(state: CleopatraState, cells: Any) -> str:
    t = state.tables
    return " ".join(t.cell_name(r * t.cols + c) for r, c in cells)


def mask_cells(state: CleopatraState, mask: int) -> str:
    t = state.tables
    return " ".join(t.cell_name(c) for c in range(t.rows * t.cols) if mask >> c & 1)


def _amulet(n: int) -> str:
    return " " + tr.n("(+{n} amulet)", "(+{n} amulets)", n) if n else ""


def action_label(state: CleopatraState, action: int) -> str:
    """The label of any action id in this position (``tr.action``: a button, or in the log its log form)."""
    name, i = state._rules.actions.decode(action)
    t = state.tables
    names = t.names
    if name == "take":
        cards = ", ".join(_look(state, c) for c in state.stalls[i]) or tr("empty")
        return tr.action("take stall {stall}: {cards}", stall=STALL_NAMES[i], cards=cards)
    if name == "refill":
        parts = [f"{STALL_NAMES[PERMS[i][j]]}<-{_look(state, card)}" for j, card in enumerate(state.pending)]
        return tr.action("refill {assignment}", assignment=", ".join(sorted(parts)) or tr("nothing"))
    if name == "wall":
        reward = t.rewards["walls"]["base"] + t.rewards["walls"]["per_adjacent_mosaic"] * state._wall_tiles(i)
        return tr.action("build wall {wall} (+{reward})", wall=t.wall_ids[i], reward=reward)
    if name == "sphinx":
        number = len(state.sphinxes) + 1
        return tr.action("build sphinx #{number} (+{reward})", number=number,
                  reward=t.rewards["sphinxes"]["odd" if number % 2 else "even"])
    if name == "pedestal":
        return tr.action("build pedestal (+{reward})", reward=t.rewards["throne"][name])
    if name == "throne":
        return tr.action("build throne (+{reward})", reward=t.rewards["throne"][name])
    if name == "obelisk":
        return tr.action("build obelisk (+{reward})", reward=t.rewards["obelisks"]["each"])
    if name == "door":
        reward = t.rewards["doors"]["base"] + t.rewards["doors"]["per_wall"] * state._door_run(i)
        return tr.action("build door frame {door} (+{reward})", door=door_name(t.door_ids[i]), reward=reward)
    if name == "mosaic":
        if i == state.stack_top:
            return tr.action("build mosaic {tile} (top of the stack)", tile=t.tile_ids[i])
        return tr.action("build mosaic {tile} (Scribe pick)", tile=t.tile_ids[i])
    if name == "place":
        piece = state.piece
        if not piece or piece[0] != "mosaic" or i >= len(t.placements[piece[1]]):
            return tr.action("lay mosaic in placement {index}", index=i)
        placement = t.placements[piece[1]][i]
        return tr.action("lay {tile} on {cells} (+{reward})", tile=t.tile_ids[piece[1]], cells=cell_list(state, placement.cells),
                  reward=state._rules.placement_rewards[piece[1]][i])
    if name == "pay":
        r, s = divmod(i, 4)
        source = SOURCES[s]
        if source == "merchant":
            return tr.action("pay {resource} with a Nile merchant", resource=resource_name(RESOURCES[r]))
        kind = (r, TAINTED0 + r, TROMPE)[s]
        return tr.action("pay {resource} with {card}", resource=resource_name(RESOURCES[r]),
                  card=card_name(names[kind])) + _amulet(t.amulets[kind])
    if name == "finish":
        bonus = state._bonus(state.built)
        if bonus:
            return tr.action("finish building (+{bonus} bonus)", bonus=bonus)
        return tr.action("finish building")
    if name == "claim":
        if i < len(state.claimable):
            region = state.claimable[i]
            reward = state.game.options["anubis_talents"]
            cells = mask_cells(state, region)
            size = bin(region).count("1")
            counted = tr.n("{n} cell", "{n} cells", size)
            if reward:
                return tr.action("claim sanctuary {cells} ({size}, +{reward})", cells=cells, size=counted, reward=reward)
            return tr.action("claim sanctuary {cells} ({size})", cells=cells, size=counted)
        return tr.action("claim sanctuary #{number}", number=i + 1)
    if name == "no_claim":
        return tr.action("claim no sanctuary")
    if name == "play":
        play = CHARACTER_PLAYS[i]
        cost = {"scribes_die": t.scribes_die_amulets}.get(play, t.amulets[KINDS.index(play.split("_")[0])])
        return _play_text(play) + _amulet(cost)
    if name == "courtesan":
        return tr.action("take {card} from the discard pile", card=card_name(names[i]))
    if name == "give_talents":
        return tr.action("give player {player} 2 talents", player=state.turn + 1)
    if name == "give_card":
        return tr.action("give player {player} a {card}", player=state.turn + 1, card=card_name(names[i]))
    if name == "offer":
        return tr.action("offer a {card} to player {player}", card=card_name(names[i]), player=state.turn + 1)
    if name == "offer_done":
        return tr.action("offer nothing more")
    if name == "accept":
        giver, r = divmod(i, 5)
        return tr.action("accept {card} from player {player}", card=card_name(names[r]), player=giver + 1) + _amulet(t.envoys_per_card)
    if name == "accept_done":
        return tr.action("accept no more offers")
    if name in ("keep", "reject"):
        card = card_name(names[state.pending[0][0]]) if state.pending else tr("the card")
        if name == "keep":
            return tr.action("keep {card}", card=card) + _amulet(t.vizier_per_card)
        return tr.action("discard {card}", card=card)
    if name == "bid":
        return tr.action("bid {talents}", talents=tr.n("{n} talent", "{n} talents", i))
    if name == "end_turn":
        return tr.action("end turn")
    if name == "limit_discard":
        return tr.action("discard down to {limit} cards (+1 amulet)", limit=t.kit["hand_limit"])
    if name == "limit_keep":
        extra = max(sum(state.hands[state.turn]) - t.kit["hand_limit"], 0)
        return tr.action("keep all cards {amulets}", amulets=tr.n("(+{n} amulet)", "(+{n} amulets)", extra))
    if name == "discard":
        return tr.action("discard {card}", card=card_name(names[i]))
    return tr.action("pass: no stall to take and nothing to build")


def _look(state: CleopatraState, card: tuple[int, int]) -> str:
    """A market or drawn card as the actor sees it, in the active language."""
    look = state._card_look(card)
    return tr("face-down") if look == "face-down" else card_name(look)


def door_name(door: str) -> str:
    """A door frame's name (``left``, ``right``) in the active language."""
    return tr.term("door", door)


def action_to_string(state: CleopatraState, action: int) -> str:
    """The label of ``action``: while a chance event waits, its outcome's line of the log (in the past tense, naming
    whom it concerns), else a decision's."""
    if state.queue and state.phase != "end":
        return _chance_label(state, action)
    return action_label(state, action)


def _chance_label(state: CleopatraState, outcome: int) -> str:
    event, payload = state.queue[0]
    t = state.tables
    if event == Q_TILE:
        if outcome < len(t.tile_ids):
            return tr("mosaic stack top: {tile}", tile=t.tile_ids[outcome])
        return tr("tile {outcome}", outcome=outcome)
    if event == Q_DICE:
        return tr("{n} priest symbol(s) rolled", n=outcome)
    kind, up = outcome % NUM_KINDS, outcome // NUM_KINDS
    if up > 1:
        return tr("outcome {outcome}", outcome=outcome)
    if event == Q_HAND:
        return tr("{card} dealt to player {player}", card=card_name(t.names[kind]), player=payload + 1)
    if up:
        return tr("{card} drawn (face-up)", card=card_name(t.names[kind]))
    return tr("{card} drawn (face-down)", card=card_name(t.names[kind]))


def _expected(state: CleopatraState) -> str:
    phase = state.phase
    seat = state.actor
    if phase == "turn":
        return tr("player {player} takes a market stall or builds (characters may be played)", player=seat + 1)
    if phase == "build":
        return tr("player {player} builds another piece or finishes building (characters may be played)", player=seat + 1)
    if phase == "after":
        return tr("player {player} may play characters, then ends the turn", player=seat + 1)
    if phase == "pay":
        if any(state.to_pay):
            return tr("player {player} pays {resource}", player=seat + 1, resource=resource_name(RESOURCES[state._next_unit()]))
        return tr("payment")
    texts = {
        "place": tr("player {player} lays the mosaic", player=seat + 1),
        "refill": tr("player {player} puts the drawn cards on the stalls", player=seat + 1),
        "claim": tr("player {player} may claim a new sanctuary", player=seat + 1),
        "courtesans": tr("player {player} takes a card from the discard pile", player=seat + 1),
        "beggars": tr("player {player} answers the Beggars", player=seat + 1),
        "envoy_offer": tr("player {player} offers cards to the Envoys", player=seat + 1),
        "envoy_accept": tr("player {player} accepts offered cards", player=seat + 1),
        "vizier": tr("player {player} keeps or discards a Vizier card", player=seat + 1),
        "offering": tr("player {player} bids in the Offering", player=seat + 1),
        "limit": tr("player {player} chooses how to meet the hand limit", player=seat + 1),
        "limit_discard": tr("player {player} discards down to the hand limit", player=seat + 1),
    }
    return texts.get(phase, str(phase))


def illegal_reason(state: CleopatraState, action: int) -> str:
    """Why ``action`` is not legal now, as specifically as the rules allow."""
    actions = state._rules.actions
    if not 0 <= action < actions.size:
        return tr("action {action} is outside the action space (0..{last})", action=action, last=actions.size - 1)
    name, i = actions.decode(action)
    label = state._safe_label(action)
    if name not in PHASE_RANGES.get(state.phase, set()):
        return tr("'{label}' is not possible now: {expected}", label=label, expected=_expected(state))
    specific = _specific(state, name, i)
    if specific:
        return tr("'{label}' is illegal: {reason}", label=label, reason=specific)
    return tr("'{label}' is not legal now", label=label)


def _specific(state: CleopatraState, name: str, i: int) -> str | None:
    t = state.tables
    seat = state.actor
    hand = state.hands[seat]
    names = t.names
    if name == "take":
        return tr("stall {stall} is empty", stall=STALL_NAMES[i]) if not state.stalls[i] else None
    if name in ("wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic"):
        return _piece_reason(state, name, i)
    if name == "pass":
        return tr("a stall can be taken or a piece built, so passing is not allowed")
    if name == "pay":
        r, s = divmod(i, 4)
        nxt = state._next_unit()
        if r != nxt:
            return tr("the next unit to pay is {resource}", resource=resource_name(RESOURCES[nxt]))
        source = SOURCES[s]
        if source == "merchant":
            if not state.merchants[seat]:
                return tr("you have no Nile merchant left")
            if r == 0 and not state.game.options["merchant_artisan"]:
                return tr("with merchant_artisan=false a Nile merchant cannot replace an artisan")
        else:
            kind = (r, TAINTED0 + r, TROMPE)[s]
            if not hand[kind]:
                return tr("you hold no {card}", card=card_name(names[kind]))
        return tr("paying this way leaves the rest of the cost unpayable")
    if name == "place":
        assert state.piece is not None, "the place phase follows the choice of a mosaic"
        tile = state.piece[1]
        if i >= len(t.placements[tile]):
            return tr("mosaic {tile} has only {count} placements", tile=t.tile_ids[tile], count=len(t.placements[tile]))
        return tr("cells {cells} are already covered", cells=mask_cells(state, t.placements[tile][i].mask & state.occupied))
    if name == "refill":
        return tr("face-down cards cannot be told apart: this assignment looks like an earlier one")
    if name == "claim":
        count = len(state.claimable)
        return tr.n("only {n} new sanctuary can be claimed", "only {n} new sanctuaries can be claimed", count)
    if name == "play":
        play = CHARACTER_PLAYS[i]
        kind = KINDS.index(play.split("_")[0])
        if not state.hands[state.turn][kind]:
            return tr("you hold no {card} card", card=card_name(names[kind]))
        if play == "courtesans":
            return tr("the discard pile is empty")
        if play == "vizier":
            return tr("the deck and the discard pile are empty")
        if play == "smugglers":
            return tr("Smugglers were already played this turn")
        return tr("the any-mosaic mode is played before or during a build, with at least 2 tiles in the stack")
    if name == "courtesan":
        return tr("the discard pile holds no {card}", card=card_name(names[i]))
    if name == "give_talents":
        return tr("you hold only {n} talent(s); give a standard card instead", n=state.talents[seat])
    if name in ("give_card", "offer"):
        return tr("you hold no {card}", card=card_name(names[i]))
    if name == "accept":
        giver, r = divmod(i, 5)
        return tr("player {player} has not offered a {card}", player=giver + 1, card=card_name(names[r]))
    if name == "bid":
        if i > MAX_BID:
            return tr("bids above {max} are not offered", max=MAX_BID)
        return tr("you hold only {n} talents", n=state.talents[seat])
    if name == "discard":
        return tr("you hold no {card}", card=card_name(names[i]))
    return None


def category_name(tables: Tables, category: str) -> str:
    """A palace category's name (``Wall``) in the active language."""
    return tr.term("piece", tables.category_names[category])


def _piece_reason(state: CleopatraState, name: str, i: int) -> str | None:
    t = state.tables
    category = {"wall": "walls", "sphinx": "sphinxes", "pedestal": "throne", "throne": "throne",
                "obelisk": "obelisks", "door": "doors", "mosaic": "mosaics"}[name]
    if name == "wall" and state.walls[i] >= 0:
        return tr("wall slot {wall} is already built", wall=t.wall_ids[i])
    if name == "door" and state.doors[i] >= 0:
        return tr("door frame {door} is already built", door=door_name(t.door_ids[i]))
    if name == "sphinx" and len(state.sphinxes) >= t.pieces["sphinxes"]:
        return tr("all {n} sphinxes are built", n=t.pieces["sphinxes"])
    if name == "pedestal" and state.throne:
        return tr("the pedestal is already built")
    if name == "throne" and not state.throne:
        return tr("the throne needs the pedestal first")
    if name == "throne" and len(state.throne) >= 2:
        return tr("the throne is already built")
    if name == "obelisk" and len(state.obelisks) >= t.pieces["obelisks"]:
        return tr("all {n} obelisks are built", n=t.pieces["obelisks"])
    if name == "mosaic":
        tile = t.tile_ids[i]
        if state.stack_top != i and i not in state.stack_rest:
            return tr("mosaic {tile} is no longer in the stack", tile=tile)
        if state.stack_top != i and not state.scribe_picks:
            top = t.tile_ids[state.stack_top] if state.stack_top >= 0 else tr("none")
            return tr("only the top mosaic ({top}) may be built; a Scribe played this turn allows another", top=top)
        if not state._fits(i):
            return tr("mosaic {tile} fits nowhere in the garden", tile=tile)
    seat = state.turn
    if not affordable(t, list(t.costs[category]), state.credit, state.hands[seat], state.merchants[seat],
                      state.game.options["merchant_artisan"]):
        return tr("a {piece} piece costs {cost}; your cards, tainted halves and Nile merchants cannot pay it",
                  piece=category_name(t, category), cost=cost_text(t.costs[category]))
    return None
