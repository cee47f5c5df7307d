"""Regions as a hierarchy, from ``rsfmd/vocab/regions.csv``.

Each row names a region, its ``kind`` (scope, continent, polar, country, subregion, city, sea, theme,
planet) and the regions it is ``part_of`` (pipe-separated; Greenland is part of the Arctic and of
North America). Countries are placed on continents after the UN M49 geoscheme
(https://unstats.un.org/unsd/methodology/m49/), with the Americas split into North America
(Northern America, Central America, the Caribbean) and South America.

``coverage`` says how regions a model was pretrained or evaluated on relate to the region of a
user's data.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from functools import cache

from rsfmd.vocab import get_vocabulary

# Kinds that place a region on the globe; themes (tropics, coasts, urban areas) cut across them.
_PLACES = frozenset({"continent", "polar", "planet"})


class Coverage(IntEnum):
    """How far regions cover the region of the user's data, from worst to best."""

    elsewhere = 0  # on other continents (or another planet) only
    unknown = 1  # no region stated, or none that says either way
    near = 2  # the same continent, not the region itself
    inside = 3  # a part of the user's region
    covers = 4  # global, the region itself, or a region that contains it


@cache
def region_kind(name: str) -> str:
    """The kind of a canonical region ('' when unknown)."""
    vocab = get_vocabulary("regions")
    return vocab.column(name, "kind") if name in vocab.rows else ""


@cache
def region_ancestors(name: str) -> frozenset[str]:
    """The region itself and every region it is part of, transitively."""
    vocab = get_vocabulary("regions")
    if name not in vocab.rows:
        return frozenset({name})
    out = {name}
    for parent in vocab.column(name, "part_of").split("|"):
        if parent.strip():
            out |= region_ancestors(parent.strip())
    return frozenset(out)


@cache
def _places(name: str) -> frozenset[str]:
    return frozenset(r for r in region_ancestors(name) if region_kind(r) in _PLACES)


@cache
def region_coverage(have: str, wanted: str) -> Coverage:
    """How one region ``have`` (e.g. of pretraining data) covers the user's region ``wanted``."""
    if region_kind(have) == "scope" or have in region_ancestors(wanted):
        return Coverage.covers
    if wanted in region_ancestors(have):
        return Coverage.inside
    mine, theirs = _places(have), _places(wanted)
    if not mine or not theirs:
        return Coverage.unknown  # a theme (tropics, coasts) on either side
    if mine & theirs:
        return Coverage.near
    kinds = {region_kind(r) for r in mine | theirs}
    if "polar" in kinds and "planet" not in kinds:
        return Coverage.unknown  # the Arctic and North America overlap; the table cannot say how
    return Coverage.elsewhere


def coverage(have: Iterable[str], wanted: Iterable[str]) -> Coverage:
    """The best coverage of any of the user's regions by any of ``have``; unknown without regions."""
    have, wanted = list(have), list(wanted)
    if not have or not wanted:
        return Coverage.unknown
    return max(region_coverage(h, w) for h in have for w in wanted)
