"""Queries for guild settings, wallets, the house bank, table escrow and the ledger."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Transaction


@dataclass(frozen=True, slots=True)
class GuildSettingsRow:
    guild_id: int
    currency_name: str
    starting_balance: int
    daily_amount: int
    house_balance: int
    minted: int
    currency_emoji: str = ""
    gift_hold_days: int = 7
    """Free coins (welcome, /daily) can be given away only this many days after they came
    (0: at once)."""
    gift_account_days: int = 0
    """A member whose Discord account is at least this many days old gives their free coins
    at once (0: nobody is let off the hold)."""
    gift_cap: int = 1000
    """The most a member may receive in gifts in a day from midnight UTC (0: no cap)."""


@dataclass(frozen=True, slots=True)
class WalletRow:
    guild_id: int
    user_id: int
    balance: int
    last_daily: float | None


@dataclass(frozen=True, slots=True)
class MoneyTotals:
    wallets: int
    escrow: int
    house: int
    minted: int


async def guild_settings(tx: Transaction, guild_id: int) -> GuildSettingsRow | None:
    row = await tx.fetchone(
        "SELECT guild_id, currency_name, starting_balance, daily_amount, house_balance, minted,"
        " currency_emoji, gift_hold_days, gift_account_days, gift_cap"
        " FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    return GuildSettingsRow(*row) if row else None


async def insert_guild_settings(tx: Transaction, guild_id: int) -> bool:
    """Make a server's row unless it exists; True when this call made it. Another process
    making it at the same moment is not an error: the second waits, then makes nothing
    (and must then mint nothing)."""
    # ON CONFLICT, not SQLite's INSERT OR IGNORE: one text for both backends.
    row = await tx.fetchone(
        "INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING"
        " RETURNING guild_id",
        (guild_id,),
    )
    return row is not None


async def update_guild_settings(
    tx: Transaction,
    guild_id: int,
    *,
    currency_name: str | None = None,
    starting_balance: int | None = None,
    daily_amount: int | None = None,
    currency_emoji: str | None = None,
    gift_hold_days: int | None = None,
    gift_account_days: int | None = None,
    gift_cap: int | None = None,
) -> None:
    await tx.execute(
        "UPDATE guild_settings SET currency_name = COALESCE(?, currency_name),"
        " starting_balance = COALESCE(?, starting_balance),"
        " daily_amount = COALESCE(?, daily_amount),"
        " currency_emoji = COALESCE(?, currency_emoji),"
        " gift_hold_days = COALESCE(?, gift_hold_days),"
        " gift_account_days = COALESCE(?, gift_account_days),"
        " gift_cap = COALESCE(?, gift_cap) WHERE guild_id = ?",
        (
            currency_name,
            starting_balance,
            daily_amount,
            currency_emoji,
            gift_hold_days,
            gift_account_days,
            gift_cap,
            guild_id,
        ),
    )


async def wallet(tx: Transaction, guild_id: int, user_id: int) -> WalletRow | None:
    row = await tx.fetchone(
        "SELECT guild_id, user_id, balance, last_daily FROM wallets"
        " WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return WalletRow(*row) if row else None


async def insert_wallet(tx: Transaction, guild_id: int, user_id: int) -> bool:
    """Make an empty wallet unless it exists; True when this call made it (as for
    :func:`insert_guild_settings`: only the maker funds it)."""
    row = await tx.fetchone(
        "INSERT INTO wallets (guild_id, user_id, balance) VALUES (?, ?, 0)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING RETURNING user_id",
        (guild_id, user_id),
    )
    return row is not None


async def add_to_wallet(tx: Transaction, guild_id: int, user_id: int, delta: int) -> int | None:
    """Add `delta` (negative: take) unless the wallet would go below zero; returns the new
    balance, or None when the wallet is missing or cannot pay."""
    row = await tx.fetchone(
        "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ?"
        " AND balance + ? >= 0 RETURNING balance",
        (delta, guild_id, user_id, delta),
    )
    return int(row[0]) if row is not None else None


async def claim_daily(
    tx: Transaction, guild_id: int, user_id: int, at: float, cooldown: float
) -> bool:
    """Stamp the wallet's daily claim at `at` if the last one is at least `cooldown` old;
    False (nothing changed) when it is not. One conditional UPDATE, so two processes
    claiming at once cannot both pass: PostgreSQL re-checks the condition against the row
    the first one committed."""
    row = await tx.fetchone(
        "UPDATE wallets SET last_daily = ? WHERE guild_id = ? AND user_id = ?"
        " AND (last_daily IS NULL OR ? - last_daily >= ?) RETURNING user_id",
        (at, guild_id, user_id, at, cooldown),
    )
    return row is not None


async def add_to_house(tx: Transaction, guild_id: int, delta: int) -> None:
    await tx.execute(
        "UPDATE guild_settings SET house_balance = house_balance + ? WHERE guild_id = ?",
        (delta, guild_id),
    )


async def add_minted(tx: Transaction, guild_id: int, amount: int) -> None:
    await tx.execute(
        "UPDATE guild_settings SET minted = minted + ? WHERE guild_id = ?", (amount, guild_id)
    )


async def add_to_escrow(tx: Transaction, table_id: int, delta: int) -> None:
    await tx.execute("UPDATE game_tables SET escrow = escrow + ? WHERE id = ?", (delta, table_id))


async def insert_ledger(
    tx: Transaction,
    *,
    guild_id: int,
    at: float,
    kind: str,
    source: str,
    target: str,
    amount: int,
    table_id: int | None,
    action_seq: int | None,
    memo: str,
    event_id: int | None = None,
) -> None:
    await tx.execute(
        "INSERT INTO ledger (guild_id, at, kind, source, target, amount, table_id, action_seq,"
        " memo, event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, at, kind, source, target, amount, table_id, action_seq, memo, event_id),
    )


async def leaderboard(
    tx: Transaction, guild_id: int, limit: int, offset: int = 0
) -> list[WalletRow]:
    rows = await tx.fetchall(
        "SELECT guild_id, user_id, balance, last_daily FROM wallets WHERE guild_id = ?"
        " ORDER BY balance DESC, user_id LIMIT ? OFFSET ?",
        (guild_id, limit, offset),
    )
    return [WalletRow(*row) for row in rows]


async def wallet_count(tx: Transaction, guild_id: int) -> int:
    row = await tx.fetchone("SELECT COUNT(*) FROM wallets WHERE guild_id = ?", (guild_id,))
    return int(row[0]) if row else 0


async def totals(tx: Transaction, guild_id: int) -> MoneyTotals:
    """Everything a guild's coins add up to; the money invariant is checked against it."""
    row = await tx.fetchone(
        "SELECT (SELECT COALESCE(SUM(balance), 0) FROM wallets WHERE guild_id = :g),"
        " (SELECT COALESCE(SUM(escrow), 0) FROM game_tables WHERE guild_id = :g)"
        " + (SELECT COALESCE(SUM(escrow), 0) FROM events WHERE guild_id = :g),"
        " (SELECT house_balance FROM guild_settings WHERE guild_id = :g),"
        " (SELECT minted FROM guild_settings WHERE guild_id = :g)",
        {"g": guild_id},
    )
    assert row is not None
    return MoneyTotals(int(row[0]), int(row[1]), int(row[2] or 0), int(row[3] or 0))


