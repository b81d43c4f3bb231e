"""The floors: which package may import which (issue 20, docs/architecture.md "Floors").

Every project module stands on a floor and may import only from its own floor's app or from
the floors below it; an import that runs up the floors makes the lower floor depend on the
upper one, and that is how import circles and the function-level imports that dodge them
start. The floors, bottom to top, are ``FLOORS`` below (the one definition; the docs point
here). Two apps on the same floor must not import each other either.

This test reads every module with ``ast`` (never importing it) and fails on:

- an import, at module level or inside a function, that runs up the floors
  (``ALLOWED_UPWARD`` lists today's, each with its reason);
- an underscore (private) name or module imported from another package: ``from x.y import _z``
  where ``x`` is not the importer's own app (``ALLOWED_PRIVATE``);
- two modules of different apps in one import circle (module-level imports, which are the
  ones that run when a module is loaded; ``ALLOWED_CIRCLES`` lists the cross-app imports that
  close today's circles);
- any import circle between modules, one app's included, counting every import: one inside
  a function or under TYPE_CHECKING hides a circle, it does not break it
  (``ALLOWED_MODULE_CIRCLES``).

Each allow-list only shrinks: an entry whose import is gone fails the test until it is removed.
Migrations are exempt (they freeze whatever the models were).

It also keeps every module, tests and benchmarks included, at most ``MAX_MODULE_LINES`` long
(one job per module: a longer one is split into a package of modules by subject).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Bottom to top. Each floor is a set of apps (top-level packages); "config" is split in two:
# its helpers (errors, api, pages, outbox, cache, ...) sit just above the engine, its wiring
# (the modules that assemble the apps: CONFIG_WIRING) at the very top.
FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"engine"}),  # the pure core: no Django (tests/engine/test_purity.py)
    frozenset({"config"}),  # config helpers: everything in config/ but the wiring
    frozenset({"accounts"}),
    frozenset({"tournaments"}),
    # stores and organisers: members, roles, suspensions, the calendar and the feeds; reads
    # events, and fills tournaments' extension points (roles at an event, registration checks)
    frozenset({"organisations"}),
    frozenset({"decks", "notifications"}),  # one floor: neither imports the other
    frozenset({"matches"}),
    frozenset({"overlays"}),  # stream overlays: feature matches, feeds, the live stream
    frozenset({"eventdata", "series"}),  # the whole event as data (archive, demo); series of events
    frozenset({"weekends"}),  # events grouped at one venue: schedule, badge, side events, desk
    # archetypes, the metagame of an event or series, the coverage page: reads decks, matches
    # and series
    frozenset({"metagame"}),
    frozenset({"config wiring"}),
)
# The config modules that wire the apps together: the package itself (it loads the Celery
# app), settings, URL confs, the WSGI/ASGI/Celery entry points and config's management
# commands. A module here or under one of these packages is wiring; the rest of config is a
# helper every app may use.
CONFIG_WIRING: frozenset[str] = frozenset(
    {
        "config",
        "config.settings",
        "config.urls",
        "config.rulings_urls",
        "config.wsgi",
        "config.asgi",
        "config.celery",
        "config.management",
    }
)
NOT_APPS = frozenset({"tests", "bench", "typings"})
# The longest a module may be (migrations aside): past it, a module does more than one job.
MAX_MODULE_LINES = 1000

# (importer module, imported module): reason. Today's upward imports; the floors step
# empties this list.
ALLOWED_UPWARD: dict[tuple[str, str], str] = {}
# (importer module, "module.name" of the private name): reason.
ALLOWED_PRIVATE: dict[tuple[str, str], str] = {}
# (importer module, imported module): reason. Cross-app module-level imports inside a circle.
ALLOWED_CIRCLES: dict[tuple[str, str], str] = {}
# The modules of a circle (any imports, one app's included): reason. Circles that cannot be
# broken by moving the shared piece down into its own module.
ALLOWED_MODULE_CIRCLES: dict[frozenset[str], str] = {}


@dataclass(frozen=True)
class Import:
    importer: str
    module: str  # the project module imported (a name from it: `name`)
    name: str | None
    line: int
    module_level: bool  # runs when the importer is loaded (not in a function, not type-only)


def app_of(module: str) -> str:
    return module.split(".", 1)[0]


def _is_wiring(module: str) -> bool:
    return module in CONFIG_WIRING or any(
        module.startswith(wiring + ".") for wiring in CONFIG_WIRING - {"config"}
    )


def floor_key(module: str) -> str:
    """The app name the floors know a module by ("config wiring" for config's wiring)."""
    app = app_of(module)
    return "config wiring" if app == "config" and _is_wiring(module) else app


def floor_of(module: str) -> int:
    key = floor_key(module)
    for index, apps in enumerate(FLOORS):
        if key in apps:
            return index
    raise AssertionError(f"{module}: the package {key!r} stands on no floor (FLOORS)")


def project_packages() -> list[str]:
    return sorted(
        path.parent.name
        for path in REPO.glob("*/__init__.py")
        if path.parent.name not in NOT_APPS and not path.parent.name.startswith(".")
    )


@cache
def project_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package in project_packages():
        for path in (REPO / package).rglob("*.py"):
            parts = path.relative_to(REPO).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def _known(dotted: str) -> str | None:
    """The longest prefix of ``dotted`` that is a project module."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in project_modules():
            return candidate
    return None


def _type_checking_block(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, module_level: bool) -> Iterator[tuple[ast.AST, bool]]:
    for child in ast.iter_child_nodes(node):
        # A function body runs later, a type-checking block never: neither at load time.
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) or (
            isinstance(child, ast.If) and _type_checking_block(child)
        ):
            yield from _walk(child, False)
        else:
            yield child, module_level
            yield from _walk(child, module_level)


@cache
def imports_of(module: str) -> tuple[Import, ...]:
    path = project_modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []
    for node, module_level in _walk(ast.parse(path.read_text(encoding="utf-8")), True):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _known(alias.name)
                if target is not None:
                    found.append(Import(module, target, None, node.lineno, module_level))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in project_modules():
                    found.append(Import(module, submodule, None, node.lineno, module_level))
                    continue
                target = _known(source)
                if target is not None:
                    found.append(Import(module, target, alias.name, node.lineno, module_level))
                elif _private(alias.name) or any(_private(p) for p in source.split(".")):
                    # Another project's private name (Django's, Celery's): the same rule.
                    found.append(Import(module, source, alias.name, node.lineno, module_level))
    return tuple(found)


def all_imports() -> Iterator[Import]:
    for module in sorted(project_modules()):
        yield from imports_of(module)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _where(found: Import) -> str:
    path = project_modules()[found.importer].relative_to(REPO)
    return f"{path}:{found.line}"


def upward_imports() -> dict[tuple[str, str], list[Import]]:
    """(importer, imported) -> the imports that run up the floors, or across one floor."""
    found: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for item in all_imports():
        if item.module not in project_modules():
            continue
        source, target = floor_key(item.importer), floor_key(item.module)
        if source == target:
            continue
        if floor_of(item.module) >= floor_of(item.importer):
            found[(item.importer, item.module)].append(item)
    return found


def private_imports() -> dict[tuple[str, str], list[Import]]:
    """(importer, "module.name") -> imports of a private name or module of another package."""
    found: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for item in all_imports():
        if app_of(item.module) == app_of(item.importer):
            continue
        dotted = item.module if item.name is None else f"{item.module}.{item.name}"
        if any(_private(part) for part in dotted.split(".")):
            found[(item.importer, dotted)].append(item)
    return found


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (a deep import chain must not hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def import_graph(
    *, load_time_only: bool
) -> tuple[dict[str, set[str]], dict[tuple[str, str], list[Import]]]:
    """module -> the project modules it imports, and the imports behind each arrow: only the
    module-level ones (``load_time_only``: those that run when a module is loaded), or every
    one (inside a function and type-only too)."""
    graph: dict[str, set[str]] = {module: set() for module in project_modules()}
    edges: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for item in all_imports():
        if load_time_only and not item.module_level:
            continue
        if item.module in graph and item.module != item.importer:
            graph[item.importer].add(item.module)
            edges[(item.importer, item.module)].append(item)
    return graph, edges


def cross_app_circle_imports() -> dict[tuple[str, str], list[Import]]:
    """(importer, imported) of different apps, both in one circle of module-level imports."""
    graph, edges = import_graph(load_time_only=True)
    circles: dict[tuple[str, str], list[Import]] = {}
    for component in _strongly_connected(graph):
        for importer in component:
            for imported in graph[importer] & component:
                if app_of(importer) != app_of(imported):
                    circles[(importer, imported)] = edges[(importer, imported)]
    return circles


def module_circles() -> dict[frozenset[str], list[Import]]:
    """Every circle of modules, one app's included, and the imports that close it. Every
    import counts: one inside a function or under TYPE_CHECKING still makes each module
    depend on the other (moving an import into a function hides a circle, it does not
    break it)."""
    graph, edges = import_graph(load_time_only=False)
    circles: dict[frozenset[str], list[Import]] = {}
    for component in _strongly_connected(graph):
        if len(component) > 1:
            circles[frozenset(component)] = [
                item
                for importer in sorted(component)
                for imported in sorted(graph[importer] & component)
                for item in edges[(importer, imported)]
            ]
    return circles


def _check(
    found: dict[tuple[str, str], list[Import]],
    allowed: dict[tuple[str, str], str],
    what: str,
    list_name: str,
) -> None:
    new = {pair: items for pair, items in found.items() if pair not in allowed}
    gone = sorted(pair for pair in allowed if pair not in found)
    lines = [
        f"  {importer} -> {imported}  ({', '.join(sorted({_where(item) for item in items}))})"
        for (importer, imported), items in sorted(new.items())
    ]
    message = []
    if lines:
        message.append(f"{what}:\n" + "\n".join(lines))
    if gone:
        message.append(
            f"These entries of {list_name} no longer happen; remove them (the list only "
            "shrinks):\n" + "\n".join(f"  {importer} -> {imported}" for importer, imported in gone)
        )
    assert not message, "\n\n".join(message)


def test_every_project_package_stands_on_a_floor() -> None:
    for package in project_packages():
        floor_of(package)
    assert {"engine", "config", "accounts", "tournaments", "matches"} <= set(project_packages())


def test_the_import_reader_sees_function_level_and_relative_imports() -> None:
    """Guards the reader: matches.services imports notifications.services, and the engine's
    replay CLI imports its sibling modules relatively."""
    boba_cli = {item.module for item in imports_of("engine.boba.__main__")}
    assert {"engine.errors", "engine.boba.replay"} <= boba_cli
    assert any(not item.module_level for item in all_imports())
    assert floor_key("config.urls") == "config wiring"
    assert floor_key("config.errors") == "config"
    assert floor_key("config.settings.base") == "config wiring"


def test_the_circle_finder_finds_a_circle_and_only_the_circle() -> None:
    graph = {"a.x": {"b.y"}, "b.y": {"c.z"}, "c.z": {"a.x"}, "a.w": {"a.x"}, "d.v": set()}
    components = _strongly_connected(graph)
    assert {"a.x", "b.y", "c.z"} in components
    assert {"a.w"} in components and {"d.v"} in components
    assert len(components) == 3


def test_no_import_runs_up_the_floors() -> None:
    _check(
        upward_imports(),
        ALLOWED_UPWARD,
        "Imports that run up the floors (FLOORS in tests/test_floors.py; the lower module must "
        "not depend on the upper one: move the code down, or pass the value in)",
        "ALLOWED_UPWARD",
    )


def test_no_private_name_is_imported_from_another_package() -> None:
    _check(
        private_imports(),
        ALLOWED_PRIVATE,
        "Private (underscore) names imported from another package (make the name public in "
        "the module that owns it, or keep the code that needs it there)",
        "ALLOWED_PRIVATE",
    )


def test_no_import_circle_joins_two_apps() -> None:
    _check(
        cross_app_circle_imports(),
        ALLOWED_CIRCLES,
        "Module-level imports between apps that close an import circle",
        "ALLOWED_CIRCLES",
    )


def test_no_import_circle_between_modules() -> None:
    found = module_circles()
    new = {
        members: items for members, items in found.items() if members not in ALLOWED_MODULE_CIRCLES
    }
    gone = [members for members in ALLOWED_MODULE_CIRCLES if members not in found]
    message = [
        f"A circle of {len(members)} modules: {', '.join(sorted(members))}\n"
        + "\n".join(
            f"  {item.importer} -> {item.module}"
            + (f" ({item.name})" if item.name else "")
            + f"  {_where(item)}"
            for item in items
        )
        for members, items in sorted(new.items(), key=lambda pair: sorted(pair[0]))
    ]
    if gone:
        message.append(
            "These entries of ALLOWED_MODULE_CIRCLES no longer happen; remove them (the list only "
            "shrinks):\n" + "\n".join(f"  {', '.join(sorted(members))}" for members in gone)
        )
    assert not message, (
        "Import circles between modules (move the piece both need down into a module of its "
        "own; an import inside a function or under TYPE_CHECKING counts too):\n\n"
        + "\n\n".join(message)
    )


def test_the_module_circle_finder_counts_imports_inside_functions_and_type_only_ones() -> None:
    """Guards the reader behind the circle test: an import inside a function and one under
    TYPE_CHECKING are arrows of the whole graph but not of the load-time one."""
    inside_a_function = next(item for item in all_imports() if not item.module_level)
    every, _ = import_graph(load_time_only=False)
    at_load, _ = import_graph(load_time_only=True)
    assert inside_a_function.module in every[inside_a_function.importer]
    assert sum(map(len, every.values())) > sum(map(len, at_load.values()))
    type_only = {item.module for item in imports_of("engine.plugin") if not item.module_level}
    assert type_only <= every["engine.plugin"]


def python_files() -> list[Path]:
    """Every Python file of the repository (the project, its tests and benchmarks), but
    migrations and hidden or virtual-environment folders."""
    return sorted(
        path
        for path in REPO.rglob("*.py")
        if not any(
            part == "migrations" or part.startswith(".") or part in ("node_modules", "venv")
            for part in path.relative_to(REPO).parts[:-1]
        )
    )


def test_no_module_outside_migrations_is_above_1000_lines() -> None:
    files = python_files()
    assert REPO / "tests" / "test_floors.py" in files and REPO / "manage.py" in files
    assert not any("migrations" in path.parts for path in files)
    too_long = {
        str(path.relative_to(REPO)): lines
        for path in files
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert too_long == {}, (
        f"Modules above {MAX_MODULE_LINES} lines (split each into a package of modules by "
        f"subject, re-exporting its public names): {too_long}"
    )
