"""Shared by the SimCord benchmarks: clicks and commands sent without waiting, when each was answered, and a deck
that never gets stuck."""

from __future__ import annotations

import json
import time
from typing import Any

from simcord import actors as sim_actors
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.backend.models import interaction as sim_model
from simcord.enums import AppCommandType, ComponentType, InteractionType

from solitaire import Card
from solitaire.deals import DealRequest, ProvenDeal

ANSWERED: dict[int, float] = {}
"""Interaction id -> perf_counter() when the bot's response reached the simulated Discord."""


def record_answers() -> None:
    """Stamp the moment each interaction gets its response (SimCord's response markers)."""
    for name in ("respond_with_message", "update_source", "defer", "defer_update"):
        original = getattr(sim_model.Interaction, name)

        def stamped(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            ANSWERED.setdefault(self.id, time.perf_counter())
            return _original(self, *args, **kwargs)

        setattr(sim_model.Interaction, name, stamped)


def send_click(env: Any, member: Any, message_id: int, channel_id: int, custom_id: str, *, shown: bool = False) -> int:
    """Send one button click without waiting for it; return the interaction id.

    ``shown``: the message is sent as if its first button had ``custom_id`` (a button of a message
    the benchmark did not post, e.g. Analyze on a game it finished through the sessions).
    """
    stored = env.backend.get_message(channel_id, message_id)
    snapshot = dict(serializers.message_payload(env.backend, stored))
    if shown:
        snapshot = json.loads(json.dumps(snapshot))
        snapshot["components"][0]["components"][0]["custom_id"] = custom_id
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=channel_id,
        guild_id=member.guild.id,
        user_id=member.id,
        data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
    )
    payload["message"] = snapshot
    record.source_message_id = stored.id
    env.backend.emit("INTERACTION_CREATE", payload)
    return int(record.id)


def send_slash(env: Any, member: Any, channel: Any, name: str, **options: Any) -> int:
    """Send one slash command (``"solitaire start"``) without waiting for it; return the interaction id."""
    parts = name.split()
    root = sim_actors._resolve_visible_command(member, channel.id, parts[0], AppCommandType.CHAT_INPUT)
    leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = sim_interactions.build_options(member, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": sim_interactions.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=member.guild.id,
        user_id=member.id,
        data=data,
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return int(record.id)


def _open_deck() -> tuple[Card, ...]:
    """A deck whose game never gets stuck however often you draw (A..7 on top of the piles, in order)."""
    low = [Card(rank, suit) for rank in range(1, 8) for suit in "SHDC"]
    tableau: list[Card] = []
    for size, start in zip(range(1, 8), (0, 1, 3, 6, 10, 15, 21), strict=True):
        tableau += reversed(low[start : start + size])
    return tuple(tableau + [Card(rank, suit) for rank in range(8, 14) for suit in "SHDC"])


OPEN_DECK = _open_deck()


def instant_daily(request: DealRequest) -> ProvenDeal:
    """The day's deals without a solve: the benchmarks' deal bank has no worker processes, so a real daily
    solve would run on the event loop (in the bot it runs in the deal workers) and be measured as click time."""
    return ProvenDeal(request.variant, 0, OPEN_DECK, ())
