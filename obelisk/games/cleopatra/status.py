"""What the table says about the game in words: the decision at hand and the progress, from a seat's view
alone, the shortcuts, and at the end the outcome.

The decision and the progress read only the observation (the phase, whose turn it is, what is still to
pay, Cleopatra's step), so they can name nothing a seat may not see: a secret bid or a Vizier's card is
never named. The outcome is read off the final tally (``state.final``): the most corrupt architect is
eaten and cannot win, the survivors rank by talents, equal talents by fewer amulets (the rulebook's
*Konec hry*).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from obelisk.core import State, i18n
from obelisk.core.previews import Preview
from obelisk.core.outcome import first_places, player, players, sentence, ties
from obelisk.core.shortcuts import Shortcut
from obelisk.games.cleopatra.data import RESOURCES, TAINTED0, TROMPE, Tables
from obelisk.games.cleopatra.rules import SOURCES
from obelisk.games.cleopatra.view import card_name, category_name, door_name, resource_name

if TYPE_CHECKING:
    from obelisk.games.cleopatra.state import CleopatraState

tr = i18n.domain("cleopatra")


def render_decision(view: Mapping[str, Any]) -> str:
    """What the seat to act must do now, in words: ``take a market stall or build at the quarry``."""
    if view.get("terminal") or view.get("current_player", -1) < 0:
        return ""
    phase = view["phase"]
    builder = view["turn"] + 1
    if phase == "pay":
        units = ", ".join(f"{count} {resource_name(name)}" for name, count in view["to_pay"].items())
        return tr("pay for the piece: {units} still due", units=units)
    if phase == "beggars":
        return tr("give player {n} 2 talents or a standard card", n=builder)
    if phase == "envoy_offer":
        return tr("offer player {n} standard cards, or none", n=builder)
    return {
        "turn": tr("take a market stall or build at the quarry; characters may be played"),
        "refill": tr("choose which drawn card goes on which stall"),
        "build": tr("build another piece or finish building"),
        "place": tr("choose where the piece goes"),
        "claim": tr("claim a sanctuary with an Anubis statue, or not"),
        "after": tr("play a character or end the turn"),
        "limit": tr("more than 10 cards: discard down to 10 or pay amulets"),
        "limit_discard": tr("discard a card"),
        "courtesans": tr("take a card from the discard pile"),
        "envoy_accept": tr("accept offered cards, or stop"),
        "vizier": tr("keep or reject the drawn card"),
        "offering": tr("bid talents in secret for the Offering"),
    }[phase]


def render_progress(view: Mapping[str, Any]) -> str:
    """``round 4 · Cleopatra at step 2 of 5 · altar 3 of 5 dice``: the game ends when Cleopatra reaches the
    palace door, an Offering comes when every die is on the altar."""
    return " · ".join([
        tr("round {n}", n=view["round"]),
        tr("Cleopatra at step {step} of {steps}", step=view["cleopatra"], steps=view["cleopatra_steps"]),
        tr("altar {n} of {dice} dice", n=view["altar"], dice=view["dice"]),
    ])


def talents(total: int) -> str:
    return tr.n("{n} talent", "{n} talents", total)


def outcome(state: CleopatraState, places: list[int]) -> tuple[list[int], list[str]]:
    """The winners (the richest survivors: an eaten architect never wins) and the reasons."""
    final = state.final
    assert final is not None, "the outcome is read from the final tally"
    eaten = [seat for seat in range(state.num_players) if final["eaten"][seat]]
    survivors = [seat for seat in range(state.num_players) if seat not in eaten]
    winners = [seat for seat in first_places(places) if seat not in eaten]
    totals = final["talents"]
    lines = _crocodile(final["amulets"], eaten, state._rules.crocodile_ties)
    if len(winners) == 1:
        lines.append(sentence(tr("{player}, the richest architect left, won with {amount}.",
                                 player=player(winners[0]), amount=talents(totals[winners[0]]))))
    elif winners:
        lines.append(sentence(tr("{players}, the richest architects left, share the win with {amount} each.",
                                 players=players(winners), amount=talents(totals[winners[0]]))))
    else:
        lines.append(tr("Every architect was eaten: nobody wins."))
    return winners, lines + ties(state, places, talents, among=survivors)


def _crocodile(corruption: list[int], eaten: list[int], rule: str) -> list[str]:
    """Who had the most corruption, and whom the crocodile ate for it (the rule for several: ``crocodile_ties``)."""
    most = max(corruption)
    tied = [seat for seat, amulets in enumerate(corruption) if amulets == most]
    amulets = tr.n("{n} amulet", "{n} amulets", most)
    if len(tied) == 1:
        return [sentence(tr("{player} had the most corruption ({amulets}) and was eaten by the crocodile.",
                            player=player(tied[0]), amulets=amulets))]
    if not eaten:
        return [sentence(tr("{players} tied for the most corruption ({amulets}), so the crocodile ate nobody.",
                            players=players(tied), amulets=amulets))]
    if eaten == tied:
        return [sentence(tr("{players} tied for the most corruption ({amulets}) and were all eaten by the "
                            "crocodile.", players=players(tied), amulets=amulets))]
    return [sentence(tr("{players} tied for the most corruption ({amulets}); the crocodile ate the richest of "
                        "them, {eaten}.", players=players(tied), amulets=amulets, eaten=players(eaten)))]


def payment(state: State, seat: int) -> Shortcut | None:
    """Pay the rest of a building with resource cards of the resources asked, while that is possible to the end.

    Offered only when every unit left can be paid so: the tainted cards (an amulet each), the
    Trompe-l'oeil and the Nile merchants stay in hand for the player to choose, one by one. What
    can be paid depends only on the seat's own hand and the piece, both of which the seat sees.
    """
    game: Any = state.game
    trial = state.clone()
    actions: list[int] = []
    ways = len(SOURCES)
    while trial.current_player() == seat:
        paying = [action for action in trial.legal_actions() if game.actions.decode(action)[0] == "pay"]
        if not paying:
            break
        plain = [action for action in paying if game.actions.decode(action)[1] % ways == 0]
        if not plain:
            return None
        actions.append(plain[0])
        trial.apply_action(plain[0])
    if len(actions) < 2:
        return None
    names = game.tables.names
    paid: dict[str, int] = {}
    for action in actions:
        name = names[game.actions.decode(action)[1] // ways]
        paid[name] = paid.get(name, 0) + 1
    cards = ", ".join(tr("{count}x {name}", count=n, name=card_name(name)) if n > 1 else card_name(name)
                      for name, n in paid.items())
    return Shortcut("pay", tr("the rest at once with plain resource cards — {cards}", cards=cards), tuple(actions))


def previews(game: Any, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
    """Before a piece is chosen at the quarry (a wall, sphinx, pedestal, throne, obelisk, door frame or a
    mosaic tile): where it would stand, what it costs, the talents it brings and whether it completes its
    category; before a mosaic is laid or a sanctuary claimed: the garden cells it would cover; before a
    payment: whether the card is tainted (its amulets of corruption go into the seat's pyramid) or clean.
    The costs, rewards, placements, walls and amulets are the component data, the built pieces and the
    garden are in the seat's view, so nothing hidden is named."""
    found = []
    for action in actions:
        name, index = game.actions.decode(action)
        preview = _preview(game, view, action, name, index)
        if preview is not None:
            found.append(preview)
    return found


def _preview(game: Any, view: Mapping[str, Any], action: int, name: str, index: int) -> Preview | None:
    tables = game.tables
    if name == "place":
        piece = view.get("piece")
        if not piece or piece[0] != "mosaic" or index >= len(tables.placements[piece[1]]):
            return None
        cells = tuple(tables.cell_name(r * tables.cols + c) for r, c in tables.placements[piece[1]][index].cells)
        return Preview((action,), tr("the mosaic would cover {cells}", cells=", ".join(cells)), cells)
    if name == "claim" and index < len(view["claimable"]):
        cells = tuple(view["claimable"][index])
        return Preview((action,), tr("the sanctuary would take in {cells}", cells=", ".join(cells)), cells)
    if name in PIECE_CATEGORIES:
        return _piece_preview(game, view, action, name, index)
    if name == "pay":
        return _pay_preview(tables, action, index)
    return None


def _pay_preview(tables: Any, action: int, index: int) -> Preview:
    """Tainted or clean, in words: the page must not tell them apart by colour alone."""
    resource, source = divmod(index, len(SOURCES))
    if SOURCES[source] == "merchant":
        return Preview((action,), tr("clean: a Nile merchant puts no amulet into your pyramid"), ("merchant",))
    kind = (resource, TAINTED0 + resource, TROMPE)[source]
    card = tables.names[kind]
    amulets = tables.amulets[kind]
    if amulets:
        return Preview((action,), tr.n("tainted: {card} puts {n} amulet of corruption into your pyramid",
                                    "tainted: {card} puts {n} amulets of corruption into your pyramid", amulets,
                                    card=card_name(card)), (card,))
    return Preview((action,), tr("clean: {card} puts no amulet into your pyramid", card=card_name(card)), (card,))


PIECE_CATEGORIES: dict[str, str] = {"wall": "walls", "sphinx": "sphinxes", "pedestal": "throne", "throne": "throne",
                                    "obelisk": "obelisks", "door": "doors", "mosaic": "mosaics"}
"""The action ranges that choose a piece at the quarry, and the palace category each belongs to."""


def _piece_preview(game: Any, view: Mapping[str, Any], action: int, name: str, index: int) -> Preview:
    """``sphinx 3 of 6: costs 2 artisan, 1 stone, 1 marble, brings 2 talents``, and whether it completes its
    category; the marks are the board's things the talents are counted from and the resource cards of the cost."""
    tables = game.tables
    category = PIECE_CATEGORIES[name]
    what, reward, marks = _piece_facts(game, view, name, index)
    cost = tables.costs[category]
    text = tr("{piece}: costs {cost}, brings {talents}", piece=what, cost=_cost_text(cost), talents=reward)
    completes = _completion(tables, view, name, index)
    if completes:
        text = f"{text}; {completes}"
    return Preview((action,), text, (*marks, *(tables.names[r] for r, units in enumerate(cost) if units)))


def _cost_text(cost: Sequence[int]) -> str:
    return ", ".join(f"{n} {resource_name(RESOURCES[r])}" for r, n in enumerate(cost) if n) or tr("nothing")


def _piece_facts(game: Any, view: Mapping[str, Any], name: str, index: int) -> tuple[str, str, tuple[str, ...]]:
    """What the piece is and where it stands, its talents in words as the engine counts them (``_piece_reward``),
    and the names of the board's things that count."""
    tables = game.tables
    rewards = tables.rewards
    if name == "wall":
        cells = tuple(tables.cell_name(c) for c in game.rules.wall_cells[index])
        mosaics = _mosaics_next_to(tables, view, cells)
        total = rewards["walls"]["base"] + rewards["walls"]["per_adjacent_mosaic"] * len(mosaics)
        what = tr("the wall {wall} would stand next to {cells}", wall=tables.wall_ids[index], cells=", ".join(cells))
        said = talents(total) + " " + tr.n("({n} mosaic next to it)", "({n} mosaics next to it)", len(mosaics))
        return what, said, (tables.wall_ids[index], *cells)
    if name == "door":
        run = _door_run(tables, view, index)
        total = rewards["doors"]["base"] + rewards["doors"]["per_wall"] * len(run)
        what = tr("door frame {door}", door=door_name(tables.door_ids[index]))
        said = talents(total) + " " + tr.n("({n} wall built in a row along it)",
                                           "({n} walls built in a row along it)", len(run))
        return what, said, run
    if name == "sphinx":
        number = len(view["sphinxes"]) + 1
        what = tr("sphinx {number} of {count}", number=number, count=tables.pieces["sphinxes"])
        return what, talents(rewards["sphinxes"]["odd" if number % 2 else "even"]), ()
    if name == "obelisk":
        what = tr("obelisk {number} of {count}", number=len(view["obelisks"]) + 1, count=tables.pieces["obelisks"])
        return what, talents(rewards["obelisks"]["each"]), ()
    if name == "pedestal":
        return tr("the pedestal, on which the throne goes"), talents(rewards["throne"]["pedestal"]), ()
    if name == "throne":
        return tr("the throne on the pedestal"), talents(rewards["throne"]["throne"]), ()
    return _mosaic_facts(game, view, index)


def _mosaic_facts(game: Any, view: Mapping[str, Any], tile: int) -> tuple[str, str, tuple[str, ...]]:
    """A mosaic tile: its cells, where it still fits, and its talents (a base and more per palm it covers,
    ``Rules.placement_rewards``); the marks are the palms it could cover."""
    tables = game.tables
    free = _free_mask(tables, view)
    fits = [i for i, placement in enumerate(tables.placements[tile]) if not placement.mask & ~free]
    rewards = [game.rules.placement_rewards[tile][i] for i in fits]
    palms = 0
    for i in fits:
        palms |= tables.placements[tile][i].mask & tables.palm_mask
    what = tr("mosaic {tile} ({cells}), fits in {places}", tile=tables.tile_ids[tile],
              cells=tr.n("{n} cell", "{n} cells", tables.tile_size[tile]),
              places=tr.n("{n} place", "{n} places", len(fits)))
    low, high = min(rewards), max(rewards)
    said = talents(low) if low == high else tr("{low} to {high} talents, by the palms it covers", low=low, high=high)
    cells = tuple(tables.cell_name(c) for c in range(tables.rows * tables.cols) if palms >> c & 1)
    return what, said, cells


def _free_mask(tables: Tables, view: Mapping[str, Any]) -> int:
    """The garden cells no mosaic covers, read off the view's garden rows (``#`` blocked, a letter a mosaic)."""
    free = 0
    for r, row in enumerate(view["garden"]):
        for c, mark in enumerate(row):
            if mark == "." or mark == "*" or mark.isdigit():
                free |= 1 << (r * tables.cols + c)
    return free


def _mosaics_next_to(tables: Tables, view: Mapping[str, Any], cells: Sequence[str]) -> set[int]:
    """Which laid mosaics (their order in the view) cover some of ``cells``: each is found by its tile, its first
    cell and the garden's letters, as the view gives them."""
    owner = _mosaic_cells(tables, view)
    return {owner[cell] for cell in cells if cell in owner}


def _mosaic_cells(tables: Tables, view: Mapping[str, Any]) -> dict[str, int]:
    garden = view["garden"]
    owner: dict[str, int] = {}
    for number, (tile_id, first, _seat) in enumerate(view["mosaics"]):
        tile = tables.tile_ids.index(tile_id)
        for placement in tables.placements[tile]:
            names = [tables.cell_name(r * tables.cols + c) for r, c in placement.cells]
            if names[0] == first and all(garden[r][c] == tile_id[0] and tables.cell_name(r * tables.cols + c)
                                         not in owner for r, c in placement.cells):
                owner.update(dict.fromkeys(names, number))
                break
    return owner


def _door_run(tables: Tables, view: Mapping[str, Any], index: int) -> tuple[str, ...]:
    """The walls built in a row along door frame ``index``'s walk, from its start (the engine's ``_door_run``)."""
    run = []
    for slot in tables.door_walks[index]:
        if tables.wall_ids[slot] not in view["walls"]:
            break
        run.append(tables.wall_ids[slot])
    return tuple(run)


def _completion(tables: Tables, view: Mapping[str, Any], name: str, index: int) -> str:
    """``it completes the Sphinx: Cleopatra moves to step 3 of 5`` when the piece is its category's last, else ``""``."""
    pieces = tables.pieces
    last = {
        "wall": len(view["walls"]) + 1 >= len(tables.wall_ids),
        "door": len(view["doors"]) + 1 >= len(tables.door_ids),
        "sphinx": len(view["sphinxes"]) + 1 >= pieces["sphinxes"],
        "obelisk": len(view["obelisks"]) + 1 >= pieces["obelisks"],
        "pedestal": False,
        "throne": True,
        "mosaic": view["stack_top"] == tables.tile_ids[index] and not view["stack_others"],
    }[name]
    if not last:
        return ""
    category = category_name(tables, PIECE_CATEGORIES[name])
    step = view["cleopatra"] + 1
    if step >= view["cleopatra_steps"]:
        return tr("it completes the {category}: Cleopatra reaches the palace and the game ends", category=category)
    return tr("it completes the {category}: Cleopatra moves to step {step} of {steps}", category=category, step=step,
              steps=view["cleopatra_steps"])
