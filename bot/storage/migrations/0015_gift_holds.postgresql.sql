-- 0015_gift_holds.sql with 64-bit Discord ids and amounts.
ALTER TABLE guild_settings ADD COLUMN gift_hold_days INTEGER NOT NULL DEFAULT 7
    CHECK (gift_hold_days >= 0);
ALTER TABLE guild_settings ADD COLUMN gift_account_days INTEGER NOT NULL DEFAULT 0
    CHECK (gift_account_days >= 0);
ALTER TABLE guild_settings ADD COLUMN gift_cap BIGINT NOT NULL DEFAULT 1000
    CHECK (gift_cap >= 0);
CREATE TABLE free_coins (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    amount BIGINT NOT NULL CHECK (amount > 0)
);
CREATE INDEX free_coins_of_member ON free_coins (guild_id, user_id, at);
CREATE INDEX ledger_gifts_received ON ledger (guild_id, target, at) WHERE kind = 'give';
