"""An asyncio TCP proxy between the bot and a test PostgreSQL server that can make the network misbehave.

``blackhole()`` is a NAT that forgot its connections: every open connection stops forwarding in
both directions, its sockets stay open and nothing is sent (no reset, no close); new connections
are accepted and then left hanging too, until ``heal()``. After ``heal()`` new connections work
again but the blackholed ones stay dead, as they would behind the NAT. ``cut_after(marker)`` lets the
next client message holding ``marker`` (e.g. ``b"COMMIT"``) reach the server, then closes the bot's
side at once (the server's side once the server has answered): the request landed, its answer is
lost. ``cut_before(marker)`` closes both sides instead of forwarding it.

(The kernel still acknowledges what the bot sends to the proxy, so the bot's TCP keepalives and
user timeout cannot fire here: the deadlines in the bot's own code are what these tests check.)
"""

from __future__ import annotations

import asyncio
import contextlib
import urllib.parse
from dataclasses import dataclass, field
from typing import Literal

CHUNK = 65536


@dataclass
class _Pipe:
    """One proxied connection: the bot's side and the server's side."""

    client: asyncio.StreamWriter
    server: asyncio.StreamWriter | None = None
    dead: bool = False
    """Blackholed: nothing is forwarded any more, in either direction."""
    cut_on_answer: bool = False
    """The bot's side is closed; close the server's side once it answers."""
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def abort(self) -> None:
        """Close both sides at once (a reset)."""
        for writer in (self.client, self.server):
            if writer is not None:
                writer.transport.abort()


@dataclass
class TcpProxy:
    """Listens on 127.0.0.1 (a free port) and forwards to ``host:port``, misbehaving on cue."""

    host: str
    port: int
    listen_port: int = 0
    _server: asyncio.Server | None = None
    _pipes: list[_Pipe] = field(default_factory=list)
    _blackholed: bool = False
    _cut: tuple[bytes, Literal["after", "before"]] | None = None
    cuts: int = 0
    """How many connections a cut closed."""

    @classmethod
    def to(cls, url: str) -> TcpProxy:
        """A proxy for the server of a ``postgresql://`` URL."""
        split = urllib.parse.urlsplit(url)
        assert split.hostname is not None and split.port is not None
        return cls(split.hostname, split.port)

    def url(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        split = urllib.parse.urlsplit(url)
        user = split.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.listen_port}" if user else f"127.0.0.1:{self.listen_port}"
        return urllib.parse.urlunsplit(split._replace(netloc=netloc))

    async def start(self) -> TcpProxy:
        """Start listening; returns itself."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.listen_port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def close(self) -> None:
        """Stop listening and close every connection."""
        if self._server is not None:
            self._server.close()
        for pipe in self._pipes:
            pipe.abort()
            for task in pipe.tasks:
                task.cancel()
        for pipe in self._pipes:
            await asyncio.gather(*pipe.tasks, return_exceptions=True)
        self._pipes.clear()

    def blackhole(self) -> None:
        """Forward nothing more on the open connections, and leave new ones hanging (sockets kept open)."""
        self._blackholed = True
        for pipe in self._pipes:
            pipe.dead = True

    def heal(self) -> None:
        """Forward new connections again (the blackholed ones stay dead)."""
        self._blackholed = False

    def cut_after(self, marker: bytes) -> None:
        """Forward the next client message holding ``marker``, then lose the connection before its answer."""
        self._cut = (marker, "after")

    def cut_before(self, marker: bytes) -> None:
        """Lose the connection instead of forwarding the next client message holding ``marker``."""
        self._cut = (marker, "before")

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pipe = _Pipe(writer, dead=self._blackholed)
        self._pipes.append(pipe)
        if pipe.dead:  # a new connection into the void: accepted, never answered
            pipe.tasks.append(asyncio.current_task())  # type: ignore[arg-type]
            with contextlib.suppress(Exception):
                while await reader.read(CHUNK):
                    pass
            return
        try:
            server_reader, pipe.server = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        loop = asyncio.get_running_loop()
        pipe.tasks += [
            loop.create_task(self._upstream(pipe, reader)),
            loop.create_task(self._downstream(pipe, server_reader)),
        ]

    async def _upstream(self, pipe: _Pipe, reader: asyncio.StreamReader) -> None:
        """Bot to server."""
        assert pipe.server is not None
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(CHUNK):
                if pipe.dead:
                    continue  # swallowed: the server never hears of it
                if self._cut is not None and self._cut[0] in data:
                    how, self._cut = self._cut[1], None
                    self.cuts += 1
                    if how == "before":
                        pipe.dead = True
                        pipe.abort()
                        return
                    pipe.server.write(data)
                    await pipe.server.drain()
                    pipe.cut_on_answer = True
                    pipe.client.transport.abort()
                    return
                pipe.server.write(data)
                await pipe.server.drain()
        # the bot closed its side: tell the server, unless the connection is blackholed
        if not pipe.dead and not pipe.cut_on_answer and pipe.server.can_write_eof():
            with contextlib.suppress(OSError):
                pipe.server.write_eof()

    async def _downstream(self, pipe: _Pipe, reader: asyncio.StreamReader) -> None:
        """Server to bot."""
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(CHUNK):
                if pipe.cut_on_answer:  # the server answered what was cut: it was processed
                    pipe.abort()
                    return
                if pipe.dead:
                    continue
                pipe.client.write(data)
                await pipe.client.drain()
        if not pipe.dead:
            pipe.client.transport.abort()
