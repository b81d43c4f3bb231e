"""Team events: team rules, rosters, line-ups, boards, team match results and team standings.

Pure code: no Django, no I/O, no randomness. The site turns its rows into the frozen values
below and stores what comes back. The contract is ../shared/spec/event-structures.md, section
Teams (cited as ``event-structures: Teams``); BoBA's APEX Madness and HiLo Madness are in
../shared/rules/formats.md (cited as ``Formats: APEX Madness``). docs/teams.md has the rules and
the decisions taken where the documents are silent.

Notes on terminology
--------------------
team configuration
    The contract's ``"team": {"players": 4, "roster_max": 6, "head_coach": true}``
    (:class:`TeamConfig`): boards a team fields each round, largest roster, and whether a tied
    team match goes to the Head Coaches' deciding game.
team rules
    A configuration plus what a preset adds (:class:`TeamRules`): the boards played "low power
    wins" (HiLo), the board the Head Coach must play, the match structure of a board, and the
    format each role plays.
roster
    A team's members (registration ids, as strings like the standings' player ids): at least
    ``players``, at most ``roster_max``, nobody twice, nobody in two teams of the event.
Head Coach
    One member of the roster (APEX Madness: "one of them the Head Coach"). He plays the deciding
    game of a tied team match, and may play a board too (see :func:`validate_lineup`).
role
    ``"head_coach"`` or ``"player"`` (every other member): each role plays a format
    (:class:`RoleFormats`).
line-up
    The members a team fields in one round, in board order: exactly ``players`` of them.
board
    One ordinary match of a team match: board k pairs the k-th player of each line-up.
decider
    The deciding game between the two Head Coaches after a tied team match; a tied decider goes
    to top-deck sudden death (CR 4.4.3), so a decider always has a winner.
team match result
    ``boards`` = (won by a, won by b, drawn) over the boards that are final, the ``decider``
    ("a", "b" or None) and whether the team match is ``final``: all boards final, and the
    decider too when one is needed (:class:`TeamMatchResult`; JSON ``{"boards", "decider"}``).
team standings
    Team-match points 3 / 1 / 0 and the event's tiebreakers over team matches, computed by
    ``tournaments.standings`` with teams as its players and boards as its games: a team's
    game-win % is its board-win %, OMW% and OGW% are over the teams it met.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, TypeGuard

from engine.errors import BattledeskError
from tournaments.standings import (
    DEFAULT_TIEBREAKERS,
    MatchRecord,
    Player,
    Scoring,
    StandingRow,
    compute_standings,
)

Role = Literal["head_coach", "player"]
ROLES: Final[tuple[Role, ...]] = ("head_coach", "player")
Side = Literal["a", "b"]
Outcome = Literal["a", "b", "draw"]

MAX_BOARDS: Final = 16  # a sanity bound on ``players``; published team events field 4
MAX_ROSTER: Final = 32

CITE_TEAMS: Final = "event-structures: Teams"
CITE_APEX: Final = "Formats: APEX Madness"
CITE_HILO: Final = "Formats: HiLo Madness"
CITE_SUDDEN_DEATH: Final = "CR 4.4.3"


class TeamError(BattledeskError, ValueError):
    """Bad team input; ``field`` names it (``team.players``, ``members``, ``players[2]``)."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


# -- configuration -------------------------------------------------------------------------------
def _check_config(players: object, roster_max: object, head_coach: object, path: str) -> None:
    if not _count(players) or not 1 <= players <= MAX_BOARDS:
        raise TeamError(_join(path, "players"), f"must be a whole number from 1 to {MAX_BOARDS}")
    if not _count(roster_max) or not players <= roster_max <= MAX_ROSTER:
        raise TeamError(
            _join(path, "roster_max"),
            f"must be a whole number from players ({players}) to {MAX_ROSTER}",
        )
    if not isinstance(head_coach, bool):
        raise TeamError(_join(path, "head_coach"), "must be true or false")


