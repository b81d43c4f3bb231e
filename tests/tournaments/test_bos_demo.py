"""The demo's event of every other game (BOS): the demo accounts, legal and varied lists from
the game's demo catalog, its recommended clock per game, best of 3, and one finished Swiss
round whose results carry the per-game details; loading twice changes nothing and the
default game's demo stays as it was."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from decks.models import DecklistVersion
from engine.games import DEFAULT_GAME, GAMES, get_game
from eventdata.demo import (
    DEMO_EVENT_SLUG,
    GAME_DEMO_PLAYERS,
    demo_games,
    game_demo_slug,
)
from matches import services as rounds
from matches.models import Match, MatchStatus, Round, StandingsSnapshot
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def _load() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def loaded(demo_loaded: str) -> str:
    """The demo, loaded once for the module (tests/conftest.py): the tests only read it."""
    return demo_loaded


def test_every_game_but_the_default_has_a_demo_event() -> None:
    assert {g.key for g in demo_games()} == set(GAMES) - {DEFAULT_GAME}
    assert "bos" in {g.key for g in demo_games()}


def test_the_bos_demo_event_settings_come_from_its_plugin(loaded: str) -> None:
    game = get_game("bos")
    event = Tournament.objects.get(slug=game_demo_slug(game))
    assert f"/events/{event.slug}/" in loaded
    assert (event.game, event.mode, event.format_key, event.match_structure) == (
        "bos",
        "competitive",
        "competitive",
        "bo3",
    )
    assert event.clock_mode == "per_game"
    assert game.clock is not None
    assert (event.clock_minutes, event.clock_delay_seconds) == (
        game.clock.minutes_per_player,
        game.clock.delay_seconds,
    )
    assert [u.username for u in event.organisers.all()] == ["organiser"]
    assert [u.username for u in event.judges.all()] == ["judge"]
    players = event.registrations.filter(status="registered")
    assert players.count() == GAME_DEMO_PLAYERS
    assert {r.player.username for r in players} == {
        f"player{i:02d}" for i in range(1, GAME_DEMO_PLAYERS + 1)
    }


def test_every_bos_demo_player_has_a_legal_list_and_the_lists_vary(loaded: str) -> None:
    event = Tournament.objects.get(slug="battledesk-demo-bos")
    versions = DecklistVersion.objects.filter(decklist__registration__tournament=event)
    assert versions.count() == GAME_DEMO_PLAYERS
    assert all(v.legal for v in versions)
    assert all(v.report["violations"] == [] for v in versions)
    assert len({v.text.split("\n", 1)[1] for v in versions}) == GAME_DEMO_PLAYERS
    wizards = {frozenset(i["name"] for i in v.data["wizards"]) for v in versions}
    assert len(wizards) >= 2
    # From the BOS demo catalog (invented cards), never another game's.
    assert all(i["id"].startswith("demo:bos:") for v in versions for i in v.data["summons"])


def test_the_bos_demo_round_is_finished_with_game_details_and_standings(loaded: str) -> None:
    event = Tournament.objects.get(slug="battledesk-demo-bos")
    assert event.status == "running"
    assert list(Round.objects.filter(tournament=event).values_list("number", "status")) == [
        (1, "finished")
    ]
    matches = list(Match.objects.filter(round__tournament=event, b__isnull=False))
    assert len(matches) == GAME_DEMO_PLAYERS // 2
    for match in matches:
        assert match.status == MatchStatus.FINAL
        a, b, drawn = match.games
        assert drawn == 0 and max(a, b) == 2 and min(a, b) in (0, 1)
        assert len(match.game_details) == a + b
        assert [g["winner"] for g in match.game_details].count("a") == a
        for game in match.game_details:
            assert game["bids"][0] != game["bids"][1]
            assert game["chose_first"] == ("a" if game["bids"][0] > game["bids"][1] else "b")
    # Players reported and confirmed; the judge entered one result from a slip.
    assert AuditEntry.objects.filter(tournament=event, action__startswith="match.").exists()
    snapshot = StandingsSnapshot.objects.get(round__tournament=event, round__number=1)
    assert snapshot is not None
    standings = rounds.standings_snapshot(event, 1).rows
    assert len(standings) == GAME_DEMO_PLAYERS
    assert sorted((r["points"] for r in standings), reverse=True)[: GAME_DEMO_PLAYERS // 2] == [
        3
    ] * (GAME_DEMO_PLAYERS // 2)


def test_the_bos_demo_pages_render(loaded: str, client) -> None:  # type: ignore[no-untyped-def]
    event = Tournament.objects.get(slug="battledesk-demo-bos")
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="player01"))
    assert client.get(f"/events/{event.slug}/").status_code == 200
    version = DecklistVersion.objects.filter(
        decklist__registration__tournament=event,
        decklist__registration__player__username="player01",
    ).get()
    html = client.get(f"/decklists/{version.pk}/").content.decode()
    assert "Reserves" in html and "Vim cost curve" in html


def test_the_default_games_demo_is_unchanged_beside_it(loaded: str) -> None:
    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    assert (event.game, event.mode, event.format_key, event.match_structure) == (
        DEFAULT_GAME,
        "playmaker",
        "playmaker",
        "bo1",
    )
    assert event.clock_mode == "off"
    assert Round.objects.filter(tournament=event).count() == 4


def test_loading_twice_leaves_the_bos_demo_as_it_was(loaded: str) -> None:
    event = Tournament.objects.get(slug="battledesk-demo-bos")
    before = list(Match.objects.filter(round__tournament=event).order_by("pk").values())
    versions = DecklistVersion.objects.filter(decklist__registration__tournament=event).count()
    out = _load()
    assert "already loaded" in out
    assert list(Match.objects.filter(round__tournament=event).order_by("pk").values()) == before
    assert (
        DecklistVersion.objects.filter(decklist__registration__tournament=event).count() == versions
    )
    assert Tournament.objects.filter(slug="battledesk-demo-bos").count() == 1
