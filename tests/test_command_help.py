"""Every management command of the project's apps and every command-line program answers
``--help`` with exit status 0 and a usage line that names it. Both lists are discovered (the
apps' management/commands folders; every module with an argparse parser run under
``if __name__ == "__main__"``), so a new command or CLI is covered without editing this file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

REPO = Path(__file__).resolve().parent.parent
# Folders that hold no project program: the virtualenv, tests, and whatever git ignores there.
NOT_PROGRAMS = {".venv", ".git", "tests", "typings", "static", "templates", "node_modules"}


def _project_commands() -> list[tuple[str, str]]:
    """(app, command) for each command file in a project app's management/commands folder."""
    return sorted(
        (path.parents[2].name, path.stem)
        for path in REPO.glob("*/management/commands/*.py")
        if not path.stem.startswith("_")
    )


def _programs() -> list[tuple[list[str], str]]:
    """(the argv that runs it, the name its usage line shows) for every argparse program."""
    programs = []
    for path in sorted(REPO.rglob("*.py")):
        relative = path.relative_to(REPO)
        if relative.parts[0] in NOT_PROGRAMS or "migrations" in relative.parts:
            continue
        if relative.parts[0] == "bench" and len(relative.parts) > 2:
            continue  # bench/.peer and the like: another project's code
        text = path.read_text(encoding="utf-8")
        if "argparse" not in text or not re.search(r"^if __name__ == .__main__.:", text, re.M):
            continue
        if (path.parent / "__init__.py").is_file():
            parts = relative.with_suffix("").parts
            module = ".".join(parts[:-1] if path.name == "__main__.py" else parts)
            programs.append(([sys.executable, "-m", module], module))
        else:  # a script (bench/): run by its path
            programs.append(([sys.executable, str(relative)], path.name))
    return programs


COMMANDS = _project_commands()
PROGRAMS = _programs()


def test_the_discovery_finds_the_known_commands_and_programs() -> None:
    """Guards the discovery itself: an empty list would pass every test below."""
    assert {"load_demo", "import_cards", "export_event", "swiss_state"} <= {
        name for _app, name in COMMANDS
    }
    assert {"engine.boba", "engine.bos", "tournaments.swiss"} <= {name for _, name in PROGRAMS}


@pytest.mark.parametrize(("app", "name"), COMMANDS, ids=[name for _app, name in COMMANDS])
def test_a_management_command_answers_help(
    app: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert get_commands().get(name) is not None, f"{app}.{name}: its app is not installed"
    command = load_command_class(get_commands()[name], name)
    with pytest.raises(SystemExit) as exit_:
        command.run_from_argv(["manage.py", name, "--help"])
    assert exit_.value.code == 0
    usage = capsys.readouterr().out.splitlines()[0]
    assert usage.startswith(f"usage: manage.py {name} "), usage


def _help(argv: list[str]) -> str:
    answer = subprocess.run(
        [*argv, "--help"], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert answer.returncode == 0, answer.stderr
    return answer.stdout


@pytest.mark.parametrize(("argv", "name"), PROGRAMS, ids=[argv[-1] for argv, _name in PROGRAMS])
def test_a_program_and_each_of_its_subcommands_answers_help(argv: list[str], name: str) -> None:
    usage = _help(argv).splitlines()[0]
    assert usage.startswith("usage: ") and name in usage, usage
    # Subcommands (or a first argument's choices) are the usage line's {a,b}: each answers too.
    for choices in re.findall(r"\{([\w,-]+)\}", usage):
        for subcommand in choices.split(","):
            sub_usage = _help([*argv, subcommand]).splitlines()[0]
            assert name in sub_usage and subcommand in sub_usage, sub_usage
