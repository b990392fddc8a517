-- A server's table settings (/config): one row per setting, its value as JSON. A setting
-- without a row has its default.
CREATE TABLE guild_config (
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild_id, name)
);
