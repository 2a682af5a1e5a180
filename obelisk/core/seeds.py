"""Seeds: reproducible for research, secret and verifiable for play.

Every game is reproducible from (game, options, seed, actions). Research and
simulation pass their own seed. A game that people play must not let anyone
predict or rebuild hidden parts from the seed, so it draws a :class:`SecretSeed`
from the operating system, publishes only its :attr:`SecretSeed.commitment`
while the game runs, and reveals the seed and salt at the end; anyone can then
check with :func:`verify` that the chance outcomes came from the seed committed
to at the start.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

MAX_SEED = 2**63
"""Seeds are integers in ``[0, MAX_SEED)``."""

_SALT_BYTES = 16


def check_seed(seed: Any) -> int:
    """``seed`` if it is an integer in ``[0, MAX_SEED)``, else ``ValueError`` saying so."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1, got {_short(seed)}")
    return seed


def commitment(seed: int, salt: str) -> str:
    """The published hash of a secret seed: ``sha256:`` and 64 hex digits.

    The random salt makes the commitment useless for guessing the seed by
    trying seeds one by one.
    """
    digest = hashlib.sha256(f"obelisk-seed:{check_seed(seed)}:{salt}".encode()).hexdigest()
    return f"sha256:{digest}"


def verify(seed: Any, salt: Any, published: Any) -> bool:
    """Whether ``seed`` and ``salt`` are what ``published`` committed to."""
    if not isinstance(salt, str) or not isinstance(published, str):
        return False
    try:
        expected = commitment(seed, salt)
    except ValueError:
        return False
    return hmac.compare_digest(expected, published)


@dataclass(frozen=True)
class SecretSeed:
    """A seed nobody knows until it is revealed, with the salt of its commitment.

    Its ``repr`` shows only the commitment, so logging one never reveals it.
    """

    seed: int
    salt: str

    @classmethod
    def new(cls) -> "SecretSeed":
        """A fresh seed and salt from the operating system's secure generator."""
        return cls(secrets.randbelow(MAX_SEED), secrets.token_hex(_SALT_BYTES))

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.salt)

    def __repr__(self) -> str:
        return f"SecretSeed(commitment={self.commitment!r})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
