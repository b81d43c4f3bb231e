from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.routers import DefaultRouter

from accounts import api as accounts_api
from config.offline import service_worker
from config.views import healthz
from decks import api as decks_api
from engine.games import GAMES
from eventdata import archive_api, open_data_api
from matches import api as matches_api
from matches import clock_api, panel_views, player_api, published_round
from organisations import api as organisations_api
from series import api as series_api
from tournaments import api as tournaments_api
from tournaments import capacity_api
from weekends import api as weekends_api

# The API docs (drf-spectacular's sidecar files) under the site's Content-Security-Policy, their
# inline <style> moved to a file (templates/drf_spectacular/): Swagger UI loads its start-up
# script as a file (the split view) and draws data: icons; Redoc also injects its own styles
# and searches in a blob: worker.
swagger_view = SpectacularSwaggerSplitView.as_view
redoc_view = SpectacularRedocView.as_view
swagger_csp = csp_update({"img-src": ["data:"]})
redoc_csp = csp_update(
    {"style-src": [UNSAFE_INLINE], "img-src": ["data:"], "worker-src": ["blob:"]}
)

router = DefaultRouter()
router.register("events", tournaments_api.EventViewSet, basename="event")
router.register("registrations", tournaments_api.RegistrationViewSet, basename="registration")
router.register("cards", decks_api.CardViewSet, basename="card")
router.register("card-imports", decks_api.CardImportViewSet, basename="card-import")
router.register("decklist-versions", decks_api.DecklistVersionViewSet, basename="decklist-version")
router.register("series", series_api.SeriesViewSet, basename="series")
router.register("weekends", weekends_api.WeekendViewSet, basename="weekend")
router.register("organisations", organisations_api.OrganisationViewSet, basename="organisation")

