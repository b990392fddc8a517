-- 0002_challenges.sql with a 64-bit Discord id.
ALTER TABLE game_tables ADD COLUMN invitee_id BIGINT;
