-- A lobby may be a challenge to one member: only they may accept (join and start) it.
ALTER TABLE game_tables ADD COLUMN invitee_id INTEGER;
