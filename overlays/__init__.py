"""Stream overlays: pages for OBS browser sources, their JSON feeds and their live stream
(docs/overlays.md). Feature matches are marked here; players who opted out are never marked."""
