"""Reading a replay page back: the data it carries, as the page's script reads it."""

from __future__ import annotations

import json
from typing import Any

_DATA_TAG = '<script type="application/json" id="replay-data">'


def data_of(page: str) -> dict[str, Any]:
    """The replay data a page holds."""
    start = page.index(_DATA_TAG) + len(_DATA_TAG)
    end = page.index("</script>", start)
    loaded: dict[str, Any] = json.loads(page[start:end])
    return loaded
