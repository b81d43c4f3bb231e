"""Every page, as each role sees it, through axe-core in a real browser, at a desk and on a phone.

axe-core ships inside the PyPI package axe-playwright-python (its axe.min.js); the test injects
it into every page of a role's browser context itself (an init script; no CDN). Zero critical
and zero serious violations on every page, at 1280x900 and narrowed to 390x844 (one load for
both; the rules that can only report minor or moderate ones are not run: ``AXE_RUN``). On the phone every visible link, button,
summary and form control is a tap target of at least 24x24 CSS px (only WCAG 2.5.8's inline
exception, a link inside a sentence, is allowed: the issue asks for 24 px on every target, so
not the spacing exception), and the main actions (``.primary-action``, and the submit buttons
of forms in <main> that are not ``.link-button``) are at least 44 px tall.

The pages come from the demo (``load_demo``): adding a page is one line in ``PAGES``, a role
and a path whose ``{placeholders}`` name a key of the ``demo_places`` dict.

Beside it, tests/test_accessibility.py checks the markup without a browser (labels, names,
one <h1>) and tests/test_contrast.py the stylesheet's colours.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.support import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

DESK = {"viewport": {"width": 1280, "height": 900}}
BLOCKING_IMPACTS = {"critical", "serious"}
MIN_TARGET_PX = 24
MAIN_ACTION_PX = 44

ANONYMOUS = None
PLAYER = "player01"
JUDGE = "judge"
ORGANISER = "organiser"
CONFIRMING_PLAYER = "confirming player"  # the opponent reported round 4: confirm or dispute

GOLDEN_RECORD = (
    Path(__file__).resolve().parent
    / "engine"
    / "boba"
    / "golden"
    / "playmaker_full_game_all_seven.json"
)


def check_a_long_list_with_a_problem(page: Any) -> None:
    """The check page's report with the numbered lines box (a scrolling list)."""
    lines = [f"1 Not A Card {i}" for i in range(60)]
    page.get_by_label("Decklist").fill("\n".join(lines))
    page.get_by_role("button", name="Check the list").click()
    page.wait_for_selector(".numbered-lines")


def replay_a_recorded_game(page: Any) -> None:
    """The adjudication page with a replayed record: its board and battle tables."""
    page.locator("#adj-record").fill(GOLDEN_RECORD.read_text())
    page.get_by_role("button", name="Replay the record").click()
    page.wait_for_selector("#replay-heading")


def replay_a_bos_record(page: Any) -> None:
    """A BOS adjudication page with a replayed record: its turns and board tables."""
    import json

    from tests.engine.bos.factory import end, record, start

    concede = {"type": "judge", "player": "B", "note": "Concedes", "adjust": {"B": {"life": 0}}}
    page.locator("#adj-record").fill(
        json.dumps(record([start("A"), end("A"), start("B"), concede]))
    )
    page.get_by_role("button", name="Replay the record").click()
    page.wait_for_selector("#replay-heading")


# An overlay page (docs/overlays.md) is transparent: OBS draws it over the stream's video, and
# every text sits on its own dark panel. axe computes contrast against what is behind the text;
# on a transparent page in a browser that is the white canvas, which no viewer ever sees. The
# audit paints the page's backdrop a video-like mid grey instead (neither black nor white, so a
# panel that lost its background fails), and the contrast rule stays on.
OVERLAY_BACKDROP = "rgb(128, 128, 128)"


def over_the_stream(page: Any) -> None:
    """An overlay as a streamer's viewer sees it: over the video, not over a white page."""
    # Through the CSSOM: the site's Content-Security-Policy refuses an added <style>.
    page.evaluate(
        "(colour) => document.documentElement.style.setProperty('background', colour, 'important')",
        OVERLAY_BACKDROP,
    )


