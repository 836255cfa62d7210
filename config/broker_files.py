"""kombu's filesystem broker (the embedded defaults' Celery broker), made safe for two
processes: a message file appears whole. kombu creates the file under its final name and then
writes it, so a worker listing the folder in between takes an empty or half-written file and
dies on it (JSONDecodeError; kombu issue #1551), and ``make run`` stops with it."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

# a part is renamed within milliseconds of its writing: one an hour old lost its writer
STALE_PART_SECONDS = 3600


class Channel(filesystem.Channel):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sweep_parts()

    def _sweep_parts(self) -> None:
        """Removes the parts of writers that died between writing and renaming (each process
        opening the broker sweeps; nothing else would ever read or delete them)."""
        cutoff = time.time() - STALE_PART_SECONDS
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.data_folder_out):
                if entry.name.startswith("part-") and entry.stat().st_mtime < cutoff:
                    with contextlib.suppress(OSError):
                        os.remove(entry.path)

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        """Writes ``payload`` under a name no reader takes (it lacks ".<queue>.msg"), then
        renames it to kombu's own name: a rename within a folder is atomic."""
        final = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        part = os.path.join(self.data_folder_out, f"part-{uuid.uuid4()}")
        try:
            with open(part, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(part, os.path.join(self.data_folder_out, final))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
