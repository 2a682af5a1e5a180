"""How the browser tests use the table page: as a person does, by what is shown and named.

A person sees the status line on top ("Your turn — …", "Bea is thinking…", "Game over"), the board (a region
named "Board") whose pieces they may play are buttons, a bar of the remaining moves next to it, menus, dialogs
and the page being busy (``aria-busy``) between sending a move and seeing its answer. Board tests and full-game
tests share these functions, so that a game is played only through what the page shows.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page, expect

WORDS = {
    "en": {"turn": "Your turn", "over": "Game over", "cancel": "Cancel", "undo": "Undo",
           "final": "This move cannot be taken back", "rules": "Rules", "close": "Close", "board": "Board",
           "status": "Status"},
    "cs": {"turn": "Jste na tahu", "over": "Konec hry", "cancel": "Zrušit", "undo": "Zpět",
           "final": "Tento tah nelze vzít zpět", "rules": "Pravidla", "close": "Zavřít", "board": "Hrací plán",
           "status": "Stav"},
}


RESULT = re.compile(r"(wins|share the win|You win!|You share the win with .+|Nobody wins)$")
"""The headline of the end of a game, which names the region of the result."""


def result(page: Page) -> Locator:
    """The end of the game: the headline (who won) names it; the reasons, places and scores are in it."""
    return page.get_by_role("region", name=RESULT)


def result_named(page: Page, headline: str) -> Locator:
    """The end of the game under exactly this headline."""
    return page.get_by_role("region", name=headline, exact=True)


def board(page: Page, lang: str = "en") -> Locator:
    return page.get_by_role("region", name=WORDS[lang]["board"])


def status(page: Page, lang: str = "en") -> Locator:
    return page.get_by_role("region", name=WORDS[lang]["status"])


def status_line(page: Page, lang: str = "en") -> Locator:
    return status(page, lang).get_by_role("heading")


def busy(page: Page) -> bool:
    """Whether a move was sent and its answer is not on screen yet."""
    return page.get_by_role("main").get_attribute("aria-busy") == "true"


def playable(page: Page, lang: str = "en") -> list[Locator]:
    """The moves a person can take now: the board's enabled pieces, then the bar's buttons (Undo aside)."""
    return [node for node, _ in named_moves(page, lang)]


def named_moves(page: Page, lang: str = "en") -> list[tuple[Locator, str]]:
    """The moves a person can take now, each with its name (what a screen reader says for it)."""
    found = []
    for place in (board(page, lang), status(page, lang)):
        buttons = place.get_by_role("button", disabled=False).filter(visible=True)
        found += [(buttons.nth(i), name) for i, name in enumerate(buttons.evaluate_all(NAMES))
                  if name != WORDS[lang]["undo"]]
    return found


NAMES = "(nodes) => nodes.map((node) => node.getAttribute('aria-label') || node.innerText)"
"""The accessible names of the nodes a locator finds, read in one step (their label, else their text)."""

TEXTS = "(nodes) => nodes.map((node) => node.innerText)"


def wait_turn(page: Page, lang: str = "en", timeout: float = 60) -> str:
    """Waits until the seat may move ("play") or the game is over ("over")."""
    words = WORDS[lang]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = status_line(page, lang).inner_text()
        if line == words["over"]:
            return "over"
        if line.startswith(words["turn"]) and not busy(page) and playable(page, lang):
            return "play"
        page.wait_for_timeout(40)
    raise AssertionError(f"no turn within {timeout} s: the status line reads {status_line(page, lang).inner_text()!r}")


def wait_answered(page: Page, timeout: float = 30) -> None:
    """Waits until the move just sent is answered by a new frame (the page is no longer busy)."""
    expect(page.get_by_role("main")).not_to_have_attribute("aria-busy", "true", timeout=timeout * 1000)


def name_of(node: Locator) -> str:
    return node.get_attribute("aria-label") or node.inner_text()


@dataclass
class Clicks:
    """The clicks a person made for each decision they took, and how many moves they confirmed."""

    per_decision: list[int] = field(default_factory=list)
    confirmed: int = 0


def choose(page: Page, rng: random.Random, prefer: tuple[str, ...] = (), avoid: tuple[str, ...] = (),
           lang: str = "en", clicks: Clicks | None = None) -> str:
    """Takes one move the way a person does: a piece or a bar button, then an entry of the menu it opens and
    the confirmation a move that cannot be taken back asks for. Returns the name of what was clicked first."""
    words = WORDS[lang]
    moves = named_moves(page, lang)
    options, names = [node for node, _ in moves], [name for _, name in moves]
    liked = [i for i, name in enumerate(names) if any(word in name for word in prefer)]
    fine = [i for i, name in enumerate(names) if not any(word in name for word in avoid)]
    index = rng.choice(liked or fine or list(range(len(options))))
    options[index].click()
    count = 1
    menu = page.get_by_role("menu")
    if menu.count() and menu.is_visible():
        entries = menu.get_by_role("menuitem")
        named = [(entries.nth(i), name) for i, name in enumerate(entries.evaluate_all(TEXTS)) if name != words["cancel"]]
        items, item_names = [item for item, _ in named], [name_of(item) for item, _ in named]
        wanted = [i for i, name in enumerate(item_names) if any(word in name for word in prefer)]
        items[rng.choice(wanted or list(range(len(items))))].click()
        count += 1
    dialog = page.get_by_role("dialog", name=words["final"])
    confirmed = dialog.count() > 0 and dialog.is_visible()
    if confirmed:
        dialog.get_by_role("button").first.click()
        count += 1
    if clicks is not None:
        clicks.per_decision.append(count)
        clicks.confirmed += confirmed
    return names[index]


FINAL = " (cannot be taken back)"
"""What a piece's or a button's accessible name ends with when its move cannot be taken back."""


def move_label(name: str) -> str:
    """The move's own label (the frame's ``legal`` label) from a piece's accessible name."""
    return name.removesuffix(FINAL)


