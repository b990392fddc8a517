-- 0003_private_panels.sql with 64-bit Discord ids.
-- A game's private panel: the one direct message per player and table that the bot edits
-- in place every round, so a restart still edits the same message. `dm_closed` marks a
-- player the bot could not DM (the table then shows them a "… privately" button).
-- Rows of a table are dropped when it ends.
CREATE TABLE private_panels (
    table_id    BIGINT  NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    channel_id  BIGINT,
    message_id  BIGINT,
    dm_closed   INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
    PRIMARY KEY (table_id, user_id)
);
