"""Driving the lobby as a person does: a game's card, its form by its labels, the links shown after creation."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import LiveServer

SEAT_CHOICES = {"human": "A person (invite link)", "easy": "Bot (easy)", "normal": "Bot (normal)",
                "strong": "Bot (strong)"}


def choose_game(page: Page, game: str, button: str = "Set up a table", form: str = "New table: {game}") -> Locator:
    """Opens the form of ``game`` (its name as the card shows it) from its card; the form."""
    page.get_by_role("article", name=game).get_by_role("button", name=button).click()
    chosen = page.get_by_role("form", name=form.format(game=game))
    expect(chosen).to_be_visible()
    return chosen


def set_name(page: Page, name: str, label: str = "Your name") -> None:
    field = page.get_by_label(label, exact=True)
    field.fill(name)
    field.dispatch_event("change")


def table_of(url: str) -> str:
    return urlsplit(url).path.rstrip("/").split("/")[2]


def stored_seat(page: Page, table: str) -> dict[str, object]:
    """The seat this browser keeps for ``table`` (``localStorage``), as the table page reads it."""
    return json.loads(page.evaluate(f"localStorage.getItem('obelisk.seat.{table}')") or "null")


def create_in_lobby(page: Page, server: LiveServer, seats: list[tuple[str, str]], public: bool,
                    rated: bool = False) -> dict[str, str]:
    """Creates a Valley of the Kings table from the lobby in English (``rated``: with the Rated box ticked); the
    links by seat ("seat-0" is the creator's own seat with the token the lobby keeps) and "spectator"."""
    page.goto(server.url + "/")
    set_name(page, seats[0][1] or "Ann")
    form = choose_game(page, "Valley of the Kings")
    form.get_by_label("Players", exact=True).select_option(label=f"{len(seats)} players")
    for seat, (kind, name) in enumerate(seats[1:], start=1):
        form.get_by_label(f"Player {seat + 1}", exact=True).select_option(label=SEAT_CHOICES[kind])
        if kind == "human" and name:
            form.get_by_label(f"Name of player {seat + 1} (optional)").fill(name)
    form.get_by_label("List in open tables").set_checked(public)
    if rated:
        form.get_by_label("Rated", exact=True).check()
    form.get_by_role("button", name="Create table").click()
    created = page.get_by_role("region", name="Table created")
    expect(created).to_be_visible()
    table = table_of(str(created.get_by_role("link", name="Go to your table").get_attribute("href")))
    links = {"seat-0": f"{server.url}/table/{table}#token={stored_seat(page, table)['token']}",
             "spectator": created.get_by_role("textbox", name="For spectators").input_value()}
    for seat in range(1, len(seats)):
        if seats[seat][0] == "human":
            invite = created.get_by_role("textbox", name=re.compile(rf"^Invite for player {seat + 1} "))
            links[f"seat-{seat}"] = invite.input_value()
    return links
