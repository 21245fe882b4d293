"""Why a request is not applied: forbidden to its sender (dropped unanswered), or refused
(answered with a code and a message)."""

from __future__ import annotations


class Forbidden(Exception):
    """The sender may not make this request: dropped, and not answered."""


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
