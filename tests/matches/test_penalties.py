"""Penalties: given from a match card by the event's judges and organisers, the catalogue's
suggestion upgraded on a repeat, game and match losses that change the result, a
disqualification that drops the player, the history across events, the log as CSV, the pages,
and the audit trail."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import Conflict, Forbidden
from matches import services
from matches.models import Match, MatchStatus, Penalty, ResultVersion
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tests.scenarios import client_for, published_round, running_event
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _published(players: int = 4, **fields: Any) -> tuple[Any, Any, Any, list[Match]]:
    scene = published_round(players, **fields)
    return scene.event, scene.organiser, scene.judge, scene.matches


def _give(user: Any, match: Match, registration: int, infraction: str, **extra: Any) -> Any:
    return client_for(user).post(
        f"/api/matches/{match.pk}/penalties/",
        {"registration": registration, "infraction": infraction, **extra},
        format="json",
    )


# --- the API ----------------------------------------------------------------------------------


def test_a_judge_gives_the_catalogues_penalty_and_it_is_audited() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    response = _give(judge, m, m.a_id, "slow_play", note="Took 4 minutes on one battle")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["penalty"] == "warning" and body["suggested"] == "warning"
    assert body["category"] == "tournament" and body["infraction_label"] == "Slow play"
    assert body["upgrade_suggested"] is False and body["applied_to_result"] is False
    assert body["registration"] == m.a_id and body["event"] == event.slug
    assert body["judge"] == judge.public_name
    entry = AuditEntry.objects.get(tournament=event, action="penalty.given")
    assert entry.registration_id == m.a_id
    assert entry.data["penalty"] == "warning" and entry.data["infraction"] == "slow_play"
    assert entry.data["note"] == "Took 4 minutes on one battle"
    m.refresh_from_db()
    assert m.status == MatchStatus.PENDING


def test_a_repeat_is_upgraded_and_a_game_loss_corrects_a_final_result() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    services.match_report(actor=judge, match=m, games=[1, 0, 0])  # a won, best of 1
    assert _give(judge, m, m.a_id, "slow_play").json()["penalty"] == "warning"
    second = _give(judge, m, m.a_id, "slow_play").json()
    assert second["suggested"] == "game_loss" and second["penalty"] == "game_loss"
    assert second["upgrade_suggested"] is True and second["repeat"] == 1
    assert second["applied_to_result"] is True
    m.refresh_from_db()
    assert m.status == MatchStatus.FINAL and m.games == (0, 1, 0)
    version = ResultVersion.objects.filter(match=m).order_by("-number").first()
    assert version is not None and version.change == "corrected"
    assert version.reason == "Penalty: game loss (Slow play)"
    assert AuditEntry.objects.filter(tournament=event, action="match.corrected").exists()
    audit = AuditEntry.objects.filter(action="penalty.given").order_by("-id").first()
    assert audit is not None
    assert audit.data["before"]["games"] == [1, 0, 0] and audit.data["after"]["games"] == [0, 1, 0]


def test_the_other_player_or_another_infraction_is_not_a_repeat() -> None:
    _, _, judge, matches = _published()
    m = matches[0]
    _give(judge, m, m.a_id, "slow_play")
    assert _give(judge, m, m.b_id, "slow_play").json()["penalty"] == "warning"
    assert _give(judge, m, m.a_id, "game_rule_violation").json()["penalty"] == "warning"


def test_a_game_loss_without_a_final_result_is_recorded_for_the_players_to_report() -> None:
    _, _, judge, matches = _published()
    m = matches[0]
    response = _give(judge, m, m.b_id, "tardiness")
    assert response.status_code == 201
    body = response.json()
    assert body["penalty"] == "game_loss" and body["applied_to_result"] is False
    assert "players report" in body["outcome"]
    m.refresh_from_db()
    assert m.status == MatchStatus.PENDING and m.games is None


def test_a_match_loss_enters_the_opponents_win() -> None:
    _, _, judge, matches = _published()
    m = matches[0]
    body = _give(judge, m, m.a_id, "outside_assistance").json()
    assert body["penalty"] == "match_loss" and body["applied_to_result"] is True
    m.refresh_from_db()
    assert m.status == MatchStatus.FINAL and m.games == (0, 1, 0)
    # The judge may choose another penalty than the suggestion; it is kept beside it.
    other = _give(judge, matches[1], matches[1].b_id, "slow_play", penalty="match_loss").json()
    assert other["penalty"] == "match_loss" and other["suggested"] == "warning"
    matches[1].refresh_from_db()
    assert matches[1].games == (1, 0, 0)


def test_a_game_loss_in_a_best_of_three_takes_one_game() -> None:
    _, _, judge, matches = _published(match_structure="bo3")
    m = matches[0]
    services.match_report(actor=judge, match=m, games=[2, 0, 0])
    _give(judge, m, m.a_id, "drawing_extra_cards")
    m.refresh_from_db()
    assert m.games == (2, 1, 0)
    _give(judge, m, m.a_id, "drawing_extra_cards", penalty="game_loss")
    m.refresh_from_db()
    assert m.games == (1, 2, 0)
    # Already lost: the result stands, the penalty is still recorded.
    third = _give(judge, m, m.a_id, "tardiness").json()
    assert third["applied_to_result"] is False and "stands" in third["outcome"]
    assert Penalty.objects.filter(match=m).count() == 3


def test_a_disqualification_is_for_organisers_and_drops_the_player() -> None:
    event, organiser, judge, matches = _published()
    m = matches[0]
    refused = _give(judge, m, m.a_id, "cheating")
    assert refused.status_code == 403
    assert not Penalty.objects.exists()
    assert not AuditEntry.objects.filter(action="penalty.given").exists()
    response = _give(organiser, m, m.a_id, "cheating", note="Marked cards")
    assert response.status_code == 201, response.content
    assert response.json()["penalty"] == "disqualification"
    m.refresh_from_db()
    assert m.games == (0, 1, 0) and m.status == MatchStatus.FINAL
    m.a.refresh_from_db()
    assert m.a.dropped and m.a.drop_round == 1
    actions = set(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert {"penalty.given", "registration.dropped", "match.entered"} <= actions


def test_who_may_give_penalties_and_bad_input() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    assert _give(m.a.player, m, m.b_id, "slow_play").status_code == 403
    assert _give(UserFactory(), m, m.b_id, "slow_play").status_code == 403
    other_event_judge = UserFactory()
    TournamentFactory().judges.add(other_event_judge)
    assert _give(other_event_judge, m, m.b_id, "slow_play").status_code == 403
    outsider = matches[1].a_id
    wrong = _give(judge, m, outsider, "slow_play")
    assert wrong.status_code == 400 and wrong.json()["field"] == "registration"
    unknown = _give(judge, m, m.a_id, "napping")
    assert unknown.status_code == 400 and unknown.json()["field"] == "infraction"
    bad = _give(judge, m, m.a_id, "slow_play", penalty="yellow_card")
    assert bad.status_code == 400 and "penalty" in bad.json()
    assert not Penalty.objects.exists()
    anonymous = client_for(None).post(
        f"/api/matches/{m.pk}/penalties/", {"registration": m.a_id, "infraction": "slow_play"}
    )
    assert anonymous.status_code == 403


def test_no_penalties_in_a_round_not_yet_published() -> None:
    event, organiser, _ = running_event(4)
    round_ = services.round_pair(actor=organiser, tournament=event)
    m = round_.matches.filter(b__isnull=False).select_related("round").first()
    assert m is not None
    with pytest.raises(Conflict):
        services.penalty_give(actor=organiser, match=m, registration=m.a_id, infraction="slow_play")
    with pytest.raises(Forbidden):
        services.penalty_give(
            actor=UserFactory(), match=m, registration=m.a_id, infraction="slow_play"
        )


def test_the_event_log_is_paginated_and_downloads_as_csv() -> None:
    event, organiser, judge, matches = _published()
    for m in matches:
        _give(judge, m, m.a_id, "slow_play", note="=HYPERLINK()")
    api = client_for(organiser)
    page = api.get(f"/api/events/{event.slug}/penalties/", {"limit": 1})
    assert page.status_code == 200
    assert page.json()["count"] == len(matches) and len(page.json()["results"]) == 1
    for url in (
        f"/api/events/{event.slug}/penalties/?format=csv",
        f"/api/events/{event.slug}/penalties.csv",
    ):
        response = api.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert len(rows) == len(matches)
        assert rows[0]["infraction"] == "slow_play" and rows[0]["penalty"] == "warning"
        assert rows[0]["note"] == "'=HYPERLINK()"  # never a formula in a spreadsheet
    player = client_for(matches[0].a.player)
    assert player.get(f"/api/events/{event.slug}/penalties/").status_code == 403
    assert player.get(f"/api/events/{event.slug}/penalties.csv").status_code == 403


def test_a_players_history_spans_their_events() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    person = m.a.player
    _give(judge, m, m.a_id, "slow_play")
    second_event, organiser2, _ = running_event(3)
    reg2 = RegistrationFactory(tournament=second_event, player=person)
    round2 = services.round_pair(actor=organiser2, tournament=second_event)
    services.round_publish(actor=organiser2, round_=round2)
    m2 = round2.matches.get(a=reg2) if round2.matches.filter(a=reg2).exists() else None
    m2 = m2 or round2.matches.get(b=reg2)
    services.penalty_give(
        actor=organiser2, match=m2, registration=reg2, infraction="looking_at_extra_cards"
    )
    history = client_for(organiser2).get(f"/api/registrations/{reg2.pk}/penalties/")
    assert history.status_code == 200
    # Only the events the viewer judges or organises: nothing from the first event...
    assert [row["event"] for row in history.json()["results"]] == [second_event.slug]
    # ...until they judge there too.
    event.judges.add(organiser2)
    history = client_for(organiser2).get(f"/api/registrations/{reg2.pk}/penalties/")
    events = [row["event"] for row in history.json()["results"]]
    assert events == [second_event.slug, event.slug]  # newest first, across events
    # The same infraction at another event is not a repeat here.
    assert _give(judge, m, m.a_id, "looking_at_extra_cards").json()["penalty"] == "warning"
    assert client_for(person).get(f"/api/registrations/{reg2.pk}/penalties/").status_code == 404


def test_the_catalogue_endpoint() -> None:
    body = client_for(UserFactory()).get("/api/penalties/catalogue/").json()
    assert [c["key"] for c in body["categories"]] == ["conduct", "gameplay", "tournament"]
    assert body["penalties"][0]["key"] == "caution"


# --- the pages --------------------------------------------------------------------------------


def _browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_match_staff_page_links_to_the_penalty_form() -> None:
    _, _, judge, matches = _published()
    m = matches[0]
    page = _browser(judge).get(reverse("match_staff", args=[m.pk]))
    assert reverse("match_penalty", args=[m.pk]) in page.content.decode()


def test_the_form_shows_existing_penalties_and_the_upgrade_before_saving() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    services.penalty_give(actor=judge, match=m, registration=m.a_id, infraction="slow_play")
    client = _browser(judge)
    url = reverse("match_penalty", args=[m.pk])
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Upgrade suggested" in html and "Slow play" in html
    check = client.post(
        url, {"registration": m.a_id, "infraction": "slow_play", "penalty": "", "step": "check"}
    )
    assert check.status_code == 200
    assert check.context["check"]["penalty"] == "game_loss"
    assert "upgrade suggested" in check.content.decode()
    assert Penalty.objects.count() == 1  # checking saves nothing
    saved = client.post(
        url,
        {"registration": m.a_id, "infraction": "slow_play", "note": "again", "step": "save"},
    )
    assert saved.status_code == 302
    assert Penalty.objects.filter(penalty="game_loss", note="again").exists()
    refused = client.post(
        url, {"registration": m.a_id, "infraction": "cheating", "step": "save"}, follow=True
    )
    assert "Only this event&#x27;s organisers may disqualify" in refused.content.decode()
    assert not Penalty.objects.filter(penalty="disqualification").exists()
    assert _browser(m.a.player).get(url).status_code == 403


def test_the_log_page_csv_and_history_page() -> None:
    event, organiser, judge, matches = _published()
    m = matches[0]
    services.penalty_give(actor=judge, match=m, registration=m.b_id, infraction="tardiness")
    client = _browser(organiser)
    log = client.get(reverse("event_penalties", args=[event.slug]))
    assert log.status_code == 200 and "Tardiness" in log.content.decode()
    download = client.get(reverse("event_penalties_csv", args=[event.slug]))
    assert download["Content-Type"].startswith("text/csv")
    assert "tardiness" in download.content.decode()
    history = client.get(reverse("player_penalties", args=[event.slug, m.b_id]))
    assert history.status_code == 200 and "Tardiness" in history.content.decode()
    other = RegistrationFactory(player=UserFactory())
    assert client.get(reverse("player_penalties", args=[event.slug, other.pk])).status_code == 404
    assert (
        _browser(m.a.player).get(reverse("event_penalties", args=[event.slug])).status_code == 403
    )


def test_a_game_loss_takes_one_game_of_the_stages_structure_not_the_events() -> None:
    """A best-of-1 event whose stage plays best of 3 (a top 8 in best of 3 after a best-of-1
    Swiss): the game loss takes one game of three, as the stage's matches are played."""
    from tournaments.models import Stage

    event, _, judge, matches = _published(match_structure="bo1")
    assert event.stages.filter(number=1).exists()
    Stage.objects.filter(tournament=event, number=1).update(match_structure="bo3")
    m = matches[0]
    services.match_report(actor=judge, match=m, games=[2, 0, 0])
    _give(judge, m, m.a_id, "drawing_extra_cards", penalty="game_loss")
    m.refresh_from_db()
    assert m.games == (2, 1, 0)
    _give(judge, m, m.a_id, "drawing_extra_cards", penalty="game_loss")
    m.refresh_from_db()
    assert m.games == (1, 2, 0)
