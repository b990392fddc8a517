"""Wallets, /daily, give, grant and configure on a real SQLite file, then a stateful test
that drives the economy and the table service together and checks the books after every step."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from pydantic import BaseModel, Field

from bot.economy import DAILY_COOLDOWN_SECONDS, MAX_AMOUNT, wallet_account
from bot.errors import InsufficientFunds, NotAllowed, NotSeated, UserFacingError
from bot.games.common import HOUSE, Abort, Deadline
from bot.games.contract import Engine
from bot.games.dice import Dice, ScriptedDice
from bot.games.registry import GameSpec
from bot.service import Actor, TableAlreadyOpen, TableService
from bot.storage import money as mq
from bot.storage import table_queries as tq
from tests.platform._helpers import (
    COINFLIP,
    DirectReader,
    FakeClock,
    Services,
    check_platform_invariants,
    coinflip_registry,
    fingerprint,
    open_services,
    run_now,
    wallet_balances,
)
from tests.support import coinflip
from tests.support.gifts import gifts_unheld

GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    made = await open_services(database_url, house_float=5_000)
    yield made
    await made.db.close()


async def ledger(services: Services, guild_id: int = GUILD) -> list[Any]:
    async with services.db.reading() as tx:
        return await tx.fetchall(
            "SELECT kind, source, target, amount, memo FROM ledger WHERE guild_id = ? ORDER BY id",
            (guild_id,),
        )


async def totals(services: Services, guild_id: int = GUILD) -> mq.MoneyTotals:
    return await services.economy.totals(guild_id)


# -- wallets and the mint -----------------------------------------------------------------


async def test_new_wallet_gets_the_starting_balance_as_a_mint(services: Services) -> None:
    balance = await services.economy.balance(GUILD, ALICE)
    assert (balance.balance, balance.currency) == (1000, "ryō")
    rows = [tuple(row) for row in await ledger(services)]
    assert rows == [
        ("mint", "mint", "house", 5_000, "house float"),
        ("mint", "mint", wallet_account(ALICE), 1000, "welcome"),
    ]
    assert await totals(services) == mq.MoneyTotals(wallets=1000, escrow=0, house=5000, minted=6000)
    # Asking again mints nothing more.
    assert (await services.economy.balance(GUILD, ALICE)).balance == 1000
    assert len(await ledger(services)) == 2


async def test_wallets_start_at_the_configured_starting_balance(services: Services) -> None:
    await services.economy.configure(GUILD, starting_balance=250, currency_name="  mon ")
    balance = await services.economy.balance(GUILD, BOB)
    assert (balance.balance, balance.currency) == (250, "mon")
    # A starting balance of zero mints no row at all (the ledger refuses zero amounts).
    await services.economy.configure(GUILD, starting_balance=0)
    assert (await services.economy.balance(GUILD, CAROL)).balance == 0
    targets = [row[2] for row in await ledger(services) if row[0] == "mint"]
    assert wallet_account(BOB) in targets
    assert wallet_account(CAROL) not in targets


async def test_guilds_are_separate(services: Services) -> None:
    await services.economy.grant(GUILD, ALICE, 500, "")
    await services.economy.balance(2, ALICE)
    assert (await services.economy.balance(GUILD, ALICE)).balance == 1500
    assert (await services.economy.balance(2, ALICE)).balance == 1000
    assert (await totals(services, 2)).minted == 5_000 + 1_000


# -- /daily -------------------------------------------------------------------------------


async def test_daily_has_a_twenty_hour_cooldown(services: Services) -> None:
    assert DAILY_COOLDOWN_SECONDS == 20 * 3600
    clock = services.clock
    claim = await services.economy.daily(GUILD, ALICE)
    assert (claim.amount, claim.balance) == (100, 1100)

    clock.advance(DAILY_COOLDOWN_SECONDS - 1)
    before = await fingerprint(services.db)
    with pytest.raises(UserFacingError, match="already claimed") as refused:
        await services.economy.daily(GUILD, ALICE)
    ready_at = int(clock.now + 1)
    assert f"<t:{ready_at}:R>" in str(refused.value)
    assert await fingerprint(services.db) == before

    clock.advance(1)
    claim = await services.economy.daily(GUILD, ALICE)
    assert claim.balance == 1200
    dailies = [row for row in await ledger(services) if row[4] == "daily"]
    assert [tuple(row)[:4] for row in dailies] == [("mint", "mint", wallet_account(ALICE), 100)] * 2
    # Another member's cooldown is their own.
    assert (await services.economy.daily(GUILD, BOB)).balance == 1100


async def test_daily_of_zero_still_starts_the_cooldown(services: Services) -> None:
    await services.economy.configure(GUILD, daily_amount=0)
    claim = await services.economy.daily(GUILD, ALICE)
    assert (claim.amount, claim.balance) == (0, 1000)
    with pytest.raises(UserFacingError):
        await services.economy.daily(GUILD, ALICE)


# -- give, grant, configure ---------------------------------------------------------------


async def test_give_moves_coins_with_a_ledger_row(services: Services) -> None:
    await gifts_unheld(services.economy, GUILD)
    await services.economy.balance(GUILD, BOB)  # Bob's own first look opens his wallet
    after = await services.economy.give(GUILD, ALICE, BOB, 300)
    assert after.balance == 700
    assert await wallet_balances(services.db, GUILD) == {ALICE: 700, BOB: 1300}
    last = tuple((await ledger(services))[-1])
    assert last == ("give", wallet_account(ALICE), wallet_account(BOB), 300, "")
    # Giving everything is allowed; the wallet reaches exactly zero.
    assert (await services.economy.give(GUILD, ALICE, BOB, 700)).balance == 0


@pytest.mark.parametrize(
    ("giver", "receiver", "amount", "error"),
    [
        (ALICE, BOB, 0, UserFacingError),
        (ALICE, BOB, -5, UserFacingError),
        (ALICE, BOB, 1001, InsufficientFunds),
        (ALICE, BOB, MAX_AMOUNT + 1, UserFacingError),
        (ALICE, ALICE, 10, UserFacingError),
        # A brand-new giver's wallet (with its welcome mint) is rolled back too.
        (CAROL, BOB, 5000, InsufficientFunds),
        # A receiver who never acted has no wallet, and a gift does not make one.
        (ALICE, CAROL, 5, UserFacingError),
    ],
)
async def test_refused_give_changes_nothing(
    services: Services, giver: int, receiver: int, amount: int, error: type[Exception]
) -> None:
    await gifts_unheld(services.economy, GUILD)
    await services.economy.balance(GUILD, ALICE)
    await services.economy.balance(GUILD, BOB)
    before = await fingerprint(services.db)
    totals_before = await totals(services)
    with pytest.raises(error):
        await services.economy.give(GUILD, giver, receiver, amount)
    assert await totals(services) == totals_before
    assert await wallet_balances(services.db, GUILD) == {ALICE: 1000, BOB: 1000}
    assert await fingerprint(services.db) == before


async def test_grant_mints_into_a_wallet(services: Services) -> None:
    await services.economy.settings(GUILD)
    before = await totals(services)
    assert (await services.economy.grant(GUILD, ALICE, 250, "prize")).balance == 1250
    after = await totals(services)
    # The welcome mint and the grant both count as minted.
    assert after.minted == before.minted + 1000 + 250
    assert tuple((await ledger(services))[-1]) == (
        "mint",
        "mint",
        wallet_account(ALICE),
        250,
        "prize",
    )
    await services.economy.grant(GUILD, ALICE, MAX_AMOUNT, "")
    assert tuple((await ledger(services))[-1])[4] == "grant"


@pytest.mark.parametrize("amount", [0, -1, MAX_AMOUNT + 1])
async def test_refused_grant_changes_nothing(services: Services, amount: int) -> None:
    await services.economy.balance(GUILD, ALICE)
    before = await fingerprint(services.db)
    with pytest.raises(UserFacingError):
        await services.economy.grant(GUILD, ALICE, amount, "")
    with pytest.raises(UserFacingError):
        await services.economy.grant(GUILD, BOB, amount, "")
    assert await fingerprint(services.db) == before


@pytest.mark.parametrize(
    "options",
    [
        {"currency_name": ""},
        {"currency_name": "    "},
        {"currency_name": "x" * 21},
        {"starting_balance": -1},
        {"starting_balance": 1_000_000_001},
        {"daily_amount": -1},
        {"daily_amount": 1_000_000_001},
        {"currency_name": "ok", "daily_amount": -5},
        {"gift_hold_days": -1},
        {"gift_hold_days": 366},
        {"gift_account_days": 3651},
        {"gift_cap": -1},
        {"currency_name": "ok", "gift_cap": 1_000_000_001},
    ],
)
async def test_refused_configure_changes_nothing(
    services: Services, options: dict[str, Any]
) -> None:
    await services.economy.configure(GUILD, currency_name="mon", starting_balance=10)
    before = await fingerprint(services.db)
    with pytest.raises(NotAllowed):
        await services.economy.configure(GUILD, **options)
    assert await fingerprint(services.db) == before
    settings_row = await services.economy.settings(GUILD)
    assert (settings_row.currency_name, settings_row.starting_balance) == ("mon", 10)


async def test_configure_accepts_the_bounds_and_keeps_unset_fields(services: Services) -> None:
    await services.economy.configure(GUILD, currency_name="x" * 20, daily_amount=1_000_000_000)
    row = await services.economy.configure(GUILD, starting_balance=0)
    assert (row.currency_name, row.starting_balance, row.daily_amount) == (
        "x" * 20,
        0,
        1_000_000_000,
    )
    assert (row.gift_hold_days, row.gift_account_days, row.gift_cap) == (7, 0, 1_000), "defaults"
    row = await services.economy.configure(
        GUILD, gift_hold_days=365, gift_account_days=3650, gift_cap=1_000_000_000
    )
    assert (row.gift_hold_days, row.gift_account_days, row.gift_cap) == (365, 3650, 1_000_000_000)
    row = await services.economy.configure(GUILD, gift_hold_days=0, gift_cap=0)
    assert (row.gift_hold_days, row.gift_account_days, row.gift_cap) == (0, 3650, 0)
    assert row.currency_name == "x" * 20


async def test_ledger_sums_match_every_stored_balance(services: Services) -> None:
    economy = services.economy
    await gifts_unheld(economy, GUILD)
    await economy.daily(GUILD, ALICE)
    await economy.balance(GUILD, BOB)
    await economy.give(GUILD, ALICE, BOB, 400)
    await economy.grant(GUILD, CAROL, 77, "")
    await economy.give(GUILD, CAROL, ALICE, 1077)
    async with services.db.reading() as tx:
        sums = await mq.ledger_sums(tx, GUILD)
        board = await mq.leaderboard(tx, GUILD, 99)
        stored = {wallet_account(row.user_id): row.balance for row in board}
        settings_row = await mq.guild_settings(tx, GUILD)
    assert settings_row is not None
    stored |= {"house": settings_row.house_balance, "mint": -settings_row.minted}
    assert sums == stored
    assert stored[f"wallet:{CAROL}"] == 0
    assert sums["mint"] == -(5000 + 3 * 1000 + 100 + 77)
    await check_platform_invariants(services.db, services.registry)


# -- the table service's money paths the coinflip engine cannot reach -----------------------
#
# A tiny bank game: each player's whole stake rides against the bank at even money, and the
# table itself (a deadline) can raise every stake. Built as a GameSpec directly.


class BankRules(BaseModel):
    stake: int = Field(default=10, ge=0)
    deadline_raise: int = 0


class Win(BaseModel):
    kind: Literal["win"] = "win"


class BankState(BaseModel):
    rules: BankRules
    seats: list[int]
    ply: int = 0
    finished: bool = False
    stakes: dict[int, int]
    payouts: dict[int, int] = Field(default_factory=dict)


def _bank_start(rules: BankRules, players: list[int], dice: Any) -> BankState:
    return BankState(rules=rules, seats=players, stakes={p: rules.stake for p in players})


def _bank_act(
    state: BankState, player: int | None, action: BaseModel, dice: Any
) -> tuple[BankState, list[BaseModel]]:
    new = state.model_copy(deep=True)
    new.ply += 1
    if isinstance(action, Deadline):
        for seat in new.stakes:
            new.stakes[seat] += new.rules.deadline_raise
        return new, []
    assert player is not None
    riding = new.stakes[player]
    new.stakes[player] = 0
    new.payouts[player] = new.payouts.get(player, 0) + riding
    new.payouts[HOUSE] = new.payouts.get(HOUSE, 0) - riding
    new.finished = not any(new.stakes.values())
    return new, []


class BankEngine(Engine[BankRules, BankState, BaseModel, BaseModel]):
    """Players win back their stake from the bank; a deadline can raise every stake."""

    name = "bank"

    def start(self, rules: BankRules, players: list[int], dice: Dice) -> BankState:
        return _bank_start(rules, players, dice)

    def act(
        self, state: BankState, player: int | None, action: BaseModel, dice: Dice
    ) -> tuple[BankState, list[BaseModel]]:
        return _bank_act(state, player, action, dice)

    def seat_limits(self, rules: BankRules) -> tuple[int, int]:
        return (1, 4)

    def hold(self, rules: BankRules) -> int:
        return rules.stake

    def deadline_seconds(self, state: BankState) -> int | None:
        return None if state.finished else 30


BANK = GameSpec(
    BankEngine(
        rules_model=BankRules,
        state_model=BankState,
        action_type=Annotated[Win | Deadline, Field(discriminator="kind")],
        event_type=BaseModel,
    ),
    "Bank",
)


@pytest.fixture
async def bank(database_url: str) -> AsyncIterator[Services]:
    registry = coinflip_registry()
    registry.add(BANK)
    made = await open_services(
        database_url, registry=registry, dice_factory=lambda row: ScriptedDice()
    )
    yield made
    await made.db.close()


async def test_a_bank_paying_a_lone_winner_keeps_escrow_non_negative(bank: Services) -> None:
    opened = await bank.tables.open(
        guild_id=GUILD, channel_id=5, game="bank", host_id=ALICE, rules=BankRules(stake=100)
    )
    await bank.tables.start(opened.snapshot.id, Actor(ALICE))
    outcome = await bank.tables.act(opened.snapshot.id, Actor(ALICE), Win())
    assert outcome.snapshot.status == "finished"
    assert (await bank.economy.balance(GUILD, ALICE)).balance == 1100
    await check_platform_invariants(bank.db, bank.registry)


async def test_a_refused_deadline_ends_the_table_with_refunds(bank: Services) -> None:
    """A game that cannot take its own timeout must not wait forever with coins held."""
    rules = BankRules(stake=100, deadline_raise=10_000)
    opened = await bank.tables.open(
        guild_id=GUILD, channel_id=5, game="bank", host_id=ALICE, rules=rules
    )
    started = await bank.tables.start(opened.snapshot.id, Actor(ALICE))
    deadline = started.snapshot.deadline
    assert deadline is not None
    assert (await bank.economy.balance(GUILD, ALICE)).balance == 900
    bank.clock.now = deadline.due_at + 1
    outcome = await bank.tables.fire_deadline(opened.snapshot.id, deadline.ply)
    assert outcome is not None and outcome.kind == "cancelled"
    assert outcome.snapshot.status == "cancelled"
    assert outcome.snapshot.deadline is None
    # The refused attempt left nothing (its raise was never charged); the stake came back.
    assert (await bank.economy.balance(GUILD, ALICE)).balance == 1000
    _, log_rows = await bank.tables.history(opened.snapshot.id, GUILD)
    kinds = [json.loads(row.action_json)["kind"] for row in log_rows]
    assert kinds[-2:] == ["__abandon__", "__cancel__"]
    assert "deadline" not in kinds
    await check_platform_invariants(bank.db, bank.registry)
    assert bank.tables.scheduler.due_at(opened.snapshot.id) is None


async def test_no_player_may_send_abort_through_act(bank: Services) -> None:
    """Ending a game is a moderator's word through /cancel, whatever a player sends."""
    opened = await bank.tables.open(
        guild_id=GUILD, channel_id=5, game="bank", host_id=ALICE, rules=BankRules(stake=100)
    )
    await bank.tables.start(opened.snapshot.id, Actor(ALICE))
    before = await fingerprint(bank.db)
    for actor in (Actor(ALICE), Actor(ALICE, is_moderator=True)):
        with pytest.raises(NotAllowed):
            await bank.tables.act(opened.snapshot.id, actor, Abort())
        # Nor the table's own step: a member cannot call time.
        with pytest.raises(NotAllowed, match="table's own step"):
            await bank.tables.act(opened.snapshot.id, actor, Deadline())
    assert await fingerprint(bank.db) == before


