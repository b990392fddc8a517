-- Tanzaku's first schema. Money columns are whole coins (INTEGER).

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    currency_name     TEXT    NOT NULL DEFAULT 'ryō',
    starting_balance  INTEGER NOT NULL DEFAULT 1000 CHECK (starting_balance >= 0),
    daily_amount      INTEGER NOT NULL DEFAULT 100 CHECK (daily_amount >= 0),
    house_balance     INTEGER NOT NULL DEFAULT 0,
    minted            INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE wallets (
    guild_id    INTEGER NOT NULL REFERENCES guild_settings (guild_id),
    user_id     INTEGER NOT NULL,
    balance     INTEGER NOT NULL CHECK (balance >= 0),
    last_daily  REAL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX wallets_by_balance ON wallets (guild_id, balance DESC);

CREATE TABLE game_tables (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL REFERENCES guild_settings (guild_id),
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    game            TEXT    NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    host_id         INTEGER NOT NULL,
    rules_json      TEXT    NOT NULL,
    state_json      TEXT,
    schema_version  INTEGER NOT NULL DEFAULT 1,
    version         INTEGER NOT NULL DEFAULT 0,
    escrow          INTEGER NOT NULL DEFAULT 0 CHECK (escrow >= 0),
    house_net       INTEGER NOT NULL DEFAULT 0,
    seed_hex        TEXT    NOT NULL,
    commitment      TEXT    NOT NULL,
    dice_counter    INTEGER NOT NULL DEFAULT 0,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
-- One open table per game per channel.
CREATE UNIQUE INDEX one_open_table_per_channel
    ON game_tables (channel_id, game) WHERE status IN ('lobby', 'running');
CREATE INDEX live_tables ON game_tables (status) WHERE status IN ('lobby', 'running');

CREATE TABLE table_seats (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    seat_no     INTEGER NOT NULL,
    wallet_net  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, user_id)
);

CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    at          REAL    NOT NULL,
    kind        TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    target      TEXT    NOT NULL,
    amount      INTEGER NOT NULL CHECK (amount > 0),
    table_id    INTEGER,
    action_seq  INTEGER,
    memo        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX ledger_by_guild ON ledger (guild_id, id);

CREATE TABLE action_log (
    table_id     INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    actor_id     INTEGER,
    action_json  TEXT    NOT NULL,
    draws_json   TEXT    NOT NULL DEFAULT '[]',
    events_json  TEXT    NOT NULL DEFAULT '[]',
    at           REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE deadlines (
    table_id  INTEGER PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
    due_at    REAL    NOT NULL,
    ply       INTEGER NOT NULL,
    kind      TEXT    NOT NULL
);

CREATE TABLE player_stats (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    stat      TEXT    NOT NULL,
    value     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, game, stat)
);

CREATE TABLE private_notices (
    user_id    INTEGER NOT NULL,
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    content    TEXT    NOT NULL,
    PRIMARY KEY (user_id, table_id)
);
