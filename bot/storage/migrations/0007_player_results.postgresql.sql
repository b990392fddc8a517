-- 0007_player_results.sql with 64-bit Discord ids.
CREATE TABLE player_results (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    net BIGINT NOT NULL,
    won BOOLEAN NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX player_results_by_member ON player_results (guild_id, user_id, at);

INSERT INTO player_results (guild_id, user_id, table_id, game, net, won, at)
SELECT t.guild_id, s.user_id, t.id, t.game, s.wallet_net, s.wallet_net > 0, t.updated_at
FROM game_tables t JOIN table_seats s ON s.table_id = t.id
WHERE t.status = 'finished';
