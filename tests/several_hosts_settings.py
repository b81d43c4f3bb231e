"""The production settings (config.settings.base) for the gunicorns of test_several_hosts.py.

Only one thing differs: the cache keys carry the test run's own prefix, shared by both hosts.
The test database starts its ids again with each run while Redis keeps what earlier runs cached,
so without it a copy cached for another run's event 1 could answer for this one's.
"""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import CACHES

CACHES["default"]["KEY_PREFIX"] = os.environ["SEVERAL_HOSTS_CACHE_PREFIX"]
