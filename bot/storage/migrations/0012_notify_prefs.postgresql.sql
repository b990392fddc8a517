-- 0012_notify_prefs.sql with 64-bit Discord ids.
CREATE TABLE notify_prefs (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    mode TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
