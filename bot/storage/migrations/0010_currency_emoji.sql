-- The currency's emoji (/economy config emoji), shown before its name; '' for none.
ALTER TABLE guild_settings ADD COLUMN currency_emoji TEXT NOT NULL DEFAULT '';