async def test_a_deadline_that_fails_outside_the_game_is_tried_again(
    bank: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure that is not the game's (the database, say) saves nothing: the table
    keeps its deadline in memory and tries again a minute later."""
    opened = await bank.tables.open(
        guild_id=GUILD, channel_id=5, game="bank", host_id=ALICE, rules=BankRules(stake=100)
    )
    started = await bank.tables.start(opened.snapshot.id, Actor(ALICE))
    deadline = started.snapshot.deadline
    assert deadline is not None
    bank.clock.now = deadline.due_at + 1

    async def disk_full(table_id: int, ply: int) -> None:
        raise OSError("disk I/O error")

    monkeypatch.setattr(bank.tables, "fire_deadline", disk_full)
    await bank.tables._on_deadline(opened.snapshot.id, deadline.ply)
    assert bank.tables.scheduler.due_at(opened.snapshot.id) == bank.clock.now + 60
    assert (await bank.tables.snapshot(opened.snapshot.id)).status == "running"


# -- the stateful test --------------------------------------------------------------------

USERS = (101, 102, 103, 104)
GUILDS = (1, 2)
CHANNELS = (0, 1)


def channel_id(guild_id: int, index: int) -> int:
    return 1000 * guild_id + index


class EconomyAndTables(RuleBasedStateMachine):
    """Random members doing random things; the books must balance after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.mkdtemp(prefix="tanzaku-stateful-")
        self.clock = FakeClock()
        self.rolls: list[int] = []
        self.services = self.run(
            open_services(
                Path(self.folder) / "state.db",
                clock=self.clock,
                dice_factory=lambda row: ScriptedDice(self.rolls),
                house_float=500,
            )
        )
        self.reader = DirectReader(Path(self.folder) / "state.db")
        self.economy = self.services.economy
        self.tables: TableService = self.services.tables
        self.table_ids: list[int] = []
        # The books with gifts of any coins (the hold and the cap are tested on their own).
        for guild in GUILDS:
            self.run(gifts_unheld(self.economy, guild))

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    def teardown(self) -> None:
        try:
            self.reader.close()
            self.run(self.services.db.close())
        finally:
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    # -- what the model knows ----------------------------------------------------------------

    def effective_balance(self, guild_id: int, user_id: int) -> int:
        """The wallet's balance, or what a new wallet would start with."""
        row = run_now(mq.wallet(self.reader, guild_id, user_id))  # type: ignore[arg-type]
        if row is not None:
            return row.balance
        settings_row = run_now(mq.guild_settings(self.reader, guild_id))  # type: ignore[arg-type]
        return 1000 if settings_row is None else settings_row.starting_balance

    def row(self, table_id: int) -> tq.TableRow:
        row = run_now(tq.table(self.reader, table_id))  # type: ignore[arg-type]
        assert row is not None
        return row

    def seated(self, table_id: int) -> list[int]:
        seats = run_now(tq.seats(self.reader, table_id))  # type: ignore[arg-type]
        return [seat.user_id for seat in seats]

    def fingerprint(self) -> dict[str, Any]:
        return run_now(fingerprint(self.reader))

    def state(self, table_id: int) -> coinflip.State | None:
        row = self.row(table_id)
        return coinflip.State.model_validate_json(row.state_json) if row.state_json else None

    def pick(self, index: int) -> int:
        return self.table_ids[index % len(self.table_ids)]

    def pick_running(self, index: int) -> int:
        """A running table when there is one: random picks mostly land on ended tables."""
        running = [t for t in self.table_ids if self.row(t).status == "running"]
        return running[index % len(running)] if running else self.pick(index)

    def refused(self, coroutine: Any, error: type[Exception] = UserFacingError) -> None:
        """The call must be refused with `error` and leave every row as it was."""
        before = self.fingerprint()
        try:
            self.run(coroutine)
        except error:
            pass
        else:
            raise AssertionError(f"expected {error.__name__}")
        assert self.fingerprint() == before

    # -- the economy -------------------------------------------------------------------------

    @rule(
        guild=st.sampled_from(GUILDS),
        user=st.sampled_from(USERS),
        hours=st.sampled_from([0, 0, 1, 19.99, 20, 30]),
    )
    def daily(self, guild: int, user: int, hours: float) -> None:
        self.clock.advance(hours * 3600)
        before = self.effective_balance(guild, user)
        wallet = run_now(mq.wallet(self.reader, guild, user))  # type: ignore[arg-type]
        settings_row = run_now(mq.guild_settings(self.reader, guild))  # type: ignore[arg-type]
        amount = 100 if settings_row is None else settings_row.daily_amount
        last = wallet.last_daily if wallet is not None else None
        call = self.economy.daily(guild, user)
        if last is not None and self.clock.now - last < DAILY_COOLDOWN_SECONDS:
            self.refused(call)
        else:
            claim = self.run(call)
            assert claim.amount == amount
            assert claim.balance == before + amount == self.effective_balance(guild, user)

    @rule(
        guild=st.sampled_from(GUILDS),
        giver=st.sampled_from(USERS),
        receiver=st.sampled_from(USERS),
        amount=st.integers(min_value=-3, max_value=2500),
    )
    def give(self, guild: int, giver: int, receiver: int, amount: int) -> None:
        giver_has = self.effective_balance(guild, giver)
        receiver_has = self.effective_balance(guild, receiver)
        receiver_wallet = self.run(self.economy.peek(guild, receiver))
        call = self.economy.give(guild, giver, receiver, amount)
        if amount <= 0 or giver == receiver or receiver_wallet is None:
            self.refused(call)
        elif amount > giver_has:
            self.refused(call, InsufficientFunds)
        else:
            assert self.run(call).balance == giver_has - amount
            assert self.effective_balance(guild, receiver) == receiver_has + amount

    @rule(
        guild=st.sampled_from(GUILDS),
        user=st.sampled_from(USERS),
        amount=st.integers(min_value=-3, max_value=3000),
    )
    def grant(self, guild: int, user: int, amount: int) -> None:
        has = self.effective_balance(guild, user)
        call = self.economy.grant(guild, user, amount, "")
        if amount <= 0:
            self.refused(call)
        else:
            assert self.run(call).balance == has + amount

    @rule(
        guild=st.sampled_from(GUILDS),
        starting=st.integers(min_value=-1, max_value=400),
        daily_amount=st.integers(min_value=0, max_value=300),
    )
    def configure(self, guild: int, starting: int, daily_amount: int) -> None:
        call = self.economy.configure(guild, starting_balance=starting, daily_amount=daily_amount)
        if starting < 0:
            self.refused(call, NotAllowed)
        else:
            row = self.run(call)
            assert (row.starting_balance, row.daily_amount) == (starting, daily_amount)

    # -- tables ------------------------------------------------------------------------------

    @rule(
        guild=st.sampled_from(GUILDS),
        channel=st.sampled_from(CHANNELS),
        host=st.sampled_from(USERS),
        stake=st.integers(min_value=0, max_value=600),
        rake=st.integers(min_value=0, max_value=30),
        max_players=st.integers(min_value=2, max_value=3),
        fill=st.booleans(),
    )
    def open_table(
        self,
        guild: int,
        channel: int,
        host: int,
        stake: int,
        rake: int,
        max_players: int,
        fill: bool,
    ) -> None:
        rules = coinflip.Rules(stake=stake, rake=rake, max_players=max_players, turn_seconds=30)
        has = self.effective_balance(guild, host)
        call = self.tables.open(
            guild_id=guild,
            channel_id=channel_id(guild, channel),
            game=COINFLIP,
            host_id=host,
            rules=rules,
        )
        live = [t for t in self.table_ids if self.row(t).live]
        if any(self.row(t).channel_id == channel_id(guild, channel) for t in live):
            self.refused(call, TableAlreadyOpen)
        elif stake > has:
            self.refused(call, InsufficientFunds)
        else:
            outcome = self.run(call)
            assert outcome.snapshot.status == "lobby"
            assert outcome.snapshot.seats == [host]
            assert self.effective_balance(guild, host) == has - stake
            self.table_ids.append(outcome.snapshot.id)
            if fill:
                self.fill_and_start(len(self.table_ids) - 1, max_players)

    @precondition(lambda self: self.table_ids)
    @rule(index=st.integers(min_value=0, max_value=20), user=st.sampled_from(USERS))
    def join(self, index: int, user: int) -> None:
        table_id = self.pick(index)
        row = self.row(table_id)
        seated = self.seated(table_id)
        rules = coinflip.Rules.model_validate_json(row.rules_json)
        has = self.effective_balance(row.guild_id, user)
        call = self.tables.join(table_id, Actor(user))
        if row.status != "lobby" or user in seated or len(seated) >= rules.max_players:
            self.refused(call, NotAllowed)
        elif rules.stake > has:
            self.refused(call, InsufficientFunds)
        else:
            outcome = self.run(call)
            assert outcome.snapshot.seats == [*seated, user]
            assert self.effective_balance(row.guild_id, user) == has - rules.stake

    @precondition(lambda self: self.table_ids)
    @rule(index=st.integers(min_value=0, max_value=20), user=st.sampled_from(USERS))
    def leave(self, index: int, user: int) -> None:
        table_id = self.pick(index)
        row = self.row(table_id)
        seated = self.seated(table_id)
        call = self.tables.leave(table_id, Actor(user))
        if row.status != "lobby":
            self.refused(call, NotAllowed)
        elif user not in seated:
            self.refused(call, NotSeated)
        else:
            has = self.effective_balance(row.guild_id, user)
            stake = coinflip.Rules.model_validate_json(row.rules_json).stake
            outcome = self.run(call)
            assert self.effective_balance(row.guild_id, user) == has + stake
            assert outcome.snapshot.status == ("cancelled" if seated == [user] else "lobby")

    @precondition(lambda self: self.table_ids)
    @rule(index=st.integers(min_value=0, max_value=20), as_host=st.booleans())
    def start(self, index: int, as_host: bool) -> None:
        table_id = self.pick(index)
        row = self.row(table_id)
        user = row.host_id if as_host else next(u for u in USERS if u != row.host_id)
        count = len(self.seated(table_id))
        limit = coinflip.Rules.model_validate_json(row.rules_json).max_players
        call = self.tables.start(table_id, Actor(user))
        if row.status != "lobby" or not as_host or not 2 <= count <= limit:
            self.refused(call, NotAllowed)
        else:
            outcome = self.run(call)
            assert outcome.snapshot.status == "running"
            assert outcome.snapshot.deadline is not None
            event("a table started")

    @precondition(lambda self: self.table_ids)
    @rule(index=st.integers(min_value=0, max_value=20), players=st.integers(2, 3))
    def fill_and_start(self, index: int, players: int) -> None:
        """Random single steps rarely get a lobby to start, so this one does it in a row."""
        table_id = self.pick(index)
        row = self.row(table_id)
        if row.status != "lobby":
            return
        limit = coinflip.Rules.model_validate_json(row.rules_json).max_players
        for user in USERS:
            if len(self.seated(table_id)) >= min(players, limit):
                break
            if user not in self.seated(table_id):
                self.join(index, user)
        if not self.row(table_id).live:
            return
        self.start(index, as_host=True)

    @precondition(lambda self: self.table_ids)
    @rule(
        index=st.integers(min_value=0, max_value=20),
        running=st.booleans(),
        whose=st.sampled_from(["current", "current", "other", "stranger"]),
        side=st.sampled_from(["heads", "tails"]),
        coin=st.integers(min_value=1, max_value=2),
    )
    def call_coin(self, index: int, running: bool, whose: str, side: str, coin: int) -> None:
        table_id = self.pick_running(index) if running else self.pick(index)
        row = self.row(table_id)
        state = self.state(table_id)
        seated = self.seated(table_id)
        current = state.seats[state.turn] if state is not None else seated[0] if seated else 0
        others = [u for u in seated if u != current]
        user = {
            "current": current,
            "other": others[0] if others else current,
            "stranger": next(u for u in USERS if u not in seated),
        }[whose]
        self.rolls[:] = [coin]
        call = self.tables.act(table_id, Actor(user), coinflip.Call(side=side))
        if user not in seated:
            self.refused(call, NotSeated)
        elif row.status != "running" or user != current:
            self.refused(call)  # not started, ended, or not their turn
        else:
            outcome = self.run(call)
            won = (coin == 1) == (side == "heads")
            assert outcome.snapshot.status == ("finished" if won else "running")
            event("a call won" if won else "a call lost")

    @precondition(lambda self: self.table_ids)
    @rule(
        index=st.integers(min_value=0, max_value=20),
        seat=st.integers(min_value=0, max_value=3),
        amount=st.integers(min_value=-1, max_value=700),
    )
    def raise_stake(self, index: int, seat: int, amount: int) -> None:
        table_id = self.pick_running(index) if index % 2 else self.pick(index)
        row = self.row(table_id)
        seated = self.seated(table_id)
        if not seated:
            return
        user = seated[seat % len(seated)]
        has = self.effective_balance(row.guild_id, user)
        call = self.tables.act(table_id, Actor(user), coinflip.Raise(amount=amount))
        if row.status != "running" or amount <= 0:
            self.refused(call)
        elif amount > has:
            self.refused(call, InsufficientFunds)
        else:
            escrow = row.escrow
            self.run(call)
            assert self.effective_balance(row.guild_id, user) == has - amount
            assert self.row(table_id).escrow == escrow + amount
            event("a raise was paid")

    @precondition(lambda self: self.table_ids)
    @rule(index=st.integers(min_value=0, max_value=20), extra=st.integers(1, 10**6))
    def raise_more_than_the_wallet(self, index: int, extra: int) -> None:
        table_id = self.pick_running(index)
        row = self.row(table_id)
        seated = self.seated(table_id)
        if row.status != "running":
            return
        user = seated[-1]
        has = self.effective_balance(row.guild_id, user)
        self.refused(
            self.tables.act(table_id, Actor(user), coinflip.Raise(amount=has + extra)),
            InsufficientFunds,
        )
        event("an unaffordable raise was refused")

    @precondition(lambda self: self.table_ids)
    @rule(index=st.integers(min_value=0, max_value=20), coin=st.integers(1, 2), early=st.booleans())
    def fire_deadline(self, index: int, coin: int, early: bool) -> None:
        table_id = self.pick_running(index) if index % 2 else self.pick(index)
        snapshot = self.run(self.tables.snapshot(table_id))
        deadline = snapshot.deadline
        if deadline is None:
            assert not snapshot.row.live
            self.refused_quietly(table_id, snapshot.ply)
            return
        self.rolls[:] = [coin]
        if early and deadline.due_at > self.clock.now + 1:
            self.refused_quietly(table_id, deadline.ply)
            return
        self.clock.now = max(self.clock.now, deadline.due_at + 1)
        self.refused_quietly(table_id, deadline.ply + 1)  # a stale ply does nothing
        outcome = self.run(self.tables.fire_deadline(table_id, deadline.ply))
        assert outcome is not None
        if deadline.kind == "lobby":
            assert outcome.kind == "expired"
            assert outcome.snapshot.status == "cancelled"
        else:
            assert outcome.snapshot.ply == deadline.ply + 1
            assert outcome.snapshot.status == ("finished" if coin == 1 else "running")
        event(f"a {deadline.kind} deadline fired")

    def refused_quietly(self, table_id: int, ply: int) -> None:
        before = self.fingerprint()
        assert self.run(self.tables.fire_deadline(table_id, ply)) is None
        assert self.fingerprint() == before

    @precondition(lambda self: self.table_ids)
    @rule(
        index=st.integers(min_value=0, max_value=20),
        as_host=st.booleans(),
        moderator=st.booleans(),
    )
    def cancel(self, index: int, as_host: bool, moderator: bool) -> None:
        table_id = self.pick(index)
        row = self.row(table_id)
        user = row.host_id if as_host else next(u for u in USERS if u != row.host_id)
        seated = self.seated(table_id)
        before = {u: self.effective_balance(row.guild_id, u) for u in seated}
        state = self.state(table_id)
        at_risk = dict(state.stakes) if state is not None else {}
        if state is None:
            hold = coinflip.Rules.model_validate_json(row.rules_json).stake
            at_risk = dict.fromkeys(seated, hold)
        call = self.tables.cancel(table_id, Actor(user, moderator))
        # A lobby: its host or a moderator. A started game: only a moderator not seated.
        allowed = (
            (as_host or moderator) if row.status == "lobby" else moderator and user not in seated
        )
        if not row.live or not allowed:
            self.refused(call, NotAllowed)
        else:
            outcome = self.run(call)
            assert outcome.snapshot.status == "cancelled"
            event(f"a {row.status} table was cancelled")
            for member in seated:
                refund = at_risk.get(member, 0)
                assert self.effective_balance(row.guild_id, member) == before[member] + refund

    # -- the invariant -----------------------------------------------------------------------

    @invariant()
    def books_balance(self) -> None:
        run_now(check_platform_invariants(self.reader, self.services.registry))


EconomyAndTables.TestCase.settings = settings(
    database=None,  # no example database written into the repository
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestEconomyAndTables = EconomyAndTables.TestCase
