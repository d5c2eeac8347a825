"""Boards a person sets up or moves on: reading input, its errors in words, steps by the rules."""