@dataclass(frozen=True, slots=True)
class TeamConfig:
    """The contract's team object (event-structures: Teams); checked when made.

    ``players``: boards each team fields per round (1 to MAX_BOARDS). ``roster_max``: the
    largest roster, at least ``players`` (the smallest roster is ``players``: the contract
    refuses "a roster above roster_max or below players"). ``head_coach``: a tied team match goes
    to the Head Coaches' deciding game; without it a tied team match is drawn.
    """

    players: int
    roster_max: int
    head_coach: bool = False

    def __post_init__(self) -> None:
        _check_config(self.players, self.roster_max, self.head_coach, "team")

    @classmethod
    def from_dict(cls, data: object, path: str = "team") -> TeamConfig:
        """Read the contract's object. ``players`` is required; ``roster_max`` defaults to
        ``players`` and ``head_coach`` to false. An unknown key is refused by name (a
        misspelt ``roster_size`` must not be ignored)."""
        if not isinstance(data, Mapping):
            raise TeamError(path, 'must be an object: {"players", "roster_max", "head_coach"}')
        for key in data:
            if key not in ("players", "roster_max", "head_coach"):
                raise TeamError(_join(path, str(key)), "unknown team setting")
        if "players" not in data:
            raise TeamError(_join(path, "players"), "is required")
        players = data["players"]
        roster_max = data.get("roster_max", players)
        head_coach = data.get("head_coach", False)
        _check_config(players, roster_max, head_coach, path)
        return cls(players, roster_max, head_coach)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "roster_max": self.roster_max,
            "head_coach": self.head_coach,
        }

    @property
    def boards_to_win(self) -> int:
        """Boards that win a team match outright, whatever the others do: a majority."""
        return self.players // 2 + 1

    def scoring(self) -> Scoring:
        """Team standings' scoring: team-match points 3 / 1 / 0 (event-structures: Teams); a
        bye is worth the boards an outright win needs, none lost (3-0 for 4 boards), as a
        player's bye is worth the games a match win needs (rules README, decision 11)."""
        return Scoring(bye_games=(self.boards_to_win, 0))


# -- role formats --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoleFormats:
    """The format each role's deck is checked against: a team format (event-structures: Teams,
    "a team format names the format each role plays"). ``head_coach`` None: the Head Coach
    plays the players' format."""

    player: str
    head_coach: str | None = None

    def format_for(self, role: Role) -> str:
        if role == "head_coach" and self.head_coach is not None:
            return self.head_coach
        return self.player

    def to_dict(self) -> dict[str, str]:
        out = {"player": self.player}
        if self.head_coach is not None:
            out["head_coach"] = self.head_coach
        return out

    def check(self, known: Collection[str], *, head_coach: bool, path: str = "formats") -> None:
        """Each format a key of ``known`` (the game's formats); a Head Coach's format only in
        an event with a Head Coach."""
        if self.head_coach is not None and not head_coach:
            raise TeamError(_join(path, "head_coach"), "this event has no Head Coach")
        for role in ROLES:
            key = self.player if role == "player" else self.head_coach
            if key is not None and key not in known:
                raise TeamError(
                    _join(path, role),
                    f"unknown format {key!r}; known: {', '.join(sorted(known))}",
                )

    @classmethod
    def from_dict(
        cls, data: object, known: Collection[str], *, head_coach: bool, path: str = "formats"
    ) -> RoleFormats:
        """Read ``{"player": key, "head_coach": key?}`` and check it against ``known``."""
        if not isinstance(data, Mapping):
            raise TeamError(path, 'must be an object: {"player": format, "head_coach": format}')
        for role in data:
            if role not in ROLES:
                raise TeamError(
                    _join(path, str(role)), f"unknown role; the roles are {', '.join(ROLES)}"
                )
        if "player" not in data:
            raise TeamError(_join(path, "player"), "is required")
        keys: dict[str, str] = {}
        for role, key in data.items():
            if not isinstance(key, str):
                raise TeamError(_join(path, role), "must be a format key")
            keys[role] = key
        formats = cls(player=keys["player"], head_coach=keys.get("head_coach"))
        formats.check(known, head_coach=head_coach, path=path)
        return formats


