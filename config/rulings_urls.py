"""The rulings page and its API (config/rulings.py), included at the site root."""

from django.urls import path

from config.rulings import RulingsView, rulings_page

urlpatterns = [
    path("rules/rulings/", rulings_page, name="rulings"),
    path("api/rules/rulings/", RulingsView.as_view(), name="api-rulings"),
]
