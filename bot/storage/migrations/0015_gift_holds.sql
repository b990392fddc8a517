-- Free coins cannot be funnelled from spare accounts (issue 33): the coins a member gets for
-- free (welcome coins, /daily), with when, so a gift moves only those older than the server's
-- hold; the server's hold, the account age that lifts it, and its cap on the gifts a member
-- receives in a day (/config economy). Rows are kept: a longer hold set later applies to
-- coins already given out.
ALTER TABLE guild_settings ADD COLUMN gift_hold_days INTEGER NOT NULL DEFAULT 7
    CHECK (gift_hold_days >= 0);
ALTER TABLE guild_settings ADD COLUMN gift_account_days INTEGER NOT NULL DEFAULT 0
    CHECK (gift_account_days >= 0);
ALTER TABLE guild_settings ADD COLUMN gift_cap INTEGER NOT NULL DEFAULT 1000
    CHECK (gift_cap >= 0);
CREATE TABLE free_coins (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    at REAL NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0)
);
CREATE INDEX free_coins_of_member ON free_coins (guild_id, user_id, at);
-- What a member received in gifts today, read when someone gives to them.
CREATE INDEX ledger_gifts_received ON ledger (guild_id, target, at) WHERE kind = 'give';
