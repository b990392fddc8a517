-- 0006_watchers.sql with 64-bit Discord ids.
CREATE TABLE table_watchers (
    table_id BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
