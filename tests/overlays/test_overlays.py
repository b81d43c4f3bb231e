"""Stream overlays (docs/overlays.md): marking feature matches, the opt-out, the JSON feeds,
the pages and the round control's section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import Conflict, Forbidden, ServiceError
from matches import services as match_services
from matches.models import Match, Round
from overlays import feeds, services
from overlays.models import FeatureMatch
from overlays.selectors import feature_matches, live_stamp
from tests.factories import TournamentFactory, UserFactory, logged_in
from tests.scenarios import client_for, finish_round, pair_and_publish, running_event
from tournaments.models import AuditEntry
from tournaments.status import EventStatus

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _published(players: int = 6) -> tuple[Any, Any, Round, list[Match]]:
    event, organiser, _regs = running_event(players)
    round_ = pair_and_publish(event, organiser)
    matches = list(
        round_.matches.filter(b__isnull=False)
        .select_related("round__tournament", "a__player", "b__player")
        .order_by("table")
    )
    return event, organiser, round_, matches


def test_the_organiser_marks_a_feature_match_in_the_first_free_slot_audited() -> None:
    event, organiser, round_, matches = _published()
    first = services.feature_mark(actor=organiser, match=matches[0])
    second = services.feature_mark(actor=organiser, match=matches[1])
    assert (first.slot, second.slot) == (1, 2)
    assert [f.match_id for f in feature_matches(event)] == [matches[0].pk, matches[1].pk]
    entry = AuditEntry.objects.get(action="match.featured", target=f"match:{matches[0].pk}")
    assert entry.actor == organiser and entry.data["slot"] == 1
    # marking again changes nothing; unmarking frees the slot, audited
    assert services.feature_mark(actor=organiser, match=matches[0]).pk == first.pk
    services.feature_unmark(actor=organiser, match=matches[0])
    assert not FeatureMatch.objects.filter(match=matches[0]).exists()
    assert AuditEntry.objects.filter(action="match.unfeatured").count() == 1


def test_a_taken_slot_is_a_409_naming_the_slot() -> None:
    _event, organiser, _round, matches = _published()
    services.feature_mark(actor=organiser, match=matches[0], slot=3)
    with pytest.raises(Conflict) as refused:
        services.feature_mark(actor=organiser, match=matches[1], slot=3)
    assert refused.value.field == "slot"


def test_a_player_who_opted_out_cannot_be_marked_409_naming_them() -> None:
    _event, organiser, _round, matches = _published()
    match = matches[0]
    player = match.b.player
    player.stream_opt_out = True
    player.save()
    match.b.player.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        services.feature_mark(actor=organiser, match=match)
    assert refused.value.field == "b"
    assert refused.value.code == "stream_opt_out"
    assert match.b.name in refused.value.message
    assert not FeatureMatch.objects.exists()


def test_only_organisers_mark_and_a_bye_is_never_featured() -> None:
    event, organiser, round_, matches = _published(5)
    with pytest.raises(Forbidden):
        services.feature_mark(actor=matches[0].a.player, match=matches[0])
    bye = round_.matches.get(b__isnull=True)
    with pytest.raises(ServiceError) as refused:
        services.feature_mark(actor=organiser, match=bye)
    assert refused.value.field == "match"


def test_the_api_marks_refuses_an_opted_out_player_and_unmarks() -> None:
    _event, organiser, _round, matches = _published()
    api = client_for(organiser)
    url = reverse("api-match-feature", kwargs={"pk": matches[0].pk})
    answer = api.post(url, {"slot": 2}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["slot"] == 2 and answer.json()["table"] == matches[0].table
    bad = api.post(url, {"slot": 99}, format="json")
    assert bad.status_code == 400 and "slot" in bad.json()
    other = matches[1]
    other.a.player.stream_opt_out = True
    other.a.player.save()
    refused = api.post(reverse("api-match-feature", kwargs={"pk": other.pk}), {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["field"] == "a"
    assert client_for(other.a.player).post(url, {}, format="json").status_code == 403
    assert api.delete(url).status_code == 204
    assert not FeatureMatch.objects.exists()


def test_the_feature_feed_follows_the_slot_and_shows_the_final_result() -> None:
    event, organiser, round_, matches = _published()
    match = matches[0]
    services.feature_mark(actor=organiser, match=match, slot=1)
    data = feeds.feature_feed(event, 1)
    assert data["match"]["players"]["a"]["name"] == match.a.name
    assert data["match"]["games"] is None and data["match"]["status"] == "playing"
    assert data["round"]["number"] == round_.number
    before = live_stamp(event.pk)
    match_services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    assert live_stamp(event.pk) != before
    data = feeds.feature_feed(event, 1)
    assert data["match"]["games"] == [1, 0, 0]
    assert data["match"]["game_score"] == {"a": 1, "b": 0}
    assert data["match"]["status"] == "final"
    assert feeds.feature_feed(event, 2)["match"] is None


def test_a_feature_match_of_a_player_who_opts_out_later_is_not_shown() -> None:
    event, organiser, _round, matches = _published()
    services.feature_mark(actor=organiser, match=matches[0], slot=1)
    player = matches[0].a.player
    player.stream_opt_out = True
    player.save()
    assert feeds.feature_feed(event, 1)["match"] is None


def test_the_tickers_and_bracket_feeds() -> None:
    event, organiser, round_, matches = _published(4)
    pairings = feeds.pairings_feed(event)
    assert pairings["count"] == 2
    assert {row["a"] for row in pairings["rows"]} == {m.a.name for m in matches}
    assert feeds.standings_feed(event)["rows"] == []
    finish_round(round_, organiser)
    standings = feeds.standings_feed(event, 3)
    assert standings["after_round"] == round_.number
    assert len(standings["rows"]) == 3 and standings["rows"][0]["rank"] == 1
    assert feeds.bracket_feed(event)["rounds"] == []


def test_the_feeds_answer_the_public_with_an_etag_and_304() -> None:
    event, organiser, round_, matches = _published()
    client = Client()
    url = reverse("api-overlay-pairings", kwargs={"slug": event.slug})
    first = client.get(url)
    assert first.status_code == 200
    assert first.json()["kind"] == "pairings"
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    match_services.match_report(actor=organiser, match=matches[0], games=[1, 0, 0])
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert (
        client.get(
            reverse("api-overlay-feature", kwargs={"slug": event.slug, "slot": 9})
        ).status_code
        == 404
    )


def test_an_event_the_public_cannot_see_has_no_overlays() -> None:
    draft = TournamentFactory(status=EventStatus.DRAFT.value)
    client = Client()
    assert (
        client.get(reverse("api-overlay-standings", kwargs={"slug": draft.slug})).status_code == 404
    )
    assert client.get(reverse("overlay-standings", kwargs={"slug": draft.slug})).status_code == 404


def test_the_overlay_pages_are_transparent_static_script_pages() -> None:
    event, organiser, round_, matches = _published()
    services.feature_mark(actor=organiser, match=matches[0], slot=1)
    client = Client()
    page = client.get(reverse("overlay-feature", kwargs={"slug": event.slug, "slot": 1}))
    html = page.content.decode()
    assert page.status_code == 200
    assert matches[0].a.name in html and matches[0].b.name in html
    assert "js/overlay.js" in html and "css/overlay.css" in html
    assert 'data-stream="/api/events/' in html and 'data-overlay="feature"' in html
    for name in ("overlay-standings", "overlay-pairings", "overlay-bracket", "overlay-index"):
        answer = client.get(reverse(name, kwargs={"slug": event.slug}))
        assert answer.status_code == 200, name
    pairings = client.get(reverse("overlay-pairings", kwargs={"slug": event.slug})).content.decode()
    assert f"Table {matches[0].table}: {matches[0].a.name} vs {matches[0].b.name}" in pairings


def test_the_round_control_offers_the_feature_form_and_it_marks_a_table() -> None:
    event, organiser, round_, matches = _published()
    client = logged_in(organiser)
    control = client.get(reverse("round_control", kwargs={"slug": event.slug}))
    assert "Put on stream" in control.content.decode()
    url = reverse("overlay-feature-form", kwargs={"slug": event.slug})
    answer = client.post(url, {"table": matches[1].table, "slot": "2"}, follow=True)
    assert FeatureMatch.objects.get(match=matches[1]).slot == 2
    assert f"Table {matches[1].table} is a feature match." in answer.content.decode()
    matches[2].a.player.stream_opt_out = True
    matches[2].a.player.save()
    refused = client.post(url, {"table": matches[2].table}, follow=True)
    assert "chose not to be streamed" in refused.content.decode()
    client.post(url, {"unmark": matches[1].pk})
    assert not FeatureMatch.objects.exists()
    # a player sees no section and cannot mark
    player = logged_in(matches[0].a.player)
    assert player.post(url, {"table": matches[0].table}).status_code == 403
    assert not FeatureMatch.objects.exists()


def test_a_player_opts_out_on_their_profile() -> None:
    user = UserFactory()
    client = logged_in(user)
    form = client.get(reverse("profile")).content.decode()
    assert 'name="stream_opt_out"' in form
    client.post(
        reverse("profile"),
        {"display_name": "Ada", "email": user.email, "stream_opt_out": "on"},
    )
    user.refresh_from_db()
    assert user.stream_opt_out is True
    me = client_for(user).get(reverse("api-me")).json()
    assert me["stream_opt_out"] is True


def test_pages_open_the_stream_on_its_own_origin_when_configured(settings: Any) -> None:
    settings.OVERLAY_STREAM_ORIGIN = "https://live.example.org"
    event, _organiser, _round, _matches = _published()
    page = Client().get(reverse("overlay-standings", kwargs={"slug": event.slug}))
    assert (
        f'data-stream="https://live.example.org/api/events/{event.slug}/overlays/standings/stream/'
        in page.content.decode()
    )
    settings.OVERLAY_SSE = False
    page = Client().get(reverse("overlay-standings", kwargs={"slug": event.slug}))
    assert 'data-stream=""' in page.content.decode()


def test_compose_runs_the_stream_under_uvicorn() -> None:
    from pathlib import Path

    import yaml

    compose = yaml.safe_load((Path(__file__).parents[2] / "docker-compose.yml").read_text())
    live = compose["services"]["live"]
    assert "uvicorn config.asgi:application" in live["command"] and "healthcheck" in live


def test_the_feeds_have_their_own_rate_per_address_not_the_anonymous_one(settings: Any) -> None:
    event, _organiser, _round, _matches = _published()
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {
        **rest["DEFAULT_THROTTLE_RATES"],
        "anon": "1/min",
        "overlay": "3/min",
    }
    settings.REST_FRAMEWORK = rest
    client = Client(REMOTE_ADDR="192.0.2.77")
    url = reverse("api-overlay-bracket", kwargs={"slug": event.slug})
    answers = [client.get(url).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


@pytest.mark.parametrize("text", ["#ffffff", "#cfd8e3", "#ffd866", "#7ee787"])
def test_overlay_text_reads_on_its_panel_even_over_white_video(text: str) -> None:
    """The panel is rgba(10, 16, 28, .88): over the brightest video it is #262b34 at worst."""
    from tests.support import contrast

    css = (Path(__file__).parents[2] / "static" / "css" / "overlay.css").read_text()
    assert text in css and "rgba(10, 16, 28, .88)" in css
    worst = "#" + "".join(f"{round(c * 0.88 + 255 * 0.12):02x}" for c in (10, 16, 28))
    assert contrast(text, worst) >= 4.5