def confirm(page: Page, lang: str = "en", key: str | None = None) -> None:
    """Answers the question a move that cannot be taken back asks: with ``key`` pressed (the keyboard's way, the
    focus being on the confirming button), else by clicking the confirming button."""
    dialog = page.get_by_role("dialog", name=WORDS[lang]["final"])
    expect(dialog).to_be_visible()
    if key:
        page.keyboard.press(key)
    else:
        dialog.get_by_role("button").first.click()


def smallest_text(page: Page) -> float:
    """The smallest text shown on the page in CSS pixels (a drawing's text as it is drawn, scaled)."""
    return float(page.evaluate("""() => {
      let smallest = Infinity;
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.nodeValue.trim()) continue;
        const element = node.parentElement;
        const box = element.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        let size = parseFloat(getComputedStyle(element).fontSize);
        const drawing = element.closest("svg");
        if (drawing && element !== drawing) size *= element.getScreenCTM().a;
        smallest = Math.min(smallest, size);
      }
      return smallest;
    }"""))


def overflowing(page: Page) -> list[str]:
    """Texts wider than the box they are shown in (a name that does not fit), and the page's own overflow."""
    return page.evaluate("""() => {
      const wide = [];
      if (document.documentElement.scrollWidth > window.innerWidth) wide.push("the page scrolls sideways");
      for (const element of document.querySelectorAll("main h2, main li, main button, main strong, main td, main th")) {
        const box = element.getBoundingClientRect();
        if (box.width && element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === "visible") {
          wide.push(element.textContent.slice(0, 60));
        }
      }
      for (const drawing of document.querySelectorAll("main svg")) {
        const area = drawing.getBoundingClientRect();
        for (const text of drawing.querySelectorAll("text")) {
          const box = text.getBoundingClientRect();
          if (box.width && (box.right > area.right + 1 || box.left < area.left - 1)) wide.push(text.textContent.slice(0, 60));
        }
      }
      return wide;
    }""")
