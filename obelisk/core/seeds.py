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

from obelisk.core import codec

MAX_SEED = 2**63
"""Seeds are integers in ``[0, MAX_SEED)``."""

_SALT_BYTES = 16


def check_seed(seed: Any) -> int:
    """``seed`` if it is an integer in ``[0, MAX_SEED)``, else ``ValueError`` saying so."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1, got {codec.describe(seed)}")
    return seed


def check_salt(salt: Any) -> str:
    """``salt`` if it is a string UTF-8 can encode (it is hashed as such, never converted), else ``ValueError``."""
    if not isinstance(salt, str):
        raise ValueError(f"a seed's salt must be a string, got {codec.describe(salt)}")
    try:
        salt.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"a seed's salt must be text UTF-8 can encode, got {codec.describe(salt)} "
                         f"(character {error.start} is a lone surrogate)") from None
    return salt


def commitment(seed: int, salt: str) -> str:
    """The published hash of a secret seed: ``sha256:`` and 64 hex digits.

    The random salt makes the commitment useless for guessing the seed by
    trying seeds one by one. A seed out of range or a salt that is not a string
    is a ``ValueError`` naming it.
    """
    text = f"obelisk-seed:{check_seed(seed)}:{check_salt(salt)}"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
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
    Built from values read elsewhere (a record), a seed out of range or a salt
    that is not a string is refused at once, not when the commitment is asked for.
    """

    seed: int
    salt: str

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_salt(self.salt)

    @classmethod
    def new(cls) -> "SecretSeed":
        """A fresh seed and salt from the operating system's secure generator."""
        return cls(secrets.randbelow(MAX_SEED), secrets.token_hex(_SALT_BYTES))

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.salt)

    def __repr__(self) -> str:
        return f"SecretSeed(commitment={self.commitment!r})"
