async def test_bot_syncs_the_solitaire_group_and_explains_rules(simcord_env, channel, alice):
    assert "solitaire rules" in alice.available_commands(channel)
    assert "solitaire start" in alice.available_commands(channel)
    result = await alice.slash(channel, "solitaire rules", variant="friday13")
    assert result.response is not None
    assert result.response.ephemeral
    assert "Friday 13" in result.response.content
