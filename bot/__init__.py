"""Tanzaku: a Discord bot hosting games of chance and nerve."""
