"""Battledesk settings, read from the environment.

With no environment at all the site runs on a SQLite file in the project folder, runs Celery
tasks eagerly in-process and caches in local memory: `make run` needs nothing else. Set
DATABASE_URL and REDIS_URL to run on PostgreSQL with real Celery workers (see docs/operations.md).
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.database import database_from_environment
from config.storage_url import StorageURLError, storage_from_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

DEBUG = env.bool("DJANGO_DEBUG", default=True)

_INSECURE_DEV_KEY = "django-insecure-battledesk-development-only"
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG is off.")
    SECRET_KEY = _INSECURE_DEV_KEY

# Local names only by default: a deployment names its own hosts in DJANGO_ALLOWED_HOSTS.
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "config",
    "accounts",
    "tournaments",
    "organisations",
    "decks",
    "matches",
    "notifications",
    "eventdata",
    "series",
    "weekends",
    "overlays",
    "metagame",
]

MIDDLEWARE = [
    # First: after each response, sends tasks left waiting while the broker was down.
    "config.outbox.OutboxRelayMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with the account read from the cache when the session verifies against it.
    "accounts.cached_auth.CachedAuthenticationMiddleware",
    "tournaments.permissions.RolesPerRequestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.middleware.RequestBodyLimitMiddleware",
    "config.middleware.InputLimitsMiddleware",
    "config.middleware.StatementTimeoutMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login refused by django-axes into the "too many attempts" page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "config.context_processors.service_status",
            ],
        },
    },
]

# PostgreSQL: a pool of connections in each process, a statement timeout on each connection;
# SQLite by default. Every variable is read in config/database.py (docs/operations.md).
DATABASES = {
    "default": database_from_environment(env, default_url=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files the site writes (the archive kept after each round) go to the local folder
# DJANGO_MEDIA_ROOT by default, or to an S3-compatible object store named by DJANGO_STORAGE_URL
# (config/storage_url.py) so that web hosts and workers on different machines share them.
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", default=BASE_DIR / "media")
MEDIA_URL = "media/"
# Form fields and JSON are parsed in memory up to this; uploaded files over
# FILE_UPLOAD_MAX_MEMORY_SIZE go to a temporary file instead of a worker's memory (and so do
# stored files read from the object store while a download streams them).
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = int(2.5 * 1024 * 1024)
try:
    DEFAULT_STORAGE = storage_from_url(
        env.str("DJANGO_STORAGE_URL", default=""), max_memory_size=FILE_UPLOAD_MAX_MEMORY_SIZE
    )
except StorageURLError as exc:
    raise ImproperlyConfigured(str(exc)) from None
STORAGES = {
    "default": DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# A card-list upload (at most 20 MB of files) is the largest thing anyone sends us: a body
# over MAX_REQUEST_BODY_BYTES is refused with a 413 before it is read
# (config.middleware.RequestBodyLimitMiddleware; the proxy caps it too, docs/operations.md).
MAX_REQUEST_BODY_BYTES = env.int("MAX_REQUEST_BODY_BYTES", default=21 * 1024 * 1024)

# Redis serves both the Celery broker and the cache; without it, tasks run eagerly in-process.
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL or "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# A broker that is down fails a send within a couple of seconds (the outbox sends it later:
# config/outbox.py), instead of Celery's default of retrying the connection for long.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 2}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}

# Redis is a cache, never the only copy: when it is down, reads miss, writes are skipped and a
# circuit breaker stops asking it for a few seconds at a time (config/cache.py).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions are read on every page load: from the cache, written through to the database, so
# signing in and staying signed in work with Redis down.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# The judges' queue is one rendered copy shared by every judge of the same events
# (matches.judge_views.shared_queue_list): after a change to the calls a copy this young is
# still served (twenty judges re-reading a busy queue render it about once a second, not
# twenty times), and no copy is kept longer than the second figure (its waiting times).
JUDGE_QUEUE_MAX_STALE_SECONDS = env.float("JUDGE_QUEUE_MAX_STALE_SECONDS", default=1.0)
JUDGE_QUEUE_CACHE_SECONDS = env.int("JUDGE_QUEUE_CACHE_SECONDS", default=15)
# The organiser dashboard's player list, shared the same way while check-in changes it.
DASHBOARD_MAX_STALE_SECONDS = env.float("DASHBOARD_MAX_STALE_SECONDS", default=1.0)
# How often the dashboard's round panel asks whether anything changed (an unchanged panel is a
# 304 that reads nothing of the round: matches.panel).
ROUND_PANEL_POLL_SECONDS = env.int("ROUND_PANEL_POLL_SECONDS", default=10)
# Stream overlays (docs/overlays.md). Their live stream is served under ASGI (uvicorn
# config.asgi:application); under WSGI it answers 204 and the pages poll the JSON feed every
# OVERLAY_POLL_SECONDS. OVERLAY_STREAM_ORIGIN: where the pages open the stream when uvicorn
# runs beside gunicorn on another origin (e.g. https://live.example.org); empty: this site.
OVERLAY_SSE = env.bool("OVERLAY_SSE", default=True)
OVERLAY_STREAM_ORIGIN = env.str("OVERLAY_STREAM_ORIGIN", default="").rstrip("/")
OVERLAY_POLL_SECONDS = env.float("OVERLAY_POLL_SECONDS", default=1.5)
# How often a stream's hub reads the cache's live version, and the database's live stamp.
OVERLAY_TICK_SECONDS = env.float("OVERLAY_TICK_SECONDS", default=0.25)
OVERLAY_DB_CHECK_SECONDS = env.float("OVERLAY_DB_CHECK_SECONDS", default=1.0)
OVERLAY_HEARTBEAT_SECONDS = env.float("OVERLAY_HEARTBEAT_SECONDS", default=15.0)
# A stream ends after this (plus up to 10 %); the browser reconnects by itself.
OVERLAY_STREAM_MAX_SECONDS = env.float("OVERLAY_STREAM_MAX_SECONDS", default=300.0)

EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="battledesk@localhost")
# Real mail (notifications, password resets): EMAIL_URL=smtp+tls://user:password@host:587
# sets the SMTP backend and its EMAIL_HOST, EMAIL_PORT, user, password and TLS at once.
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
# The site's address as players reach it: links in notification e-mails and webhook posts.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# Web Push (RFC 8030/8291/8292, docs/push.md): the site's VAPID key pair, as
# `manage.py vapid_keys` prints it (base64url, unpadded), and the contact the push services see
# (mailto: or https:). Without both keys push is off, and the page and the API say so.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:battledesk@localhost")
# Tests only: accept push endpoints on http://127.0.0.1 (a push service run by the test).
PUSH_ALLOW_LOCAL_ENDPOINTS = False

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.Pagination",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # Limits (config/throttling.py): anonymous requests per address; signed-in requests per
    # account (well above a judge's tool or the benchmarks' 10 a second); token requests per
    # address; failed logins per address whatever the username (password spraying: the login
    # page and the token API; a venue behind one address does not mistype 50 times an hour);
    # sign-ups per address; password-reset e-mails per address and per inbox.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonThrottle",
        "config.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": "120/min",
        # The overlays' JSON feeds, per address, instead of "anon"/"user": a streaming PC
        # polls several overlays every 1.5 s when their stream is not served (docs/overlays.md).
        "overlay": "600/min",
        "user": "1800/min",
        "token": "30/min",
        "login_failures": "50/hour",
        "signup": "30/hour",
        "password_reset": "10/hour",
        "password_reset_email": "3/hour",
    },
    # How many proxies of ours add to X-Forwarded-For: the client's address is the one the
    # last of them saw (0: the connecting address; a client's own header is never trusted).
    "NUM_PROXIES": env.int("DJANGO_NUM_PROXIES", default=0),
}

# Password guessing (django-axes, accounts/lockout.py): 10 failed logins for one username from
# one address, on the login page or POST /api/auth/token/, lock that pair for 15 minutes,
# the right password included; the answer is a 429 that says when to try again. Attempts are
# counted in the database (so every process agrees, with or without Redis); a lock on the
# address alone would lock out a whole venue behind one address.
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.throttling.client_ip"
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# Content-Security-Policy (django-csp) on every response: our own scripts, styles, images,
# fonts and connections only, no plugins, no framing, forms post to us. Style attributes stay
# allowed (deck charts' sizes, the projector's scroll speed: numbers computed on the server);
# <style> elements and inline scripts are refused. The API docs pages relax it for themselves
# (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
if OVERLAY_STREAM_ORIGIN:  # the overlays' live stream on an origin of its own
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"].append(OVERLAY_STREAM_ORIGIN)
# Permissions-Policy (django-permissions-policy): no page needs a device feature; the camera
# and full screen are left to our own pages (a check-in scanner, the projector).
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "autoplay": [],
    "camera": ["self"],
    "display-capture": [],
    "fullscreen": ["self"],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "payment": [],
    "usb": [],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Battledesk API",
    "DESCRIPTION": "Events, registrations, decklists, matches and rulings for trading card game "
    "tournaments.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.status.EventStatus",
        "RegistrationStatusEnum": "tournaments.models.RegistrationStatus",
        "RoundStatusEnum": "matches.models.RoundStatus",
        "MatchStatusEnum": "matches.models.MatchStatus",
        "NotificationKindEnum": "notifications.models.Kind",
        "DeliveryStatusEnum": "notifications.models.DeliveryStatus",
        "StageKindEnum": "tournaments.models.StageKind",
        "StageStatusEnum": "tournaments.models.StageStatus",
        "WeekendEventKindEnum": "weekends.models.WeekendEventKind",
        "FeeStatusEnum": "tournaments.models.FeeStatus",
    },
}

# Production hardening: on whenever DEBUG is off. Behind a TLS-terminating proxy set
# DJANGO_SECURE_PROXY_SSL_HEADER=1 so Django trusts X-Forwarded-Proto (docs/operations.md).
if env.bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env.bool("DJANGO_SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("DJANGO_CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
}

# Periodic work for celery beat: lone result reports are confirmed once an event's
# auto-confirm delay has passed after its round ended (off unless the event sets it);
# notifications whose task was lost are sent again; the outbox is relayed (config/outbox.py).
CELERY_BEAT_SCHEDULE = {
    "auto-confirm-lone-reports": {"task": "matches.auto_confirm", "schedule": 60.0},
    "notifications-sweep": {"task": "notifications.sweep", "schedule": 60.0},
    # The round timer's "5 minutes left", should its scheduled task have been lost.
    "round-endings": {"task": "matches.round_endings", "schedule": 60.0},
    # Tasks the outbox still holds (the broker was down when their change committed).
    "relay-outbox": {"task": "config.relay_outbox", "schedule": 30.0},
    # Card imports still "running" hours after their upload: every worker that tried died.
    "card-imports-stuck": {"task": "decks.sweep_stuck_imports", "schedule": 600.0},
}
