"""The outward events of a game, sent by ``games.services`` with
``sender=Game`` once the transaction that caused them has committed, so a
receiver never sees a state that was rolled back. Who connects which, in
which ``AppConfig.ready()``: docs/architecture.md §1, "Outward events: signals".
"""

from __future__ import annotations

from django.dispatch import Signal

# ``game_id=<int>, version=<int>``: DARK is on turn at ``version``.
computer_turn_due = Signal()

# ``game_id=<int>, version=<int>``: the person asked for a hint on their roll.
hint_requested = Signal()

# ``game_id=<int>``: sent once, when the game has finished.
game_finished = Signal()

# ``game_id=<int>, version=<int>, position_id=<str>, dice=<list|None>``: the
# person has a decision to make at ``version`` (a roll to play, with its
# position and dice; a double to offer or answer, without) and plays with
# the tutor on: its ranking is to be computed while they think.
person_to_decide = Signal()

# ``game_id=<int>, version=<int>``: the tutor warned of the person's decision
# and saved the warning at ``version`` (``games.services``' coach): its words
# are to be made (learning.tutor, on the ``hints`` queue) and pushed.
tutor_warned = Signal()

# ``game=<Game>``: the game's row changed; its receiver (``games.live``) sends
# the new state to the game's sockets and returns the state it sent.
state_changed = Signal()
