"""Terminal text from observations: palace, garden, market with face-down cards, own hand, hidden others."""

from __future__ import annotations

from obelisk.games.cleopatra.data import KINDS
from tests.games.cleopatra.helpers import set_hand, start


def test_render_observation_shows_public_board_and_own_hand_only() -> None:
    s = start()
    set_hand(s, 0, artisan=2, vizier=1)
    set_hand(s, 1, lapis=3)
    s.stalls = [[(KINDS.index("stone"), 1), (KINDS.index("wood"), 0)], [], []]
    text = s.game.render_observation(s.observation(0))
    assert "    abcdefghi" in text and "  1 ....*...." in text and "  5 *.*###*.*" in text
    assert "Stall A: Stone, face-down" in text and "Stall B: empty" in text
    assert "Seat 0 (you): 3 cards" in text and "hand: 2x Artisan, Vizier" in text
    assert "Lapis" not in text and "Wood" not in text
    spectator = s.game.render_observation(s.observation(None))
    assert "(you)" not in spectator and "Artisan x2" not in spectator


def test_merchants_are_public_talents_and_amulets_hidden() -> None:
    """ "Nilské kupce musí mít všichni hráči viditelně před sebou. Talenty naopak protihráčům ukazovat
    nesmíte" (merchants in sight of all, talents never shown); the pyramid is hidden until the end."""
    s = start(merchants=2)
    s.talents = [11, 12, 13]
    s.amulets = [4, 5, 6]
    view = s.observation(1)
    assert [p["merchants"] for p in view["players"]] == [2, 2, 2]
    assert view["players"][1]["talents"] == 12 and view["players"][1]["amulets"] == 5
    for q in (0, 2):
        assert "talents" not in view["players"][q] and "amulets" not in view["players"][q]
    assert "11" not in s.game.render_observation(view) and "13" not in s.game.render_observation(view)


def test_everything_is_shown_at_the_end() -> None:
    """ "Nyní hráči odklopí své korupční pyramidy" (the pyramids are turned over): at the end every seat
    sees every pyramid, hand and final count."""
    s = start()
    set_hand(s, 2, lapis=2)
    s.amulets = [1, 2, 3]
    assert "amulets" not in s.observation(0)["players"][2]
    s._end_game()
    view = s.observation(0)
    assert view["players"][2]["amulets"] == 3 and view["players"][2]["hand"] == {"Lapis": 2}
    assert view["final"]["amulets"] == [1, 2, 3] and view["final"]["eaten"] == [False, False, True]
