"""The judge desk in a real browser (Debian's chromium through Playwright's Python package, as
tests/test_browser.py; nothing downloads a browser).

A Substitution-mode event, round 1 published, and one table whose players report different
results: the dispute reaches the judges' queue. A judge at a laptop claims it, builds the game
record move by move on the adjudication page (the setup, then only the legal actions the page
offers), types the player's illegal second substitution into the record's JSON, sees the engine
flag it with CR 4.2.2, and rules with a result change on the call page. The player then reads
the ruling and the new result on their phone.

Without chromium the test skips locally and fails in CI (REQUIRE_SERVICES=1), like
tests/test_browser.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from decks.models import Card
from matches import services
from matches.models import CallKind, CallStatus, JudgeCall, MatchStatus, RoundStatus, Ruling
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.support import PHONE
from tournaments.status import EventStatus

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

DESK = {"viewport": {"width": 1280, "height": 900}}  # the judge's laptop at the desk
NAMES = ["Ada Lovelace", "Brian Kernighan", "Carol Shaw", "Dennis Ritchie"]
SUBSTITUTION_FORMAT = "substitution"  # engine/boba/deckbuilding/formats.py: game mode substitution
RULING = (
    "The player on seat B substituted a second time in battle 3. CR 4.2.2 allows one "
    "substitution per player per battle: the game goes to the player on seat A, 1-0."
)


def hero_cards() -> None:
    """The event's catalog: the heroes both players' lineups, benches and decks hold.

    Battle 1: Alpha Striker 1 (120) beats Bravo Guard 1 (100), so A keeps honors. Battle 2: B
    substitutes Bravo Reserve 1 (160) and wins, so B has honors in battle 3.
    """

    def hero(external_id: str, name: str, power: int, weapon: str) -> None:
        Card.objects.create(
            game="boba",
            external_id=external_id,
            kind="hero",
            name=name,
            power=power,
            weapon=weapon,
            parallel="Base",
        )

    for i in range(1, 8):
        hero(f"alpha-{i}", f"Alpha Striker {i}", 120 if i == 1 else 100, "Fire")
        hero(f"bravo-{i}", f"Bravo Guard {i}", 100, "Ice")
    for i in range(1, 5):
        hero(f"alpha-bench-{i}", f"Alpha Reserve {i}", 150, "Steel")
        hero(f"bravo-bench-{i}", f"Bravo Reserve {i}", 160, "Steel")
    for i in range(1, 3):
        hero(f"bravo-deck-{i}", f"Bravo Recruit {i}", 130, "Glow")


def test_a_judge_rules_on_an_illegal_second_substitution_and_the_player_sees_it(
    live_server: Any, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    # A running Substitution event with a judge; round 1 paired and published.
    organiser = OrganiserFactory()
    event = TournamentFactory(
        name="Substitution Cup",
        organisers=[organiser],
        status=EventStatus.RUNNING.value,
        mode="substitution",
        format_key=SUBSTITUTION_FORMAT,
    )
    judge = UserFactory(username="judy", display_name="Judy Judge")
    event.judges.add(judge)
    for name in NAMES:
        RegistrationFactory(
            tournament=event,
            player=UserFactory(username=name.split()[0].lower(), display_name=name),
        )
    round_ = services.round_pair(actor=organiser, tournament=event)
    round_ = services.round_publish(actor=organiser, round_=round_)
    assert round_.status == RoundStatus.PUBLISHED
    hero_cards()

    # Both players of one table claim the win: the dispute opens a call.
    match = (
        round_.matches.filter(b__isnull=False)
        .select_related("a__player", "b__player")
        .order_by("table")
        .first()
    )
    assert match is not None and match.b is not None
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    services.match_report(actor=match.b.player, match=match, games=[0, 1, 0])
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED and match.games is None
    call = JudgeCall.objects.get(match=match)
    assert call.kind == CallKind.DISPUTE and call.status == CallStatus.OPEN
    a_name, b_name, table = match.a.name, match.b.name, match.table

    # 1. The judge finds the dispute in the queue and claims it.
    desk = open_page(judge, DESK)
    desk.goto(f"{live_server.url}/judge/")
    row = desk.locator(f"#call-{call.pk}")
    expect(row).to_contain_text("Disputed result")
    expect(row).to_contain_text(f"{a_name} v {b_name}")
    expect(row).to_contain_text("The players reported different results.")
    row.get_by_role("button", name=f"Claim table {table}").click()

    # 2. The claim opens the call: held by them, both reports shown.
    desk.wait_for_url(f"**/judge/calls/{call.pk}/")
    expect(desk.get_by_text(f"You hold the call at table {table}.")).to_be_visible()
    summary = desk.locator("section.call-summary")
    expect(summary.locator("dd").filter(has_text=re.compile(r"^you$"))).to_have_count(1)
    reports = desk.locator("ul.reports-disputed > li")
    expect(reports).to_have_count(2)
    expect(reports.filter(has_text=f"{a_name} wins")).to_have_count(1)
    expect(reports.filter(has_text=f"{b_name} wins")).to_have_count(1)
    call.refresh_from_db()
    assert call.status == CallStatus.CLAIMED and call.holder_id == judge.pk

    # 3. To the adjudication page, from the ruling form's "Game record" part.
    ruling_form = desk.locator("form.ruling-form")
    ruling_form.get_by_text("Game record (optional)").click()
    ruling_form.get_by_role(
        "link", name="Build the record move by move on the adjudication page"
    ).click()
    desk.wait_for_url(f"**/judge/calls/{call.pk}/adjudicate/")
    expect(desk.get_by_role("heading", level=1)).to_have_text(
        f"Adjudicate · table {table}, round 1"
    )

    # 4. The setup: seven battle heroes and four bench heroes each, ten hot dogs, A has honors.
    expect(desk.get_by_label("Mode")).to_have_value("substitution")  # the event's mode
    expect(desk.get_by_label("Honors in battle 1")).to_have_value("A")
    for seat, lineup, bench in (("A", "Alpha Striker", "alpha-bench"), ("B", "Bravo Guard", "bravo-bench")):  # fmt: skip
        player = desk.get_by_role("group", name=f"Player {seat}")
        expect(player.get_by_label("Name", exact=True)).to_have_value(
            a_name if seat == "A" else b_name
        )
        for i in range(1, 8):
            player.get_by_label(f"Battle {i} hero", exact=True).fill(f"{lineup} {i}")  # by name
        for i in range(1, 5):
            player.get_by_label(f"Bench hero {i}", exact=True).fill(f"{bench}-{i}")  # by id
        player.get_by_label("Hot dogs", exact=True).fill("10")
    desk.get_by_role("button", name="Start the record from this setup").click()

    builder = desk.locator("section.adj-builder")
    expect(builder.get_by_role("heading", name="Add the next action")).to_be_visible()
    actions = desk.locator("ol.adj-actions > li")
    expect(actions).to_have_count(0)
    record = json.loads(desk.get_by_label(re.compile(r"^Record JSON")).input_value())
    assert record["mode"] == "substitution" and record["honors"] == "A"
    assert record["setup"]["A"]["battles"][0] == "A:alpha-1"
    assert record["setup"]["B"]["bench"] == [f"B:bravo-bench-{i}" for i in range(1, 5)]

    # 5. Three battles, choosing among the legal actions the page offers.
    steps = [
        ("A passes", None, "A passes"),  # battle 1: A has honors
        ("B passes", None, "B passes"),  # ...A's 120 beats B's 100
        ("A passes", None, "A passes"),  # battle 2: A keeps honors
        (
            "B substitutes Bravo Reserve 1 (B:bravo-bench-1)",
            "Bravo Recruit 1",
            "B substitutes Bravo Reserve 1 (B:bravo-bench-1), draws Bravo Recruit 1 (B:bravo-deck-1)",
        ),  # ...B's 160 wins: B has honors in battle 3
        (
            "B substitutes Bravo Reserve 2 (B:bravo-bench-2)",
            "bravo-deck-2",
            "B substitutes Bravo Reserve 2 (B:bravo-bench-2), draws Bravo Recruit 2 (B:bravo-deck-2)",
        ),  # battle 3: B substitutes first
    ]
    for n, (option, drawn, done) in enumerate(steps, start=1):
        builder.get_by_label(option, exact=True).check()
        if drawn is not None:
            builder.get_by_label(re.compile(r"^Card drawn or revealed")).fill(drawn)
        builder.get_by_role("button", name="Add this action").click()
        expect(actions).to_have_count(n)  # the page came back with the action appended
        expect(actions.last).to_have_text(done)
        expect(desk.locator(".adj-errors")).to_have_count(0)

    # Two battles resolved, battle 3 under way with B's substitution made.
    battles = desk.locator("ol.adj-battles").first.locator("> li")
    expect(battles).to_have_count(2)
    expect(battles.nth(0)).to_contain_text(re.compile(r"Alpha Striker 1 120 .* → A\b"))
    expect(battles.nth(1)).to_contain_text(re.compile(r"Bravo Reserve 1 160 → B\b"))
    expect(desk.locator(".adj-step-panel:not([hidden]) > p.meta")).to_contain_text(
        "battle 3, substitution phase, honors B"
    )
    # The builder offers no second substitution to B: only A's decision is left.
    offered = builder.locator("fieldset label").all_inner_texts()
    assert offered and "A passes" in offered, offered
    assert all(label.startswith("A ") for label in offered), offered

    # 6. B's second substitution of battle 3, as the player describes it, typed into the JSON.
    box = desk.get_by_label(re.compile(r"^Record JSON"))
    record = json.loads(box.input_value())
    assert len(record["actions"]) == 5
    record["actions"].append(
        {"player": "B", "do": "substitute", "card": "B:bravo-bench-3", "draw": None}
    )
    box.fill(json.dumps(record, indent=1))
    desk.get_by_role("button", name="Replay the record").click()

    illegal = desk.locator("section.adj-illegal")
    expect(illegal.get_by_role("heading", name="Illegal action 5")).to_be_visible()
    expect(illegal.locator("mark.adj-rule")).to_have_text("CR 4.2.2")
    expect(illegal.locator("code")).to_have_text("substitution_already_used")
    expect(illegal).to_contain_text(
        "B substitutes Bravo Reserve 3 (B:bravo-bench-3), draws nothing"
    )
    expect(illegal).to_contain_text(
        "B has already substituted in battle 3: each player may substitute only once per battle."
    )
    expect(actions).to_have_count(6)
    expect(desk.locator("ol.adj-actions > li.adj-illegal-action")).to_have_text(
        re.compile(
            r"^B substitutes Bravo Reserve 3 \(B:bravo-bench-3\), draws nothing\s+—\s+CR 4\.2\.2$"
        )
    )
    expect(builder).to_have_count(0)  # nothing is appended after an illegal action
    expect(desk.get_by_label(re.compile(r"^Citations \(comma separated"))).to_have_value("CR 4.2.2")
    record_text = box.input_value()

    # 7. Back on the call page: the ruling, with the record and a result change.
    desk.get_by_role("link", name="Back to the call").click()
    desk.wait_for_url(f"**/judge/calls/{call.pk}/")
    ruling_form = desk.locator("form.ruling-form")
    ruling_form.get_by_label("Ruling", exact=True).fill(RULING)
    ruling_form.get_by_label("CR 4.2.2 Turn and Battle Structure (Substitution)").check()
    ruling_form.get_by_label(f"Games won by {a_name}").fill("1")
    ruling_form.get_by_label(f"Games won by {b_name}").fill("0")
    ruling_form.get_by_text("Game record (optional)").click()
    ruling_form.get_by_label("Record JSON").fill(record_text)
    ruling_form.get_by_label("Decision").select_option(label="Result changed")
    ruling_form.get_by_role("button", name="Record the ruling and resolve the call").click()

    desk.wait_for_url(f"**/judge/calls/{call.pk}/#rulings")
    expect(
        desk.get_by_text(
            f"Ruling recorded for table {table}: the call is resolved and both players see it."
        )
    ).to_be_visible()
    expect(desk.locator("form.ruling-form")).to_have_count(0)
    recorded = desk.locator("ol.rulings > li.ruling")
    expect(recorded).to_have_count(1)
    expect(recorded.locator(".ruling-text")).to_have_text(RULING)
    expect(recorded.locator(".ruling-citations")).to_contain_text("CR 4.2.2")
    expect(recorded).to_contain_text("Result set to 1-0")
    expect(recorded.locator(".replay-summary")).to_contain_text(
        "The engine replays the record: illegal."
    )
    expect(recorded.locator(".replay-summary .cite-code")).to_have_text("CR 4.2.2")

    call.refresh_from_db()
    match.refresh_from_db()
    assert call.status == CallStatus.RESOLVED and call.resolved_at is not None
    assert match.status == MatchStatus.FINAL and match.games == (1, 0, 0)
    ruling = Ruling.objects.get(call=call)
    assert ruling.judge_id == judge.pk and ruling.text == RULING
    assert ruling.citations == ["CR 4.2.2"] and ruling.decision == "changed"
    assert ruling.result is not None and ruling.result["games"] == [1, 0, 0]
    assert ruling.record is not None and len(ruling.record["actions"]) == 6
    assert ruling.replay is not None and ruling.replay["legal"] is False
    assert ruling.replay["error"]["rule"] == "CR 4.2.2"
    assert ruling.replay["error"]["code"] == "substitution_already_used"

    # 8. The player on seat B reads the ruling and the new result on their phone.
    phone = open_page(match.b.player, PHONE)
    phone.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    result = phone.locator("section.match-result")
    expect(result.locator(".result-line")).to_have_text(re.compile(r"^\s*You lost\s+0\u20131\s*$"))
    expect(result.get_by_text("The result is final.")).to_be_visible()
    told = phone.locator(".player-ruling")
    expect(told).to_have_count(1)
    expect(told.get_by_role("heading", name=re.compile(r"^Judge's ruling"))).to_be_visible()
    expect(told.locator(".ruling-text")).to_have_text(RULING)
    expect(told).to_contain_text("Rules: CR 4.2.2")
    expect(told).to_contain_text("Result changed")
    expect(phone.locator(".call-status")).to_have_count(0)  # no open call left


def test_a_judge_builds_a_playmaker_record_from_two_overlapping_lists_in_the_page(
    live_server: Any, open_page: Callable[..., Any], shared_data: Any
) -> None:
    """Issue 18: the record is built in the page (no page load per action) with the board
    after the last action beside the builder; both lists share seven real heroes; an action
    added while the connection is down waits in the browser and is added when it returns;
    the replay's verdict is shown after every action."""
    from playwright.sync_api import expect

    from decks import services as deck_services
    from tests.matches.real_cards import import_real_cards, real_overlapping_lists

    organiser = OrganiserFactory()
    event = TournamentFactory(
        name="Playmaker Cup",
        organisers=[organiser],
        status=EventStatus.RUNNING.value,
        mode="playmaker",
        format_key="playmaker",
    )
    judge = UserFactory(username="jude", display_name="Jude Judge")
    event.judges.add(judge)
    for name in NAMES:
        RegistrationFactory(
            tournament=event,
            player=UserFactory(username=name.split()[0].lower(), display_name=name),
        )
    round_ = services.round_publish(
        actor=organiser, round_=services.round_pair(actor=organiser, tournament=event)
    )
    match = round_.matches.filter(b__isnull=False).select_related("a", "b").order_by("table")[0]
    heroes, plays, text_a, text_b = real_overlapping_lists(shared_data)
    import_real_cards(shared_data, heroes, plays)
    lists = {
        side: deck_services.decklist_submit(actor=organiser, registration=reg, source=text).data
        for side, reg, text in (("A", match.a, text_a), ("B", match.b, text_b))
    }
    call, _ = services.call_open(actor=match.a.player, match=match, question="Battle 2?")
    ids = {side: [str(h["id"]) for h in data["heroes"]] for side, data in lists.items()}
    shared = [i for i in ids["A"] if i in ids["B"]]
    assert len(shared) == 7
    lineup_b = shared + [i for i in ids["B"] if i not in shared]
    play_ids = [str(p["id"]) for p in lists["A"]["playbook"]]

    desk = open_page(judge, DESK)
    desk.goto(f"{live_server.url}/judge/calls/{call.pk}/adjudicate/")
    desk.evaluate("() => { window.localStorage.clear(); window.stillTheSamePage = true; }")
    navigations: list[str] = []
    desk.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame == desk.main_frame else None,
    )

    # 1. The setup from both lists: B's lineup starts with the seven heroes A has too.
    expect(desk.get_by_label("Mode")).to_have_value("playmaker")
    for seat, lineup in (("A", ids["A"]), ("B", lineup_b)):
        player = desk.get_by_role("group", name=f"Player {seat}")
        for i in range(1, 8):
            player.get_by_label(f"Battle {i} hero", exact=True).fill(lineup[i - 1])
        for i in range(1, 5):
            player.get_by_label(f"Bench hero {i}", exact=True).fill(lineup[6 + i])
            player.get_by_label(f"Play in hand {i}", exact=True).fill(play_ids[i - 1])
    desk.get_by_role("button", name="Start the record from this setup").click()
    verdict = desk.locator("[data-adj-verdict]")
    expect(verdict).to_have_text("Verdict: legal so far (0 actions replayed).")
    record = json.loads(desk.get_by_label(re.compile(r"^Record JSON")).input_value())
    assert record["setup"]["A"]["battles"][0] == f"A:{shared[0]}"
    assert record["setup"]["B"]["battles"][0] == f"B:{shared[0]}"
    board = desk.locator("[data-adj-board-now]")
    expect(board).to_be_visible()
    expect(board.locator("p.meta")).to_contain_text("battle 1, substitution phase, honors A")

    # 2. Battle 1: both pass their substitution and their plays; the board follows.
    builder = desk.locator("section.adj-builder")
    actions = desk.locator("ol.adj-actions > li")
    for n, option in enumerate(["A passes", "B passes", "A passes", "B passes"], start=1):
        builder.get_by_label(option, exact=True).check()
        builder.get_by_role("button", name="Add this action").click()
        expect(actions).to_have_count(n)
        replayed = "1 action" if n == 1 else f"{n} actions"
        expect(verdict).to_have_text(f"Verdict: legal so far ({replayed} replayed).")
    expect(board.locator("p.meta")).to_contain_text("After action 4: B passes")
    expect(board.locator("table.adj-zones tbody tr").first).not_to_contain_text("—")

    # 3. The connection drops: the end-of-battle draw waits in this browser.
    desk.context.set_offline(True)
    draw = builder.locator("input[type=radio]").first
    draw_label = desk.locator(f'label[for="{draw.get_attribute("id")}"]').inner_text()
    assert draw_label.endswith("draws a play"), draw_label
    draw.check()
    builder.get_by_label(re.compile(r"^Card drawn or revealed")).fill(play_ids[4])
    builder.get_by_role("button", name="Add this action").click()
    waiting = desk.locator("[data-adj-offline] ol.adj-pending > li")
    expect(waiting).to_have_count(1)
    expect(waiting.first).to_contain_text(play_ids[4])
    expect(actions).to_have_count(4)
    kept = desk.evaluate(
        "() => JSON.parse(localStorage.getItem("
        f"'battledesk.adjudicate.match-{match.pk}')).pending.length"
    )
    assert kept == 1

    # 4. The connection returns: the action is added, the board and the verdict follow.
    desk.context.set_offline(False)
    desk.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(actions).to_have_count(5)
    expect(waiting).to_have_count(0)
    expect(verdict).to_have_text("Verdict: legal so far (5 actions replayed).")
    expect(actions.last).to_contain_text("draws")
    record = json.loads(desk.get_by_label(re.compile(r"^Record JSON")).input_value())
    drawer = record["actions"][-1]["player"]
    assert record["actions"][-1]["card"] == f"{drawer}:{play_ids[4]}"

    # 5. An illegal action typed into the record: the replay's verdict names it.
    record["actions"].append({"player": drawer, "do": "pass"})
    desk.get_by_label(re.compile(r"^Record JSON")).fill(json.dumps(record, indent=1))
    desk.get_by_role("button", name="Replay the record").click()
    expect(verdict).to_have_text(re.compile(r"^Verdict: illegal at action 5 \(CR [0-9.]+\)\.$"))
    expect(desk.locator("section.adj-illegal")).to_be_visible()

    assert navigations == [], navigations  # every step in the page, never a page load
    assert desk.evaluate("() => window.stillTheSamePage") is True

    # 6. The page opened again (a closed tab, a dead battery): the draft comes back, replayed.
    desk.reload()
    expect(desk.locator("[data-adj-offline]")).to_contain_text("This browser kept a draft")
    expect(actions).to_have_count(6)
    expect(verdict).to_have_text(re.compile(r"^Verdict: illegal at action 5 "))


