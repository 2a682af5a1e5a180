"""The leaderboard and a player's profile as a person reads them: real tables with captions, links that open."""

from __future__ import annotations

import random
import re
import secrets
from datetime import datetime, timezone
from typing import Any, Callable

from playwright.sync_api import expect
from sqlalchemy import create_engine, update
from sqlalchemy.orm import Session

from obelisk.server.store import AccountRow, SeatRow
from tests.web.conftest import LiveServer, Tab


def add_account(url: str, name: str) -> str:
    """An account called ``name`` in the live server's database (as registering makes one); its id."""
    engine = create_engine(url)
    account = secrets.token_hex(8)
    with Session(engine) as session, session.begin():
        session.add(AccountRow(id=account, name=name, name_key=name.casefold(), password_hash="not a password",
                               created=datetime.now(timezone.utc)))
    engine.dispose()
    return account


def seat_accounts(url: str, table: str, accounts: dict[int, str]) -> None:
    """Seat the accounts at ``table``, as claiming a seat while signed in does."""
    engine = create_engine(url)
    with Session(engine) as session, session.begin():
        for seat, account in accounts.items():
            session.execute(update(SeatRow).where(SeatRow.table_id == table, SeatRow.seat == seat)
                            .values(account_id=account))
    engine.dispose()


def rated_game(server: LiveServer, accounts: dict[int, str]) -> dict[str, Any]:
    """A rated two-person Valley table with ``accounts`` seated, played to its end with random legal moves;
    its last frame."""
    created = server.claimed(server.post("/api/tables", {
        "game": "valley", "players": 2, "rated": True, "seats": [{"kind": "human", "name": "A"},
                                                               {"kind": "human", "name": "B"}]}))
    table = created["table"]["id"]
    seat_accounts(server.db_url, table, accounts)
    rng = random.Random(5)
    current = server.get(f"/api/tables/{table}/frame")
    while current["status"] != "finished":
        token = created["tokens"][str(current["table"]["to_act"])]
        mine = server.get(f"/api/tables/{table}/frame", token)
        server.post(f"/api/tables/{table}/moves", {"version": mine["version"], "action": rng.choice(mine["legal"])[0]},
                    token)
        current = server.get(f"/api/tables/{table}/frame")
    return current


def test_the_leaderboard_and_a_profile_read_as_tables_and_link_a_replay(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    ann, bob = add_account(live_server.db_url, "Ann"), add_account(live_server.db_url, "Bob")
    final = rated_game(live_server, {0: ann, 1: bob})
    places = final["result"]["outcome"]["places"]
    first = "Ann" if places[0] <= places[1] else "Bob"

    tab = open_tab()
    page = tab.page
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Ratings: Valley of the Kings").click()
    board = page.get_by_role("table", name="Leaderboard: Valley of the Kings")
    expect(board).to_be_visible()
    expect(board.get_by_role("columnheader")).to_have_text(["Rank", "Player", "Rating", "Rated games", "Wins"])
    rows = board.get_by_role("row")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_contain_text(first)
    board.get_by_role("link", name="Ann").click()

    expect(page.get_by_role("heading", name="Ann")).to_be_visible()
    stats = page.get_by_role("table", name="Statistics per game")
    rating = live_server.get("/api/players/Ann")["games"][0]["rating"]
    expect(stats.get_by_role("row", name=re.compile("Valley of the Kings")).get_by_role("cell")).to_have_text(
        ["1", "1" if places[0] == 1 else "0", str(places[0]), str(rating)])
    recent = page.get_by_role("table", name="Latest games")
    expect(recent.get_by_role("row")).to_have_count(2)
    expect(recent).to_contain_text(f"{places[0]} of 2")
    recent.get_by_role("link", name="Replay the game").click()
    expect(page.get_by_role("heading", name=re.compile(r"Move \d+ of \d+"))).to_be_visible()
    expect(page).to_have_url(re.compile(f"/table/{final['table']['id']}/replay"))
    tab.assert_clean()


def test_the_pages_speak_czech_and_name_an_unknown_player(live_server: LiveServer,
                                                          open_tab: Callable[..., Tab]) -> None:
    ann = add_account(live_server.db_url, "Ann")
    rated_game(live_server, {1: ann})
    tab = open_tab(locale="cs-CZ")
    page = tab.page
    page.goto(live_server.url + "/ratings/valley")
    board = page.get_by_role("table", name="Žebříček: Údolí králů")
    expect(board.get_by_role("columnheader")).to_have_text(["Pořadí", "Hráč", "Hodnocení", "Hodnocené hry", "Výhry"])
    expect(board.get_by_role("link", name="Ann")).to_be_visible()
    page.goto(live_server.url + "/players/Nobody")
    expect(page.get_by_role("alert")).to_have_text("Žádný hráč se jménem Nobody neexistuje.")
    page.goto(live_server.url + "/")
    expect(page.get_by_role("link", name="Žebříček: Údolí králů")).to_be_visible()
    page.get_by_role("article", name="Údolí králů").get_by_role("button", name="Připravit stůl").click()
    rated = page.get_by_label("Hodnocená hra")
    expect(rated).not_to_be_checked()
    rated.check()
    form = page.get_by_role("form")
    form.get_by_text("Další možnosti").click()
    form.get_by_label("Shoda bodů za hrobku").select_option(index=1)
    form.get_by_role("button", name="Založit stůl").click()
    expect(page.get_by_role("alert")).to_contain_text("výchozími volbami")
    assert live_server.get("/api/tables")["tables"] == []
    tab.assert_clean()
