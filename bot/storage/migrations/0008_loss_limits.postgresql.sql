-- 0008_loss_limits.sql with 64-bit Discord ids.
CREATE TABLE loss_limits (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    daily_limit BIGINT NOT NULL CHECK (daily_limit >= 0),
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX ledger_table_flows ON ledger (guild_id, at) WHERE kind = 'table';
