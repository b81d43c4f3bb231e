"""A player's history pages (matches/player_views.py), included at the site root."""

from django.urls import path

from matches import player_views

urlpatterns = [
    path("me/history/", player_views.my_history, name="my_history"),
    path("players/<str:player_id>/", player_views.player_profile, name="player_profile"),
]
