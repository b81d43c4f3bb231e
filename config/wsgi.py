import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_wsgi_application()

# Imported once Django is set up (the routes read models): anonymous GETs of published copies
# are answered before the middleware when the stored copy is there (config/fast_path.py).
from config.fast_path import FastPath  # noqa: E402
from matches import fast_routes  # noqa: E402

application = FastPath(django_application, routes=fast_routes.ROUTES)
