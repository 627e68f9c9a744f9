// The Discord Embedded App SDK dance: ready, authorize (a code), our server swaps the code for a token,
// authenticate; then the socket's hello names the token, the instance, its server and its channel.

import { DiscordSDK } from "./vendor/discord-sdk.js";

/** Sign the player in through the Discord client; resolves with the socket's `hello` frame. */
export async function signIn(clientId, tokenUrl) {
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "guilds"],
  });
  const response = await fetch(tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!response.ok) throw new Error(`Discord sign-in failed (${response.status})`);
  const { access_token: accessToken } = await response.json();
  await sdk.commands.authenticate({ access_token: accessToken });
  return {
    sdk,
    hello: {
      type: "hello",
      access_token: accessToken,
      instance_id: sdk.instanceId,
      guild_id: sdk.guildId,
      channel_id: sdk.channelId,
    },
  };
}