# -- presets -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TeamRules:
    """A team configuration and the board rules a preset adds; checked when made.

    ``board_games_to_win``: each board's match structure (2: best of 3, Formats: APEX Madness).
    ``low_power_boards``: the board numbers played "low power wins" (HiLo). ``head_coach_board``:
    the board the Head Coach must play, or None when he may play any board or none.
    ``decider_low_power_wins``: how the deciding game is played. The decider is one game (a
    "deciding game") with tiebreakers active: a tie goes to sudden death (CR 4.4.3).
    """

    key: str
    name: str
    team: TeamConfig
    formats: RoleFormats
    board_games_to_win: int = 2
    low_power_boards: tuple[int, ...] = ()
    head_coach_board: int | None = None
    decider_low_power_wins: bool = False
    citation: str = CITE_TEAMS

    def __post_init__(self) -> None:
        boards = self.team.players
        if not _count(self.board_games_to_win) or self.board_games_to_win < 1:
            raise TeamError("board_games_to_win", "must be a whole number, 1 or more")
        for i, board in enumerate(self.low_power_boards):
            if not _count(board) or not 1 <= board <= boards:
                raise TeamError(f"low_power_boards[{i}]", f"must be a board from 1 to {boards}")
            if board in self.low_power_boards[:i]:
                raise TeamError(f"low_power_boards[{i}]", f"board {board} is listed twice")
        if self.head_coach_board is not None:
            if not self.team.head_coach:
                raise TeamError("head_coach_board", "this event has no Head Coach")
            if not _count(self.head_coach_board) or not 1 <= self.head_coach_board <= boards:
                raise TeamError("head_coach_board", f"must be a board from 1 to {boards}")

    def low_power_wins(self, board: int) -> bool:
        """Whether board ``board`` (1, 2, ...) is played "low power wins"."""
        return board in self.low_power_boards

    def with_team(self, team: TeamConfig) -> TeamRules:
        """These rules for an event's own team configuration (checked again: a HiLo low-power
        board beyond the event's boards is refused)."""
        return replace(self, team=team)

    @classmethod
    def custom(cls, team: TeamConfig, formats: RoleFormats) -> TeamRules:
        """Plain team rules: every board played high, best of 3, the Head Coach free to play
        any board or none."""
        return cls(key="custom", name="Custom team event", team=team, formats=formats)


APEX_MADNESS: Final = TeamRules(
    key="apex_madness",
    name="APEX Madness",
    # Formats: APEX Madness: "Teams of 4 to 6 players, one of them the Head Coach"; "4 players
    # from each team play, each a best-of-3 match"; a tie goes to the Head Coaches' game.
    team=TeamConfig(players=4, roster_max=6, head_coach=True),
    # The one BoBA format of that name holds both roles' decks (60-70 Heroes, 4 Hot Dogs); a
    # site may name a stricter format for the Head Coach (60 Heroes, no Power limit).
    formats=RoleFormats(player="apex_madness", head_coach="apex_madness"),
    citation=CITE_APEX,
)
HILO_MADNESS: Final = TeamRules(
    key="hilo_madness",
    name="HiLo Madness",
    team=TeamConfig(players=4, roster_max=6, head_coach=True),
    formats=RoleFormats(player="hilo_madness", head_coach="hilo_madness"),
    # Formats: HiLo Madness: "the Head Coach plays high and the others play 'low power wins'".
    # A board is played one way by both its players, so the Head Coaches meet on the high
    # board 1 and boards 2 to 4 are low; the deciding game is the Head Coaches': high.
    low_power_boards=(2, 3, 4),
    head_coach_board=1,
    citation=CITE_HILO,
)
TEAM_PRESETS: Final[Mapping[str, TeamRules]] = {
    rules.key: rules for rules in (APEX_MADNESS, HILO_MADNESS)
}


def get_team_preset(key: str, path: str = "preset") -> TeamRules:
    """A preset by key; TeamError naming ``path`` and the known keys otherwise."""
    try:
        return TEAM_PRESETS[key]
    except (KeyError, TypeError):
        raise TeamError(
            path, f"unknown team preset {key!r}; known: {', '.join(sorted(TEAM_PRESETS))}"
        ) from None


EXTRAS_KEYS: Final = ("preset", "low_power_boards", "head_coach_board", "formats")


