"""What a Hachi-hachi member glances at (issue 34): a table message of about ten lines led
by the turn line, whose picture carries the same header and the field (the embed lists no
field); and a round's result that says who deals next and which dekiyaku each payment
paid for ("Poetry Ribbons 7 kan, halved at exhaustion"), in English and in Japanese."""

from __future__ import annotations

from typing import Any

from bot.games import hachihachi as hh
from bot.games.hachihachi import models as hm
from bot.i18n import use_locale
from cogs.hachihachi import words
from tests.cogs.test_hachihachi_money_simcord import BOB_CALLS_EARLY, first_moves_until
from tests.cogs.test_hachihachi_simcord import (
    Hands,
    do,
    shuffles,
    simcord_bot,
    snapshot,
    started,
    state,
    table_message,
)

__all__ = ["simcord_bot"]  # the fixture with the scripted shuffles

KAN = {"en": "{kan} kan", "ja": "{kan}貫"}
HOW = {
    "en": {
        "shoubu": "{d}, paid in full at shoubu",
        "cancel": "{d}, halved at cancel",
        "exhaustion": "{d}, halved at exhaustion",
    },
    "ja": {
        "shoubu": "{d}、勝負で満額",
        "cancel": "{d}、打ち切りで半額",
        "exhaustion": "{d}、最後の札まで打って半額",
    },
}
YAKU_JA = {"Poetry Ribbons": "赤短", "Blue Ribbons": "青短", "Seven Ribbons": "七短"}


def lines_of(message: Any) -> list[str]:
    """The embed as a member reads it, line by line: title, description, each field's name
    and value (the fair-dice footer aside)."""
    embed = message.embeds[0].to_dict()
    lines = [embed["title"], *embed["description"].split("\n")]
    for field in embed.get("fields", []):
        lines += [field["name"], *field["value"].split("\n")]
    return [line for line in lines if line.strip()]


def paid_for(result: hm.RoundResult, line: hm.Line, locale: str) -> str:
    """What a dekiyaku payment paid for, written out independently of the bot's words."""
    made = result.dekiyaku[line.payee]
    name = (lambda n: YAKU_JA.get(n, n)) if locale == "ja" else (lambda n: n)
    sep = "、" if locale == "ja" else ", "
    text = sep.join(f"{name(n)} {KAN[locale].format(kan=k)}" for n, k in made)
    if len(made) > 1:
        text += " ＝ " if locale == "ja" else " = "
        text += KAN[locale].format(kan=sum(k for _n, k in made))
    if result.multiplier > 1:
        field = "（場）" if locale == "ja" else " (field)"
        text += (
            f" ×{result.multiplier}{field}" if locale == "ja" else f" × {result.multiplier}{field}"
        )
    return HOW[locale][line.detail].format(d=text)


@shuffles([BOB_CALLS_EARLY])
async def test_a_short_table_message_and_a_result_that_names_its_dekiyaku(simcord_env):
    world = await started(simcord_env, "alice", "bob", rounds=12, stake_per_kan=3)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await first_moves_until(world, hands, lambda s: s.phase == "call")
    assert s.turn == bob.id

    # The turn line first, and on the picture; no field list in the embed.
    message = await table_message(world)
    lines = lines_of(message)
    due = int((await snapshot(world)).deadline.due_at)
    assert lines[1] == (
        f"▶️ <@{bob.id}> — sage (play on) or shoubu (end the round) · <t:{due}:R>"
    ), lines
    assert len(lines) <= 11, lines
    assert len(message.embeds[0].description) < 900
    assert not any(line.startswith("**Field**") for line in lines), "the picture's, not a list"
    alt = message.attachments[0].description
    assert alt.startswith("▶ bob — sage (play on) or shoubu (end the round). Field: "), alt

    # Bob plays on; the round runs to its end, every decision the first one offered.
    await do(world, hands, bob, hm.Sage())
    s = await first_moves_until(world, hands, lambda s: s.last_round is not None)
    result = s.last_round
    assert result is not None and result.case == "D"
    paid = [line for line in result.lines if line.kind == "dekiyaku"]
    assert paid, "a dekiyaku was paid"

    # The channel's own result line: who deals next, and each dekiyaku by name.
    posted = next(
        m.content for m in reversed(world.channel.history()) if m.content.startswith("🎴 Round")
    )
    assert f"· <@{result.winner}> deals next" in posted, posted
    assert "winner" not in posted
    for line in paid:
        assert (
            f"<@{line.payer}> → <@{line.payee}> {line.points} pts ({paid_for(result, line, 'en')})"
        ) in posted, posted
    assert "(dekiyaku: " not in posted

    # The table says the round once: its sentence among the three log lines, then, once
    # that has scrolled off, the "Last round" field, one line.
    by_id = {m.id: m for m in world.members.values()}
    head = f"<@{result.winner}> deals next"
    for _ in range(4):
        lines = lines_of(await table_message(world))
        assert len(lines) <= 12, lines
        logged = [line for line in lines if line.startswith("**Round 1 (×")]
        if "Last round" in lines:
            break
        assert len(logged) == 1 and head in logged[0], lines
        s = await state(world)
        assert s.turn is not None
        await do(world, hands, by_id[s.turn], hh.legal_actions(s, s.turn)[0])
    assert "Last round" in lines and not logged, lines
    last = lines[lines.index("Last round") + 1]
    assert last.startswith("Round 1 (×") and f"{head} — " in last and lines[-1] == last, lines

    # The same result in Japanese.
    snap = await snapshot(world)
    event = hm.RoundScored(result=result, scores=s.scores, payouts=s.payouts)
    with use_locale("ja"):
        japanese = words.result_line([event], snap)
    assert japanese is not None
    assert f"次の親 <@{result.winner}>" in japanese, japanese
    for line in paid:
        assert f"（{paid_for(result, line, 'ja')}）" in japanese, japanese
    assert alice.id in s.seats


async def test_the_last_round_names_no_next_dealer(simcord_env):
    world = await started(simcord_env, "alice", "bob", rounds=1, mizuten=False)
    hands = Hands(world)
    by_id = {m.id: m for m in world.members.values()}
    for _ in range(200):
        s = await state(world)
        if s.finished:
            break
        assert s.turn is not None
        await do(world, hands, by_id[s.turn], hh.legal_actions(s, s.turn)[0])
    assert s.finished and s.last_round is not None
    posted = next(
        m.content for m in reversed(world.channel.history()) if m.content.startswith("🎴 Round")
    )
    assert "deals next" not in posted and "winner" not in posted, posted
    text = "\n".join(lines_of(await table_message(world)))
    assert "deals next" not in text, text
