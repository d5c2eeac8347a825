"""The game's socket: consumer, commands, state JSON, push, session watch, guards, routing.

The only package of ``games`` that imports Channels, and none below it
imports it (docs/architecture.md §1, "Who may import whom").
"""
