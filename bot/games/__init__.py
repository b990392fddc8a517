"""Pure game engines: no Discord, no asyncio, no clock, no global random.

Every engine follows ``ENGINE_CONTRACT.md`` (``start``/``act``, ``Rules``/``State``)
plus the table conventions documented in :mod:`bot.games.common`.
"""
