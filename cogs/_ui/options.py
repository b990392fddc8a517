"""A game's table options, declared once.

Each :class:`Option` says its name, type, range, description and the Rules field it
sets; its default is the Rules model's own unless given. From that one declaration come
the slash command's parameters (names, types, ranges, descriptions) and the rules dict
handed to the engine. Nothing is written three times.

Discord allows 25 options a command. A game with more declares some options
``inline=False`` and, usually, ``presets``: the command then offers ``preset`` and
``more``; ``more`` opens a form (one text field, a line ``name = value`` per option,
prefilled with the preset's values) that the same declaration parses strictly. That
scales to any number of options within Discord's limits (5 fields, 4,000 characters).

An option that can move the house's edge or its exposure is declared ``server``: only the
server's moderators set it (`/config rule`, Manage Server), never a table's opener. The
open command does not offer it, the ``more`` form refuses it, a preset may not name it, and
every table takes the server's value (else the game's default). ``server_while`` extends
that to options that move the house's share only while a server option is on (Nihakyu's
variants under Dealer's Blood, where the house takes half a pot the Dealer outlasts).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.catalog import CATALOG, Catalog
from bot.errors import InsufficientFunds, NotAllowed
from bot.i18n import N_, Said, _
from cogs._ui.amounts import parse_amount
from cogs._ui.forms import TableModal

MAX_SLASH_OPTIONS = 25
OPENER = "opener"
"""A Rules field that moves no coin to or from the house on average: the opener sets it."""
SERVER = "server"
"""A Rules field that can move the house's edge or exposure: only the server sets it."""
FIXED = "fixed"
"""A Rules field no one sets (the game's value, or the table service's)."""


def server_while(switch: str) -> str:
    """A Rules field that is the server's while the server option ``switch`` is on, and
    the opener's otherwise (:attr:`Options.server_while`)."""
    return f"server while {switch}"


def game_choices(catalog: Catalog, *, rated: bool = False) -> list[app_commands.Choice[str]]:
    """The `game` choices of the commands that name a game (/stats, /leaderboard, /config):
    every game of ``catalog`` that has rules (only the rated ones if ``rated``: /event
    open's), by title (translated as Discord is given it), in the catalog's order."""
    return [
        app_commands.Choice(name=app_commands.locale_str(game.title), value=game.name)
        for game in catalog
        if game.rules_file is not None and (game.rated or not rated)
    ]


GAME_CHOICES = game_choices(CATALOG)
"""The `game` choices as the commands declare them (the shipped catalog's, when the
module is imported); each cog offers its bot's catalog's instead (:func:`offer_games`)."""
RATED_CHOICES = game_choices(CATALOG, rated=True)
"""The games with skill ratings (a catalog record's ranking): /leaderboard's rating boards,
and the games an event can be played at (/event open)."""


def offer_games(cog: commands.Cog, catalog: Catalog, *, rated: bool = False) -> None:
    """Every `game` option of ``cog``'s commands declared with choices offers the games of
    ``catalog``, the bot's (its rated games only if ``rated``). Called as the cog is built,
    before its commands reach the tree (and Discord): a bot built from a catalog with a
    game enrolled for a test offers it as it does a shipped one, and a bot built from the
    shipped catalog offers exactly what the commands declare."""
    # (As discord.py types a parameter's choices: of any value type.)
    choices: list[app_commands.Choice[str | int | float]] = [
        app_commands.Choice(name=app_commands.locale_str(choice.name), value=choice.value)
        for choice in game_choices(catalog, rated=rated)
    ]
    for command in cog.walk_app_commands():
        if not isinstance(command, app_commands.Command):
            continue
        # The cog's own copy of the command: its parameters are a copy of the class's,
        # so replacing one leaves the class's (and any other bot's) as declared.
        declared = command._params.get("game")
        if declared is not None and declared.choices:
            command._params["game"] = replace(declared, choices=choices)


REQUIRED: Any = inspect.Parameter.empty
FROM_RULES: Any = object()
"""The default is the Rules model's default for the field."""

Values = dict[str, Any]
OpenHandler = Callable[[Any, discord.Interaction[Any], Values], Awaitable[None]]


