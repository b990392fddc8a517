-- One row per player per finished table: what /stats derives best win, streaks and the
-- running-net chart from. The primary key makes a table count once whatever happens.
CREATE TABLE player_results (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    net INTEGER NOT NULL,
    won INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX player_results_by_member ON player_results (guild_id, user_id, at);

-- Tables finished before this migration: their settlements are known (each seat's net);
-- who the game named winner is not kept apart from the state, so coming out ahead counts.
INSERT INTO player_results (guild_id, user_id, table_id, game, net, won, at)
SELECT t.guild_id, s.user_id, t.id, t.game, s.wallet_net, s.wallet_net > 0, t.updated_at
FROM game_tables t JOIN table_seats s ON s.table_id = t.id
WHERE t.status = 'finished';
