"""What the settings' console handler (LOGGING's, on the root logger) writes: its filters and
all, as a process's standard error would show it."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator


@contextlib.contextmanager
def console_output() -> Iterator[io.StringIO]:
    # pytest's own handlers subclass StreamHandler: the settings' is a plain one
    [console] = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    written = io.StringIO()
    previous = console.setStream(written)
    try:
        yield written
    finally:
        console.setStream(previous)