@dataclass(frozen=True)
class Option:
    name: str
    description: str
    kind: Any = int
    """``int``, ``bool``, ``str``, or any type discord.py takes (``discord.Member``)."""
    default: Any = FROM_RULES
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    field: str | None = None
    """The Rules field it sets (its own name by default)."""
    rule: bool = True
    """False for an option that is not a rule (whom to challenge)."""
    inline: bool = True
    """False: set only by a preset or the ``more`` form (past Discord's 25 options)."""
    server: bool = False
    """Set only by the server's moderators (`/config rule`): it can move the house's edge
    or exposure, so no table's opener chooses it (the open command does not offer it)."""
    stake: bool = False
    """It sets what a seat or a bet stakes (the ante, a bet limit): a default of it that
    the server's `/config stakes` limits refuse moves to the nearest value they allow, and
    a wallet too short for the seat is told the largest value that fits."""

    @property
    def target(self) -> str:
        return self.field or self.name

    def annotation(self, default: Any) -> Any:
        kind: Any = self.kind
        if self.choices:
            kind = Literal.__getitem__(self.choices)
        elif self.kind is int and (self.low is not None or self.high is not None):
            kind = app_commands.Range[int, self.low, self.high]
        return typing.Optional[kind] if default is None else kind  # noqa: UP045  (runtime: Range has no `|`)

    def parse(self, text: str) -> Any:
        """A value typed in the ``more`` form, refused with a reason unless valid."""
        cleaned = text.strip()
        if self.kind is bool:
            if cleaned.lower() in ("on", "true", "yes", "1"):
                return True
            if cleaned.lower() in ("off", "false", "no", "0"):
                return False
            raise NotAllowed(
                "`{option}` is on or off, not “{typed}”.", option=self.name, typed=cleaned[:20]
            )
        if self.choices:
            if cleaned not in self.choices:
                raise NotAllowed(
                    "`{option}` is one of {choices}.",
                    option=self.name,
                    choices=", ".join(self.choices),
                )
            return cleaned
        if self.kind is int:
            if cleaned.lower() in ("", "none") and self.default is None:
                return None
            negative = cleaned.startswith("-")
            value = parse_amount(cleaned[1:] if negative else cleaned)
            value = -value if negative else value
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                raise NotAllowed(
                    "`{option}` is from {low} to {high}.",
                    option=self.name,
                    low=str(self.low),
                    high=str(self.high),
                )
            return value
        return cleaned


def table(text: str) -> list[Option]:
    """Options from a plain table, one an entry (continued on indented lines)::

        min_stake   1..1000000   Smallest bet (default 1)
        odds_bets   bool         Allow odds bets once a chance is set (default on)
        seats>max_players  1..10  Most players at the table
        ante        0..1000000000 required  Coins each player puts in the pot
        mode        duel|three   default=duel  Which game

    A type is ``bool``, ``text``, ``lo..hi`` (whole numbers), ``a|b|c`` (choices) or
    ``member`` (a member the command is about, not a rule);
    ``name>field`` names the Rules field it sets; ``required`` or ``default=…`` may
    follow the type (otherwise the Rules model's default), ``server`` marks an option
    only the server's moderators set (it moves the house's edge), and ``stake`` one that
    sets what a seat or a bet stakes (:attr:`Option.stake`)::

        house_guard  bool  server  Refuse bets that would let the table beat the house
        ante         0..1000  stake  Coins each player puts in the pot (default 10)"""
    entries: list[list[str]] = []
    for line in text.strip("\n").splitlines():
        if line[:1].isspace() and entries:
            entries[-1].append(line.strip())
        elif line.strip():
            entries.append([line.strip()])
    options = []
    for entry in entries:
        name, kind, *rest = " ".join(entry).split(maxsplit=2)
        tail = rest[0] if rest else ""
        default: Any = FROM_RULES
        server = stake = False
        while True:
            first, _, after = tail.partition(" ")
            if first == "required" or first.startswith("default="):
                default = REQUIRED if first == "required" else first.removeprefix("default=")
            elif first == "server":
                server = True
            elif first == "stake":
                stake = True
            else:
                break
            tail = after.strip()
        name, _, target = name.partition(">")
        spec = Option(name, tail or name, field=target or None, server=server, stake=stake)
        if kind == "bool":
            spec = replace(spec, kind=bool)
        elif kind == "text":
            spec = replace(spec, kind=str)
        elif kind == "member":  # whom a command is about: not a rule
            spec = replace(spec, kind=discord.Member, rule=False)
        elif ".." in kind:
            low, high = (int(part.replace("_", "")) for part in kind.split(".."))
            spec = replace(spec, low=low, high=high)
        elif "|" in kind:
            spec = replace(spec, kind=str, choices=tuple(kind.split("|")))
        if default == "none":
            spec = replace(spec, default=None)
        elif default is not FROM_RULES:
            spec = replace(spec, default=default if default is REQUIRED else spec.parse(default))
        options.append(spec)
    return options


