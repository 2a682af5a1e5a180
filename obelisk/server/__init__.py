"""Online tables: ``obelisk serve``, an HTTP + WebSocket server that is one more client of the protocol.

A table is a game record being written: its game, options, players, a
commitment to a secret seed, and its moves, appended to a database. The live
state is rebuilt by replaying the moves and cached in memory; only views
(``observation(seat)``, the seat's legal actions, ``public_action_string``)
ever leave the server. See docs/server.md.
"""
