-- Signals between the processes sharing this database (bot/signals.py): each change that
-- another process may keep in memory sends `NOTIFY tanzaku, '<topic> <payload>'` from a
-- trigger, in the transaction that makes it. PostgreSQL delivers a notification only when
-- that transaction commits, so no process hears of a change that was rolled back, and
-- no action pays an extra round trip to send one.

-- A deadline set or moved: `deadline <table> <ply> <due_at> <guild>`; cleared:
-- `deadline <table>`. Every process arms it; the one running the server's shard fires it
-- on time, the others only if it is still there a little later (its process died).
CREATE FUNCTION tanzaku_signal_deadline() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('tanzaku', 'deadline ' || OLD.table_id);
        RETURN OLD;
    END IF;
    PERFORM pg_notify(
        'tanzaku',
        'deadline ' || NEW.table_id || ' ' || NEW.ply || ' ' || NEW.due_at::text || ' '
            || (SELECT guild_id FROM game_tables WHERE id = NEW.table_id)
    );
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER tanzaku_deadline_signal
    AFTER INSERT OR UPDATE OR DELETE ON deadlines
    FOR EACH ROW EXECUTE FUNCTION tanzaku_signal_deadline();

-- A private notice waiting: `notice <user> <table>` (each process keeps who has one).
CREATE FUNCTION tanzaku_signal_notice() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tanzaku', 'notice ' || NEW.user_id || ' ' || NEW.table_id);
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER tanzaku_notice_signal
    AFTER INSERT OR UPDATE ON private_notices
    FOR EACH ROW EXECUTE FUNCTION tanzaku_signal_notice();

-- A server's settings changed: `terms <guild>` (each process caches them). Only the
-- settings: the house balance and the minted total change with every bet and are never
-- cached.
CREATE FUNCTION tanzaku_signal_terms() RETURNS trigger AS $$
BEGIN
    -- Any column but the two balances, so settings added later signal too.
    IF to_jsonb(NEW) - 'house_balance' - 'minted'
        IS DISTINCT FROM to_jsonb(OLD) - 'house_balance' - 'minted'
    THEN
        PERFORM pg_notify('tanzaku', 'terms ' || NEW.guild_id);
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER tanzaku_terms_signal
    AFTER UPDATE ON guild_settings
    FOR EACH ROW EXECUTE FUNCTION tanzaku_signal_terms();

-- A player's DMs found closed (or open again) at a table: `panel <table> <user> <0|1>`
-- (each process keeps the markers in memory to draw the table's "📪" note); a dropped
-- panel sends 0.
CREATE FUNCTION tanzaku_signal_panel() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('tanzaku', 'panel ' || OLD.table_id || ' ' || OLD.user_id || ' 0');
        RETURN OLD;
    END IF;
    IF TG_OP = 'INSERT' OR NEW.dm_closed IS DISTINCT FROM OLD.dm_closed THEN
        PERFORM pg_notify(
            'tanzaku', 'panel ' || NEW.table_id || ' ' || NEW.user_id || ' ' || NEW.dm_closed
        );
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER tanzaku_panel_signal
    AFTER INSERT OR UPDATE OR DELETE ON private_panels
    FOR EACH ROW EXECUTE FUNCTION tanzaku_signal_panel();
