from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts import api as accounts_api
from config.views import healthz
from tournaments import api as tournaments_api

router = DefaultRouter()
router.register("events", tournaments_api.EventViewSet, basename="event")
router.register("registrations", tournaments_api.RegistrationViewSet, basename="registration")

api_urls = [
    path("me/", accounts_api.me, name="api-me"),
    path("auth/token/", accounts_api.TokenView.as_view(), name="api-token"),
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
