"""The dice derivation (games.engine.fairdice) against docs/dice.md's test vector,
and its mapping from bytes to faces shown unbiased on exhaustive inputs."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from collections import Counter
from pathlib import Path

from games.engine import fairdice
from games.engine.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
SEED = bytes(range(32))


def _doc_value(label: str) -> str:
    row = next(line for line in DOC.read_text().splitlines() if line.startswith(f"| {label}"))
    return row.split("|")[2].strip()


def test_the_derivation_gives_the_documented_test_vector() -> None:
    text = DOC.read_text()
    assert f"`{SEED.hex()}`" in text
    assert _doc_value("commitment").strip("`") == fairdice.commitment(SEED)
    mac = hmac.new(SEED, b"shuanglu:0:0", hashlib.sha256).hexdigest()
    assert _doc_value("HMAC of `shuanglu:0:0`").strip("`") == mac
    documented = re.findall(r"(\d)-(\d)", _doc_value("rolls 0–3"))
    rolls = [fairdice.roll_of(SEED, "shuanglu", r) for r in range(4)]
    assert rolls == [(int(a), int(b)) for a, b in documented]
    assert fairdice.die(SEED, "shuanglu", 0) == 5
    assert fairdice.die(SEED, "shuanglu", 1) == 1


def test_a_skipped_byte_moves_on_to_the_next_as_documented() -> None:
    mac = hmac.new(SEED, b"shuanglu:25:0", hashlib.sha256).digest()
    assert mac[0] >= fairdice.ACCEPT_BELOW  # the documented example is a skip
    assert fairdice.die(SEED, "shuanglu", 25) == mac[1] % 6 + 1 == 1


def test_every_byte_value_maps_evenly_onto_the_faces() -> None:
    faces = Counter(fairdice.die_from_bytes(bytes([b])) for b in range(256))
    assert faces == {1: 42, 2: 42, 3: 42, 4: 42, 5: 42, 6: 42, None: 4}


def test_every_pair_of_bytes_gives_each_face_equally_often() -> None:
    # All 65,536 two-byte inputs: a skipped first byte hands over to the
    # second, and still no face is favoured.
    faces = Counter(
        fairdice.die_from_bytes(bytes(pair)) for pair in itertools.product(range(256), repeat=2)
    )
    assert faces[None] == 16
    assert {faces[f] for f in range(1, 7)} == {(65536 - 16) // 6}


def test_the_cli_says_which_roll_does_not_match(capsys: object) -> None:
    args = ["verify-dice", "--server-seed", SEED.hex(), "--person-seed", "shuanglu"]
    committed = ["--commitment", fairdice.commitment(SEED)]
    assert main([*args, *committed, "0=51", "1=24"]) == 0
    assert main([*args, *committed, "0=51", "1=42", "2=13"]) == 1
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "roll 1: played 4-2, the seeds give 2-4: DOES NOT MATCH" in out
    assert "roll 2: 1-3 matches" in out
    assert main([*args, "--commitment", "00" * 32, "0=51"]) == 1
    assert "commitment: DOES NOT MATCH" in capsys.readouterr().out  # type: ignore[attr-defined]


def test_a_person_seed_outside_the_alphabet_is_refused_in_words() -> None:
    assert fairdice.valid_person_seed("a" * 64)
    assert not fairdice.valid_person_seed("a" * 65)
    assert not fairdice.valid_person_seed("has space")
