"""A bare echo socket, routed only when SHUANGLU_BENCH_ECHO=1 (bench/live.py's yardstick)."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class EchoConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)
