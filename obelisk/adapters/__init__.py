"""Research adapters: every Obelisk game as an OpenSpiel game, a PettingZoo AEC env and a Gymnasium env.

The submodules import their platform (``pyspiel``, ``pettingzoo``,
``gymnasium``) on import, so this package stays importable without the
``research`` extra; import the one you need:

>>> from obelisk.adapters import openspiel     # registers obelisk_<id> with pyspiel
>>> from obelisk.adapters import pettingzoo    # env("valley", players=2), or pettingzoo.valley_v0.env()
>>> from obelisk.adapters import gym           # registers obelisk/Valley-v0 ... for gymnasium.make

All three read a seat's information only through ``State.observation(seat)``
(strings, tensors, masks) and the engine's ``public_action_string``, so they
cannot show a seat more than the engine allows.
"""

ENV_PREFIX = "obelisk_"
"""Prefix of the names the adapters register (``obelisk_valley``, ``obelisk_valley_v0``)."""
