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
    assert "Garden" in text and "  1 ....*...." in text and "  5 *.*###*.*" in text
    assert "Stall A: Stone, face-down" in text and "Stall B: empty" in text
    assert "Seat 0 (you): 3 cards" in text and "Artisan x2, Vizier x1" in text
    assert "Lapis" not in text and "Wood" not in text
    spectator = s.game.render_observation(s.observation(None))
    assert "(you)" not in spectator and "Artisan x2" not in spectator
