-- 0013_languages.sql with 64-bit Discord ids.
CREATE TABLE guild_languages (
    guild_id BIGINT NOT NULL PRIMARY KEY,
    language TEXT NOT NULL
);
CREATE TABLE member_locales (
    user_id BIGINT NOT NULL PRIMARY KEY,
    locale TEXT NOT NULL
);

-- A server's language chosen, changed or dropped: `language <guild>` (each process keeps
-- the servers' choices in memory).
CREATE FUNCTION tanzaku_signal_language() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tanzaku', 'language ' || COALESCE(NEW.guild_id, OLD.guild_id));
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER tanzaku_language_signal
    AFTER INSERT OR UPDATE OR DELETE ON guild_languages
    FOR EACH ROW EXECUTE FUNCTION tanzaku_signal_language();
