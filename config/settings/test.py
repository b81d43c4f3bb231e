"""Test settings: the base settings with fast hashing and a quiet console.

The database and Redis still come from the environment, so CI runs the same suite on
PostgreSQL and Redis (REQUIRE_SERVICES=1) that a developer runs on SQLite.
"""

from .base import *  # noqa: F403
from .base import env

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Tests exercise services directly; a task is run in-process unless a test asks for a worker.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = env.str("REDIS_URL", default="memory://")
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}  # noqa: F405
