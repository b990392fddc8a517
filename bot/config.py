"""Settings for the whole bot, read once from the environment and `.env`."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting, with the environment variable `TANZAKU_<NAME>` for each field."""

    model_config = SettingsConfigDict(
        env_prefix="TANZAKU_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    token: SecretStr = Field(description="The Discord bot token (Developer Portal → Bot).")
    database_path: Path = Field(
        default=Path("data/tanzaku.db"), description="SQLite file; created when missing."
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
    house_float: int = Field(
        default=100_000,
        ge=0,
        description="Coins minted into each server's house bank at first use.",
    )

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
