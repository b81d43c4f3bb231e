"""A team event through the archive (docs/archive.md, event-structures: Teams): its teams,
rosters, line-ups, team matches, boards and deciding game, and its stages and placings by team
key, exported, deleted, imported and exported again unchanged; an archive without the team
sections (written before them) still imports."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from eventdata import archive
from eventdata.archive import ArchiveError
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from matches.models import Lineup, Match, TeamMatch
from tests.matches.team_stage_support import StagedTeamEvent
from tests.tournaments.archive_scenes import delete_event
from tournaments.models import Team, TeamMember, Tournament

pytestmark = pytest.mark.django_db


def _tie_the_first(tm: dict[str, Any]) -> list[list[int]]:
    won, lost = [2, 0, 0], [0, 2, 0]
    if tm["table"] == 1 and tm["a"] == min(tm["a"], tm["b"]):
        return [won, won, lost, lost]
    return [won, won, won, lost]


def _played_team_event() -> StagedTeamEvent:
    ev = StagedTeamEvent([{"name": "Round robin", "kind": "round_robin"}], team_count=3)
    first = ev.play_round(_tie_the_first)
    tied = next(tm for tm in first["matches"] if tm["decider"] is not None)
    ev.report(tied["decider"]["id"], [1, 0, 0])
    assert ev.round(first["number"])["status"] == "finished"
    ev.play_round(lambda tm: [[2, 0, 0], [2, 0, 0], [2, 0, 0], [0, 2, 0]])
    return ev


def test_a_team_event_survives_export_delete_import_export_unchanged() -> None:
    ev = _played_team_event()
    event = Tournament.objects.get(slug=ev.slug)
    first = event_archive(event)
    assert [t["key"] for t in first["teams"]] == ["T1", "T2", "T3"]
    assert all(len(t["members"]) == 4 and t["head_coach"] in t["members"] for t in first["teams"])
    assert first["stages"][0]["players"] == ["T1", "T2", "T3"]
    assert len(first["team_matches"]) == 2  # two rounds: one team match, one team sits out
    assert len(first["lineups"]) == 4
    deciders = [m for m in first["matches"] if m["is_decider"]]
    assert len(deciders) == 1 and deciders[0]["team_match"].startswith("TM")
    assert all(m["team_match"] for m in first["matches"])
    assert first["placings"]["rows"][0]["team"] in {"T1", "T2", "T3"}
    counts = (
        Team.objects.filter(tournament=event).count(),
        TeamMember.objects.filter(team__tournament=event).count(),
        TeamMatch.objects.filter(round__tournament=event).count(),
        Lineup.objects.filter(team_match__round__tournament=event).count(),
        Match.objects.filter(round__tournament=event).count(),
    )
    text = archive.dumps(first)
    delete_event(event)

    report = archive_import(text)
    assert report.counts["teams"]["created"] == 3
    assert report.counts["team_members"]["created"] == 12
    restored = Tournament.objects.get(slug=ev.slug)
    assert (
        Team.objects.filter(tournament=restored).count(),
        TeamMember.objects.filter(team__tournament=restored).count(),
        TeamMatch.objects.filter(round__tournament=restored).count(),
        Lineup.objects.filter(team_match__round__tournament=restored).count(),
        Match.objects.filter(round__tournament=restored).count(),
    ) == counts
    decider = Match.objects.get(round__tournament=restored, is_decider=True)
    assert decider.team_match is not None and decider.team_match.decider == "a"
    assert archive.comparable(event_archive(restored)) == archive.comparable(first)
    assert not archive_import(text).changed


def test_an_archive_without_team_sections_still_parses_and_bad_team_keys_are_named() -> None:
    ev = _played_team_event()
    doc = event_archive(Tournament.objects.get(slug=ev.slug))
    old = copy.deepcopy(doc)
    for section in ("teams", "team_matches", "lineups"):
        del old[section]
    for m in old["matches"]:
        m.pop("team_match")
    old["stages"] = []
    old["placings"] = None
    parsed = archive.parse(old)
    assert parsed["teams"] == [] and parsed["lineups"] == []

    bad = copy.deepcopy(doc)
    bad["team_matches"][0]["team_a"] = "T99"
    with pytest.raises(ArchiveError) as caught:
        archive.parse(bad)
    assert caught.value.where == "team_matches[0]"
    bad = copy.deepcopy(doc)
    bad["lineups"][0]["players"][0] = "R999"
    with pytest.raises(ArchiveError) as caught:
        archive.parse(bad)
    assert caught.value.where == "lineups[0].players[0]"
