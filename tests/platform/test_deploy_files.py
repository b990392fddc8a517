"""docker-compose.yml and .env.example name what the bot reads: two shard processes of
one count on the compose file's PostgreSQL, health checks on both sides, and every
setting documented. Docker is not run here; the YAML is parsed with PyYAML (a dev
dependency) and its shape checked from the text too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from bot.config import Settings

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "docker-compose.yml"
ENV_EXAMPLE = REPO / ".env.example"
SHARDS = ("bot-shard-0", "bot-shard-1")


def services_text() -> dict[str, str]:
    """Each service's block under `services:`, by name (two-space indented keys)."""
    text = COMPOSE.read_text(encoding="utf-8")
    body = text.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"^  (?=[a-z][\w-]*:\s*$)", body, flags=re.MULTILINE)
    return {block.split(":", 1)[0]: block for block in blocks if block.strip()}


def test_two_shards_of_one_count_on_the_compose_postgres() -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    assert "\t" not in text, "YAML must not be indented with tabs"
    services = services_text()
    assert {"postgres", *SHARDS} <= set(services)
    for shard, name in enumerate(SHARDS):
        block = services[name]
        assert "<<: *bot" in block
        assert 'TANZAKU_SHARD_COUNT: "2"' in block
        assert f'TANZAKU_SHARD_IDS: "{shard}"' in block
        url = r"TANZAKU_DATABASE_URL: postgresql://tanzaku:\$\{POSTGRES_PASSWORD[^}]*\}@postgres/"
        assert re.search(url + r"tanzaku\n", block), block
    common = text.split("x-bot: &bot\n", 1)[1].split("\nservices:\n", 1)[0]
    assert "build: ." in common and "env_file: .env" in common
    assert "condition: service_healthy" in common
    assert '["CMD", "python", "-m", "bot", "--check"]' in common
    assert "restart: unless-stopped" in common
    postgres = services["postgres"]
    assert "image: postgres:" in postgres and "pg_isready" in postgres
    assert "tanzaku-pgdata:/var/lib/postgresql/data" in postgres
    assert re.search(r"^volumes:\n  tanzaku-pgdata:", text, flags=re.MULTILINE)
    migrate = services["migrate"]
    assert "profiles:" in migrate and "--migrate-sqlite-to" in migrate
    assert "TANZAKU_DATABASE_URL: sqlite:////data/tanzaku.db" in migrate


def test_the_compose_file_parses_with_its_anchors_merged() -> None:
    """The same facts through a YAML reader, anchors merged."""
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = data["services"]
    for shard, name in enumerate(SHARDS):
        service = services[name]
        assert service["environment"]["TANZAKU_SHARD_IDS"] == str(shard)
        assert service["environment"]["TANZAKU_SHARD_COUNT"] == "2"
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "--check"]
        assert service["env_file"] == ".env" and service["restart"] == "unless-stopped"
    assert services["migrate"]["profiles"] == ["migrate"]
    assert services["migrate"]["restart"] == "no"
    assert "tanzaku-pgdata" in data["volumes"]


def test_the_compose_settings_are_the_bots() -> None:
    """A misspelt variable would be ignored silently by the bot (extra="ignore")."""
    fields = {f"TANZAKU_{name.upper()}" for name in Settings.model_fields}
    used = set(re.findall(r"\bTANZAKU_[A-Z_]+", COMPOSE.read_text(encoding="utf-8")))
    assert used, "the compose file sets no setting"
    assert used <= fields, used - fields


def test_every_setting_is_in_env_example() -> None:
    fields = {f"TANZAKU_{name.upper()}" for name in Settings.model_fields}
    named = set(re.findall(r"^#? ?(TANZAKU_[A-Z_]+)=", ENV_EXAMPLE.read_text(), re.MULTILINE))
    assert fields - named == set(), "settings missing from .env.example"
    assert named - fields == set(), "names in .env.example that the bot does not read"
