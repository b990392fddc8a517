-- How a member wants to be told that a table waits for them (/notify), per server: 'off'
-- or 'dm'. A member without a row is told by a mention in the table's channel.
CREATE TABLE notify_prefs (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    mode TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