def rules_from_event(
    team: object,
    extras: object,
    known_formats: Collection[str],
    *,
    default_format: str,
    path: str = "team_rules",
) -> TeamRules | None:
    """An event's team rules from its two stored settings, or None for an individual event.

    ``team``: the contract's object (:meth:`TeamConfig.from_dict`, errors naming ``team...``)
    or None. ``extras``: what a preset adds, ``{"preset", "low_power_boards",
    "head_coach_board", "formats"}``, every key optional (errors naming ``team_rules...``).
    With ``preset`` the preset's rules apply to the event's own configuration (the preset's
    configuration when ``team`` is None), each extra given overriding the preset's; without
    one, plain rules (:meth:`TeamRules.custom`) whose role formats default to the event's own
    format (``default_format``). Role formats are checked against ``known_formats``.
    """
    extras = {} if extras is None else extras
    if not isinstance(extras, Mapping):
        raise TeamError(path, 'must be an object: {"preset", "low_power_boards", "formats"}')
    for key in extras:
        if key not in EXTRAS_KEYS:
            raise TeamError(_join(path, str(key)), "unknown team rule")
    preset_key = extras.get("preset")
    if team is None and preset_key is None:
        if any(extras.get(key) is not None for key in EXTRAS_KEYS):
            raise TeamError(path, "team rules need a team event: give `team` first")
        return None
    base = get_team_preset(preset_key, _join(path, "preset")) if preset_key is not None else None
    config = TeamConfig.from_dict(team) if team is not None else base.team if base else None
    assert config is not None
    formats_data = extras.get("formats")
    if formats_data is not None:
        formats = RoleFormats.from_dict(
            formats_data, known_formats, head_coach=config.head_coach, path=_join(path, "formats")
        )
    elif base is not None:
        formats = base.formats
        if formats.head_coach is not None and not config.head_coach:
            formats = RoleFormats(player=formats.player)
        formats.check(known_formats, head_coach=config.head_coach, path=_join(path, "formats"))
    else:
        formats = RoleFormats(player=default_format)
    rules = base if base is not None else TeamRules.custom(config, formats)
    low = extras.get("low_power_boards")
    if low is not None and not isinstance(low, list | tuple):
        raise TeamError(_join(path, "low_power_boards"), "must be a list of board numbers")
    if "head_coach_board" in extras:
        head_board = extras["head_coach_board"]
    else:
        head_board = rules.head_coach_board if config.head_coach else None
    try:
        return replace(
            rules,
            team=config,
            formats=formats,
            low_power_boards=tuple(low) if low is not None else rules.low_power_boards,
            head_coach_board=head_board,
        )
    except TeamError as exc:
        raise TeamError(_join(path, exc.field), exc.message) from None


def rules_extras(rules: TeamRules) -> dict[str, Any]:
    """What :func:`rules_from_event` reads back as ``extras`` for these rules."""
    return {
        "preset": rules.key if rules.key in TEAM_PRESETS else None,
        "low_power_boards": list(rules.low_power_boards),
        "head_coach_board": rules.head_coach_board,
        "formats": rules.formats.to_dict(),
    }


# -- rosters -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Team:
    """A team of the event: ``members`` are registration ids; ``head_coach`` one of them."""

    id: str
    name: str
    members: tuple[str, ...]
    head_coach: str | None = None
    dropped: bool = False

    def role_of(self, member: str) -> Role:
        return "head_coach" if member == self.head_coach else "player"


def validate_team(
    team: Team,
    config: TeamConfig,
    *,
    others: Sequence[Team] = (),
    eligible: Collection[str] | None = None,
    path: str = "",
) -> None:
    """Raise TeamError unless ``team`` may play: its members (field ``members``, as the
    contract's 400 names it) are ``players`` to ``roster_max`` distinct ids, none in another of
    ``others`` (a team of the same id is the team itself, being changed), all in ``eligible``
    (the event's registrations) when given; its Head Coach (field ``head_coach``) is one of
    them, present exactly when the event has a Head Coach (event-structures: Teams)."""
    members_field = _join(path, "members")
    if not isinstance(team.id, str) or not team.id:
        raise TeamError(_join(path, "id"), "must be a non-empty string")
    members = team.members
    if not isinstance(members, tuple | list) or not all(isinstance(m, str) and m for m in members):
        raise TeamError(members_field, "must be a list of registration ids")
    seen: set[str] = set()
    for member in members:
        if member in seen:
            raise TeamError(members_field, f"{member} is listed twice")
        seen.add(member)
    if not config.players <= len(members) <= config.roster_max:
        raise TeamError(
            members_field,
            f"a roster has {config.players} to {config.roster_max} members, not {len(members)} "
            f"({CITE_TEAMS})",
        )
    if eligible is not None:
        for member in members:
            if member not in eligible:
                raise TeamError(members_field, f"{member} is not registered in this event")
    for other in others:
        if other.id != team.id:
            shared = seen.intersection(other.members)
            if shared:
                raise TeamError(members_field, f"{min(shared)} is already in team {other.name!r}")
    head_field = _join(path, "head_coach")
    if team.head_coach is None:
        if config.head_coach:
            raise TeamError(head_field, f"name the Head Coach, one of the members ({CITE_APEX})")
    elif not config.head_coach:
        raise TeamError(head_field, "this event has no Head Coach")
    elif team.head_coach not in seen:
        raise TeamError(head_field, "must be one of the members")


