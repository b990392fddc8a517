"""Shared Discord UI: custom ids, dynamic buttons, rendering, errors, private messages.

The underscore keeps it from being loaded as an extension.
"""
