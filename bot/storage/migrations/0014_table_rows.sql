-- A table's movements in order, read when a member with a daily loss limit stakes: a stake
-- paid back today counts on the day it was staked, so the limit reads back to the first
-- movement of every table the member moved coins with today.
CREATE INDEX ledger_table_rows ON ledger (table_id, id) WHERE kind = 'table';
