-- Daily loss limits a server's moderators set: for one member (user_id) or, with user_id 0,
-- for everyone on the server; a member's own limit replaces the server's.
CREATE TABLE loss_limits (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    daily_limit INTEGER NOT NULL CHECK (daily_limit >= 0),
    PRIMARY KEY (guild_id, user_id)
);
-- Today's table flows of a server, read when a member with a limit stakes.
CREATE INDEX ledger_table_flows ON ledger (guild_id, at) WHERE kind = 'table';
