"""Headless Chromium for the tests that drive a page as a person does (the replay page, the
``serve`` tables): Debian's ``chromium`` over the DevTools protocol, standard library only."""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CHROMIUM = "/usr/bin/chromium"


class Chromium:
    """Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
    commands are NUL-terminated JSON on the browser's fd 3, replies on its fd 4), so the test
    needs no Python package beyond the standard library."""

    def __init__(self, exe: str = CHROMIUM, timeout: float = 30.0):
        cmd_read, self._cmd_write = os.pipe()
        self._reply_read, reply_write = os.pipe()

        def as_fd_3_and_4():  # in the child, before exec: the pipes become fds 3 and 4
            a = fcntl.fcntl(cmd_read, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(reply_write, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="forest-envs-chromium-")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--force-device-scale-factor=1",
             f"--user-data-dir={self._profile}", "--window-size=1400,1000", "about:blank"],
            preexec_fn=as_fd_3_and_4, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_read)
        os.close(reply_write)
        self._buffer, self._id, self.session = b"", 0, None

    def send(self, method: str, **params):
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self._cmd_write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self._reply_read], [], [], left)[0]:
                    raise TimeoutError(f"chromium did not answer {method}")
                chunk = os.read(self._reply_read, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", url=url)["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def open_in_new_context(self, url: str) -> Tab:
        """A page on ``url`` in a browser context of its own (its own cookies, storage and
        cache: another person's browser), driven through the returned ``Tab``."""
        saved, self.session = self.session, None   # browser-level commands carry no session
        try:
            context = self.send("Target.createBrowserContext")["browserContextId"]
            target = self.send("Target.createTarget", url=url, browserContextId=context)["targetId"]
            session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        finally:
            self.session = saved
        return Tab(self, session)

    def js(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def press(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def wait_for(self, expression: str, timeout: float = 20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(expression)

    def wait_for_or_none(self, expression: str, timeout: float = 20.0):
        try:
            return self.wait_for(expression, timeout)
        except TimeoutError:
            return None

    def close(self) -> None:
        try:
            self.session = None
            self.send("Browser.close")
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        finally:
            os.close(self._cmd_write)
            os.close(self._reply_read)
            shutil.rmtree(self._profile, ignore_errors=True)


class Tab:
    """A page of a ``Chromium`` in a browser context of its own, on the same DevTools pipe:
    ``js``, ``wait_for`` and ``send`` as the browser's, addressed to this page."""

    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session

    def send(self, method: str, **params):
        saved, self.browser.session = self.browser.session, self.session
        try:
            return self.browser.send(method, **params)
        finally:
            self.browser.session = saved

    js = Chromium.js
    wait_for = Chromium.wait_for
    wait_for_or_none = Chromium.wait_for_or_none