# (who, path[, then]). A path's {placeholders} are keys of demo_places(); ``then`` acts on the
# loaded page (fills and sends a form) before the audit. Add a page with one line.
PAGES: list[tuple[Any, ...]] = [
    (ANONYMOUS, "/"),
    (ANONYMOUS, "/events/{slug}/"),
    (ANONYMOUS, "/events/{slug}/rounds/{round}/pairings/"),
    (ANONYMOUS, "/events/{slug}/standings/"),
    (ANONYMOUS, "/events/{slug}/standings/{registration}/"),
    (ANONYMOUS, "/events/{slug}/standings/cut/"),
    (ANONYMOUS, "/events/{slug}/projector/"),
    (ANONYMOUS, "/events/{bos_slug}/"),
    (ANONYMOUS, "/events/{bos_slug}/standings/"),
    (ANONYMOUS, "/events/{slug}/coverage/"),
    (ANONYMOUS, "/events/{slug}/metagame/"),
    (ANONYMOUS, "/rules/rulings/"),
    (ANONYMOUS, "/check-deck/"),
    (ANONYMOUS, "/check-deck/", check_a_long_list_with_a_problem),
    (ANONYMOUS, "/cards/"),
    (ANONYMOUS, "/cards/?search=a"),
    (ANONYMOUS, "/accounts/login/"),
    (ANONYMOUS, "/accounts/signup/"),
    (ANONYMOUS, "/accounts/password/reset/"),
    (PLAYER, "/me/events/"),
    (PLAYER, "/events/{slug}/"),
    (PLAYER, "/events/{slug}/my-match/"),
    (PLAYER, "/matches/{player_match}/report/"),
    (CONFIRMING_PLAYER, "/events/{slug}/my-match/"),
    (CONFIRMING_PLAYER, "/matches/{confirm_match}/report/"),
    (PLAYER, "/matches/{player_match}/clock/"),
    (PLAYER, "/events/{slug}/decklist/"),
    (PLAYER, "/registrations/{registration}/decklist/"),
    (PLAYER, "/decklists/{decklist_version}/"),
    (PLAYER, "/accounts/profile/"),
    (PLAYER, "/accounts/password/change/"),
    (PLAYER, "/accounts/profile/erase/"),
    (PLAYER, "/matches/{bos_match}/clock/"),
    (PLAYER, "/events/claim/"),
    (JUDGE, "/judge/"),
    (JUDGE, "/judge/calls/{call}/"),
    (JUDGE, "/judge/calls/{call}/adjudicate/"),
    (JUDGE, "/judge/calls/{call}/adjudicate/", replay_a_recorded_game),
    (JUDGE, "/judge/calls/{bos_call}/adjudicate/", replay_a_bos_record),
    (JUDGE, "/matches/{match}/staff/"),
    (JUDGE, "/matches/{match}/staff/penalty/"),
    (JUDGE, "/events/{slug}/decklists/"),
    (ORGANISER, "/events/{slug}/manage/"),
    (ORGANISER, "/events/{slug}/manage/rounds/"),
    (ORGANISER, "/events/{slug}/manage/rounds/{round}/"),
    (ORGANISER, "/events/{slug}/manage/rounds/{round}/scorekeeper/"),
    (ORGANISER, "/events/{slug}/manage/rounds/{round}/slips/"),
    (ORGANISER, "/events/{slug}/manage/check-in/"),
    (ORGANISER, "/events/{slug}/manage/players/import/"),
    (ORGANISER, "/events/{slug}/manage/penalties/players/{registration}/"),
    (ORGANISER, "/deck-checks/{deck_check}/"),
    (ORGANISER, "/events/{slug}/manage/notifications/"),
    (ORGANISER, "/events/{slug}/manage/penalties/"),
    (ORGANISER, "/events/{slug}/manage/archive/"),
    (ORGANISER, "/events/{slug}/metagame/"),
    (ORGANISER, "/events/{slug}/edit/"),
    (ORGANISER, "/events/{slug}/deck-checks/"),
    (ORGANISER, "/events/new/"),
    (ORGANISER, "/cards/import/"),
    (ORGANISER, "/cards/import/{card_import}/"),
    (ORGANISER, "/events/{slug}/coverage/"),
    (ANONYMOUS, "/calendar/"),
    (PLAYER, "/calendar/"),
    (ANONYMOUS, "/orgs/{organisation}/"),
    (ORGANISER, "/orgs/{organisation}/manage/"),
    (ORGANISER, "/orgs/{organisation}/archetypes/"),
    (ORGANISER, "/series/{series}/archetypes/"),
    (ANONYMOUS, "/series/{series}/"),
    (ANONYMOUS, "/series/{series}/metagame/"),
    (ANONYMOUS, "/events/{slug}/overlays/"),
    # The overlays themselves: transparent pages for OBS (see OVERLAY_BACKDROP).
    (ANONYMOUS, "/events/{slug}/overlays/feature/1/", over_the_stream),
    (ANONYMOUS, "/events/{slug}/overlays/feature/2/", over_the_stream),
    (ANONYMOUS, "/events/{slug}/overlays/standings/", over_the_stream),
    (ANONYMOUS, "/events/{slug}/overlays/pairings/", over_the_stream),
    (ANONYMOUS, "/events/{slug}/overlays/bracket/", over_the_stream),
]


