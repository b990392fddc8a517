"""Settings for the whole bot, read once from the environment and `.env`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting, with the environment variable `TANZAKU_<NAME>` for each field."""

    model_config = SettingsConfigDict(
        env_prefix="TANZAKU_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        # `TANZAKU_TOKEN=` as .env.example leaves it is "not set", not an empty token:
        # the operator gets the "what to set" line, and an empty setting never overrides a
        # default (the Docker image's /data path, say).
        env_ignore_empty=True,
    )

    token: SecretStr = Field(description="The Discord bot token (Developer Portal → Bot).")

    @field_validator("token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("is empty")
        return value

    database_path: Path = Field(
        default=Path("data/tanzaku.db"), description="SQLite file; created when missing."
    )
    database_url: str = Field(
        default="",
        description=(
            "Where the data lives: sqlite:///path (the default: the SQLite file of"
            " TANZAKU_DATABASE_PATH) or postgresql://user:password@host/db, the store that"
            " several bot processes can share."
        ),
    )
    database_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description=(
            "SQLite's synchronous mode. FULL: every action is on disk before Discord shows"
            " it. NORMAL: faster commits, but a power loss may undo the last actions."
        ),
    )
    dev_guild_ids: list[int] = Field(
        default_factory=list,
        description="Guilds that get the commands synced instantly at every start.",
    )
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    lobby_timeout_seconds: int = Field(
        default=900, ge=30, description="An unstarted lobby is cancelled and refunded after this."
    )
    challenge_timeout_seconds: int = Field(
        default=300, ge=30, description="An unanswered duel challenge expires after this."
    )
    turn_notices: bool = Field(
        default=True,
        description=(
            "Tell a member that a table waits for their move (a mention in the channel, or"
            " a DM: /notify). False: no table tells anyone."
        ),
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        description=(
            "Run sharded: the total number of shards (Discord requires sharding from 2,500"
            " servers). Unset: one connection, no sharding."
        ),
    )
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None,
        description=(
            "The shards this process runs, e.g. 0,1 (needs TANZAKU_SHARD_COUNT). Unset: all"
            " of them. Several processes share the work by running different shards over"
            " one PostgreSQL database."
        ),
    )
    deadline_takeover_seconds: float = Field(
        default=10.0,
        ge=0,
        description=(
            "How long past its time a deadline of a server on another process's shard"
            " waits before this process fires it (in case that process died)."
        ),
    )
    house_float: int = Field(
        default=100_000,
        ge=0,
        description="Coins minted into each server's house bank at first use.",
    )

    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description=(
            "Serve Prometheus metrics at http://HOST:PORT/metrics (README: Metrics)."
            " Unset: nothing listens."
        ),
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        min_length=1,
        description=(
            "The address the metrics listen on: this machine only by default (the Docker"
            " image sets 0.0.0.0, where Prometheus scrapes from another container)."
        ),
    )
    metrics_token: SecretStr | None = Field(
        default=None,
        description=(
            "If set, a scrape of the metrics must send it as `Authorization: Bearer TOKEN`"
            " (Prometheus: `authorization: {credentials: TOKEN}`); others get 401."
        ),
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated_shards(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip().strip("[]")
            return [int(part) for part in text.split(",") if part.strip()] if text else None
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_of_the_count(
        cls, value: list[int] | None, info: ValidationInfo
    ) -> list[int] | None:
        if value is None:
            return None
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("needs TANZAKU_SHARD_COUNT")
        if not value:
            raise ValueError("names no shard")
        if any(not 0 <= shard < count for shard in value) or len(set(value)) != len(value):
            raise ValueError(f"must be distinct shards from 0 to {count - 1}, got {value}")
        return value

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard that a server's events arrive on (Discord's
        rule: ``(guild_id >> 22) % shard_count``)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @model_validator(mode="after")
    def _default_database_url(self) -> Settings:
        # Unset: today's TANZAKU_DATABASE_PATH, so an existing .env keeps its file.
        if not self.database_url:
            self.database_url = f"sqlite:///{self.database_path}"
        return self

    @field_validator("database_url")
    @classmethod
    def _known_database_url(cls, value: str) -> str:
        scheme = value.partition(":")[0].lower()
        if value and scheme not in ("sqlite", "postgresql", "postgres"):
            raise ValueError("must start with sqlite:/// or postgresql://")
        if scheme == "sqlite" and not value.lower().startswith("sqlite:///"):
            raise ValueError("a SQLite URL is sqlite:///path (relative) or sqlite:////path")
        return value

    @property
    def database_label(self) -> str:
        """The database named for a log line or an error: the URL without its password."""
        return database_label(self.database_url)

    @field_validator("database_synchronous", mode="before")
    @classmethod
    def _upper_synchronous(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        upper = value.upper()
        if upper not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return upper


def database_label(url: str) -> str:
    """A database URL for a log line or an error: a SQLite file's path, or the URL with
    its password hidden."""
    scheme, _, rest = url.partition("://")
    if scheme.lower() == "sqlite":
        return rest.removeprefix("/")
    credentials, at, host = rest.rpartition("@")
    if at and ":" in credentials:
        credentials = credentials.split(":", 1)[0] + ":***"
    return f"{scheme}://{credentials}{at}{host}"
