"""No code outside engine/ names a game: the Django apps ask the game's plugin
(engine.games.get_game(event.game)) for everything game-specific.

- Python (accounts, decks, matches, tournaments, notifications, config; migrations excluded:
  they record choices): no import of a game's engine (engine.boba, engine.bos), no string
  literal that is a game's key ("boba", "bos"), no comparison of a `game` with `==`/`!=`/`in`.
  The check reads the syntax tree, so comments and docstrings (which may name BoBA as an
  example) are not code and are allowed.
- Templates: no game's name or key as a word ("boba", "bos", "BoBA", "engine.boba"), except in
  the templates a game's plugin names for itself: a file whose name starts with a game's key
  (templates/matches/adjudicate/boba.html, boba_board.html, bos_board.html).
- The decks and matches apps name no BoBA deck section or statistics key: the game's plugin
  (engine.games.DeckRules) turns its lists and statistics into sections and charts.
"""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
BOBA_KEYS = (
    "heroes",
    "playbook",
    "bonus_plays",
    "hot_dogs",
    "hero_power_histogram",
    "weapon_breakdown",
    "play_cost_curve",
    "plays_with_variable_cost",
    "average_hero_power",
    "dbs_total",
    "dbs_cap",
    "max_heroes_per_power",
)
NOT_YET: set[str] = set()
QUOTED = re.compile("[\"'](" + "|".join(BOBA_KEYS) + ")[\"']")


def test_decks_and_matches_name_no_boba_section_or_statistics_key() -> None:
    files = sorted((ROOT / "decks").glob("*.py")) + sorted((ROOT / "matches").glob("*.py"))
    assert len(files) > 10
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in files
        if str(path.relative_to(ROOT)) not in NOT_YET
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if QUOTED.search(line) or re.search(r"\.(max_heroes_per_power|dbs_cap)\b", line)
    ]
    assert offenders == []


def test_the_check_catches_a_section_key() -> None:
    assert QUOTED.search('data.get("playbook")') and not QUOTED.search("playbook_size")


# --- no game named outside engine/ -----------------------------------------------------------

APPS = (
    "accounts",
    "decks",
    "matches",
    "tournaments",
    "notifications",
    "eventdata",
    "config",
    "metagame",
)
GAME_KEYS = tuple(GAMES)
# Files still naming a game while another change moves them behind the plugin (none now).
# The test fails on any file not listed, and on a listed file that no longer offends (so the
# list only shrinks).
PENDING: set[str] = set()


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (not code)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _game_name(name: str) -> bool:
    return name in ("game", "game_key", "plugin") or name.endswith("_game")


def _names_game(node: ast.AST) -> bool:
    """Something that holds a game's key: `game`, `event.game`, `default_game`, or the key of
    a plugin (`plugin.key`, `game.key`, `get_game(x).key`)."""
    if isinstance(node, ast.Name):
        return _game_name(node.id)
    if not isinstance(node, ast.Attribute):
        return False
    if _game_name(node.attr):
        return True
    owner = node.value
    if isinstance(owner, ast.Call):
        owner = owner.func
    return node.attr == "key" and (
        _names_game(owner) or (isinstance(owner, ast.Name) and owner.id == "get_game")
    )