@cache
def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


# Tap targets: each visible link, button and control of the page (not the skip link, which is
# off-screen until focused) and its box; then the main actions' height.
TAP_TARGETS_JS = """
([minPx, mainPx]) => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  const all = [...document.querySelectorAll(selector)].filter((el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && r.right > 0 && r.bottom > 0
      && r.left < document.documentElement.scrollWidth;
  });
  const boxes = all.map((el) => el.getBoundingClientRect());
  const inlineInText = (el) => {
    // WCAG 2.5.8's inline exception: a link inside a sentence.
    if (el.tagName !== 'A') return false;
    const parent = el.parentElement;
    if (!parent || getComputedStyle(el).display !== 'inline') return false;
    const text = [...parent.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join('');
    return text.length > 0;
  };
  const name = (el) => (el.tagName.toLowerCase() + ' "' + (el.getAttribute('aria-label') || el.textContent || el.value || el.name || '').trim().slice(0, 40) + '"');
  const problems = [];
  all.forEach((el, i) => {
    const b = boxes[i];
    if (el.classList.contains('skip-link')) return;
    if ((b.width < minPx || b.height < minPx) && !inlineInText(el)) {
      problems.push(name(el) + ' is ' + b.width.toFixed(0) + 'x' + b.height.toFixed(0) + ' px');
    }
  });
  const main = [...document.querySelectorAll('.primary-action, main form button[type=submit], main form input[type=submit]')]
    .filter((el) => el.getBoundingClientRect().height > 0 && (el.classList.contains('primary-action') || !el.classList.contains('link-button')));
  main.forEach((el) => {
    const h = el.getBoundingClientRect().height;
    if (h < mainPx) problems.push('main action ' + name(el) + ' is ' + h.toFixed(0) + ' px tall');
  });
  return problems;
}
"""


def users() -> Any:
    return get_user_model().objects


