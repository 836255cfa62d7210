"""A JSON column that PostgreSQL reads and writes through orjson.

Every move writes the engine's state (a few KB of JSON) and reads it back on every request
about the table. Django's ``JSONField`` goes through the standard library: for a mid-game
Cockroach Poker state on this machine, 50.7 µs to prepare and bind and 26.5 µs to read,
against 19.0 and 15.5 µs through orjson (bench/README.md). Values come back exactly as the
standard library would have made them: integers orjson cannot hold in 64 bits (it would turn them into floats
when reading, refuse them when writing) and anything else it refuses go through the standard
library as before. One difference: a NaN or infinite float is written as null (the API's
answers, also orjson, do the same), where the standard library's text made PostgreSQL refuse
the write; nothing we store holds floats. SQLite and fields with their own encoder or decoder
keep Django's path.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from psycopg.types.json import Jsonb

# orjson reads an integer exactly up to 2**64 - 1 when positive and down to -(2**63) when
# negative; past that it makes a float. Every positive integer of up to 19 digits fits (a state's
# random seed has 19 digits); so does no number of 20, nor a negative one of 19 that is not in
# range. Found by turning every digit into "0", a minus into itself and anything else into " "
# (bytes.translate and two substring searches: ~2.5 µs for a state, where a regular expression
# took ~30).
_DIGITS_AS_ZEROS = bytes(
    0x30 if 0x30 <= byte <= 0x39 else byte if byte == 0x2D else 0x20 for byte in range(256)
)
_TOO_LONG = b"0" * 20
_TOO_LOW = b"-" + b"0" * 19


def dumps(value: Any) -> bytes | str:
    """The JSON text of ``value`` as PostgreSQL will store it (jsonb keeps no spacing)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # past 64 bits, a lone surrogate, a type only the stdlib refuses too
        return json.dumps(value)


def loads(text: str) -> Any:
    encoded = text.encode()
    shape = encoded.translate(_DIGITS_AS_ZEROS)
    if _TOO_LONG not in shape and _TOO_LOW not in shape:
        try:
            return orjson.loads(encoded)
        except orjson.JSONDecodeError:
            pass  # what the standard library reads differently (NaN) or refuses: it decides
    return json.loads(text)


class JSONField(models.JSONField):
    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        adapted = super().get_db_prep_value(value, connection, prepared)
        if self.encoder is None and isinstance(adapted, Jsonb):
            adapted.dumps = dumps
        return adapted

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if self.decoder is None and isinstance(value, str) and connection.vendor == "postgresql":
            try:
                return loads(value)
            except json.JSONDecodeError:
                return value  # as Django answers text that is not JSON
        return super().from_db_value(value, expression, connection)
