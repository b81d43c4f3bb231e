"""The Swiss standings core as it was before it was made fast (issue 19), kept as the reference.

A verbatim copy of ``tournaments/standings.py`` at commit 39597bc (validation, accumulation,
ranking), only its dataclasses imported from the module itself. test_standings_reference.py
checks that the fast core gives exactly these rows and raises exactly these errors; nothing
outside the tests imports this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tournaments.standings import (
    DEFAULT_TIEBREAKERS,
    TIEBREAKERS,
    MatchRecord,
    OpponentLine,
    Player,
    Scoring,
    StandingRow,
    StateError,
)

_KEY_DIGITS = 9


def _check_counts(value: object, size: int, path: str) -> None:
    if (
        not isinstance(value, tuple | list)
        or len(value) != size
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise StateError(path, f"must be {size} non-negative integers")


def validate_history(players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]]) -> None:
    """Raise :class:`StateError` unless players and rounds are consistent.

    Checks: unique non-empty ids; every match names known players, nobody twice in a round,
    nobody against himself, results and game counts well formed and not contradicting each
    other, and no match before a player's late-entry round.
    """
    known: dict[str, Player] = {}
    for i, player in enumerate(players):
        if not isinstance(player.id, str) or not player.id:
            raise StateError(f"players[{i}].id", "must be a non-empty string")
        if player.id in known:
            raise StateError(f"players[{i}].id", f"duplicate id {player.id!r}")
        if not isinstance(player.late_entry_round, int) or player.late_entry_round < 1:
            raise StateError(f"players[{i}].late_entry_round", "must be an integer >= 1")
        if player.fixed_table is not None and (
            not isinstance(player.fixed_table, int)
            or isinstance(player.fixed_table, bool)
            or player.fixed_table < 1
        ):
            raise StateError(f"players[{i}].fixed_table", "must be a positive integer or null")
        if player.bye_rounds:
            _check_bye_rounds(player, f"players[{i}].bye_rounds")
        if not isinstance(player.late_entry_losses, bool):
            raise StateError(f"players[{i}].late_entry_losses", "must be true or false")
        known[player.id] = player
    for r, matches in enumerate(rounds):
        seen: set[str] = set()
        for m, match in enumerate(matches):
            # fast checks first; the field path is only built for an error
            for side, pid in (("a", match.a), ("b", match.b)):
                if pid is None and side == "b":
                    continue
                entrant = known.get(pid)  # type: ignore[arg-type]
                if entrant is None or pid in seen or entrant.late_entry_round > r + 1:
                    path = f"rounds[{r}][{m}].{side}"
                    if entrant is None:
                        raise StateError(path, f"unknown player {pid!r}")
                    if pid in seen:
                        raise StateError(path, f"player {pid!r} is twice in round {r + 1}")
                    raise StateError(
                        path, f"player {pid!r} entered in round {entrant.late_entry_round}"
                    )
                seen.add(pid)  # type: ignore[arg-type]
            result = match.result
            if result not in ("a", "b", "draw") or (match.b is None and result != "a"):
                raise StateError(f"rounds[{r}][{m}].result", 'must be "a", "b" or "draw"')
            if match.b is None:
                games = match.games
                if not (
                    isinstance(games, tuple)
                    and _counts_ok(games, 3)
                    and games[0] >= games[1]  # a bye is a win
                ):
                    raise StateError(
                        f"rounds[{r}][{m}].games",
                        "a bye's games must be 3 non-negative integers, won not below lost",
                    )
                continue
            if not (_counts_ok(match.games, 3) and _counts_ok(match.penalty_game_losses, 2)):
                path = f"rounds[{r}][{m}]"
                _check_counts(match.games, 3, f"{path}.games")
                _check_counts(match.penalty_game_losses, 2, f"{path}.penalties")
            if match.battles is not None and not _counts_ok(match.battles, 2):
                _check_counts(match.battles, 2, f"rounds[{r}][{m}].battles")
            won_a, won_b, _ = match.effective_games()
            if (
                (result == "a" and won_b > won_a)
                or (result == "b" and won_a > won_b)
                or (result == "draw" and won_a != won_b)
            ):
                raise StateError(f"rounds[{r}][{m}].games", f"games contradict result {result!r}")


def _check_bye_rounds(player: Player, path: str) -> None:
    rounds = player.bye_rounds
    if not isinstance(rounds, tuple | list):
        raise StateError(path, "must be a list of round numbers")
    for k, r in enumerate(rounds):
        if not isinstance(r, int) or isinstance(r, bool) or r < 1:
            raise StateError(f"{path}[{k}]", "must be a round number >= 1")
        if r in rounds[:k]:
            raise StateError(f"{path}[{k}]", f"duplicate round {r}")
        if r < player.late_entry_round:
            raise StateError(
                f"{path}[{k}]",
                f"round {r} is before the late-entry round {player.late_entry_round}",
            )


def _counts_ok(value: object, size: int) -> bool:
    if type(value) is not tuple or len(value) != size:
        return False
    for v in value:  # noqa: SIM110 - a plain loop is faster, and this runs for every match
        if type(v) is not int or v < 0:
            return False
    return True


class _Acc:
    """Running totals for one player."""

    __slots__ = (
        "bye_rounds",
        "byes",
        "draws",
        "game_points",
        "games_drawn",
        "games_lost",
        "games_played",
        "games_won",
        "late_loss_rounds",
        "losses",
        "opp_ids",
        "opponents",
        "points",
        "rounds_played",
        "trophies_lost",
        "trophies_won",
        "wins",
    )

    def __init__(self) -> None:
        self.points = 0
        self.wins = self.losses = self.draws = self.byes = 0
        self.rounds_played = 0
        self.game_points = self.games_played = 0
        self.games_won = self.games_lost = self.games_drawn = 0
        self.trophies_won = self.trophies_lost = 0
        # (round, opponent, result, won, lost, drawn)
        self.opponents: list[tuple[int, str, str, int, int, int]] = []
        self.opp_ids: list[str] = []
        self.bye_rounds: list[int] = []
        self.late_loss_rounds: list[int] = []


def _accumulate(
    players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]], scoring: Scoring
) -> dict[str, _Acc]:
    acc = {p.id: _Acc() for p in players}
    gw, gd = scoring.game_win, scoring.game_draw
    # Late entries with losses: every finished round before the entry is a round lost, games
    # as a bye reversed, and nobody's opponent.
    lost_games, won_games = scoring.bye_games
    for p in players:
        if p.late_entry_losses and p.late_entry_round > 1:
            a = acc[p.id]
            for r in range(1, min(p.late_entry_round - 1, len(rounds)) + 1):
                a.rounds_played += 1
                a.points += scoring.loss
                a.losses += 1
                a.late_loss_rounds.append(r)
                a.games_won += won_games
                a.games_lost += lost_games
                a.games_played += won_games + lost_games
                a.game_points += gw * won_games
    for r, matches in enumerate(rounds, start=1):
        for match in matches:
            a = acc[match.a]
            a.rounds_played += 1
            if match.b is None:
                a.points += scoring.win
                a.wins += 1
                a.byes += 1
                a.bye_rounds.append(r)
                # a bye recording its own games is worth those, else the scoring's
                own = match.games if any(match.games) else None
                won, lost = (own[0], own[1]) if own else scoring.bye_games
                drawn = own[2] if own else 0
                a.games_won += won
                a.games_lost += lost
                a.games_drawn += drawn
                a.games_played += won + lost + drawn
                a.game_points += gw * won + scoring.game_draw * drawn
                continue
            b = acc[match.b]
            b.rounds_played += 1
            if match.result == "a":
                a.points += scoring.win
                b.points += scoring.loss
                a.wins += 1
                b.losses += 1
                ra, rb = "win", "loss"
            elif match.result == "b":
                b.points += scoring.win
                a.points += scoring.loss
                b.wins += 1
                a.losses += 1
                ra, rb = "loss", "win"
            else:
                a.points += scoring.draw
                b.points += scoring.draw
                a.draws += 1
                b.draws += 1
                ra = rb = "draw"
            won_a, won_b, drawn = match.effective_games()
            played = won_a + won_b + drawn
            a.games_won += won_a
            a.games_lost += won_b
            a.games_drawn += drawn
            b.games_won += won_b
            b.games_lost += won_a
            b.games_drawn += drawn
            a.games_played += played
            b.games_played += played
            a.game_points += gw * won_a + gd * drawn
            b.game_points += gw * won_b + gd * drawn
            if match.battles is not None:
                ta, tb = match.battles
                a.trophies_won += ta
                a.trophies_lost += tb
                b.trophies_won += tb
                b.trophies_lost += ta
            a.opponents.append((r, match.b, ra, won_a, won_b, drawn))
            b.opponents.append((r, match.a, rb, won_b, won_a, drawn))
            a.opp_ids.append(match.b)
            b.opp_ids.append(match.a)
    return acc


def compute_standings(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring | None = None,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    *,
    validate: bool = True,
) -> list[StandingRow]:
    """Rank every player (dropped ones included) by match points, then ``tiebreakers`` in order.

    ``tiebreakers`` is any order of "omw", "gw", "ogw", "battle_diff" and "h2h". Players tied
    on everything share a rank and are listed by id.
    """
    scoring = scoring or Scoring()
    if validate:
        scoring.validate()
        validate_history(players, rounds)
    order = _check_tiebreakers(tiebreakers)
    acc, groups, values, mw, mw_floored, gw_floored = _compute(players, rounds, scoring, order)
    gwp, omw, ogw = values["gw"], values["omw"], values["ogw"]

    dropped = {p.id: p.dropped for p in players}
    rows: list[StandingRow] = []
    position = 1
    for group in groups:
        for pid in sorted(group):
            a = acc[pid]
            rows.append(
                StandingRow(
                    rank=position,
                    player_id=pid,
                    points=a.points,
                    wins=a.wins,
                    losses=a.losses,
                    draws=a.draws,
                    byes=a.byes,
                    rounds_played=a.rounds_played,
                    dropped=dropped[pid],
                    match_win_pct=mw[pid],
                    game_win_pct=gwp[pid],
                    opponents_match_win_pct=omw[pid],
                    opponents_game_win_pct=ogw[pid],
                    battle_differential=a.trophies_won - a.trophies_lost,
                    games=(a.games_won, a.games_lost, a.games_drawn),
                    trophies=(a.trophies_won, a.trophies_lost),
                    # head-to-head has no per-player value: it shows in the order of the rows
                    tiebreakers=tuple(
                        (name, _tiebreaker_value(name, values, pid)) for name in order
                    ),
                    opponents=tuple(
                        OpponentLine(r, o, res, (w, lo, d), mw_floored[o], gw_floored[o])  # type: ignore[arg-type]
                        for (r, o, res, w, lo, d) in a.opponents
                    ),
                    bye_rounds=tuple(a.bye_rounds),
                    late_entry_loss_rounds=tuple(a.late_loss_rounds),
                )
            )
        position += len(group)
    return rows


def _tiebreaker_value(
    name: str, values: Mapping[str, Mapping[str, float]], pid: str
) -> float | int | None:
    """A tiebreaker's value for the row: None for head-to-head (it shows in the order), a whole
    number for the battle differential, a fraction for the percentages."""
    if name == "h2h":
        return None
    if name == "battle_diff":
        return int(values[name][pid])
    return values[name][pid]


def rank_summary(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring | None = None,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
) -> list[tuple[int, str, int, int]]:
    """(rank, player id, match points, byes) in standings order, without the breakdowns.

    The same ranking as :func:`compute_standings`, for the pairing; input not validated.
    """
    order = _check_tiebreakers(tiebreakers)
    acc, groups, *_ = _compute(players, rounds, scoring or Scoring(), order)
    out: list[tuple[int, str, int, int]] = []
    for group in groups:
        rank = len(out) + 1
        out.extend((rank, pid, acc[pid].points, acc[pid].byes) for pid in sorted(group))
    return out


def _compute(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring,
    order: Sequence[str],
) -> tuple[
    dict[str, _Acc],
    list[list[str]],
    dict[str, dict[str, float]],
    dict[str, float],
    dict[str, float],
    dict[str, float],
]:
    """Totals, full-tie groups in rank order, tiebreaker values and the (floored) MW%/GW%."""
    acc = _accumulate(players, rounds, scoring)
    floor = scoring.floor

    mw: dict[str, float] = {}
    gwp: dict[str, float] = {}
    mw_floored: dict[str, float] = {}
    gw_floored: dict[str, float] = {}
    for pid, a in acc.items():
        m = a.points / (scoring.win * a.rounds_played) if a.rounds_played else 0.0
        g = a.game_points / (scoring.game_win * a.games_played) if a.games_played else 0.0
        # MTR Appendix C: "If this number is lower than 0.33, use 0.33 instead", for the match-
        # win % and the game-win % alike, the player's own GW% tiebreaker included.
        mw[pid] = mw_floored[pid] = m if m > floor else floor
        gwp[pid] = gw_floored[pid] = g if g > floor else floor

    omw: dict[str, float] = {}
    ogw: dict[str, float] = {}
    mwf, gwf = mw_floored.__getitem__, gw_floored.__getitem__
    for pid, a in acc.items():
        opps = a.opp_ids
        if opps:
            omw[pid] = sum(map(mwf, opps)) / len(opps)
            ogw[pid] = sum(map(gwf, opps)) / len(opps)
        else:
            omw[pid] = ogw[pid] = floor

    values: dict[str, dict[str, float]] = {
        "omw": omw,
        "gw": gwp,
        "ogw": ogw,
        "battle_diff": {pid: float(a.trophies_won - a.trophies_lost) for pid, a in acc.items()},
    }
    groups = _rank_groups([p.id for p in players], acc, order, values)
    return acc, groups, values, mw, mw_floored, gw_floored


def _check_tiebreakers(tiebreakers: Sequence[str]) -> tuple[str, ...]:
    order = tuple(tiebreakers)
    for i, name in enumerate(order):
        if name not in TIEBREAKERS:
            raise StateError(f"tiebreakers[{i}]", f"unknown tiebreaker {name!r}")
        if name in order[:i]:
            raise StateError(f"tiebreakers[{i}]", f"duplicate tiebreaker {name!r}")
    return order


def _head_to_head(x: str, y: str, acc: Mapping[str, _Acc]) -> int:
    """Net match result of x against y: > 0 if x did better."""
    net = 0
    for _, opponent, result, *_ in acc[x].opponents:
        if opponent == y:
            net += 1 if result == "win" else -1 if result == "loss" else 0
    return net


def _rank_groups(
    ids: Sequence[str],
    acc: Mapping[str, _Acc],
    order: Sequence[str],
    values: Mapping[str, Mapping[str, float]],
) -> list[list[str]]:
    """Split players into ordered groups of full ties, refining one criterion at a time."""
    groups = _split(list(ids), lambda pid: float(acc[pid].points))
    for name in order:
        refined: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif name == "h2h":
                if len(group) == 2:
                    net = _head_to_head(group[0], group[1], acc)
                    if net > 0:
                        refined.extend([[group[0]], [group[1]]])
                        continue
                    if net < 0:
                        refined.extend([[group[1]], [group[0]]])
                        continue
                refined.append(group)
            else:
                table = values[name]
                refined.extend(_split(group, table.__getitem__))
        groups = refined
    return groups


def _split(group: list[str], value: Callable[[str], float]) -> list[list[str]]:
    """Sort ``group`` by ``value(pid)`` descending and cut it where the value changes."""
    keyed = sorted(((round(value(pid), _KEY_DIGITS), pid) for pid in group), key=lambda t: -t[0])
    out: list[list[str]] = []
    last: float | None = None
    for k, pid in keyed:
        if out and k == last:
            out[-1].append(pid)
        else:
            out.append([pid])
            last = k
    return out
