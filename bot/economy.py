"""Wallets, table escrow and the house bank; every coin that moves leaves a ledger row.

Invariant (checked by the tests after every step): for each guild,
``sum(wallets) + sum(table escrow) + house == minted``. Coins enter only by minting
(a new wallet's starting balance, `/daily`, a moderator's grant, the house float) and
never leave; every other movement is a transfer between two accounts.

Coins a member gets for free (welcome coins, /daily) are also recorded with when they came:
a gift moves only those older than the server's hold, and a member receives at most the
server's cap in gifts a day, so spare accounts cannot funnel freshly minted coins to a main
one (issue 33). Held coins stake as any other; what a table pays out is the winner's own.
"""

from __future__ import annotations

import logging
import re
import unicodedata
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.clock import Clock, discord_clock
from bot.errors import (
    GiftLimited,
    InsufficientFunds,
    LossLimitReached,
    NotAllowed,
    SelfExcluded,
    UserFacingError,
)
from bot.storage import Database, Transaction
from bot.storage import events as eq
from bot.storage import money as mq

log = logging.getLogger(__name__)

MINT = "mint"
HOUSE_ACCOUNT = "house"
"""The bank's ledger account; in an engine's payouts the bank is `bot.games.common.HOUSE` (0)."""
DAILY_COOLDOWN_SECONDS = 20 * 3600
DEFAULT_CURRENCY = "ryō"
"""The currency's name until a moderator names it (the column's default)."""
MAX_AMOUNT = 10**12
"""Bigger than any honest balance; keeps amounts far from SQLite's 64-bit limit."""
DEFAULT_GIFT_HOLD_DAYS = 7
"""How long free coins (welcome, /daily) wait before they can be given away, unless a
server sets otherwise: five fresh accounts gave one main account 5,500 freshly minted
coins at once (issue 33). A week is longer than anyone waits to farm a server, and a
member playing from their first day loses nothing by it: held coins stake as any other."""
DEFAULT_GIFT_CAP = 1000
"""The most a member may receive in gifts in a day, unless a server sets otherwise: a new
wallet's default starting balance, so friends can still stake a newcomer a wallet's worth
a day, while coins funnelled from spare accounts, once free to give, arrive at most a
wallet's worth a day."""
MAX_GIFT_HOLD_DAYS = 365
MAX_GIFT_ACCOUNT_DAYS = 3650
DISCORD_EPOCH_MS = 1_420_070_400_000
"""The first millisecond of 2015: a Discord id's top 42 bits count milliseconds from it."""


def wallet_account(user_id: int) -> str:
    return f"wallet:{user_id}"


def escrow_account(table_id: int) -> str:
    return f"escrow:{table_id}"


def event_account(event_id: int) -> str:
    """An event's escrow: its entry fees until it ends (and the house's prize with them)."""
    return f"event:{event_id}"


@dataclass(frozen=True, slots=True)
class GuildTerms:
    """A server's economy settings, the ones `/economy config` sets. Read once per server
    and kept in memory (:meth:`Economy.terms`); the house balance and the minted total,
    which every bet moves, are never cached."""

    currency_name: str
    """As coins are shown: the name, after the emoji when the server set one."""
    starting_balance: int
    daily_amount: int
    gift_hold_days: int = DEFAULT_GIFT_HOLD_DAYS
    """Free coins (welcome, /daily) can be given away only this many days after they came."""
    gift_account_days: int = 0
    """A member whose Discord account is at least this old (days) is let off that hold;
    0: nobody is."""
    gift_cap: int = DEFAULT_GIFT_CAP
    """The most a member may receive in gifts in a day (from midnight UTC); 0: no cap."""

    @classmethod
    def of(cls, row: mq.GuildSettingsRow, default_name: str | None = None) -> GuildTerms:
        """``default_name``: the name for a server that kept the stored default (両 in a
        Japanese server, :attr:`Economy.default_currency`)."""
        name, emoji = row.currency_name, row.currency_emoji
        if default_name is not None and name == DEFAULT_CURRENCY:
            name = default_name
        return cls(
            f"{emoji} {name}" if emoji else name,
            row.starting_balance,
            row.daily_amount,
            row.gift_hold_days,
            row.gift_account_days,
            row.gift_cap,
        )


