"""An event with everything an archive holds, built through the services (the archive tests and
the file-storage tests start from it)."""

from __future__ import annotations

from typing import Any

from matches import services as ms
from matches.models import JudgeCall, Match, Penalty, Round
from overlays.services import feature_mark
from tests.factories import UserFactory
from tests.scenarios import running_event
from tournaments import services as ts
from tournaments.models import AuditEntry, Registration, Tournament

NASTY_NAMES = ('=HYPERLINK("http://x")', "+1+1", "-2-2", "@SUM(A1)", "\tTab", "\rCR")


def play_round(event: Tournament, organiser: Any, number: int) -> Round:
    round_ = ms.round_pair(actor=organiser, tournament=event)
    ms.round_publish(actor=organiser, round_=round_)
    for i, m in enumerate(Match.objects.filter(round=round_, b__isnull=False).order_by("id")):
        games = [1, 0, 0] if i % 2 == 0 else [0, 1, 0]
        battles = [[4, 2]] if games[0] else [[1, 4]]
        if m.a.player is None or m.b.player is None:  # a walk-in: staff enter the result
            ms.match_report(actor=organiser, match=m, games=games, battles=battles)
            continue
        ms.match_report(actor=m.a.player, match=m, games=games, battles=battles)
        m.refresh_from_db()
        ms.match_report(actor=m.b.player, match=m, games=games, battles=battles)
    round_.refresh_from_db()
    return round_


def build_event(players: int = 9) -> tuple[Tournament, Any, list[Registration]]:
    """A running event built through the services: players (one with a formula-like name, a
    walk-in), a judge, a decklist, two finished rounds with a correction, a call with a ruling,
    a penalty, and a third round published with one result in and on stream (feature 2)."""
    event, organiser, regs = running_event(players, planned_rounds=4, top_cut_size=0)
    regs[0].player.display_name = NASTY_NAMES[0]
    regs[0].player.save()
    judge = UserFactory()
    ts.event_set_judge(actor=organiser, tournament=event, user=judge, assigned=True)
    walk_in = ts.registration_add_walk_in(actor=organiser, tournament=event, name="Walk In Wanda")
    regs.append(walk_in)
    submit_decklist(regs[1])
    play_round(event, organiser, 1)
    # A correction of round 1 by staff, with a reason.
    m = Match.objects.filter(round__number=1, round__tournament=event, b__isnull=False).first()
    assert m is not None
    ms.match_report(actor=organiser, match=m, games=[0, 1, 0], reason="slip read backwards")
    play_round(event, organiser, 2)
    round3 = ms.round_pair(actor=organiser, tournament=event)
    ms.round_publish(actor=organiser, round_=round3)
    m3 = (
        Match.objects.filter(round=round3, b__player__isnull=False, a__player__isnull=False)
        .order_by("id")
        .first()
    )
    assert m3 is not None
    ms.match_report(actor=m3.a.player, match=m3, games=[1, 0, 0])
    call, _joined = ms.call_open(actor=m3.b.player, match=m3, question="Was that legal?")
    ms.call_claim(actor=judge, call=call)
    ms.call_ruling(actor=judge, call=call, text="Legal play.", citations=[])
    ms.penalty_give(actor=judge, match=m3, registration=m3.b_id, infraction="slow_play")
    feature_mark(actor=organiser, match=m3, slot=2)  # on the stream overlays
    ms.standings_snapshot(event)
    event.refresh_from_db()
    return event, organiser, regs


def submit_decklist(reg: Registration) -> None:
    from decks.catalog import catalog_for
    from decks.services import decklist_submit, demo_catalog_load
    from engine.games import get_game

    demo_catalog_load(game="boba")
    rules = get_game("boba").deck_rules()
    catalog = catalog_for("boba")
    text = rules.export(rules.sample(catalog, rules.resolve_format("playmaker"), 7), catalog)
    organiser = reg.tournament.organisers.first()
    decklist_submit(actor=organiser, registration=reg, source=text)


def delete_event(event: Tournament) -> None:
    Penalty.objects.filter(tournament=event).delete()
    JudgeCall.objects.filter(tournament=event).delete()
    Round.objects.filter(tournament=event).delete()
    AuditEntry.objects.filter(tournament=event).delete()
    Tournament.objects.filter(pk=event.pk).delete()
