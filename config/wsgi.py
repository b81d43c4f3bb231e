import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_wsgi_application()

# Imported once Django is set up (the routes read models): GETs of published copies, anonymous
# or signed in by a session the cache verifies, are answered before the middleware when the
# stored copy is there (config/fast_path.py); so are a signed-in reader's event page and
# pairings page.
from accounts.cached_auth import signed_in  # noqa: E402
from config.fast_path import FastPath  # noqa: E402
from matches import fast_routes  # noqa: E402
from tournaments import fast_routes as tournament_routes  # noqa: E402

application = FastPath(
    django_application,
    routes=(*fast_routes.ROUTES, *fast_routes.PAGE_ROUTES, *tournament_routes.ROUTES),
    sign_in=signed_in,
)
