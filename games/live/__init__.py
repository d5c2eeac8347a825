"""The game's socket: consumer, commands, state JSON, push, session watch, guards, routing.

The only package of ``games`` that imports Channels. The writer
(``games.services``) never imports it: outward events go through
``games.signals``, connected here in ``GamesConfig.ready()``.
"""
