from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts import api as accounts_api
from config.views import healthz
from decks import api as decks_api
from tournaments import api as tournaments_api

router = DefaultRouter()
router.register("events", tournaments_api.EventViewSet, basename="event")
router.register("registrations", tournaments_api.RegistrationViewSet, basename="registration")
router.register("cards", decks_api.CardViewSet, basename="card")
router.register("card-imports", decks_api.CardImportViewSet, basename="card-import")
router.register("decklist-versions", decks_api.DecklistVersionViewSet, basename="decklist-version")

api_urls = [
    path("me/", accounts_api.me, name="api-me"),
    path("auth/token/", accounts_api.TokenView.as_view(), name="api-token"),
    path("formats/", decks_api.formats, name="api-formats"),
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
        "events/<slug:slug>/deck-checks/",
        decks_api.EventDeckChecksView.as_view(),
        name="api-event-deck-checks",
    ),
    path("deck-check-results/<int:pk>/", decks_api.deck_check_result, name="api-deck-check-result"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("", include(router.urls)),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include(api_urls)),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("decks.urls")),
    path("", include("tournaments.urls")),
]
