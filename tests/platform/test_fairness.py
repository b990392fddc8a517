"""Provably fair dice: the stream, rejection sampling, shuffles, commitments, verification,
the scripted and recording dice, and `/verify` end to end on a real table."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from itertools import permutations
from pathlib import Path

import pytest

import bot.service
from bot.errors import NotAllowed, TableNotFound
from bot.fairness import (
    SEED_BYTES,
    Draw,
    FairDice,
    RecordingDice,
    commitment,
    new_seed,
    verify_draws,
)
from bot.games.dice import ScriptedDice
from bot.service import Actor, fair_dice
from bot.storage import table_queries as tq
from tests.platform._helpers import COINFLIP, Services, check_platform_invariants, open_services
from tests.support import coinflip

SEED = bytes(range(32))
WORDS = 1 << 32


# -- an independent reading of the module docstring's spec -------------------------------


def reference_words(seed: bytes) -> Iterator[int]:
    """HMAC-SHA256(seed, block number as 8-byte big-endian), each block split into eight
    big-endian 32-bit words."""
    block = 0
    while True:
        digest = hmac.new(seed, block.to_bytes(8, "big"), hashlib.sha256).digest()
        for start in range(0, 32, 4):
            yield int.from_bytes(digest[start : start + 4], "big")
        block += 1


def reference_below(words: Iterator[int], bound: int) -> int:
    # Accept a word only below the largest multiple of `bound` that fits in 32 bits.
    largest_multiple = (WORDS // bound) * bound
    for word in words:
        if word < largest_multiple:
            return word % bound
    raise AssertionError("the stream ended")


def reference_shuffle(words: Iterator[int], size: int) -> list[int]:
    items = list(range(size))
    for index in range(size - 1, 0, -1):
        other = reference_below(words, index + 1)
        items[index], items[other] = items[other], items[index]
    return items


# -- the stream -------------------------------------------------------------------------


def test_rolls_follow_the_documented_stream() -> None:
    words = reference_words(SEED)
    dice = FairDice(SEED)
    for sides in [6, 2, 20, 3, 100, 7, 52, 1, 1000, 6] * 20:
        assert dice.roll(sides) == reference_below(words, sides) + 1


def rolls(dice: FairDice, sides: int, count: int) -> list[int]:
    return [dice.roll(sides) for _ in range(count)]


def test_same_seed_same_rolls_other_seed_other_rolls() -> None:
    assert rolls(FairDice(SEED), 6, 200) == rolls(FairDice(SEED), 6, 200)
    assert rolls(FairDice(SEED), 6, 200) != rolls(FairDice(bytes(32)), 6, 200)
    assert rolls(FairDice(SEED), 6, 200) != rolls(FairDice(SEED, 1), 6, 200)


def test_resuming_from_a_saved_word_index_continues_the_same_stream() -> None:
    whole = FairDice(SEED)
    # Mixed sizes, including one that rejects about half of all words.
    plan = [6, 2**31 + 1, 13, 2**31 + 1, 2, 52] * 10
    expected = [whole.roll(sides) for sides in plan]
    assert whole.word_index > len(plan)  # some words were rejected on the way

    replay = FairDice(SEED)
    for sides in plan[:25]:
        replay.roll(sides)
    saved = replay.word_index
    resumed = FairDice(SEED, saved)
    assert [resumed.roll(sides) for sides in plan[25:]] == expected[25:]
    assert resumed.word_index == whole.word_index


def test_word_index_counts_words_and_mid_block_starts_agree() -> None:
    words = list(_take(reference_words(SEED), 40))
    for start in (0, 1, 7, 8, 9, 31):
        dice = FairDice(SEED, start)
        assert dice._word() == words[start]
        assert dice.word_index == start + 1


def _take(iterator: Iterator[int], count: int) -> Iterator[int]:
    for _ in range(count):
        yield next(iterator)


@pytest.mark.parametrize("sides", [*range(1, 41), 52, 99, 1000, 10**6, 2**31 + 1, 2**32])
def test_rolls_stay_within_one_to_sides(sides: int) -> None:
    dice = FairDice(SEED + sides.to_bytes(8, "big"))
    values = [dice.roll(sides) for _ in range(300)]
    assert all(1 <= value <= sides for value in values)
    if sides <= 6:
        assert set(values) == set(range(1, sides + 1))


@pytest.mark.parametrize("sides", [0, -1, 2**32 + 1])
def test_impossible_dice_are_refused(sides: int) -> None:
    with pytest.raises(ValueError):
        FairDice(SEED).roll(sides)


# -- rejection sampling -----------------------------------------------------------------


class WordsDice(FairDice):
    """FairDice over a given list of words instead of the HMAC stream."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(b"unused")
        self._words = list(words)

    def _word(self) -> int:
        self.word_index += 1
        return self._words.pop(0)