def test_a_bos_record_from_two_lists_sharing_every_card_is_built_in_the_page(
    live_server: Any, open_page: Callable[..., Any]
) -> None:
    """BOS's page through the same script: the record started from both registered lists
    (the same demo list: every card shared), one-tap actions added without a page load, the
    board after the last action beside the builder."""
    from playwright.sync_api import expect

    from tests.factories import bos_event, register_decklist

    organiser = OrganiserFactory()
    event = bos_event(status=EventStatus.RUNNING.value, organisers=[organiser])
    judge = UserFactory(username="jo", display_name="Jo Judge")
    event.judges.add(judge)
    for name in NAMES[:2]:
        reg = RegistrationFactory(
            tournament=event,
            player=UserFactory(username=name.split()[0].lower(), display_name=name),
        )
        register_decklist(reg)
    round_ = services.round_publish(
        actor=organiser, round_=services.round_pair(actor=organiser, tournament=event)
    )
    match = round_.matches.filter(b__isnull=False).select_related("a__player").get()
    call, _ = services.call_open(actor=match.a.player, match=match, question="Can I attack?")

    desk = open_page(judge, DESK)
    desk.goto(f"{live_server.url}/judge/calls/{call.pk}/adjudicate/")
    desk.evaluate("() => window.localStorage.clear()")
    navigations: list[str] = []
    desk.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame == desk.main_frame else None,
    )
    desk.get_by_role("button", name="Start the record", exact=True).click()
    verdict = desk.locator("[data-adj-verdict]")
    expect(verdict).to_have_text("Verdict: legal so far (0 actions replayed).")
    record = json.loads(desk.get_by_label(re.compile(r"^Record JSON")).input_value())
    assert {c.split(":")[0] for p in "AB" for c in record["decks"][p]["castle"]} == {"A", "B"}
    board = desk.locator("[data-adj-board-now]")
    expect(board).to_contain_text("no turn started")
    desk.get_by_role("button", name="A: Start the turn").click()
    expect(desk.locator("ol.adj-actions > li")).to_have_count(1)
    expect(verdict).to_have_text("Verdict: legal so far (1 action replayed).")
    expect(board).to_contain_text("turn 1, A's turn")
    expect(desk.get_by_role("button", name="A: End the turn")).to_be_focused()
    assert navigations == [], navigations