@dataclass(frozen=True)
class Options:
    """Every option of one game's ``open`` command."""

    rules_model: type[BaseModel]
    options: Sequence[Option]
    fixed: Mapping[str, Any] = field(default_factory=dict)
    """Rules the command always sets (not offered to members)."""
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named sets of option values; options typed explicitly override them."""
    server_while: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """A server option (on/off) → the options that are the server's too while it is on:
    they move the house's share only then, so the opener keeps them otherwise."""
    notes: Mapping[str, Callable[[Mapping[str, Any]], str | None]] = field(default_factory=dict)
    """An option → what `/config rule` tells the moderator who sets it, given the server's
    values after the change (the options set, by name): what the setting lets members do
    against the bank, in figures, or ``None`` when there is nothing to say."""
    convert: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """The rules dict as the engine's Rules take it, where an option's value is not yet
    the field's (a choice word that is a flag): applied last by :meth:`rules`."""
    house_edge: Mapping[str, str] = field(default_factory=dict)
    """Every field of the Rules, whether an option sets it or not, by who may set it given
    what it does to the house's edge: :data:`OPENER`, :data:`SERVER` (its option, if any,
    is ``server``), :func:`server_while` or :data:`FIXED`. The house-options tests
    (tests/platform/test_house_options_simcord.py) hold the options, the open command and
    the rules pages to it, and fail on a Rules field it leaves out."""

    def __post_init__(self) -> None:
        names = [option.name for option in self.options]
        if len(set(names)) != len(names):
            raise ValueError("an option is declared twice")
        server = {option.name for option in self.options if option.server}
        if any(not option.rule for option in self.options if option.server):
            raise ValueError("a server option must be a rule")
        for switch, locked in self.server_while.items():
            if switch not in server or not set(locked) <= set(names):
                raise ValueError(f"server_while: {switch} must be a server option")
        may_not_preset = server | {n for locked in self.server_while.values() for n in locked}
        if any(may_not_preset & set(preset) for preset in self.presets.values()):
            raise ValueError("a preset may not set an option the server sets")
        if not set(self.notes) <= set(names):
            raise ValueError(f"notes on undeclared options: {sorted(set(self.notes) - set(names))}")
        if len(self.slash_parameters()) > MAX_SLASH_OPTIONS:
            raise ValueError("more than 25 slash options: mark some inline=False")

    def default(self, option: Option) -> Any:
        if option.default is not FROM_RULES:
            return option.default
        return self.rules_model.model_fields[option.target].default

    @property
    def extended(self) -> bool:
        """Whether the command offers ``more`` (options past the inline ones)."""
        return any(not option.inline for option in self.options)

    def server_set(self, values: Mapping[str, Any]) -> list[Option]:
        """The options only the server sets at a table with these values (in order)."""
        locked = {
            name
            for switch, names in self.server_while.items()
            if values.get(switch)
            for name in names
        }
        return [o for o in self.options if o.server or o.name in locked]

    def slash_parameters(self) -> list[inspect.Parameter]:
        params = []
        for option in self.options:
            if not option.inline or option.server:
                continue
            # A stake option left out arrives as None, so one typed equal to the default
            # is still the member's choice (:meth:`typed`).
            default = None if option.stake else self.default(option)
            params.append(
                inspect.Parameter(
                    option.name,
                    inspect.Parameter.KEYWORD_ONLY,
                    default=default,
                    annotation=option.annotation(default),
                )
            )
        if self.presets:
            names: Any = Literal.__getitem__(tuple(self.presets))
            params.append(
                inspect.Parameter(
                    "preset",
                    inspect.Parameter.KEYWORD_ONLY,
                    default=None,
                    annotation=typing.Optional[names],  # noqa: UP045  (a runtime form)
                )
            )
        if self.extended:
            params.append(
                inspect.Parameter(
                    "more", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool
                )
            )
        # Required options first: Discord's rule, and discord.py's order.
        params.sort(key=lambda p: p.default is not inspect.Parameter.empty)
        return params

    def descriptions(self) -> dict[str, str | app_commands.locale_str]:
        described: dict[str, str | app_commands.locale_str] = {
            option.name: option.description
            for option in self.options
            if option.inline and not option.server
        }
        if self.presets:
            # A template and its value: the command translator translates the template
            # (bot.translator), the preset names being what a member types.
            template = N_("A ready set of options: {presets}")
            presets = ", ".join(self.presets)
            described["preset"] = app_commands.locale_str(
                template.format(presets=presets), template=template, params={"presets": presets}
            )
        if self.extended:
            described["more"] = N_("Set every other option in a form before the table opens")
        return described

    def values(
        self, given: Mapping[str, Any], server_defaults: Mapping[str, Any] | None = None
    ) -> Values:
        """Every option's value: typed, else the preset's, else the server's default
        (`/config rule`), else the game's. A server option is always the server's (else
        the game's); an option typed that only the server may set at this table (see
        ``server_while``) is refused, naming who sets it."""
        preset = self.presets.get(str(given.get("preset")), {})
        server = server_defaults or {}
        values: Values = {}
        for option in self.options:
            if option.server:
                values[option.name] = server.get(option.name, self.default(option))
            elif self.chose(option, given):
                values[option.name] = given[option.name]
            elif option.name in preset:
                values[option.name] = preset[option.name]
            elif option.name in server:
                values[option.name] = server[option.name]
            elif option.stake:
                values[option.name] = self.default(option)
            else:
                values[option.name] = given.get(option.name, self.default(option))
        for option in self.server_set(values):
            if option.server:
                continue
            if self.chose(option, given):
                raise self.server_refusal(option, values)
            values[option.name] = server.get(option.name, self.default(option))
        return values

    def server_refusal(self, option: Option, values: Mapping[str, Any]) -> NotAllowed:
        """Why the opener may not set ``option`` here (it moves the house's edge)."""
        switches = [s for s, names in self.server_while.items() if option.name in names]
        on = next((s for s in switches if values.get(s)), None)
        if on is not None and not option.server:
            return NotAllowed(
                "On this server `{switch}` is on (set by its moderators), so `{option}` is "
                "theirs to set too: it moves the house's share. Ask one to use `/config "
                "rule`. Nothing was opened.",
                switch=on,
                option=option.name,
            )
        return NotAllowed(
            "`{option}` moves the house's edge: only the server's moderators set it. Ask "
            "one to use `/config rule`. Nothing was opened.",
            option=option.name,
        )

    def option(self, name: str) -> Option | None:
        """A rule option by name (what `/config rule` may set a server default for)."""
        return next((o for o in self.options if o.name == name and o.rule), None)

    def rules(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The rules dict for the engine from option values (names → Rules fields)."""
        rules = {
            option.target: values.get(option.name, self.default(option))
            for option in self.options
            if option.rule
        }
        rules = {**rules, **self.fixed}
        return self.convert(rules) if self.convert is not None else rules

    def chose(self, option: Option, given: Mapping[str, Any]) -> bool:
        """Whether the member chose ``option`` in the command. discord.py passes the
        default for one left out, so a value equal to it counts as left out, except a
        stake option's, whose slash default is None (a stake typed is the member's)."""
        if not option.inline or option.server or option.name not in given:
            return False
        if option.stake:
            return given[option.name] is not None
        return bool(given[option.name] != self.default(option))

    def typed(self, given: Mapping[str, Any]) -> set[str]:
        """The options the member chose in the command (:meth:`chose`)."""
        return {option.name for option in self.options if self.chose(option, given)}

    def fit_stakes(
        self,
        values: Values,
        typed: set[str],
        limits: tuple[int, int | None],
        stake_range: Callable[[Values], tuple[int, int]],
    ) -> Values:
        """``values`` with every stake option the member did not choose moved to the value
        nearest its own that brings the table's stakes (``stake_range``: least, most) inside
        the server's ``limits`` (`/config stakes`), so an option left out never refuses the
        table; a value the member chose is left for the server's refusal to name. Assumes
        what an option stakes grows with it (an ante, a bet limit, coins a kan)."""
        low, high = limits
        fitted = dict(values)
        for option in self.options:
            if not option.stake or option.name in typed or option.low is None:
                continue
            assert option.high is not None
            for side in (0, 1):
                current = int(fitted[option.name])

                def at(value: int, side: int = side, name: str = option.name) -> int:
                    return stake_range({**fitted, name: value})[side]

                moved: int | None = None
                if at(current) < low:
                    moved = _first(current, option.high, lambda v: at(v) >= low)
                elif high is not None and at(current) > high:
                    moved = _last(option.low, current, lambda v: at(v) <= high)
                if moved is not None:
                    fitted[option.name] = moved
        return fitted

    def short_refusal(
        self,
        engine: Any,
        values: Values,
        short: InsufficientFunds,
        limits: tuple[int, int | None] | None,
    ) -> NotAllowed | None:
        """The opener's wallet cannot cover the seat: say the largest stake it covers."""

        def hold(candidate: Values) -> int:
            return int(engine.hold(engine.rules_model.model_construct(**self.rules(candidate))))

        fit = self.largest_fit(values, short.balance, hold, limits)
        if fit is None:
            return None
        option, value = fit
        return NotAllowed(
            "A seat at this table stakes {needed} {currency} and your wallet holds {balance} "
            "{currency}: the largest `{option}` it covers is **{fit}**. Nothing was opened.",
            needed=short.needed,
            balance=short.balance,
            currency=short.currency,
            # Its name as the member's client shows the command (a catalog entry).
            option=Said(option.name),
            fit=value,
        )

    def largest_fit(
        self,
        values: Values,
        balance: int,
        hold: Callable[[Values], int],
        limits: tuple[int, int | None] | None = None,
    ) -> tuple[Option, int] | None:
        """The seat's stake option and its largest value whose ``hold`` a wallet of
        ``balance`` covers (within the server's ``limits``), or ``None`` when no value
        does or the game has no such option."""
        option = next((o for o in self.options if o.stake), None)
        if option is None or option.low is None or option.high is None:
            return None
        low = 0 if limits is None else limits[0]

        def covered(value: int, name: str = option.name) -> bool:
            return hold({**values, name: value}) <= balance

        fit = _last(option.low, option.high, covered)
        if fit is None or hold({**values, option.name: fit}) < low:
            return None
        return option, fit

    def summary(self, rules: BaseModel) -> list[str]:
        """The lobby's description of a table's options, from the same declaration:
        ``min_stake 5 · odds_bets off`` — every rule option, as the table has it."""
        shown = []
        for option in self.options:
            if not option.rule or option.target not in type(rules).model_fields:
                continue
            value = getattr(rules, option.target)
            if option.kind is bool:
                value = _("on") if value else _("off")
            shown.append(f"{option.name} {'—' if value is None else value}")
        return [_("Options: {options}", options=" · ".join(shown))] if shown else []

    def form_text(self, values: Mapping[str, Any]) -> str:
        """The ``more`` form's prefill: the options not offered inline, one a line (never
        one the server sets)."""
        server = {option.name for option in self.server_set(values)}
        lines = []
        for option in self.options:
            if option.inline or not option.rule or option.name in server:
                continue
            value = values.get(option.name)
            shown = ("on" if value else "off") if option.kind is bool else value
            lines.append(f"{option.name} = {'none' if shown is None else shown}")
        return "\n".join(lines)

    def parse_form(self, text: str, values: Mapping[str, Any]) -> Values:
        """``values`` updated from the form: known names only, each value strictly; an
        option the server sets is refused (the form is the opener's, like the command)."""
        by_name = {option.name: option for option in self.options if option.rule}
        server = {option.name for option in self.server_set(values)}
        updated = dict(values)
        for line in text.splitlines():
            if not line.strip():
                continue
            name, sep, raw = line.partition("=")
            option = by_name.get(name.strip())
            if not sep or option is None:
                raise NotAllowed("“{line}” is not `option = value`.", line=line.strip()[:30])
            if option.name in server:
                raise self.server_refusal(option, values)
            updated[option.name] = option.parse(raw)
        return updated

    def server_check(self, defaults: Mapping[str, Any]) -> str | None:
        """Why the server options ``defaults`` would give no table can open (the Rules
        model refuses them together: Hazard's bar off without a commission), else None."""
        fields = self.rules_model.model_fields
        chosen = {
            option.target: defaults.get(option.name, self.default(option))
            for option in self.server_set(defaults)
            if option.target in fields
        }
        try:
            self.rules_model.model_validate(chosen)
        except ValueError as refused:
            errors = getattr(refused, "errors", None)
            reasons = [str(e.get("msg", "")) for e in errors()] if callable(errors) else []
            return "; ".join(r.removeprefix("Value error, ") for r in reasons) or str(refused)
        return None

    def command(
        self, name: str, description: str, handler: OpenHandler
    ) -> app_commands.Command[Any, ..., None]:
        """The slash command: its parameters from the declaration; it calls
        ``handler(cog, interaction, values)``, after the ``more`` form when asked for."""
        declared = self

        async def callback(cog: Any, interaction: discord.Interaction[Any], **given: Any) -> None:
            defaults: Mapping[str, Any] = {}
            limits: tuple[int, int | None] | None = None
            # The cog the command belongs to: a game's (its UI names the game), or any other.
            game = getattr(getattr(cog, "ui", None), "game", None)
            if game is not None and interaction.guild_id is not None:
                config = await cog.bot.tables.server_config(interaction.guild_id)
                defaults = config.rule_defaults.get(game, {})
                limits = config.stake_limits.get(game)
            values = declared.values(given, defaults)
            engine = cog.bot.registry.get(game).engine if game is not None else None
            if engine is not None and limits is not None:

                def stake_range(candidate: Values) -> tuple[int, int]:
                    # Unvalidated: a candidate on the way may break a rule of the model
                    # (limits out of order) that the fitted values keep.
                    rules = engine.rules_model.model_construct(**declared.rules(candidate))
                    least, most = engine.stake_range(rules)
                    return int(least), int(most)

                values = declared.fit_stakes(values, declared.typed(given), limits, stake_range)

            async def run(interaction: discord.Interaction[Any], values: Values) -> None:
                try:
                    await handler(cog, interaction, values)
                except InsufficientFunds as short:
                    if engine is None or short.user_id not in (None, interaction.user.id):
                        raise
                    refusal = declared.short_refusal(engine, values, short, limits)
                    if refusal is None:
                        raise
                    raise refusal from short

            if given.get("more"):
                await interaction.response.send_modal(OptionsForm(declared, values, run))
                return
            await run(interaction, values)

        cog_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        interaction_param = inspect.Parameter(
            "interaction",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=discord.Interaction,
        )
        callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [cog_param, interaction_param, *self.slash_parameters()]
        )
        # discord.py reads a method's binding from its qualified name.
        callback.__qualname__ = f"GameCog.{name}"
        callback.__name__ = name
        described = app_commands.describe(**self.descriptions())(callback)
        return app_commands.Command(name=name, description=description, callback=described)


def _first(low: int, high: int, holds: Callable[[int], bool]) -> int | None:
    """The least value in ``low..high`` for which ``holds`` (false, then true), or None."""
    if low > high or not holds(high):
        return None
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low


def _last(low: int, high: int, holds: Callable[[int], bool]) -> int | None:
    """The greatest value in ``low..high`` for which ``holds`` (true, then false), or None."""
    if low > high or not holds(low):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


class OptionsForm(TableModal):
    """The follow-up for options past Discord's 25: ``name = value``, one a line."""

    def __init__(
        self,
        options: Options,
        values: Values,
        then: Callable[[discord.Interaction[Any], Values], Awaitable[None]],
    ) -> None:
        super().__init__(title=_("Table options"), timeout=600)
        self.options = options
        self.values = values
        self.then = then
        self.text: discord.ui.TextInput[OptionsForm] = discord.ui.TextInput(
            label=_("One option a line: name = value"),
            style=discord.TextStyle.paragraph,
            default=options.form_text(values)[:4000] or None,
            required=False,
            max_length=4000,
            custom_id="options",
        )
        self.add_item(self.text)

    async def submit(self, interaction: discord.Interaction[Any]) -> None:
        await self.then(interaction, self.options.parse_form(self.text.value, self.values))
