-- Server events (issue 37): tournaments the bot runs itself. An event holds its entry fees
-- in its own escrow (ledger account `event:<id>`) until it ends; its tables are normal
-- tables (verifiable, rated) that play for event points, marked with their event so
-- several can run at once in the event's channel.
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    host_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    rules_json TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('swiss', 'arena')),
    rounds INTEGER NOT NULL DEFAULT 0,
    duration_seconds INTEGER NOT NULL DEFAULT 0,
    entry_fee INTEGER NOT NULL DEFAULT 0 CHECK (entry_fee >= 0),
    house_prize INTEGER NOT NULL DEFAULT 0 CHECK (house_prize >= 0),
    split_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round INTEGER NOT NULL DEFAULT 0,
    escrow INTEGER NOT NULL DEFAULT 0 CHECK (escrow >= 0),
    due_at REAL,
    ends_at REAL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX events_by_guild ON events (guild_id, id);
CREATE INDEX live_events ON events (status) WHERE status IN ('open', 'running');

-- Who entered, what they paid, and whether they dropped out after the start.
CREATE TABLE event_entrants (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    fee_paid INTEGER NOT NULL DEFAULT 0,
    joined_at REAL NOT NULL,
    dropped INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, user_id)
);

-- One row per game of an event: a table (table_id) or a bye (table_id NULL); `result_json`
-- (NULL until the game ended) is how it ended: each player's place, who forfeited.
CREATE TABLE event_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    table_id INTEGER UNIQUE,
    players_json TEXT NOT NULL,
    result_json TEXT,
    ended_at REAL
);
CREATE INDEX event_games_by_event ON event_games (event_id, round);

-- An event's tables share its channel: the one-open-table rule is for members' tables.
ALTER TABLE game_tables ADD COLUMN event_id INTEGER;
DROP INDEX one_open_table_per_channel;
CREATE UNIQUE INDEX one_open_table_per_channel
    ON game_tables (channel_id, game) WHERE status IN ('lobby', 'running') AND event_id IS NULL;

-- Entry fees count against a loss limit as a table's stakes do: their ledger rows say
-- which event they moved coins with.
ALTER TABLE ledger ADD COLUMN event_id INTEGER;
CREATE INDEX ledger_event_rows ON ledger (event_id, id) WHERE kind = 'event';
