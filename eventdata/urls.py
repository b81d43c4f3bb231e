"""The archive's pages (the organiser's dashboard links them); the API is in config/urls.py."""

from django.urls import path

from eventdata import archive_views

urlpatterns = [
    path(
        "events/<slug:slug>/manage/archive/",
        archive_views.event_archive_page,
        name="event_archive",
    ),
    path(
        "events/<slug:slug>/manage/archive.json",
        archive_views.event_archive_download,
        name="event_archive_download",
    ),
    path(
        "events/<slug:slug>/manage/archives/<str:name>",
        archive_views.event_archive_stored,
        name="event_archive_stored",
    ),
    path(
        "events/<slug:slug>/manage/exports/<slug:kind>.csv",
        archive_views.event_export_csv,
        name="event_export_csv",
    ),
]
