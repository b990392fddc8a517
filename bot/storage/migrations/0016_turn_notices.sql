-- Turn notices kept in the database (issue 34), so any process deletes one, once, and a
-- restart neither forgets one nor posts a second for the same turn: one row per member a
-- table waits for, with when they are to be told (they have been waited on for their
-- wait, /notify) and, once told, the message that told them. message_id 0: being posted.
CREATE TABLE turn_notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    due_at REAL NOT NULL,
    channel_id INTEGER,
    message_id INTEGER,
    UNIQUE (table_id, user_id)
);
-- How long a member is waited on before they are told (/notify wait; NULL: the default).
ALTER TABLE notify_prefs ADD COLUMN wait_seconds INTEGER;
-- When a member last pinged another (a challenge): one ping a pair in a while.
CREATE TABLE member_pings (
    guild_id INTEGER NOT NULL,
    from_id INTEGER NOT NULL,
    to_id INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (guild_id, from_id, to_id)
);
