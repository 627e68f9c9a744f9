// The Discord Embedded App SDK dance: ready, authorize (a code), our server swaps the code for a token,
// authenticate; then the socket's hello names the token, the instance, its server and its channel, and the locale
// of the player's client (a hint the server takes only if it is one of Discord's locales).

import { word } from "./speech.js";
import { DiscordSDK } from "./vendor/discord-sdk.js";

const LOCALE_MS = 1500; // the client's locale is a hint for the words: not worth a longer wait

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
  if (!response.ok) throw new Error(word("sign_in_refused", { status: String(response.status) }));
  const { access_token: accessToken } = await response.json();
  await sdk.commands.authenticate({ access_token: accessToken });
  const hello = {
    type: "hello",
    access_token: accessToken,
    instance_id: sdk.instanceId,
    guild_id: sdk.guildId,
    channel_id: sdk.channelId,
  };
  const locale = await clientLocale(sdk);
  if (locale) hello.locale = locale;
  return { sdk, hello };
}

/** The locale of the player's Discord client, or null (not told, or not in time). */
async function clientLocale(sdk) {
  const late = new Promise((resolve) => setTimeout(() => resolve(null), LOCALE_MS));
  try {
    const answer = await Promise.race([sdk.commands.userSettingsGetLocale(), late]);
    return answer && typeof answer.locale === "string" && answer.locale.length <= 16 ? answer.locale : null;
  } catch {
    return null;
  }
}
