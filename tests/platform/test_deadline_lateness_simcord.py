"""A deadline that acts late is measured late (bot/service/deadlines.py): the operator's
lateness histogram and late counter move when the bot was down as a deadline fell due."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import TanzakuBot
from bot.metrics import LATE_SECONDS
from tests.conftest import BotFactory
from tests.platform.test_metrics_simcord import scrape, value
from tests.support.sim import answered, make_world


@pytest.fixture
def simcord_bot(bot_factory: BotFactory) -> TanzakuBot:
    return bot_factory(settings={"metrics_port": 0})


async def test_a_lobby_expiring_while_the_bot_was_down_counts_as_late(
    simcord_env: Any, bot_factory: BotFactory
) -> None:
    world = await make_world(simcord_env, "alice")
    answered(await world["alice"].slash(world.channel, "coinflip open", stake=10))
    lobby_seconds = simcord_env.bot.settings.lobby_timeout_seconds
    await simcord_env.bot.close()
    await simcord_env.advance_time(lobby_seconds + 60)  # down as the lobby falls due
    await simcord_env.restart_bot(bot_factory(settings={"metrics_port": 0}))
    bot: TanzakuBot = simcord_env.bot
    assert bot.rearmed_deadlines == 1
    await simcord_env.settle()
    after = await scrape(bot)
    assert value(after, "tanzaku_deadlines_fired_total", kind="lobby") == 1
    assert value(after, "tanzaku_deadlines_late_total", kind="lobby") == 1
    late = value(after, "tanzaku_deadline_lateness_seconds_sum", kind="lobby")
    assert 60 - LATE_SECONDS < late < 61
