-- Signals between processes (bot/signals.py) exist only on PostgreSQL, the store several
-- processes share: a SQLite file has one process, which changes its own memory itself.
-- This number keeps both dialects on one numbered list.
SELECT 1;
