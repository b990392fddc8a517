-- A server's language for what everyone sees (/config language): 'en', 'ja', ... A server
-- without a row follows its Discord language (Server Settings > Community > language).
CREATE TABLE guild_languages (
    guild_id INTEGER NOT NULL PRIMARY KEY,
    language TEXT NOT NULL
);
-- Each member's Discord language as last seen in an interaction (written only when it
-- changes), for what the bot sends them outside one: turn notices, Watch DMs, panels.
CREATE TABLE member_locales (
    user_id INTEGER NOT NULL PRIMARY KEY,
    locale TEXT NOT NULL
);
