-- 0005_self_exclusion.sql with 64-bit Discord ids.
CREATE TABLE self_exclusions (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    until_at DOUBLE PRECISION NOT NULL,
    set_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
