"""Everything that speaks SQL. Nothing outside this package writes a query."""

from bot.storage.database import Database, Transaction

__all__ = ["Database", "Transaction"]