def demo_places() -> dict[str, Any]:
    from decks import services as deck_services
    from decks.models import DecklistVersion
    from engine.games import get_game
    from eventdata.demo import DEMO_EVENT_SLUG, game_demo_slug
    from matches import services as match_services
    from matches.models import JudgeCall, Match, Round
    from tournaments.models import Registration, Tournament

    call_command("load_demo", stdout=None)
    round_ = Round.objects.filter(tournament__slug=DEMO_EVENT_SLUG).order_by("-number").first()
    assert round_ is not None
    registration = Registration.objects.get(
        tournament__slug=DEMO_EVENT_SLUG, player__username=PLAYER
    )
    player_match = Match.objects.filter(round=round_).filter(
        a=registration
    ).first() or Match.objects.get(round=round_, b=registration)
    match = Match.objects.filter(round=round_, b__isnull=False).order_by("table").first()
    call = JudgeCall.objects.order_by("pk").first()
    version = DecklistVersion.objects.filter(decklist__registration=registration).first()
    assert match is not None and call is not None and version is not None
    # The demo's running round: its sixth table's player A reported, player B is to confirm.
    confirm_match = Match.objects.filter(round=round_, b__isnull=False).order_by("table")[5]
    assert confirm_match.status == "reported"
    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    organiser = users().get(username=ORGANISER)
    deck_check = deck_services.deck_check_create(
        actor=organiser, tournament=event, round_number=round_.number, count=2, seed=1
    )
    # A finished card import with a rejected row: the import page's table of rejects.
    from tests.decks.card_samples import CSV

    card_import = deck_services.card_import_start(
        actor=organiser, game=event.game, files=[("cards.csv", CSV.encode())]
    )
    # The BOS demo event: a player's match (a BOS match clock) and a judge call on it.
    bos_slug = game_demo_slug(get_game("bos"))
    bos_match = (
        Match.objects.filter(round__tournament__slug=bos_slug, b__isnull=False)
        .filter(a__player__username=PLAYER)
        .first()
        or Match.objects.filter(round__tournament__slug=bos_slug, b__isnull=False).first()
    )
    assert bos_match is not None
    bos_call, _ = match_services.call_open(
        actor=bos_match.a.player, match=bos_match, question="Can he attack me?"
    )
    organisation, series = demo_organisation_and_series(event, organiser)
    return {
        "slug": DEMO_EVENT_SLUG,
        "round": round_.number,
        "registration": registration.pk,
        "player_match": player_match.pk,
        "match": match.pk,
        "call": call.pk,
        "decklist_version": version.pk,
        "confirm_match": confirm_match.pk,
        "deck_check": deck_check.pk,
        "card_import": card_import.pk,
        "bos_slug": bos_slug,
        "bos_match": bos_match.pk,
        "bos_call": bos_call.pk,
        "organisation": organisation.slug,
        "series": series.slug,
        "usernames": {
            PLAYER: PLAYER,
            JUDGE: JUDGE,
            ORGANISER: ORGANISER,
            CONFIRMING_PLAYER: confirm_match.b.player.username,
        },
    }


def demo_organisation_and_series(event: Any, organiser: Any) -> tuple[Any, Any]:
    """The demo organiser's store (a judge, a suspension, a card catalog: every table and
    form of its management page) and a season holding the demo event."""
    from datetime import timedelta

    from django.utils import timezone

    from decks import services as deck_services
    from metagame import services as metagame_services
    from organisations import services as org_services
    from series import services as series_services

    organisation = org_services.organisation_create(actor=organiser, name="Demo Store")
    judge = users().get(username=JUDGE)
    org_services.member_set(actor=organiser, organisation=organisation, user=judge, role="judge")
    org_services.suspension_create(
        actor=organiser,
        organisation=organisation,
        player=users().get(username="player02"),
        until=timezone.now() + timedelta(days=30),
        reason="Unsporting conduct",
    )
    deck_services.custom_catalog_create(
        actor=organiser, game=event.game, name="Store promos", organisation=organisation
    )
    series = series_services.series_create(
        actor=organiser,
        name="Demo season",
        points={"1": 10, "2": 8, "3-4": 6, "played": 1},
        organisation=organisation,
    )
    series_services.series_add_event(actor=organiser, series=series, event=event)
    for scope in ({"series": series}, {"organisation": organisation}):
        metagame_services.archetype_create(
            actor=organiser, name="Heavy hitters", rule={"card": "Play X"}, game=event.game, **scope
        )
    series_services.refresh(series_id=series.pk)
    return organisation, series


