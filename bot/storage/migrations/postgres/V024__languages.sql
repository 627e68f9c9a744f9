-- Languages: a member's own choice (/solitaire settings language:) and the last locale Discord reported for them
-- (their direct messages are written in it), and a server's choice for its public posts (/solitaire config
-- language:). NULL: automatic (Discord's locale of the member, or the server's preferred locale).
ALTER TABLE player_settings ADD COLUMN language TEXT;
ALTER TABLE player_settings ADD COLUMN discord_locale TEXT;
ALTER TABLE guild_settings ADD COLUMN language TEXT;