async def guild_ids(tx: Transaction) -> list[int]:
    return [int(row[0]) for row in await tx.fetchall("SELECT guild_id FROM guild_settings")]


async def ledger_sums(tx: Transaction, guild_id: int) -> dict[str, int]:
    """Net flow per account from the ledger alone, to cross-check stored balances."""
    rows = await tx.fetchall(
        "SELECT account, SUM(amount) FROM ("
        " SELECT target AS account, amount FROM ledger WHERE guild_id = :g"
        " UNION ALL SELECT source AS account, -amount FROM ledger WHERE guild_id = :g)"
        " GROUP BY account",
        {"g": guild_id},
    )
    return {str(row[0]): int(row[1]) for row in rows}


async def stored_balances(tx: Transaction, guild_id: int) -> dict[str, int]:
    """What every ledger account of a guild holds by the stored balances: its wallets, each
    table's and each event's escrow, the house, and the mint (what was minted, as a debt
    of the outside world). :func:`ledger_sums` must give the same for every account."""
    totals_now = await totals(tx, guild_id)
    stored: dict[str, int] = {"mint": -totals_now.minted, "house": totals_now.house}
    for user_id, balance in await tx.fetchall(
        "SELECT user_id, balance FROM wallets WHERE guild_id = ?", (guild_id,)
    ):
        stored[f"wallet:{int(user_id)}"] = int(balance)
    for table_id, escrow in await tx.fetchall(
        "SELECT id, escrow FROM game_tables WHERE guild_id = ?", (guild_id,)
    ):
        stored[f"escrow:{int(table_id)}"] = int(escrow)
    for event_id, escrow in await tx.fetchall(
        "SELECT id, escrow FROM events WHERE guild_id = ?", (guild_id,)
    ):
        stored[f"event:{int(event_id)}"] = int(escrow)
    return stored


