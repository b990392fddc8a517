"""Figures the computer-player benchmarks share: percentiles and 95% intervals."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z = 1.96
"""The normal quantile of a two-sided 95% interval."""


def percentile(values: Sequence[float], share: float) -> float:
    """The value at ``share`` (0..1) of the sorted values (the nearest rank below)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wilson(wins: float, count: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``wins / count`` (draws may count half)."""
    share = wins / count
    scale = 1 + Z * Z / count
    centre = (share + Z * Z / (2 * count)) / scale
    half = Z * math.sqrt(share * (1 - share) / count + Z * Z / (4 * count * count)) / scale
    return centre - half, centre + half


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return statistics.fmean(values), Z * spread / math.sqrt(len(values))