def validate_teams(
    teams: Sequence[Team], config: TeamConfig, *, eligible: Collection[str] | None = None
) -> None:
    """:func:`validate_team` for every team (fields ``teams[i].members``...), ids unique."""
    ids: set[str] = set()
    for i, team in enumerate(teams):
        path = f"teams[{i}]"
        if team.id in ids:
            raise TeamError(_join(path, "id"), f"duplicate team id {team.id!r}")
        validate_team(team, config, others=teams[:i], eligible=eligible, path=path)
        ids.add(team.id)


# -- line-ups and boards -------------------------------------------------------------------------
def validate_lineup(
    team: Team, players: Sequence[object], rules: TeamRules, path: str = "players"
) -> tuple[str, ...]:
    """The line-up as a tuple, or TeamError naming ``path`` (``players[2]`` for one entry):
    exactly ``players`` members of the team's roster, nobody twice (event-structures: Teams).

    The Head Coach may play a board: APEX Madness fields 4 players of a team of 4 to 6 that
    includes the Head Coach, so a team of 4 has to field him; in a larger team it is the
    team's choice (Formats: APEX Madness). Where the rules put him on a board (HiLo: the high
    board, ``rules.head_coach_board``), the line-up must.
    """
    boards = rules.team.players
    if not isinstance(players, list | tuple) or len(players) != boards:
        raise TeamError(path, f"field exactly {boards} players, in board order ({CITE_TEAMS})")
    roster = set(team.members)
    lineup: list[str] = []
    for i, player in enumerate(players):
        if not isinstance(player, str) or player not in roster:
            raise TeamError(f"{path}[{i}]", f"{player!r} is not on the team's roster")
        if player in lineup:
            raise TeamError(
                f"{path}[{i}]", f"{player} already plays board {lineup.index(player) + 1}"
            )
        lineup.append(player)
    board = rules.head_coach_board
    if board is not None and lineup[board - 1] != team.head_coach:
        raise TeamError(
            f"{path}[{board - 1}]",
            f"the Head Coach plays board {board}, the high board ({rules.citation})",
        )
    return tuple(lineup)


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a team match: an ordinary match between ``a`` (of team a) and ``b``."""

    number: int
    a: str
    b: str
    a_role: Role
    b_role: Role
    low_power_wins: bool


@dataclass(frozen=True, slots=True)
class Decider:
    """The deciding game of a tied team match: the two Head Coaches (Formats: APEX Madness)."""

    a: str
    b: str
    low_power_wins: bool


def pair_boards(
    team_a: Team,
    lineup_a: Sequence[object],
    team_b: Team,
    lineup_b: Sequence[object],
    rules: TeamRules,
) -> tuple[Board, ...]:
    """The boards of a team match in line-up order, board 1 against board 1 and so on
    (event-structures: Teams), each line-up checked by :func:`validate_lineup` (fields
    ``a.players`` and ``b.players``)."""
    if team_a.id == team_b.id:
        raise TeamError("b", "a team cannot play itself")
    players_a = validate_lineup(team_a, lineup_a, rules, "a.players")
    players_b = validate_lineup(team_b, lineup_b, rules, "b.players")
    for i, player in enumerate(players_b):
        if player in players_a:
            raise TeamError(f"b.players[{i}]", f"{player} is in both line-ups")
    return tuple(
        Board(
            number=n,
            a=a,
            b=b,
            a_role=team_a.role_of(a),
            b_role=team_b.role_of(b),
            low_power_wins=rules.low_power_wins(n),
        )
        for n, (a, b) in enumerate(zip(players_a, players_b, strict=True), start=1)
    )


def pair_decider(team_a: Team, team_b: Team, rules: TeamRules) -> Decider:
    """The Head Coaches' deciding game; TeamError when the event has none or a team lacks one."""
    if not rules.team.head_coach:
        raise TeamError(
            "decider", f"without a Head Coach a tied team match is drawn ({CITE_TEAMS})"
        )
    for side, team in (("a", team_a), ("b", team_b)):
        if team.head_coach is None:
            raise TeamError(f"{side}.head_coach", "the team has no Head Coach")
    assert team_a.head_coach is not None and team_b.head_coach is not None
    return Decider(team_a.head_coach, team_b.head_coach, rules.decider_low_power_wins)


