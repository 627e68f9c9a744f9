import discord
import pytest

from bot.runtime.client import GatewayRedirect, use_api_base


@pytest.mark.parametrize(
    "requested",
    [
        "wss://gateway.discord.gg/?v=10&encoding=json&compress=zlib-stream",
        "wss://gateway-us-east1-b.discord.gg?v=10&encoding=json&compress=zlib-stream",
    ],
)
def test_every_gateway_connection_goes_to_the_proxy_with_discords_query(requested):
    redirect = GatewayRedirect(lambda *a, **k: None, "ws://proxy.local:7878/gw")  # type: ignore[arg-type,return-value]
    assert redirect.target(requested) == "ws://proxy.local:7878/gw?v=10&encoding=json&compress=zlib-stream"


async def test_the_redirect_passes_the_connection_options_through():
    seen = []

    async def connect(url, **kwargs):
        seen.append((url, kwargs))
        return "socket"

    redirect = GatewayRedirect(connect, "ws://proxy.local:7878")
    assert await redirect("wss://gateway.discord.gg/?v=10", compress=15) == "socket"
    assert seen == [("ws://proxy.local:7878/?v=10", {"compress": 15})]


def test_api_base_moves_every_route(monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    use_api_base("http://localhost:8080/api/v10/")
    route = discord.http.Route("POST", "/interactions/{id}/{token}/callback", id=1, token="t")
    assert route.url == "http://localhost:8080/api/v10/interactions/1/t/callback"
