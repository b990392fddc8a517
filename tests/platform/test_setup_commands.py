"""The README's test command as a newcomer meets it: scripts/test.sh installs what the
tests need from the project's own files and stops, rather than skipping, when a tool it
cannot install is missing; .ci/run calls it in a virtual environment of its own."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_test_command_stops_when_chromium_is_missing(tmp_path: Path) -> None:
    """Without Chromium and without a way to install it, scripts/test.sh says what to
    install and exits before the suite, instead of letting the browser test skip."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("dirname", "id"):  # what the script runs before its Chromium check
        found = shutil.which(tool)
        assert found is not None
        (tools / tool).symlink_to(found)
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, str(REPO / "scripts" / "test.sh")],
        env={"PATH": str(tools), "TANZAKU_VENV": str(tmp_path / "venv")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "chromium" in done.stderr.lower()
    assert not (tmp_path / "venv").exists()  # stopped before installing anything


def test_ci_runs_the_readme_test_command_in_an_environment_of_its_own() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "```sh\nbash scripts/test.sh\n```" in readme
    assert "TANZAKU_VENV=" in ci and "bash scripts/test.sh" in ci
    assert "rm -rf .venv" not in ci


def test_the_browser_test_is_required_by_the_test_command() -> None:
    script = (REPO / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "export TANZAKU_REQUIRE_BROWSER=1" in script


def test_every_readme_command_outside_docker_runs_the_projects_interpreter() -> None:
    """A bare `python` is the system's, without discord.py: on a fresh machine the command
    ends in a traceback. Only the image's own commands (Docker, Compose) run bare."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    bare = re.compile(r"(?<![/\w.])python3? -m (?!venv\b)")
    paragraphs = re.split(r"\n\s*\n", readme)
    outside_docker = [
        paragraph
        for paragraph in paragraphs
        if bare.search(paragraph)
        and not re.search(r"docker|image|compose", paragraph, re.IGNORECASE)
    ]
    assert outside_docker == []
