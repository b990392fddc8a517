-- 0013_languages.sql with 64-bit Discord ids.
CREATE TABLE guild_languages (
    guild_id BIGINT NOT NULL PRIMARY KEY,
    language TEXT NOT NULL
);
CREATE TABLE member_locales (
    user_id BIGINT NOT NULL PRIMARY KEY,
    locale TEXT NOT NULL
);