@dataclass(frozen=True, slots=True)
class LedgerRow:
    id: int
    at: float
    kind: str
    source: str
    target: str
    amount: int
    table_id: int | None
    memo: str


async def movements_of(tx: Transaction, guild_id: int, account: str, limit: int) -> list[LedgerRow]:
    """The latest ledger rows into or out of one account, newest first."""
    rows = await tx.fetchall(
        "SELECT id, at, kind, source, target, amount, table_id, memo FROM ledger"
        " WHERE guild_id = :g AND (source = :a OR target = :a) ORDER BY id DESC LIMIT :n",
        {"g": guild_id, "a": account, "n": limit},
    )
    return [
        LedgerRow(
            int(r[0]),
            float(r[1]),
            str(r[2]),
            str(r[3]),
            str(r[4]),
            int(r[5]),
            None if r[6] is None else int(r[6]),
            str(r[7]),
        )
        for r in rows
    ]


# -- self-exclusion ---------------------------------------------------------------------------


async def exclusion_until(tx: Transaction, guild_id: int, user_id: int) -> float | None:
    """When the member's self-exclusion on this server ends (it may lie in the past)."""
    row = await tx.fetchone(
        "SELECT until_at FROM self_exclusions WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return float(row[0]) if row else None


async def set_exclusion(
    tx: Transaction, guild_id: int, user_id: int, until: float, now: float
) -> None:
    await tx.execute(
        "INSERT INTO self_exclusions (guild_id, user_id, until_at, set_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE"
        " SET until_at = excluded.until_at, set_at = excluded.set_at",
        (guild_id, user_id, until, now),
    )


async def delete_exclusion(tx: Transaction, guild_id: int, user_id: int) -> bool:
    """Lift it; True when there was one."""
    row = await tx.fetchone(
        "DELETE FROM self_exclusions WHERE guild_id = ? AND user_id = ? RETURNING user_id",
        (guild_id, user_id),
    )
    return row is not None


# -- daily loss limits ------------------------------------------------------------------------

SERVER_WIDE = 0
"""The ``user_id`` of a server's own loss limit (no member has id 0)."""


async def loss_limit(tx: Transaction, guild_id: int, user_id: int) -> int | None:
    """The member's daily loss limit: their own if set, else the server's, else none."""
    rows = await tx.fetchall(
        "SELECT user_id, daily_limit FROM loss_limits WHERE guild_id = ? AND user_id IN (?, ?)",
        (guild_id, user_id, SERVER_WIDE),
    )
    limits = {int(row[0]): int(row[1]) for row in rows}
    return limits.get(user_id, limits.get(SERVER_WIDE))


async def set_loss_limit(tx: Transaction, guild_id: int, user_id: int, daily_limit: int) -> None:
    await tx.execute(
        "INSERT INTO loss_limits (guild_id, user_id, daily_limit) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET daily_limit = excluded.daily_limit",
        (guild_id, user_id, daily_limit),
    )


async def clear_loss_limit(tx: Transaction, guild_id: int, user_id: int) -> bool:
    row = await tx.fetchone(
        "DELETE FROM loss_limits WHERE guild_id = ? AND user_id = ? RETURNING user_id",
        (guild_id, user_id),
    )
    return row is not None


async def table_flows(
    tx: Transaction, guild_id: int, account: str, since: float
) -> list[tuple[int, float, int]]:
    """The account's movements at every table it moved coins with since a moment, from
    each such table's first movement on (older ones included, oldest first): ``(table id,
    when, amount)``, the amount positive into the table (a stake) and negative out of it.
    A loss limit reads them to tell a stake paid back today from one staked today."""
    # An event's entry fee is a stake too (its rows carry the event, keyed negative here
    # so that no event shares a key with a table).
    rows = await tx.fetchall(
        "SELECT COALESCE(table_id, -event_id), at,"
        " CASE WHEN source = :a THEN amount ELSE -amount END FROM ledger"
        " WHERE (source = :a OR target = :a) AND ("
        " (kind = 'table' AND table_id IN ("
        " SELECT table_id FROM ledger WHERE guild_id = :g AND kind = 'table' AND at >= :t"
        " AND (source = :a OR target = :a)))"
        " OR (kind = 'event' AND event_id IN ("
        " SELECT event_id FROM ledger WHERE guild_id = :g AND kind = 'event' AND at >= :t"
        " AND (source = :a OR target = :a)))) ORDER BY id",
        {"g": guild_id, "a": account, "t": since},
    )
    return [(int(row[0]), float(row[1]), int(row[2])) for row in rows]


async def gifts_given_since(tx: Transaction, guild_id: int, account: str, since: float) -> int:
    """Coins an account gave away (``/give``) since a moment; gifts it received do not
    count against them."""
    row = await tx.fetchone(
        "SELECT COALESCE(SUM(amount), 0) FROM ledger"
        " WHERE guild_id = ? AND kind = 'give' AND source = ? AND at >= ?",
        (guild_id, account, since),
    )
    return int(row[0]) if row else 0


async def gifts_received_since(tx: Transaction, guild_id: int, account: str, since: float) -> int:
    """Coins an account received in gifts (``/give``) since a moment: what a server's cap
    on the gifts a member receives in a day counts."""
    row = await tx.fetchone(
        "SELECT COALESCE(SUM(amount), 0) FROM ledger"
        " WHERE guild_id = ? AND kind = 'give' AND target = ? AND at >= ?",
        (guild_id, account, since),
    )
    return int(row[0]) if row else 0


# -- free coins -------------------------------------------------------------------------------


async def record_free_coins(
    tx: Transaction, guild_id: int, user_id: int, at: float, amount: int
) -> None:
    """Coins a member got for free (a new wallet's welcome coins, ``/daily``), with when:
    a gift moves only those older than the server's hold."""
    await tx.execute(
        "INSERT INTO free_coins (guild_id, user_id, at, amount) VALUES (?, ?, ?, ?)",
        (guild_id, user_id, at, amount),
    )


async def free_coins_since(
    tx: Transaction, guild_id: int, user_id: int, since: float
) -> list[tuple[float, int]]:
    """The free coins a member got after a moment: (when, how many), oldest first."""
    rows = await tx.fetchall(
        "SELECT at, amount FROM free_coins WHERE guild_id = ? AND user_id = ? AND at > ?"
        " ORDER BY at",
        (guild_id, user_id, since),
    )
    return [(float(row[0]), int(row[1])) for row in rows]


async def stake_bars(
    tx: Transaction, guild_id: int, user_id: int
) -> tuple[float | None, int | None]:
    """In one statement (it runs on every stake): when the member's self-exclusion ends
    (if one was ever set) and their daily loss limit (their own, else the server's)."""
    row = await tx.fetchone(
        "SELECT (SELECT until_at FROM self_exclusions WHERE guild_id = :g AND user_id = :u),"
        " COALESCE("
        " (SELECT daily_limit FROM loss_limits WHERE guild_id = :g AND user_id = :u),"
        " (SELECT daily_limit FROM loss_limits WHERE guild_id = :g AND user_id = :s))",
        {"g": guild_id, "u": user_id, "s": SERVER_WIDE},
    )
    if row is None:
        return None, None
    return (
        None if row[0] is None else float(row[0]),
        None if row[1] is None else int(row[1]),
    )
