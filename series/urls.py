from django.urls import path

from series import views

urlpatterns = [
    path("series/<slug:slug>/", views.series_detail, name="series_detail"),
    path("series/<slug:slug>/leaderboard.csv", views.series_csv, name="series_csv"),
    path("series/<slug:slug>/events.ics", views.series_ics, name="series_ics"),
]