def _is_literal(node: ast.AST) -> bool:
    """A string, or a tuple, list or set of them (a particular game named in place)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(
        _is_literal(e) for e in node.elts
    )


def _singles_out(node: ast.AST) -> bool:
    """A particular game: a string, or a constant (CHECK_GAME, BOBA.key)."""
    if _is_literal(node):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.Attribute):
        return node.attr.isupper() or _singles_out(node.value)
    return False


def _branches_on_game(node: ast.Compare) -> bool:
    """`game == "x"`, `event.game != CHECK_GAME`, `game in ("a", "b")`: one game singled out.
    Comparing two games (`card.game == event.game`) or asking the registry (`game in GAMES`)
    is fine."""
    sides = [node.left, *node.comparators]
    for op, (left, right) in zip(node.ops, pairwise(sides), strict=True):
        if not (_names_game(left) or _names_game(right)):
            continue
        other = right if _names_game(left) else left
        if isinstance(op, ast.Eq | ast.NotEq) and _singles_out(other):
            return True
        if isinstance(op, ast.In | ast.NotIn) and _is_literal(right):
            return True
    return False


def game_offences(source: str, keys: tuple[str, ...] = GAME_KEYS) -> list[tuple[int, str]]:
    """(line, what) for each place a Python source names a game (see the module docstring)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    engines = tuple(f"engine.{key}" for key in keys)
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(engines):
                    out.append((node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [f"{module}.{a.name}" for a in node.names]
            if any(n.startswith(engines) for n in [module, *names]):
                out.append((node.lineno, f"imports from {module}"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and node.value.strip().lower() in keys:
                out.append((node.lineno, f"names the game {node.value!r}"))
            elif id(node) not in docs and node.value.startswith(engines):
                out.append((node.lineno, f"names {node.value!r}"))
        elif isinstance(node, ast.Compare) and _branches_on_game(node):
            out.append((node.lineno, "branches on a game"))
    return out


def _app_files() -> list[Path]:
    return [
        path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    ]


def test_no_app_code_names_a_game() -> None:
    files = _app_files()
    assert len(files) > 50
    offenders: dict[str, list[tuple[int, str]]] = {}
    for path in files:
        found = game_offences(path.read_text(encoding="utf-8"))
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    unexpected = {k: v for k, v in offenders.items() if k not in PENDING}
    assert unexpected == {}
    # The allow-list only shrinks: a pending file that no longer names a game leaves it.
    assert sorted(PENDING - set(offenders)) == []


TEMPLATE_WORD = re.compile(r"\b(engine\.)?(" + "|".join(GAME_KEYS) + r")\b", re.IGNORECASE)


def _game_template(path: Path) -> bool:
    """A template a game's plugin names for itself: its name is the game's key, or starts
    with the key and an underscore (`boba.html`, `bos_board.html`; not `boss_list.html`)."""
    name = path.name.lower()
    return name.startswith(tuple(f"{key}{sep}" for key in GAME_KEYS for sep in "._"))


def test_templates_name_no_game() -> None:
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert len(templates) > 50
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}"
        for path in templates
        if not _game_template(path)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if TEMPLATE_WORD.search(line)
    ]
    assert offenders == []


def test_scripts_name_no_game() -> None:
    """The pages' scripts behave the same for every game (the server sends what differs)."""
    scripts = sorted((ROOT / "static").rglob("*.js"))
    assert scripts
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}"
        for path in scripts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if TEMPLATE_WORD.search(line)
    ]
    assert offenders == []


def test_the_game_check_catches_an_offender() -> None:
    source = (
        '"""A module about BoBA (a docstring: allowed)."""\n'
        "from engine.boba.replay import replay  # an engine import\n"
        "import engine.bos.state\n"
        "# boba in a comment is allowed\n"
        "def f(event):\n"
        '    """Only for bos (a docstring)."""\n'
        "    if event.game == GAME:\n"
        '        return "bos"\n'
        '    return get_game("BoBA")\n'
    )
    assert [line for line, _ in game_offences(source)] == [2, 3, 7, 8, 9]
    assert game_offences('x = get_game(event.game).name  # "boba"\n') == []
    assert game_offences("ok = event.game in GAMES and card.game == event.game\n") == []
    assert game_offences("ok = event.game != clean['game'] or c.game == g.key\n") == []
    assert game_offences("bad = event.game == CHECK_GAME or game != BOBA.key\n") == [
        (1, "branches on a game"),
        (1, "branches on a game"),
    ]
    assert (1, "branches on a game") in game_offences('if event.game in ("boba", "x"): pass\n')
    assert TEMPLATE_WORD.search("{% if game == 'bos' %}") and TEMPLATE_WORD.search("BoBA rules")
    assert not TEMPLATE_WORD.search("boss, bosses, embossed")
    assert _game_template(Path("templates/matches/adjudicate/bos_board.html"))
    assert _game_template(Path("templates/matches/adjudicate/boba.html"))
    assert not _game_template(Path("templates/matches/adjudicate/page.html"))
    assert not _game_template(Path("templates/matches/boss_list.html"))
    assert not _game_template(Path("templates/matches/_boba_board.html"))
    assert game_offences("if plugin.key == DEFAULT_GAME: pass\n") == [(1, "branches on a game")]
    assert game_offences("if default_game != MINE: pass\n") == [(1, "branches on a game")]
    assert game_offences("ok = row.key == MINE and f.key == 'x'\n") == []