@pytest.mark.parametrize("sides", [3, 5, 6, 7, 10, 1000, 2**31 + 1])
def test_words_in_the_incomplete_top_range_are_skipped(sides: int) -> None:
    bound = WORDS - WORDS % sides  # first rejected word
    assert bound % sides == 0 and WORDS - bound < sides
    # The top word is rejected, the next one is used.
    dice = WordsDice([WORDS - 1, bound, bound - 1])
    assert dice.roll(sides) == (bound - 1) % sides + 1 == sides
    assert dice.word_index == 3
    # The last accepted word is used at once.
    dice = WordsDice([bound - 1])
    assert dice.roll(sides) == sides
    assert dice.word_index == 1
    # Every face then has exactly bound // sides words mapping to it: no modulo bias.
    assert (bound // sides) * sides == bound


def test_no_rejection_when_sides_divide_the_word_space() -> None:
    for sides in (1, 2, 4, 256, 2**32):
        dice = WordsDice([WORDS - 1])
        assert dice.roll(sides) == (WORDS - 1) % sides + 1
        assert dice.word_index == 1


def test_shuffle_uses_the_same_rejection_sampling() -> None:
    # Fisher–Yates over three items draws below 3 (swap 2 with it), then below 2.
    # The top word is the one word rejected for 3; using it would give ["c", "b", "a"].
    dice = WordsDice([WORDS - 1, 1, 0])
    assert dice.shuffle(["a", "b", "c"]) == ["c", "a", "b"]
    assert dice.word_index == 3


# -- shuffles ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 52])
def test_shuffle_is_a_permutation_following_the_stream(size: int) -> None:
    dice = FairDice(SEED + bytes([size]))
    words = reference_words(SEED + bytes([size]))
    items = [f"card{index}" for index in range(size)]
    for _ in range(5):
        shuffled = dice.shuffle(items)
        assert sorted(shuffled) == sorted(items)
        assert shuffled == [items[i] for i in reference_shuffle(words, size)]
    assert items == [f"card{index}" for index in range(size)]  # the input is not changed


def test_shuffle_order_matches_shuffle() -> None:
    assert FairDice(SEED).shuffle_order(9) == tuple(FairDice(SEED).shuffle(range(9)))


# -- commitment and verification ----------------------------------------------------------


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = new_seed()
    assert len(seed) == SEED_BYTES
    assert new_seed() != seed
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert commitment(SEED) == hashlib.sha256(bytes(range(32))).hexdigest()


def recorded_log(seed: bytes) -> list[list[Draw]]:
    """Three 'actions' worth of draws, as the table service records them."""
    inner = FairDice(seed)
    logged = []
    plans: list[list[int | str]] = [[6, 6], ["shuffle5", 20], [2, "shuffle3", 100]]
    for plan in plans:
        dice = RecordingDice(inner)
        for step in plan:
            if isinstance(step, int):
                dice.roll(step)
            else:
                dice.shuffle(list("abcdefgh"[: int(step[-1])]))
        logged.append(dice.draws)
    return logged


def test_verify_draws_accepts_the_true_log() -> None:
    logged = recorded_log(SEED)
    assert verify_draws(SEED, logged) == (True, 7)
    # Through JSON and back, as the action log stores it.
    stored = json.loads(json.dumps([[d.to_json() for d in draws] for draws in logged]))
    assert [[Draw.from_json(d) for d in draws] for draws in stored] == logged
    assert verify_draws(SEED, []) == (True, 0)


@pytest.mark.parametrize(("action", "draw"), [(0, 0), (0, 1), (1, 0), (1, 1), (2, 1), (2, 2)])
def test_verify_draws_rejects_a_tampered_log(action: int, draw: int) -> None:
    logged = recorded_log(SEED)
    original = logged[action][draw]
    if original.order is not None:
        order = original.order
        tampered = Draw(original.sides, order=(order[1], order[0], *order[2:]))
    else:
        assert original.value is not None
        tampered = Draw(original.sides, value=original.value % original.sides + 1)
    logged[action][draw] = tampered
    matched, checked = verify_draws(SEED, logged)
    assert not matched
    assert checked == sum(len(d) for d in logged[:action]) + draw


def test_verify_draws_rejects_another_seed() -> None:
    assert verify_draws(bytes(32), recorded_log(SEED))[0] is False


# -- scripted and recording dice ----------------------------------------------------------


def test_recording_dice_records_what_scripted_dice_returned() -> None:
    scripted = ScriptedDice(rolls=[3, 1, 6], orders=[[2, 0, 1]])
    dice = RecordingDice(scripted)
    assert dice.roll(6) == 3
    assert dice.shuffle(["x", "y", "z"]) == ["z", "x", "y"]
    assert dice.roll(2) == 1
    assert dice.roll(6) == 6
    assert dice.draws == [
        Draw(6, value=3),
        Draw(3, order=(2, 0, 1)),
        Draw(2, value=1),
        Draw(6, value=6),
    ]
    assert dice.inner is scripted


def test_scripted_dice_refuse_out_of_range_and_exhaustion() -> None:
    dice = ScriptedDice(rolls=[7, 6])
    with pytest.raises(ValueError, match=r"outside 1\.\.6"):
        dice.roll(6)
    assert dice.remaining == 2  # a refused roll is not consumed
    assert dice.roll(7) == 7
    with pytest.raises(ValueError, match=r"outside 1\.\.5"):
        dice.roll(5)
    assert dice.roll(6) == 6
    assert dice.remaining == 0
    with pytest.raises(IndexError):
        dice.roll(6)
    dice.extend([1, 2])
    assert (dice.remaining, dice.roll(2), dice.roll(2)) == (2, 1, 2)
    with pytest.raises(ValueError):
        ScriptedDice(rolls=[0]).roll(6)


def test_scripted_dice_shuffle_by_orders_then_leave_items_alone() -> None:
    dice = ScriptedDice(orders=[[1, 0], [0, 2, 1]])
    assert dice.shuffle(["a", "b"]) == ["b", "a"]
    with pytest.raises(ValueError, match="not a permutation"):
        dice.shuffle(["a", "b"])  # the next order has three entries
    assert dice.shuffle(["a", "b", "c"]) == ["a", "c", "b"]
    assert dice.shuffle(["a", "b", "c"]) == ["a", "b", "c"]  # no orders left


# -- distribution sanity (fixed seeds: deterministic, cannot flake) ----------------------


def chi_square(counts: Counter[int], categories: list[int], total: int) -> float:
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def test_d6_is_uniform_by_chi_square() -> None:
    dice = FairDice(hashlib.sha256(b"tanzaku chi-square d6").digest())
    rolls = 60_000
    counts = Counter(dice.roll(6) for _ in range(rolls))
    assert set(counts) == set(range(1, 7))
    # 5 degrees of freedom: P(chi2 > 30) is about 1.5e-5 for fair dice.
    assert chi_square(counts, list(range(1, 7)), rolls) < 30, counts


def test_shuffles_of_three_are_uniform_by_chi_square() -> None:
    dice = FairDice(hashlib.sha256(b"tanzaku chi-square shuffle").digest())
    total = 12_000
    orders = list(permutations(range(3)))
    counts = Counter(orders.index(dice.shuffle_order(3)) for _ in range(total))
    assert chi_square(counts, list(range(6)), total) < 30, counts


# -- /verify end to end on a finished table ---------------------------------------------


def seed_for_a_long_game() -> bytes:
    """The first seed (of a fixed series) whose first two coin flips are heads, then tails:
    the opening call of "tails" misses, then the deadline's "heads" misses too, so every
    kind of action gets into the log. Fixed, so the game below is the same every run."""
    for attempt in range(1000):
        seed = hashlib.sha256(f"tanzaku verify {attempt}".encode()).digest()
        if rolls(FairDice(seed), 2, 2) == [1, 2]:
            return seed
    raise AssertionError("no such seed in the series")


@pytest.fixture
async def services(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Services]:
    seed = seed_for_a_long_game()
    # The production path all the same (`fair_dice` over the table's stored seed and
    # counter); only the seed the table is opened with is fixed.
    monkeypatch.setattr(bot.service, "new_seed", lambda: seed)
    made = await open_services(tmp_path / "fair.db", dice_factory=fair_dice)
    yield made
    await made.db.close()


async def play_to_the_end(services: Services) -> int:
    service = services.tables
    opened = await service.open(
        guild_id=1, channel_id=5, game=COINFLIP, host_id=11, rules=coinflip.Rules(stake=20, rake=3)
    )
    table_id = opened.snapshot.id
    await service.join(table_id, Actor(12))
    started = await service.start(table_id, Actor(11))
    row = started.snapshot.row
    assert row.commitment == commitment(bytes.fromhex(row.seed_hex))
    snapshot = (await service.act(table_id, Actor(12), coinflip.Raise(amount=15))).snapshot
    for turn in range(200):
        if snapshot.status == "finished":
            break
        if turn == 1:
            # Once, let the deadline call for the player: a table action with its own roll.
            assert snapshot.deadline is not None
            services.clock.now = snapshot.deadline.due_at + 1
            fired = await service.fire_deadline(table_id, snapshot.deadline.ply)
            assert fired is not None
            snapshot = fired.snapshot
            continue
        state = snapshot.state
        player = state.seats[state.turn]
        snapshot = (
            await service.act(table_id, Actor(player), coinflip.Call(side="tails"))
        ).snapshot
    assert snapshot.status == "finished"
    assert snapshot.seed_revealed
    return table_id


async def test_verify_matches_a_fairly_played_table(services: Services) -> None:
    table_id = await play_to_the_end(services)
    report = await services.tables.verify(table_id, 1)
    assert report.matched, report.reason
    async with services.db.reading() as tx:
        log = await tq.action_log(tx, table_id)
        row = await tq.table(tx, table_id)
    assert row is not None
    assert row.seed_hex == seed_for_a_long_game().hex()
    flips = sum(len(json.loads(entry.draws_json)) for entry in log)
    assert flips >= 3
    assert any(json.loads(entry.action_json) == {"kind": "deadline"} for entry in log)
    assert report.draws_checked == flips
    assert row.dice_counter >= flips  # the stream position was saved after every roll
    # Replayed: the start, the raise and every flip (not the open and the join).
    assert report.actions_replayed == len(log) - 2
    assert (report.seed_hex, report.commitment) == (row.seed_hex, row.commitment)
    await check_platform_invariants(services.db, services.registry)


async def corrupt(services: Services, sql: str, parameters: tuple[object, ...]) -> None:
    async with services.db.transaction() as tx:
        await tx.execute(sql, parameters)
        changed = await tx.fetchone("SELECT changes()")
    assert changed is not None and changed[0] == 1


async def test_verify_detects_a_changed_result(services: Services) -> None:
    table_id = await play_to_the_end(services)
    async with services.db.reading() as tx:
        row = await tq.table(tx, table_id)
    assert row is not None and row.state_json is not None
    state = json.loads(row.state_json)
    loser = next(p for p in state["seats"] if p != state["winner"])
    state["winner"] = loser
    await corrupt(
        services,
        "UPDATE game_tables SET state_json = ? WHERE id = ?",
        (json.dumps(state), table_id),
    )
    report = await services.tables.verify(table_id, 1)
    assert not report.matched
    assert "another result" in report.reason


async def test_verify_detects_a_changed_roll(services: Services) -> None:
    table_id = await play_to_the_end(services)
    async with services.db.reading() as tx:
        log = await tq.action_log(tx, table_id)
    last_roll = next(entry for entry in reversed(log) if json.loads(entry.draws_json))
    draws = json.loads(last_roll.draws_json)
    sides, value = draws[0]
    draws[0] = [sides, value % sides + 1]
    await corrupt(
        services,
        "UPDATE action_log SET draws_json = ? WHERE table_id = ? AND seq = ?",
        (json.dumps(draws), table_id, last_roll.seq),
    )
    report = await services.tables.verify(table_id, 1)
    assert not report.matched
    assert "differs from the seed" in report.reason


async def test_verify_detects_a_swapped_seed(services: Services) -> None:
    table_id = await play_to_the_end(services)
    await corrupt(
        services,
        "UPDATE game_tables SET seed_hex = ? WHERE id = ?",
        (new_seed().hex(), table_id),
    )
    report = await services.tables.verify(table_id, 1)
    assert not report.matched
    assert "commitment" in report.reason


async def test_verify_refuses_a_live_table_and_another_guild(services: Services) -> None:
    opened = await services.tables.open(
        guild_id=1, channel_id=5, game=COINFLIP, host_id=11, rules=coinflip.Rules()
    )
    with pytest.raises(NotAllowed, match=opened.snapshot.row.commitment):
        await services.tables.verify(opened.snapshot.id, 1)
    assert not opened.snapshot.seed_revealed
    with pytest.raises(TableNotFound):
        await services.tables.verify(opened.snapshot.id, 2)