# axe.run without the rules that cannot report a critical or serious violation: a violation's
# impact is the highest of its failing checks' (axe's metadata), so a rule whose own impact and
# every check's are minor or moderate only ever reports what this test does not count (region,
# landmark-unique, heading-order... 25 of axe 4.12's 96). A rule or check of unknown impact
# stays in. The rules that stay run exactly as in a default run.
AXE_RUN = """
(blocking) => {
  const canBlock = (impact) => !impact || blocking.includes(impact);
  const neverBlocks = axe._audit.rules.filter((rule) => {
    const checks = [...rule.any, ...rule.all, ...rule.none].map(
      (check) => axe._audit.data.checks[check.id || check] || {}
    );
    return !canBlock(rule.impact) && checks.every((check) => !canBlock(check.impact));
  });
  const rules = Object.fromEntries(neverBlocks.map((rule) => [rule.id, {enabled: false}]));
  return axe.run(document, {resultTypes: ['violations'], rules}).then((r) => r.violations);
}
"""


def axe_problems(page: Any) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):  # a page opened without the init script
        page.evaluate(axe_source())
    violations = page.evaluate(AXE_RUN, sorted(BLOCKING_IMPACTS))
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in violations
        if v["impact"] in BLOCKING_IMPACTS
    ]


def audit_page(page: Any, url: str, then: Callable[[Any], None] | None = None) -> list[str]:
    """The page at a desk, then the same page narrowed to a phone (one load for both)."""
    from playwright.sync_api import Error

    page.set_viewport_size(DESK["viewport"])
    try:
        response = page.goto(url, wait_until="load")
    except Error as exc:  # a page that answers 4xx/5xx with no body, or a GET-less one
        return [str(exc).splitlines()[0]]
    if response is None or response.status != 200:
        return [f"answered {response and response.status}"]
    if then is not None:
        then(page)
    problems = [f"desk: {p}" for p in axe_problems(page)]
    page.set_viewport_size(PHONE["viewport"])
    problems += [f"phone: {p}" for p in axe_problems(page)]
    problems += [
        f"phone: {p}" for p in page.evaluate(TAP_TARGETS_JS, [MIN_TARGET_PX, MAIN_ACTION_PX])
    ]
    return problems


def test_no_page_has_a_critical_or_serious_axe_violation_nor_a_small_tap_target(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    places = demo_places()
    problems: list[str] = []
    for who in dict.fromkeys(entry[0] for entry in PAGES):
        page = open_page(
            None if who is None else users().get(username=places["usernames"][who]), DESK
        )
        # axe in every document of the context from its start: each page is then audited
        # without sending and compiling axe's 0.5 MB again (about 45 ms a page).
        page.context.add_init_script(axe_source())
        for role, path, *then in PAGES:
            if role != who:
                continue
            url = path.format(**places)
            label = f"{who or 'anonymous'} {url}{' then ' + then[0].__name__ if then else ''}"
            problems += [f"{label} {p}" for p in audit_page(page, live_server.url + url, *then)]
        page.context.close()
    assert problems == [], "\n".join(problems)


def test_the_projector_shows_the_next_round_in_place_without_reloading(
    open_page: Callable[..., Any], live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """axe-core's meta-refresh: the projector's timed refresh is gone; it polls and swaps."""
    from playwright.sync_api import expect

    from matches.views import projector_page
    from tests.scenarios import finish_round, pair_and_publish, running_event

    monkeypatch.setattr(projector_page, "PROJECTOR_POLL_SECONDS", 1)
    event, organiser, regs = running_event(4)
    finish_round(pair_and_publish(event, organiser), organiser)
    page = open_page(None, DESK)
    page.goto(f"{live_server.url}/events/{event.slug}/projector/")
    heading = page.locator("h1")
    assert heading.inner_text().endswith("Round 1")
    page.evaluate("window.notReloaded = true")

    pair_and_publish(event, organiser)

    expect(heading).to_contain_text("Round 2")
    assert page.evaluate("window.notReloaded === true")
    assert page.locator("#projector-announce").inner_text() == "Round 2: pairings updated."
    assert page.locator(".projector-list li").count() == len(regs)
    assert page.locator("#projector-stale").is_hidden()
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
