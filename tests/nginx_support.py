"""nginx for the tests that put it in front of the site (tests/test_nginx_micro_cache.py: the
documented micro-cache; tests/test_several_hosts.py: a balancer over two hosts).

:class:`Nginx` runs it in the foreground with everything of its own (configuration, pid, logs,
temporary files) in one folder; the test writes ``folder/nginx.conf`` (``user_line()`` first)
listening on ``port``. Locally a machine without nginx skips such a test; in CI it fails
(tests/support.py, ``missing_service``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.support import missing_service


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def nginx_binary() -> str:
    """The nginx to run (skips or fails the test without one)."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(binary):
        missing_service(f"needs nginx at {binary} (apt-get install nginx)")
    return binary


def user_line() -> str:
    """As root, nginx's workers would switch to an unprivileged user that cannot write the
    test's folder: they stay root here (a test on loopback, not a deployment)."""
    return "user root;\n" if os.geteuid() == 0 else ""


class Nginx:
    """nginx in the foreground, everything of its own (configuration, pid, logs, temporary
    files) in one folder; its configuration is ``folder/nginx.conf``, listening on ``port``."""

    def __init__(self, binary: str, folder: Path) -> None:
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(self.binary, "-p", str(self.folder), "-e", str(self.folder / "error.log")),
                *("-c", str(self.folder / "nginx.conf"), "-g", "daemon off;"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=(self.folder / "nginx.stderr").open("wb"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"nginx exited:\n{self.error_log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nginx never listened on {self.port}:\n{self.error_log()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # nginx's graceful shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)

    def error_log(self) -> str:
        parts = [self.folder / "error.log", self.folder / "nginx.stderr"]
        return "\n".join(p.read_text(errors="replace") for p in parts if p.exists())
