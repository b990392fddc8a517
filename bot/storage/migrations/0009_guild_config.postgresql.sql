-- 0009_guild_config.sql with 64-bit Discord ids.
CREATE TABLE guild_config (
    guild_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild_id, name)
);
