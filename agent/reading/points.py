"""Whether the user's LiDAR is used as points ('per-point classes', 'on the point cloud itself')
rather than rasterised to heights: a model of elevation rasters takes none of it.

The phrasings are rows of ``cues.csv`` (field ``lidar_form``): ``points`` for work on the points,
``raster`` for a rasterising, ``lost`` for what a refused rasterising is said to lose.
"""

from __future__ import annotations

import re

from agent.reading.tables import cue_pattern

# A rasterising the user turns down leaves the points theirs: 'rather than rasterise', 'not from
# rasterised canopy models', 'rasterising to a CHM throws away the vertical structure'.
_REFUSED_BEFORE = re.compile(
    r"(?:\bthan|\binstead of|\bnot|\bwithout|\bno|n't|\bavoid(?:ing)?)\s+(?:[\w-]+\s+){0,2}$"
)
_CLAUSE_END = re.compile(r"[.;!?]|\bbut\b")


def lidar_as_points(lowered: str) -> bool:
    """Whether the task works on the LiDAR points themselves, with no rasterising offered."""
    if not cue_pattern("lidar_form", "points").search(lowered):
        return False
    return not any(_offered(lowered, m) for m in cue_pattern("lidar_form", "raster").finditer(lowered))


def _offered(lowered: str, match: re.Match[str]) -> bool:
    """Whether the rasterising at ``match`` is one the user does or would do, not one turned down."""
    if _REFUSED_BEFORE.search(lowered[max(0, match.start() - 40) : match.start()]):
        return False
    clause = _CLAUSE_END.split(lowered[match.end() :], maxsplit=1)[0]
    return not cue_pattern("lidar_form", "lost").search(clause)