@dataclass(frozen=True, slots=True)
class Balance:
    balance: int
    currency: str


@dataclass(frozen=True, slots=True)
class DailyClaim:
    amount: int
    balance: int
    currency: str


@dataclass(frozen=True, slots=True)
class FreeCoins:
    """What of a member's wallet came free (welcome coins, /daily) less than the server's
    hold ago: those coins stake as any other, but cannot be given away yet."""

    balance: int
    held: int
    """Free coins still held, at most the balance (coins lost at the tables count as the
    member's own coins first, so a loss never frees a held coin)."""
    until: float | None
    """When the last held coin can be given away (None: none is held)."""

    @property
    def giftable(self) -> int:
        return self.balance - self.held


@dataclass(frozen=True, slots=True)
class GiftAllowance:
    """What a member may still receive in gifts today under the server's daily cap."""

    cap: int
    """0: no cap."""
    received: int
    resets_at: float

    @property
    def left(self) -> int | None:
        return None if not self.cap else max(0, self.cap - self.received)


def account_created(user_id: int) -> float:
    """When a Discord account was made (Unix time), read from its id."""
    return ((user_id >> 22) + DISCORD_EPOCH_MS) / 1000


@dataclass(frozen=True, slots=True)
class Audit:
    """A server's books as a moderator checks them (`/economy audit`)."""

    totals: mq.MoneyTotals
    mismatches: list[tuple[str, int, int]]
    """(account, what the ledger says, what is stored) wherever the two differ."""
    accounts: int
    member_balance: int | None = None
    movements: tuple[mq.LedgerRow, ...] = ()

    @property
    def invariant_holds(self) -> bool:
        t = self.totals
        return t.wallets + t.escrow + t.house == t.minted


SERVER_EMOJI = re.compile(r"<a?:[A-Za-z0-9_]{2,32}:[0-9]{15,21}>")


def is_emoji(text: str) -> bool:
    """One emoji: a server emoji's markup, or a short run of pictographic characters (an
    emoji with its modifiers and joiners), never letters, digits or spaces."""
    if SERVER_EMOJI.fullmatch(text):
        return True
    if not 1 <= len(text) <= 8 or any(c.isspace() or c.isalnum() for c in text):
        return False
    return any(unicodedata.category(c) == "So" for c in text)


def utc_day(now: float) -> tuple[float, float]:
    """The UTC day `now` falls in: when it began and when the next begins. Loss limits
    count from midnight UTC, the same moment for every member of a server."""
    start = now - now % 86_400
    return start, start + 86_400


def lost_at_tables(flows: Iterable[tuple[int, float, int]], since: float) -> int:
    """What a member lost at the tables since ``since``, from their movements at each
    table (:func:`bot.storage.money.table_flows`: oldest first, positive into the table).

    A stake counts as lost on the day it was staked until the table pays it back. What a
    table pays back repays the member's oldest coins still on it first, on the day those
    were staked: a stake made before midnight and returned after it makes no room on the
    new day. Only what a table pays beyond every coin put on it is winnings, on the day it
    is paid (room, as a loss is). The ledger does not say which coins a payment returns
    (a table settles each player's net), so oldest first: a coin lost there earlier is
    repaid before one staked today, which can only count more as lost today, never less."""
    lost = 0
    on_tables: dict[int, deque[tuple[float, int]]] = {}
    for table_id, at, amount in flows:
        held = on_tables.setdefault(table_id, deque())
        if amount > 0:
            held.append((at, amount))
            if at >= since:
                lost += amount
            continue
        back = -amount
        while back and held:
            staked_at, left = held.popleft()
            repaid = min(back, left)
            back -= repaid
            if staked_at >= since:
                lost -= repaid
            if left > repaid:
                held.appendleft((staked_at, left - repaid))
        if back and at >= since:
            lost -= back
    return lost


MIN_EXCLUSION_DAYS = 1
MAX_EXCLUSION_DAYS = 3650
"""Ten years: the longest self-exclusion /selfexclude offers."""


