-- Members watching a table: each gets one DM when it ends, then the row goes.
CREATE TABLE table_watchers (
    table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