# -- team match results --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TeamMatchResult:
    """A team match's result from its boards and decider (event-structures: Teams).

    ``boards``: (won by a, won by b, drawn) over the final boards; ``boards_total`` the boards
    of the match. ``decider_needed``: every board final, tied, and the event has a Head Coach.
    ``final``: every board final and, when needed, the decider. ``outcome``: "a", "b" or
    "draw" once final, else None.
    """

    boards: tuple[int, int, int]
    boards_total: int
    decider: Side | None
    decider_needed: bool
    final: bool
    outcome: Outcome | None

    @property
    def boards_played(self) -> int:
        return sum(self.boards)

    def to_json(self) -> dict[str, Any]:
        """The contract's ``result``: ``{"boards": [a, b, drawn], "decider": "a" | "b" |
        null}`` (``decider`` null when there is none, or none yet)."""
        return {"boards": list(self.boards), "decider": self.decider}


def team_match_result(
    boards: Sequence[object], decider: object = None, *, config: TeamConfig
) -> TeamMatchResult:
    """The team match's result. ``boards``: one entry per board, in board order: its outcome
    ("a", "b", "draw") once the board is final, else None. ``decider``: the deciding game's
    winner ("a" or "b") once final, else None.

    A team match is won by the team that wins more boards; a tie goes to the decider with a
    Head Coach and is drawn without (event-structures: Teams). TeamError (field ``decider``)
    for a decider that is drawn (a tied deciding game goes on to sudden death, CR 4.4.3) or
    reported when no decider is needed.
    """
    if not isinstance(boards, list | tuple) or len(boards) != config.players:
        raise TeamError("boards", f"give one result per board: {config.players} boards")
    won_a = won_b = drawn = 0
    for i, board in enumerate(boards):
        if board == "a":
            won_a += 1
        elif board == "b":
            won_b += 1
        elif board == "draw":
            drawn += 1
        elif board is not None:
            raise TeamError(f"boards[{i}]", 'must be "a", "b", "draw" or null (not final)')
    all_final = won_a + won_b + drawn == config.players
    decider_needed = all_final and won_a == won_b and config.head_coach
    if decider == "draw":
        raise TeamError(
            "decider",
            f"a deciding game that ties goes on to top-deck sudden death: report its winner "
            f"({CITE_SUDDEN_DEATH})",
        )
    if decider is not None and decider not in ("a", "b"):
        raise TeamError("decider", 'must be "a", "b" or null (not final)')
    if decider is not None and not decider_needed:
        raise TeamError(
            "decider",
            "no deciding game: the boards are not all final"
            if not all_final
            else "no deciding game: the boards decide this team match",
        )
    side: Side | None = "a" if decider == "a" else "b" if decider == "b" else None
    outcome: Outcome | None = None
    if all_final:
        if won_a != won_b:
            outcome = "a" if won_a > won_b else "b"
        elif not config.head_coach:
            outcome = "draw"
        else:
            outcome = side
    return TeamMatchResult(
        boards=(won_a, won_b, drawn),
        boards_total=config.players,
        decider=side,
        decider_needed=decider_needed,
        final=outcome is not None,
        outcome=outcome,
    )


