"""Errors an engine (or any layer) raises to refuse an input with a reason for the player."""


class UserFacingError(Exception):
    """A refusal whose message is fit to show the member who caused it (ephemerally)."""


class IllegalMove(UserFacingError):
    """The engine refuses an action; the state is unchanged."""