def check_amount(amount: int) -> None:
    """Refuse amounts no transaction should carry."""
    if amount <= 0:
        raise UserFacingError("The amount must be a whole number above zero.")
    if amount > MAX_AMOUNT:
        raise UserFacingError("The amount must be at most {most}.", most=MAX_AMOUNT)


class Economy:
    def __init__(self, db: Database, *, house_float: int, clock: Clock = discord_clock) -> None:
        self._db = db
        self._house_float = house_float
        self._clock = clock
        # Every snapshot, wallet and /daily needs the currency or an amount, and only
        # /economy config (:meth:`configure`) changes them: it empties the entry when its
        # transaction is over. A new process starts empty, so a restart reads them afresh.
        self._terms: dict[int, GuildTerms] = {}
        self.default_currency: Callable[[int], str | None] = lambda guild_id: None
        """The currency's name for a server that never named it (``None``: ryō); the bot
        makes it follow the server's language (invalidate the server when that changes)."""
        self._configured = 0
        """Counts the `configure` calls that finished: a read they overtook is not kept."""
        self._made_in: weakref.WeakKeyDictionary[Transaction, set[int]] = (
            weakref.WeakKeyDictionary()
        )
        """Servers whose row a transaction still open made: not cached from it, as its
        rollback would leave the cache naming a row that does not exist."""

    # -- the cached settings ------------------------------------------------------------------

    def _terms_of(self, row: mq.GuildSettingsRow) -> GuildTerms:
        return GuildTerms.of(row, self.default_currency(row.guild_id))

    async def terms(self, tx: Transaction, guild_id: int) -> GuildTerms:
        """The server's settings (its row made first if need be): from memory after the
        first read. Use :meth:`ensure_guild` for the house balance."""
        cached = self._terms.get(guild_id)
        if cached is not None:
            return cached
        return self._terms_of(await self.ensure_guild(tx, guild_id))

    def cached_terms(self, guild_id: int) -> GuildTerms | None:
        """The settings in memory, if read already (no database trip either way)."""
        return self._terms.get(guild_id)

    def invalidate(self, guild_id: int) -> None:
        """Forget a server's cached settings: the next use reads them again."""
        self._terms.pop(guild_id, None)

    def changed_elsewhere(self, guild_id: int | None) -> None:
        """Another process changed a server's settings (`None`: maybe any server's): forget
        them, and keep no read that began before now (as after a local change)."""
        self._configured += 1
        if guild_id is None:
            self._terms.clear()
        else:
            self.invalidate(guild_id)

    def _remember(self, tx: Transaction, row: mq.GuildSettingsRow, configured: int) -> None:
        # Only a row that was already committed (never one this transaction made, which a
        # rollback could undo), and only if no /economy config finished since the read
        # began: its change would be hidden until a restart.
        if configured == self._configured and row.guild_id not in self._made_in.get(tx, ()):
            self._terms[row.guild_id] = self._terms_of(row)

    # -- building blocks, used inside a caller's transaction -------------------------------

    async def ensure_guild(self, tx: Transaction, guild_id: int) -> mq.GuildSettingsRow:
        """The server's whole row, read now (the house balance moves with every bet); its
        settings are cached on the way (:meth:`terms`)."""
        configured = self._configured
        settings = await mq.guild_settings(tx, guild_id)
        if settings is not None:
            self._remember(tx, settings, configured)
        else:
            self._made_in.setdefault(tx, set()).add(guild_id)
            # Another process may have made the row since the read: then it minted the
            # float, and this one must not mint it again.
            made = await mq.insert_guild_settings(tx, guild_id)
            if made and self._house_float:
                await self._mint(tx, guild_id, HOUSE_ACCOUNT, self._house_float, "house float")
            settings = await mq.guild_settings(tx, guild_id)
            assert settings is not None
        return settings

    async def ensure_wallet(self, tx: Transaction, guild_id: int, user_id: int) -> mq.WalletRow:
        existing = await mq.wallet(tx, guild_id, user_id)
        if existing is not None:
            return existing
        # Cached or not, the server's row exists once this returns (the wallet refers to it).
        terms = await self.terms(tx, guild_id)
        made = await mq.insert_wallet(tx, guild_id, user_id)  # False: another process did
        if made and terms.starting_balance:
            await self._mint_free(tx, guild_id, user_id, terms.starting_balance, "welcome")
        row = await mq.wallet(tx, guild_id, user_id)
        assert row is not None
        return row

    async def transfer(
        self,
        tx: Transaction,
        guild_id: int,
        source: str,
        target: str,
        amount: int,
        *,
        kind: str,
        table_id: int | None = None,
        action_seq: int | None = None,
        memo: str = "",
        event_id: int | None = None,
    ) -> None:
        """Move coins between two accounts; a wallet may not go below zero."""
        if amount == 0:
            return
        if amount < 0:
            source, target, amount = target, source, -amount
        await self._apply(tx, guild_id, source, -amount)
        await self._apply(tx, guild_id, target, amount)
        await mq.insert_ledger(
            tx,
            guild_id=guild_id,
            at=self._clock(),
            kind=kind,
            source=source,
            target=target,
            amount=amount,
            table_id=table_id,
            action_seq=action_seq,
            memo=memo,
            event_id=event_id,
        )

    async def _mint(
        self, tx: Transaction, guild_id: int, target: str, amount: int, memo: str
    ) -> None:
        """Create coins: the only way the total grows, so it is counted in `minted`."""
        await mq.add_minted(tx, guild_id, amount)
        await self.transfer(tx, guild_id, MINT, target, amount, kind="mint", memo=memo)

    async def _mint_free(
        self, tx: Transaction, guild_id: int, user_id: int, amount: int, memo: str
    ) -> None:
        """Mint coins a member gets for free, recorded as such: a gift moves only those
        older than the server's hold, so spare accounts cannot funnel them at once."""
        await self._mint(tx, guild_id, wallet_account(user_id), amount, memo)
        await mq.record_free_coins(tx, guild_id, user_id, self._clock(), amount)

    async def _apply(self, tx: Transaction, guild_id: int, account: str, delta: int) -> None:
        kind, _, owner = account.partition(":")
        if kind == "wallet":
            user_id = int(owner)
            # The common case is one statement; a new wallet or a refusal takes the long way.
            if await mq.add_to_wallet(tx, guild_id, user_id, delta) is not None:
                return
            row = await self.ensure_wallet(tx, guild_id, user_id)
            if await mq.add_to_wallet(tx, guild_id, user_id, delta) is None:
                terms = await self.terms(tx, guild_id)
                raise InsufficientFunds(-delta, row.balance, terms.currency_name, user_id=user_id)
        elif kind == "escrow":
            await mq.add_to_escrow(tx, int(owner), delta)
        elif kind == "event":
            await eq.add_to_event_escrow(tx, int(owner), delta)
        elif kind == MINT:
            pass  # the mint is the outside world: its coins are counted in `minted`
        elif kind == HOUSE_ACCOUNT:
            # The house may run a deficit: it is the server's bank, and a player's fair
            # win must never be refused because the bank ran dry.
            await mq.add_to_house(tx, guild_id, delta)
        else:
            raise ValueError(f"unknown account {account!r}")

    # -- what the commands do, each its own transaction ------------------------------------

    async def balance(self, guild_id: int, user_id: int) -> Balance:
        async with self._db.transaction() as tx:
            terms = await self.terms(tx, guild_id)
            row = await self.ensure_wallet(tx, guild_id, user_id)
        return Balance(row.balance, terms.currency_name)

    async def peek(self, guild_id: int, user_id: int) -> Balance | None:
        """Someone else's balance: looking never creates (or funds) a wallet."""
        terms = self._terms.get(guild_id)
        async with self._db.reading() as tx:
            row = await mq.wallet(tx, guild_id, user_id)
            if terms is None:
                configured = self._configured
                settings = await mq.guild_settings(tx, guild_id)
                if settings is not None:
                    self._remember(tx, settings, configured)
                    terms = self._terms_of(settings)
        if row is None:
            return None
        return Balance(row.balance, terms.currency_name if terms is not None else "coins")

    async def terms_of(self, guild_id: int) -> GuildTerms:
        """The server's economy settings (from memory after the first read)."""
        cached = self._terms.get(guild_id)
        if cached is not None:
            return cached
        async with self._db.transaction() as tx:
            return await self.terms(tx, guild_id)

    async def currency(self, guild_id: int) -> str:
        cached = self._terms.get(guild_id)
        if cached is not None:
            return cached.currency_name  # no transaction at all
        async with self._db.transaction() as tx:
            return (await self.terms(tx, guild_id)).currency_name

    async def daily(self, guild_id: int, user_id: int) -> DailyClaim:
        now = self._clock()
        async with self._db.transaction() as tx:
            settings = await self.terms(tx, guild_id)
            row = await self.ensure_wallet(tx, guild_id, user_id)
            # Checked and stamped in one statement, not on `row`: another process may
            # claim between that read and this write (PostgreSQL, READ COMMITTED).
            if not await mq.claim_daily(tx, guild_id, user_id, now, DAILY_COOLDOWN_SECONDS):
                claimed = await mq.wallet(tx, guild_id, user_id)
                last = claimed.last_daily if claimed and claimed.last_daily is not None else now
                ready_at = int(last + DAILY_COOLDOWN_SECONDS)
                raise UserFacingError(
                    "You already claimed your daily {currency}; "
                    "the next claim opens <t:{ready_at}:R>.",
                    currency=settings.currency_name,
                    ready_at=str(ready_at),
                )
            if settings.daily_amount:
                await self._mint_free(tx, guild_id, user_id, settings.daily_amount, "daily")
            balance = row.balance + settings.daily_amount
        return DailyClaim(settings.daily_amount, balance, settings.currency_name)

    # -- self-exclusion ----------------------------------------------------------------------

    async def check_house_covers(self, tx: Transaction, guild_id: int, amount: int) -> None:
        """Refuse a computer's seat whose stake the house bank cannot put up (the house
        may run a deficit paying a fair win, never to stake a game)."""
        if amount <= 0:
            return
        await self.terms(tx, guild_id)  # the server's row exists from here on
        settings = await mq.guild_settings(tx, guild_id)
        assert settings is not None
        if settings.house_balance < amount:
            terms = await self.terms(tx, guild_id)
            raise NotAllowed(
                "The house bank holds {house} {currency}, "
                "too little for the computer to stake {amount}. Nothing changed.",
                house=settings.house_balance,
                currency=terms.currency_name,
                amount=amount,
            )

    async def check_stake(
        self, tx: Transaction, guild_id: int, user_id: int, amount: int, *, what: str = "stake"
    ) -> None:
        """Refuse a stake of `amount` (or a gift: `what`) from a member who excluded
        themself, or whose losses today would pass their daily loss limit."""
        until, limit = await mq.stake_bars(tx, guild_id, user_id)
        if until is not None and until > self._clock():
            raise SelfExcluded(until)
        if limit is None:
            return
        day_start, resets_at = utc_day(self._clock())
        lost = await self._lost_since(tx, guild_id, user_id, day_start)
        if lost + amount > limit:
            terms = await self.terms(tx, guild_id)
            raise LossLimitReached(limit, lost, amount, resets_at, terms.currency_name, what=what)

    async def _lost_since(self, tx: Transaction, guild_id: int, user_id: int, since: float) -> int:
        """What a loss limit counts: the member's net loss at the tables, and what they gave
        away. A gift is the way round a limit (to a friend, or an account of one's own, who
        stakes it), so it spends the limit as a stake does; a gift received adds no room."""
        account = wallet_account(user_id)
        lost = lost_at_tables(await mq.table_flows(tx, guild_id, account, since), since)
        return lost + await mq.gifts_given_since(tx, guild_id, account, since)

    async def may_stake(self, tx: Transaction, guild_id: int, user_id: int, amount: int) -> bool:
        """Whether the member may stake `amount` now (:meth:`check_stake` passes), asked
        about someone who is not the one acting (a would-be banker): their reason stays
        theirs, so the caller words its own refusal."""
        try:
            await self.check_stake(tx, guild_id, user_id, amount)
        except (SelfExcluded, LossLimitReached):
            return False
        return True

    async def loss_limit_status(self, guild_id: int, user_id: int) -> tuple[int, int] | None:
        """The member's daily loss limit and what it counts as lost today (at the tables,
        and given away)."""
        async with self._db.reading() as tx:
            limit = await mq.loss_limit(tx, guild_id, user_id)
            if limit is None:
                return None
            day_start, _ = utc_day(self._clock())
            lost = await self._lost_since(tx, guild_id, user_id, day_start)
        return limit, lost

    async def set_loss_limit(self, guild_id: int, user_id: int | None, daily_limit: int) -> None:
        """A moderator sets a member's daily loss limit, or (`user_id` None) the server's."""
        if not 0 <= daily_limit <= MAX_AMOUNT:
            raise NotAllowed("A loss limit is a number of coins from 0 to {most}.", most=MAX_AMOUNT)
        async with self._db.transaction() as tx:
            await self.ensure_guild(tx, guild_id)
            who = mq.SERVER_WIDE if user_id is None else user_id
            await mq.set_loss_limit(tx, guild_id, who, daily_limit)

    async def clear_loss_limit(self, guild_id: int, user_id: int | None) -> bool:
        async with self._db.transaction() as tx:
            who = mq.SERVER_WIDE if user_id is None else user_id
            return await mq.clear_loss_limit(tx, guild_id, who)

    async def exclusion(self, guild_id: int, user_id: int) -> float | None:
        """When the member's self-exclusion ends, if one is running."""
        async with self._db.reading() as tx:
            until = await mq.exclusion_until(tx, guild_id, user_id)
        return until if until is not None and until > self._clock() else None

    async def self_exclude(self, guild_id: int, user_id: int, days: int) -> float:
        """Bar the member from staking for `days` days from now; returns when it ends.

        It can be made longer, never shorter: the member cannot lift it themself, so a
        shorter new one must not undo the old."""
        if not MIN_EXCLUSION_DAYS <= days <= MAX_EXCLUSION_DAYS:
            raise NotAllowed(
                "Choose from {least} to {most} days.",
                least=MIN_EXCLUSION_DAYS,
                most=MAX_EXCLUSION_DAYS,
            )
        async with self._db.transaction() as tx:
            now = self._clock()
            until = now + days * 86_400
            current = await mq.exclusion_until(tx, guild_id, user_id)
            if current is not None and current >= until:
                raise NotAllowed(
                    "You are already excluded until <t:{moment}:f>. An exclusion can be made "
                    "longer, never shorter: nothing was changed.",
                    moment=str(int(current)),
                )
            await mq.set_exclusion(tx, guild_id, user_id, until, now)
        log.info("a member of server %s excluded themself for %d days", guild_id, days)
        return until

    async def lift_exclusion(self, guild_id: int, user_id: int) -> bool:
        """A moderator ends a member's self-exclusion; False when there was none running."""
        async with self._db.transaction() as tx:
            until = await mq.exclusion_until(tx, guild_id, user_id)
            if until is None or until <= self._clock():
                return False
            await mq.delete_exclusion(tx, guild_id, user_id)
        return True

    # -- gifts -------------------------------------------------------------------------------

    async def free_coins(
        self, tx: Transaction, guild_id: int, user_id: int, balance: int, terms: GuildTerms
    ) -> FreeCoins:
        """What of the member's ``balance`` came free less than the server's hold ago."""
        now = self._clock()
        hold = terms.gift_hold_days * 86_400
        aged = terms.gift_account_days * 86_400
        if not hold or (aged and now - account_created(user_id) >= aged):
            return FreeCoins(balance, 0, None)
        young = await mq.free_coins_since(tx, guild_id, user_id, now - hold)
        held = min(balance, sum(amount for _at, amount in young))
        return FreeCoins(balance, held, young[-1][0] + hold if held else None)

    async def gift_allowance(
        self, tx: Transaction, guild_id: int, user_id: int, terms: GuildTerms
    ) -> GiftAllowance:
        """What the member may still receive in gifts today."""
        day_start, resets_at = utc_day(self._clock())
        received = 0
        if terms.gift_cap:
            account = wallet_account(user_id)
            received = await mq.gifts_received_since(tx, guild_id, account, day_start)
        return GiftAllowance(terms.gift_cap, received, resets_at)

    async def gift_status(self, guild_id: int, user_id: int) -> tuple[FreeCoins, GiftAllowance]:
        """A member's own view of gifts (/wallet): their free coins still held, and what
        they may still receive today."""
        terms = await self.terms_of(guild_id)
        async with self._db.reading() as tx:
            row = await mq.wallet(tx, guild_id, user_id)
            free = await self.free_coins(
                tx, guild_id, user_id, row.balance if row is not None else 0, terms
            )
            return free, await self.gift_allowance(tx, guild_id, user_id, terms)

    async def give(self, guild_id: int, giver: int, receiver: int, amount: int) -> Balance:
        check_amount(amount)
        if giver == receiver:
            raise UserFacingError("You cannot give coins to yourself.")
        async with self._db.transaction() as tx:
            # A gift is a stake by proxy: self-exclusion refuses it, a loss limit counts it.
            await self.check_stake(tx, guild_id, giver, amount, what="gift")
            terms = await self.terms(tx, guild_id)
            if await mq.wallet(tx, guild_id, receiver) is None:
                # A wallet is made, with its welcome coins, by its owner's own first
                # action; a gift must not make (and fund) one for them.
                raise UserFacingError(
                    "{member} has no wallet here yet. It opens, with its welcome "
                    "coins, the first time they use /wallet, /daily or sit at a table.",
                    member=f"<@{receiver}>",
                )
            await self.transfer(
                tx,
                guild_id,
                wallet_account(giver),
                wallet_account(receiver),
                amount,
                kind="give",
            )
            row = await mq.wallet(tx, guild_id, giver)
            assert row is not None
            # Checked once the gift is made: its statements hold both wallets' rows until
            # the commit, so two gifts at once (another process's too) are judged one
            # after the other, each seeing the other's coins gone.
            await self._check_gift(tx, guild_id, giver, receiver, amount, row.balance, terms)
        return Balance(row.balance, terms.currency_name)

    async def _check_gift(
        self,
        tx: Transaction,
        guild_id: int,
        giver: int,
        receiver: int,
        amount: int,
        left_with: int,
        terms: GuildTerms,
    ) -> None:
        """Refuse (and so undo) a gift that moves free coins the server still holds, or
        takes the receiver's gifts today past the server's cap."""
        free = await self.free_coins(tx, guild_id, giver, left_with + amount, terms)
        allowance = await self.gift_allowance(tx, guild_id, receiver, terms)
        before = GiftAllowance(allowance.cap, allowance.received - amount, allowance.resets_at)
        room = before.left
        if amount <= free.giftable and (room is None or amount <= room):
            return
        raise GiftLimited(
            most=max(0, free.giftable if room is None else min(free.giftable, room)),
            member=f"<@{receiver}>",
            currency=terms.currency_name,
            held=free.held if amount > free.giftable else 0,
            until=free.until,
            left=room,
            cap=before.cap,
            resets_at=before.resets_at,
        )

    async def grant(self, guild_id: int, receiver: int, amount: int, memo: str) -> Balance:
        """A moderator mints coins into a member's wallet."""
        check_amount(amount)
        async with self._db.transaction() as tx:
            terms = await self.terms(tx, guild_id)
            await self.ensure_wallet(tx, guild_id, receiver)
            await self._mint(tx, guild_id, wallet_account(receiver), amount, memo or "grant")
            row = await mq.wallet(tx, guild_id, receiver)
            assert row is not None
        return Balance(row.balance, terms.currency_name)

    async def configure(
        self,
        guild_id: int,
        *,
        currency_name: str | None = None,
        starting_balance: int | None = None,
        daily_amount: int | None = None,
        currency_emoji: str | None = None,
        gift_hold_days: int | None = None,
        gift_account_days: int | None = None,
        gift_cap: int | None = None,
    ) -> mq.GuildSettingsRow:
        """`currency_emoji`: an emoji, a server emoji (`<:name:id>`), or "" for none."""
        if currency_name is not None and not 1 <= len(currency_name.strip()) <= 20:
            raise NotAllowed("The currency name must be 1 to 20 characters.")
        if currency_emoji is not None:
            currency_emoji = currency_emoji.strip()
            if currency_emoji and not is_emoji(currency_emoji):
                raise NotAllowed(
                    "The currency emoji must be one emoji (or a server emoji); nothing changed."
                )
        if starting_balance is not None and not 0 <= starting_balance <= 1_000_000_000:
            raise NotAllowed("The starting balance must be between 0 and 1,000,000,000.")
        if daily_amount is not None and not 0 <= daily_amount <= 1_000_000_000:
            raise NotAllowed("The daily amount must be between 0 and 1,000,000,000.")
        if gift_hold_days is not None and not 0 <= gift_hold_days <= MAX_GIFT_HOLD_DAYS:
            raise NotAllowed(
                "Free coins can be held from 0 to {most} days; nothing changed.",
                most=MAX_GIFT_HOLD_DAYS,
            )
        if gift_account_days is not None and not 0 <= gift_account_days <= MAX_GIFT_ACCOUNT_DAYS:
            raise NotAllowed(
                "The account age that lifts the hold is from 0 to {most} days; nothing changed.",
                most=MAX_GIFT_ACCOUNT_DAYS,
            )
        if gift_cap is not None and not 0 <= gift_cap <= 1_000_000_000:
            raise NotAllowed("The daily gift cap must be between 0 and 1,000,000,000.")
        try:
            async with self._db.transaction() as tx:
                await self.ensure_guild(tx, guild_id)
                await mq.update_guild_settings(
                    tx,
                    guild_id,
                    currency_name=currency_name.strip() if currency_name else None,
                    starting_balance=starting_balance,
                    daily_amount=daily_amount,
                    currency_emoji=currency_emoji,
                    gift_hold_days=gift_hold_days,
                    gift_account_days=gift_account_days,
                    gift_cap=gift_cap,
                )
                settings = await mq.guild_settings(tx, guild_id)
                assert settings is not None
        finally:
            # The only writer of the cached settings: once its transaction is over
            # (committed or not), the next use reads them again, and a read that began
            # before now is not kept (see `_remember`).
            self._configured += 1
            self.invalidate(guild_id)
        return settings

    async def settings(self, guild_id: int) -> mq.GuildSettingsRow:
        """The whole row, read now (with the house balance)."""
        async with self._db.transaction() as tx:
            return await self.ensure_guild(tx, guild_id)

    async def leaderboard(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> tuple[list[mq.WalletRow], int]:
        """One page of the richest wallets, and how many wallets there are."""
        async with self._db.reading() as tx:
            rows = await mq.leaderboard(tx, guild_id, limit, offset)
            return rows, await mq.wallet_count(tx, guild_id)

    async def totals(self, guild_id: int) -> mq.MoneyTotals:
        async with self._db.reading() as tx:
            return await mq.totals(tx, guild_id)

    async def audit(
        self, guild_id: int, member_id: int | None = None, movements: int = 10
    ) -> Audit:
        """The money invariant, every account's stored balance against the ledger, and a
        member's latest movements: all read in one go, so they agree with each other."""
        async with self._db.reading() as tx:
            totals = await mq.totals(tx, guild_id)
            stored = await mq.stored_balances(tx, guild_id)
            flows = await mq.ledger_sums(tx, guild_id)
            balance: int | None = None
            rows: list[mq.LedgerRow] = []
            if member_id is not None:
                wallet = await mq.wallet(tx, guild_id, member_id)
                balance = wallet.balance if wallet is not None else None
                rows = await mq.movements_of(tx, guild_id, wallet_account(member_id), movements)
        accounts = set(stored) | set(flows)
        mismatches = sorted(
            (account, flows.get(account, 0), stored.get(account, 0))
            for account in accounts
            if flows.get(account, 0) != stored.get(account, 0)
        )
        return Audit(totals, mismatches, len(accounts), balance, tuple(rows))
