"""Playing on SimCord: start a game, read its buttons and stored row, send clicks and commands before the bot acts."""

from __future__ import annotations

import json
from typing import Any

from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

from bot.storage import games as games_db


def labels(message: Any) -> dict[str, dict[str, Any]]:
    """The board's buttons by label."""
    return {c["label"]: c for row in message.components for c in row.get("components", [])}


async def start(actor: Any, channel: Any, **options: Any) -> Any:
    result = await actor.slash(channel, "solitaire start", **options)
    assert result.response is not None, result
    return result.response


async def row(env: Any, game_id: int = 1) -> games_db.GameRecord:
    record = await games_db.get_game(env.bot.db, game_id)
    assert record is not None
    return record


async def raw_clicks(env: Any, actor: Any, message: Any, custom_id: str, times: int = 1) -> list[InteractionResult]:
    """Send ``times`` clicks with ``custom_id`` before the bot handles any (a double click, or a forged id)."""
    return await clicks_at_once(env, actor, message, [custom_id] * times)


async def clicks_at_once(env: Any, actor: Any, message: Any, custom_ids: list[str]) -> list[InteractionResult]:
    """Send a click for each of ``custom_ids`` on ``message`` before the bot handles any."""
    stored = env.backend.get_message(message.channel_id, message.id)
    pending = []
    for custom_id in custom_ids:
        snapshot = json.loads(json.dumps(serializers.message_payload(env.backend, stored)))
        snapshot["components"][0]["components"][0]["custom_id"] = custom_id  # the message as the client saw it
        record, payload = sim_interactions.base_payload(
            env.backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=message.channel_id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
        )
        payload["message"] = snapshot
        record.source_message_id = stored.id
        pending.append((record, payload))
    for _, payload in pending:
        env.backend.emit("INTERACTION_CREATE", payload)
    await env.settle()
    return [InteractionResult(env, record) for record, _ in pending]


async def slash_burst(env: Any, actor: Any, channel: Any, name: str, times: int, **options: Any) -> list[Any]:
    """``times`` identical slash commands sent before the bot handles any (a spamming client)."""
    from simcord import actors
    from simcord.enums import AppCommandType

    parts = name.split()
    root = actors._resolve_visible_command(actor, channel.id, parts[0], AppCommandType.CHAT_INPUT)
    leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = sim_interactions.build_options(actor, name, leaf, options, channel_id=channel.id)
    data = {"id": root["id"], "name": root["name"], "type": AppCommandType.CHAT_INPUT}
    data["options"] = sim_interactions.nest_options(root, nesting, leaf_options)
    if resolved:  # member, channel and role options
        data["resolved"] = resolved
    pending = []
    for _ in range(times):
        record, payload = sim_interactions.base_payload(
            env.backend,
            type=InteractionType.APPLICATION_COMMAND,
            channel_id=channel.id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        pending.append((record, payload))
    for _, payload in pending:
        env.backend.emit("INTERACTION_CREATE", payload)
    await env.settle()
    return [InteractionResult(env, record) for record, _ in pending]
