-- What a member gave away today, read with their table flows when a member with a daily
-- loss limit stakes or gives: a gift spends the limit as a stake does.
CREATE INDEX ledger_gifts_given ON ledger (guild_id, source, at) WHERE kind = 'give';