# -- team standings ------------------------------------------------------------------------------
def team_match_record(
    a: str, b: str, result: TeamMatchResult, trophies: tuple[int, int] | None = None
) -> MatchRecord:
    """The team match as the standings core reads a match: teams as players, boards as games
    (won by a, won by b, drawn), the outcome the decider gave. ``trophies``: the boards'
    trophies summed (a, b), for the battle differential, or None. TeamError (field
    ``result``) unless the team match is final."""
    if not result.final or result.outcome is None:
        raise TeamError("result", "the team match is not final")
    return MatchRecord(a=a, b=b, result=result.outcome, games=result.boards, battles=trophies)


def team_bye(team_id: str) -> MatchRecord:
    """A team's bye: a team-match win, worth ``TeamConfig.scoring().bye_games`` boards."""
    return MatchRecord(a=team_id, b=None, result="a")


def team_standings(
    teams: Sequence[Team],
    rounds: Sequence[Sequence[MatchRecord]],
    config: TeamConfig,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
) -> list[StandingRow]:
    """Team standings: ``tournaments.standings.compute_standings`` over the teams (team ids as
    player ids, dropped teams kept) and their team matches (:func:`team_match_record`,
    :func:`team_bye`), scored by ``config.scoring()``: team-match points 3 / 1 / 0 and the
    event's tiebreakers over teams (event-structures: Teams), game-win % being board-win %.
    Bad input raises ``standings.StateError`` naming ``rounds[r][m]...`` as for players."""
    players = [Player(id=team.id, dropped=team.dropped) for team in teams]
    return compute_standings(players, rounds, config.scoring(), tiebreakers)


# -- the deciding game and corrections -----------------------------------------------------------
DECIDER_GAMES_TO_WIN: Final = 1
"""The deciding game is one game (Formats: APEX Madness, "a deciding game"): a match
structure of best of 1 whatever the boards play."""


def check_decider_games(games: Sequence[int]) -> None:
    """A deciding game's result always has a winner: a tied game goes on to top-deck sudden
    death (CR 4.4.3), so a level result (1-1, 0-0-1) is refused, naming ``games``. ``games``
    is (won by a, won by b, drawn)."""
    won_a, won_b = [*games, 0, 0][:2]
    if won_a == won_b:
        raise TeamError(
            "games",
            "a deciding game always has a winner; a tie goes on to top-deck sudden death "
            f"({CITE_SUDDEN_DEATH}): report its winner",
        )


DeciderAction = Literal["keep", "pair", "remove"]


def decider_action(
    result: TeamMatchResult,
    *,
    decider_exists: bool,
    decider_started: bool,
    round_finished: bool,
) -> DeciderAction:
    """What a change of a board's result does to the team match's deciding game.

    ``result``: the team match's result from its boards alone (no decider). ``decider_exists``:
    a deciding game is paired; ``decider_started``: it has a result or a report;
    ``round_finished``: the team match's round is finished.

    - the boards are tied and no decider is paired: ``"pair"`` it, unless the round is
      finished: a correction never reopens a finished round (rules README decision 14, a
      published round never changes), so a correction that ties a team match of a finished
      round is refused (TeamError naming ``games``: correct another board too, or play the
      decider in the round);
    - the boards no longer tie and a decider is paired: ``"remove"`` it while nobody has
      reported it, else refused (TeamError naming ``games``: correct the decider first);
    - otherwise ``"keep"``.
    """
    if result.decider_needed and not decider_exists:
        if round_finished:
            raise TeamError(
                "games",
                "this correction ties a team match of a finished round, which would need a "
                "deciding game; play it in the round, or correct another board too",
            )
        return "pair"
    if decider_exists and not result.decider_needed:
        if decider_started:
            raise TeamError(
                "games",
                "the deciding game has a result; this change would make it unneeded: "
                "correct the decider first",
            )
        return "remove"
    return "keep"


def check_bracket_config(config: TeamConfig) -> None:
    """A team match of an elimination bracket must have a winner (event-structures: Stages,
    "elimination matches cannot end drawn"). Its boards cannot be drawn there; an odd number
    of boards cannot tie, and a tie of an even number goes to the Head Coaches' decider. So a
    team bracket needs a Head Coach or an odd number of boards: TeamError naming
    ``team.head_coach`` otherwise."""
    if not config.head_coach and config.players % 2 == 0:
        raise TeamError(
            "team.head_coach",
            f"a team bracket with {config.players} boards needs a Head Coach to decide a tied "
            f"team match: elimination matches cannot end drawn ({CITE_TEAMS})",
        )
