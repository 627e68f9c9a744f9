// A fake Discord client for the browser tests: it embeds the Activity in an iframe with the query parameters
// the Embedded App SDK reads, and speaks the SDK's postMessage RPC: [opcode, payload] with opcodes HANDSHAKE 0,
// FRAME 1, CLOSE 2; it answers the SDK's HANDSHAKE with the READY dispatch, AUTHORIZE with a code,
// AUTHENTICATE with the user and USER_SETTINGS_GET_LOCALE with the `locale` it was given (none: an error, as for
// every command it does not fake), each answer carrying the command's nonce. Everything it sees is in
// window.fakeDiscord.

(() => {
  const params = new URLSearchParams(location.search);
  const target = new URL(params.get("target"));
  const place = {
    frame_id: "fake-frame-1",
    instance_id: params.get("instance_id") || "i-1",
    platform: params.get("platform") || "desktop",
    guild_id: params.get("guild_id") || "111",
    channel_id: params.get("channel_id") || "222",
    location_id: "gc-111-222",
  };
  const user = { id: params.get("user_id") || "42", username: "tester", discriminator: "0", global_name: "Tester" };
  for (const [key, value] of Object.entries(place)) target.searchParams.set(key, value);

  const seen = { handshake: null, commands: [], codes: [], tokens: [] };
  window.fakeDiscord = seen;
  const iframe = document.createElement("iframe");
  iframe.src = target.toString();
  iframe.allow = "autoplay; clipboard-write";
  document.body.append(iframe);

  function reply(payload) {
    iframe.contentWindow.postMessage([1, payload], target.origin);
  }

  function answer(command) {
    const { cmd, nonce, args } = command;
    if (cmd === "AUTHORIZE") {
      const code = params.get("code") || `code-${seen.codes.length + 1}`;
      seen.codes.push(code);
      return reply({ cmd, evt: null, nonce, data: { code } });
    }
    if (cmd === "AUTHENTICATE") {
      seen.tokens.push(args.access_token);
      return reply({
        cmd,
        evt: null,
        nonce,
        data: {
          access_token: args.access_token,
          user: { ...user, avatar: null, public_flags: 0 },
          scopes: ["identify", "guilds"],
          expires: new Date(Date.now() + 7 * 864e5).toISOString(),
          application: { id: seen.handshake.client_id, name: "Solitaire Rush", description: "", icon: null },
        },
      });
    }
    if (cmd === "USER_SETTINGS_GET_LOCALE" && params.get("locale")) {
      return reply({ cmd, evt: null, nonce, data: { locale: params.get("locale") } });
    }
    if (cmd === "CAPTURE_LOG" || cmd === "SUBSCRIBE" || cmd === "UNSUBSCRIBE") {
      return reply({ cmd, evt: null, nonce, data: cmd === "CAPTURE_LOG" ? null : { evt: command.evt } });
    }
    return reply({ cmd, evt: "ERROR", nonce, data: { code: 1000, message: `${cmd} is not faked` } });
  }

  window.addEventListener("message", (event) => {
    if (event.source !== iframe.contentWindow || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    if (opcode === 0) {
      seen.handshake = payload;
      reply({
        cmd: "DISPATCH",
        evt: "READY",
        nonce: null,
        data: {
          v: 1,
          config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
          user: { id: user.id, username: user.username, discriminator: user.discriminator },
        },
      });
    } else if (opcode === 1) {
      if (payload.cmd !== "CAPTURE_LOG") seen.commands.push({ cmd: payload.cmd, args: payload.args });
      answer(payload);
    }
  });
})();
