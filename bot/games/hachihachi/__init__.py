"""Nuki Hachi-hachi (being built: see the package modules)."""
