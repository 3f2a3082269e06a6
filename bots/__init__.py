"""Bots: players that decide from exactly what their seat may see.

A level is a pure function of (algorithm version, level, the seat's view, the bot's own seed,
the move): ``bots.contract`` says how, ``bots.levels`` finds a level's player, ``bots.table``
plays games of bots in process and ``bots.duel`` measures one level against another on
duplicate deals. Layered between the service and the projections: bots read views, never the
game's state.
"""
