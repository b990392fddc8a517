-- Self-exclusion: a member barred from staking on a server until a moment (epoch seconds).
-- One row per member and server; a longer exclusion replaces a shorter one, never the
-- reverse; a moderator's lift deletes the row.
CREATE TABLE self_exclusions (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    until_at REAL NOT NULL,
    set_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