api_urls = [
    path("me/", accounts_api.me, name="api-me"),
    path("me/erase/", accounts_api.erase_me, name="api-me-erase"),
    path("me/profile/", accounts_api.profile_visibility, name="api-me-profile"),
    path("auth/token/", accounts_api.TokenView.as_view(), name="api-token"),
    path("formats/", decks_api.formats, name="api-formats"),
    path("calendar/", organisations_api.calendar, name="api-calendar"),
    path("calendar/token/", organisations_api.calendar_token, name="api-calendar-token"),
    path("decklists/check/", decks_api.decklist_check, name="api-decklist-check"),
    path(
        "registrations/<int:pk>/decklist/",
        decks_api.RegistrationDecklistView.as_view(),
        name="api-registration-decklist",
    ),
    path(
        "registrations/<int:pk>/decklist/unlock/",
        decks_api.decklist_unlock,
        name="api-decklist-unlock",
    ),
    path("events/<slug:slug>/decklists/", decks_api.event_decklists, name="api-event-decklists"),
    path(
        "events/<slug:slug>/decklists/publish/",
        decks_api.event_decklists_publish,
        name="api-event-decklists-publish",
    ),
    path(
        "events/<slug:slug>/decklists/publish-top/",
        matches_api.top_decklists_publish,
        name="api-event-decklists-publish-top",
    ),
    path(
        "events/<slug:slug>/deck-checks/",
        decks_api.EventDeckChecksView.as_view(),
        name="api-event-deck-checks",
    ),
    path("deck-check-results/<int:pk>/", decks_api.deck_check_result, name="api-deck-check-result"),
    path("catalogs/", decks_api.catalogs, name="api-catalogs"),
    path(
        "organisations/<slug:slug>/catalogs/",
        decks_api.organisation_catalogs,
        name="api-organisation-catalogs",
    ),
    path(
        "events/<slug:slug>/catalog/",
        decks_api.EventCatalogView.as_view(),
        name="api-event-catalog",
    ),
    path("events/<slug:slug>/rounds/", matches_api.rounds, name="api-rounds"),
    path(
        "events/<slug:slug>/rounds/current/panel/",
        panel_views.round_panel_api,
        name="api-round-panel",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/",
        published_round.round_detail,
        name="api-round-detail",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/publish/",
        matches_api.round_publish,
        name="api-round-publish",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/timer/",
        matches_api.round_timer,
        name="api-round-timer",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/swap/",
        matches_api.round_swap,
        name="api-round-swap",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/repair/",
        matches_api.round_repair,
        name="api-round-repair",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/checks/",
        matches_api.round_checks,
        name="api-round-checks",
    ),
    path("events/<slug:slug>/standings/", matches_api.standings, name="api-standings"),
    path("events/<slug:slug>/placings/", matches_api.placings, name="api-placings"),
    path(
        "events/<slug:slug>/standings/<int:registration>/",
        matches_api.standings_player,
        name="api-standings-player",
    ),
    path(
        "events/<slug:slug>/cut-calculator/",
        matches_api.cut_calculator,
        name="api-cut-calculator",
    ),
    path("events/<slug:slug>/top-cut/", matches_api.top_cut, name="api-top-cut"),
    path(
        "events/<slug:slug>/stages/<int:number>/start/",
        matches_api.stage_start,
        name="api-stage-start",
    ),
    path("events/<slug:slug>/my-match/", matches_api.my_match, name="api-my-match"),
    path(
        "registrations/<int:pk>/pairing/",
        matches_api.registration_pairing_options,
        name="api-registration-pairing",
    ),
    path("teams/<int:pk>/", tournaments_api.team_detail, name="api-team-detail"),
    path("team-matches/<int:pk>/", matches_api.team_match_detail, name="api-team-match-detail"),
    path(
        "team-matches/<int:pk>/lineup/",
        matches_api.team_match_lineup,
        name="api-team-match-lineup",
    ),
    path("matches/<int:pk>/", matches_api.match_detail, name="api-match-detail"),
    path("matches/<int:pk>/report/", matches_api.match_report, name="api-match-report"),
    path("matches/<int:pk>/confirm/", matches_api.match_confirm, name="api-match-confirm"),
    path(
        "matches/<int:pk>/correction-preview/",
        matches_api.match_correction_preview,
        name="api-match-correction-preview",
    ),
    path("matches/<int:pk>/extension/", matches_api.match_extension, name="api-match-extension"),
    path("matches/<int:pk>/table/", matches_api.match_table, name="api-match-table"),
    path("matches/<int:pk>/versions/", matches_api.match_versions, name="api-match-versions"),
    path("matches/<int:pk>/clock/", clock_api.match_clock, name="api-match-clock"),
    path("matches/<int:pk>/calls/", matches_api.match_calls, name="api-match-calls"),
    path("matches/<int:pk>/penalties/", matches_api.match_penalties, name="api-match-penalties"),
    path("events/<slug:slug>/penalties/", matches_api.event_penalties, name="api-event-penalties"),
    path(
        "events/<slug:slug>/penalties.csv",
        matches_api.event_penalties_csv,
        name="api-event-penalties-csv",
    ),
    path("events/<slug:slug>/archive/", archive_api.event_archive_api, name="api-event-archive"),
    path(
        "events/<slug:slug>/archives/",
        archive_api.event_stored_archives,
        name="api-event-stored-archives",
    ),
    path(
        "events/<slug:slug>/archives/<str:name>",
        archive_api.event_stored_archive,
        name="api-event-stored-archive",
    ),
    path("events/<slug:slug>/standings.csv", archive_api.standings_csv, name="api-standings-csv"),
    path("events/<slug:slug>/pairings.csv", archive_api.pairings_csv, name="api-pairings-csv"),
    path("events/<slug:slug>/results.csv", archive_api.results_csv, name="api-results-csv"),
    path(
        "events/<slug:slug>/open-data/",
        open_data_api.event_open_data,
        name="api-event-open-data",
    ),
    path(
        "registrations/<int:pk>/penalties/",
        matches_api.registration_penalties,
        name="api-registration-penalties",
    ),
    path("penalties/catalogue/", matches_api.penalty_catalogue, name="api-penalty-catalogue"),
    path("calls/", matches_api.calls, name="api-calls"),
    path("calls/claim-next/", matches_api.call_claim_next, name="api-call-claim-next"),
    path("calls/<int:pk>/", matches_api.call_detail, name="api-call-detail"),
    path("calls/<int:pk>/claim/", matches_api.call_claim, name="api-call-claim"),
    path("calls/<int:pk>/hand-back/", matches_api.call_hand_back, name="api-call-hand-back"),
    path("calls/<int:pk>/escalate/", matches_api.call_escalate, name="api-call-escalate"),
    path("calls/<int:pk>/ruling/", matches_api.call_ruling, name="api-call-ruling"),
    path("calls/<int:pk>/notes/", matches_api.call_notes, name="api-call-notes"),
    # One path per game that replays records (/api/replay/boba/, /api/replay/bos/), so the
    # schema names each; any other game is simply not a path (404).
    *(
        path(
            f"replay/{game.key}/",
            matches_api.replay_game,
            {"game": game.key},
            name=f"api-replay-{game.key}",
        )
        for game in GAMES.values()
        if game.load_replayer is not None
    ),
    path("events/<slug:slug>/lottery/", capacity_api.lottery, name="api-lottery"),
    path("events/<slug:slug>/lottery/draw/", capacity_api.lottery_draw, name="api-lottery-draw"),
    path("registrations/<int:pk>/fee/", capacity_api.registration_fee, name="api-registration-fee"),
    path("players/<str:player_id>/", player_api.player_profile, name="api-player-profile"),
    path("me/history/", player_api.my_history, name="api-my-history"),
    path("", include("notifications.api_urls")),
    path("", include("overlays.api_urls")),
    path("", include("metagame.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", swagger_csp(swagger_view(url_name="api-schema")), name="api-docs"),
    path("redoc/", redoc_csp(redoc_view(url_name="api-schema")), name="api-redoc"),
    path("", include(router.urls)),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("sw.js", service_worker, name="service_worker"),
    path("admin/", admin.site.urls),
    path("api/", include(api_urls)),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("config.rulings_urls")),
    path("", include("decks.urls")),
    path("", include("matches.urls")),
    path("", include("series.urls")),
    path("", include("matches.player_urls")),
    path("", include("matches.staff_urls")),
    path("", include("matches.penalty_urls")),
    path("", include("matches.judge_urls")),
    path("", include("matches.adjudication_urls")),
    path("", include("notifications.urls")),
    path("", include("eventdata.urls")),
    path("", include("weekends.urls")),
    path("", include("overlays.urls")),
    path("", include("metagame.urls")),
    path("", include("organisations.urls")),
    path("", include("tournaments.urls")),
]
