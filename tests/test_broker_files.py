"""The embedded defaults' broker (config/broker_files.py): a worker reading the folder while
the site writes to it never takes a message before it is whole. kombu's own filesystem
transport gives the reader the empty file it has just created (the worker then dies on it)."""

from __future__ import annotations

import threading
from queue import Empty

import pytest
from kombu import Connection

PAYLOAD = {"body": "x" * 400_000}  # a long write: the window between create and write
MESSAGES = 60


def send_while_reading(tmp_path, transport: str) -> tuple[int, list[BaseException]]:
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path)}
    writer = Connection("filesystem://", transport=transport, transport_options=options)
    reader = Connection("filesystem://", transport=transport, transport_options=options)
    out, into = writer.default_channel, reader.default_channel
    errors: list[BaseException] = []
    read = 0
    done = threading.Event()

    def read_all() -> None:
        nonlocal read
        while read < MESSAGES and not (done.is_set() and not any(tmp_path.iterdir())):
            try:
                message = into._get("q")
            except Empty:
                continue
            except Exception as exc:  # what kills the worker
                errors.append(exc)
                continue
            assert message == PAYLOAD
            read += 1

    thread = threading.Thread(target=read_all)
    thread.start()
    for _ in range(MESSAGES):
        out._put("q", PAYLOAD)
    done.set()
    thread.join(timeout=60)
    writer.release()
    reader.release()
    return read, errors


@pytest.mark.parametrize("attempt", range(3))
def test_a_message_is_read_whole_while_others_are_written(tmp_path, attempt):
    read, errors = send_while_reading(tmp_path, "config.broker_files:Transport")
    assert errors == [] and read == MESSAGES


def test_a_part_left_by_a_writer_that_died_is_swept_when_the_broker_opens(tmp_path):
    import os
    import time

    old, fresh = tmp_path / "part-old", tmp_path / "part-fresh"
    old.write_bytes(b'{"half')
    fresh.write_bytes(b'{"being written')
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path)}
    connection = Connection(
        "filesystem://", transport="config.broker_files:Transport", transport_options=options
    )
    assert connection.default_channel is not None  # opening the broker sweeps
    connection.release()
    assert not old.exists(), "a part an hour old lost its writer"
    assert fresh.exists(), "a part being written is left to its writer"
