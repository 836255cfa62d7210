"""Several group messages in one exchange with Redis, sent from the calling thread.

channels-redis sends one group message in two to four round trips (drop the group's expired
members, list them, drop the members' expired messages, a script that adds the message) from
an event loop, and a move pings four to six groups (its table, each player's lists): up to 16
round trips and, measured in process, 1.5 ms of CPU a move in a sender thread's loop.
``group_send_many`` does the same work for a change's pings in two round trips per Redis host
(one script lists every group's members, one adds every message) with a plain
redis-py client, in the thread that committed: no loop to wake, no thread to hand over to.

It keeps ``group_send``'s keys, serialisation (the layer's own), per-channel capacity and
expiry, so a consumer receives what it would have; the messages of a batch reach a channel in
the batch's order. A layer that is not channels-redis's ``RedisChannelLayer`` with address
hosts (the in-memory one, the pub/sub one) is sent to one group at a time.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Any

import redis
from asgiref.sync import async_to_sync

# A slow Redis delays the committing request by at most about this, never fails it: a lost
# ping costs a refresh (the heartbeat's answer carries the revision).
SOCKET_TIMEOUT_SECONDS = 0.25

# KEYS: the channels' message keys, one per message (a key may repeat). ARGV: the messages,
# their scores, the channels' capacities, then the oldest score kept and the keys' expiry.
_ADD_MESSAGES = """
local n = #KEYS
local oldest = ARGV[3 * n + 1]
local expiry = ARGV[3 * n + 2]
local over_capacity = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[2 * n + i]) then
        redis.call('ZADD', KEYS[i], ARGV[n + i], ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""
# KEYS: the groups' keys. ARGV[1]: the oldest score kept. Each group's live members, its
# expired ones dropped first: one command for every group, where a pipeline of two commands a
# group cost redis-py ~0.3 ms of CPU for a move's four groups (packing, parsing each reply).
_LIST_MEMBERS = """
local members = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, ARGV[1])
    members[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
end
return members
"""
# Scores a microsecond apart keep a batch's messages to one channel in order (the receiving
# side pops the lowest score first; at equal scores the random prefixes would decide).
_STEP = 1e-6

_clients: dict[str, Any] = {}
_scripts: dict[tuple[int, str], Any] = {}  # (id of its client, source): clients live for good
_clients_lock = threading.Lock()


def batchable(layer: Any) -> bool:
    hosts = getattr(layer, "hosts", None) or []
    return (
        all(
            hasattr(layer, name)
            for name in ("_group_key", "_map_channel_keys_to_connection", "consistent_hash")
        )
        and hasattr(layer, "group_expiry")
        and bool(hosts)
        and all(isinstance(host, dict) and "address" in host for host in hosts)
    )


def group_send_many(layer: Any, pings: list[tuple[str, dict[str, Any]]]) -> int:
    """Sends each (group, message) as ``layer.group_send`` would; returns how many messages
    found their channel full (dropped, as ``group_send`` drops them)."""
    if not batchable(layer):
        for group, message in pings:
            async_to_sync(layer.group_send)(group, message)
        return 0
    for group, _message in pings:
        assert layer.require_valid_group_name(group), "Group name not valid"
    now = time.time()
    members = _members(layer, [group for group, _message in pings], now)
    # per Redis host: the (channel key, serialized message, capacity) to add, in batch order
    adds: dict[int, list[tuple[str, bytes, int]]] = defaultdict(list)
    for group, message in pings:
        if not members[group]:
            continue
        by_host, messages, capacities = layer._map_channel_keys_to_connection(
            members[group], message
        )
        for index, keys in by_host.items():
            adds[index].extend((key, messages[key], capacities[key]) for key in keys)
    over_capacity = 0
    for index, entries in adds.items():
        keys = [key for key, _message, _capacity in entries]
        scores = [repr(now + _STEP * i) for i in range(len(entries))]
        args: list[bytes | str | int] = [message for _key, message, _capacity in entries]
        args += scores + [capacity for _key, _message, capacity in entries]
        args += [int(now) - int(layer.expiry), layer.expiry]
        over_capacity += int(_script(layer, index, _ADD_MESSAGES)(keys=keys, args=args))
    return over_capacity


def _members(layer: Any, groups: list[str], now: float) -> dict[str, list[str]]:
    """Each group's live channels (its expired members dropped first), one call per host."""
    by_host: dict[int, list[str]] = defaultdict(list)
    for group in dict.fromkeys(groups):
        by_host[layer.consistent_hash(group)].append(group)
    members: dict[str, list[str]] = {}
    for index, host_groups in by_host.items():
        listed = _script(layer, index, _LIST_MEMBERS)(
            keys=[layer._group_key(group) for group in host_groups],
            args=[int(now) - layer.group_expiry],
        )
        for group, names in zip(host_groups, listed, strict=True):
            members[group] = [name.decode("utf8") for name in names]
    return members


def _script(layer: Any, index: int, source: str) -> Any:
    """The script on the layer's host ``index`` (EVALSHA, loaded on its first use)."""
    client = _client(layer, index)
    key = (id(client), source)
    script = _scripts.get(key)
    if script is None:
        script = _scripts[key] = client.register_script(source)
    return script


def _client(layer: Any, index: int) -> Any:
    """A thread-safe redis-py client of the layer's host ``index``, with the host's options
    (database, credentials, TLS) as channels-redis passes them to its pool, and the ping's own
    timeouts (its pool starts afresh in a forked process)."""
    host = dict(layer.hosts[index])
    address = host.pop("address")
    host.update(
        socket_timeout=SOCKET_TIMEOUT_SECONDS, socket_connect_timeout=SOCKET_TIMEOUT_SECONDS
    )
    key = repr((address, sorted(host.items())))
    client = _clients.get(key)
    if client is None:
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = redis.Redis.from_url(address, **host)
    return client
