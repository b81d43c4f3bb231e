"""Test settings: the base settings with fast hashing and a quiet console.

The database and Redis still come from the environment, so CI runs the same suite on
PostgreSQL and Redis (REQUIRE_SERVICES=1) that a developer runs on SQLite.
"""

import os
import time

from .base import *  # noqa: F403
from .base import CACHES, env

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
# Every rate off: tests that check a limit switch theirs on (override_settings).
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]),  # noqa: F405
}
# Each test run has its own cache keys: ids start again with each test database, so a copy
# left in Redis by an earlier run must never answer for a new event with the same id.
CACHES["default"]["KEY_PREFIX"] = f"test-{os.getpid()}-{time.time_ns()}"
# Every change shows at once in tests (the shared queue's short grace is tested by name).
JUDGE_QUEUE_MAX_STALE_SECONDS = 0.0
DASHBOARD_MAX_STALE_SECONDS = 0.0
# The race tests start up to 8 threads at once besides the test's own, each with a connection of
# its own, as that many gunicorn workers would have: on PostgreSQL the pool must lend them all
# at once, or the race becomes a queue (the pool's own limit is tested in test_database_pool.py).
_POOL = DATABASES["default"]["OPTIONS"].get("pool")  # noqa: F405
if _POOL and "DATABASE_POOL_MAX_SIZE" not in os.environ:
    _POOL["max_size"] = 16
