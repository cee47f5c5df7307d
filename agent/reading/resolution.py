"""The spatial resolution of the user's imagery: a length said of it ('0.3 m aerial', 'GSD of
10 m', 'orthophotos (10 cm)') or a class of it ('VHR', 'medium resolution'); not the output's
resolution of a super-resolution task.
"""

from __future__ import annotations

import re

from agent.reading.terms import blank_spans

_GSD = re.compile(
    r"(\d+(?:\.\d+)?)[\s-]*(cm|m|meters?|metres?)\b(?!\s*(?:param|million|illion))(?=[^.]{0,25}(?:resolution|gsd|pixel)|"
    r"\s*(?:gsd|resolution|pixels?|spatial))"
)
_GSD_BEFORE = re.compile(
    r"(?:resolution|gsd)\s*(?:of|is|:|=)?\s*(\d+(?:\.\d+)?)[\s-]*(cm|m|km|meters?|metres?)\b"
)
# '50 cm Pleiades imagery', '10 m Sentinel-2 data': a length right before the imagery it describes.
_GSD_IMAGERY = re.compile(
    r"\b(\d+(?:\.\d+)?)[\s-]*(cm|m|km|meters?|metres?)\s+"
    r"(?:(?!(?:in|of|for|on|at|from|with|and|or|to)\b)[\w-]+\s+){0,2}?"
    r"(?:imagery|images?|data|orthophotos?|ortho-?imagery|photos?|tiles|scenes|mosaics?|embeddings?|"
    # '30 cm off-nadir satellite RGB': a length before the kind of imagery.
    r"rgb|sar|radar|multispectral|hyperspectral|optical|thermal|"
    # '10 m Sentinel-2', '50 cm WorldView-3': a length right before a sensor is its resolution.
    r"sentinel|landsat|planet(?:scope)?|worldview|pl[eé]iades|spot|naip|gaofen|modis|skysat)\b"
)
# 'ICEYE SAR (~1 m)', 'orthophotos (10 cm)', 'OLCI (21 bands, 300 m)': a length in brackets right after
# the imagery it describes, alone or as the last item of a short list of its properties.
_GSD_BRACKETED = re.compile(
    r"\((?:[^()]{1,30}?,\s*)?\s*(?:~|about|approx\.?|approximately|roughly|around|ca\.?|circa)?\s*"
    r"(\d+(?:\.\d+)?)\s*(cm|m)\s*(?:gsd|resolution)?\s*\)"
)
# 'canopy height at 10 m' (not 'at 3 m depth' or 'at 100 m altitude').
_GSD_AT = re.compile(
    r"\bat\s+(?:~\s*|about\s+|around\s+|approximately\s+|roughly\s+)?(\d+(?:\.\d+)?)\s*(cm|m|km|meters?|metres?)\b"
    r"(?!\s*(?:[\w-]+\s+)?(?:depth|deep|height|high|tall|elevation|altitude|above|below|under|wide|long|distance))"
)


# 'a 20 cm land-cover map', '10 m crop masks': the grid of the product asked for; the imagery is at
# least that fine, so it stands for the imagery's resolution when nothing else gives it.
_GSD_PRODUCT = re.compile(
    r"\b(\d+(?:\.\d+)?)[\s-]*(cm|m|km|meters?|metres?)\s+"
    r"(?:(?!(?:in|of|for|on|at|from|with|and|or|to)\b)[\w-]+\s+){0,3}?"
    r"(?:maps?|masks?|layers?|products?|rasters?)\b"
)


_OUTPUT_RESOLUTION = re.compile(
    r"\b(?:to|into|reach(?:ing)?|target(?:ing)?|output(?:s| at)?)\s+(?:an?\s+|the\s+)?"
    r"\d+(?:\.\d+)?[\s-]*(?:cm|m|meters?|metres?)\b(?:\s*(?:gsd|resolution|pixels?))?"
)


_SPEED = re.compile(
    r"\d+(?:\.\d+)?\s*(?:km|m|mi)\s*(?:/\s*(?:h|hr|hour|s|sec)\b|per\s+(?:hour|second)\b)|\d+\s*(?:kph|mph|km/h)\b"
)


def _resolution(text: str) -> tuple[str | None, float | None]:
    match = (
        _GSD.search(text)
        or _GSD_BEFORE.search(text)
        or _GSD_IMAGERY.search(text)
        or _GSD_AT.search(text)
        or _GSD_BRACKETED.search(text)
        or _GSD_PRODUCT.search(text)
    )
    if match:
        value = float(match.group(1)) * {"cm": 0.01, "km": 1000.0}.get(match.group(2), 1.0)
        return (f"{value / 1000:g} km" if value >= 1000 else f"{value:g} m"), value
    res = r"[\s-]res(?:olution)?\b"
    if re.search(rf"very[\s-]high{res}|\bvhr\b|sub[\s-]?met(?:er|re)|centimet(?:er|re)", text):
        return "very high (sub-metre)", 0.5
    if re.search(rf"\bhigh{res}|\bhi{res}|fine[\s-]resolution|high spatial resolution", text):
        return "high", None
    if re.search(rf"medium{res}|moderate{res}", text):
        return "medium (10-30 m)", 20.0
    if re.search(rf"\blow{res}|coarse[\s-]resolution", text):
        return "low (coarser than 30 m)", None
    return None, None


def read_resolution(
    lowered: str, application: str | None, task_type: str | None, notes: list[str]
) -> tuple[str | None, float | None]:
    """(resolution as said, in metres when known) of the input imagery, saying in ``notes`` which
    lengths are the output's."""
    targets = (
        list(_OUTPUT_RESOLUTION.finditer(lowered)) if "super-resolution" in (application, task_type) else []
    )
    # 'super-resolve Sentinel-2 to 2.5 m': the resolution after 'to' is the output's, not the data's.
    notes.extend(f"'{t.group(0).strip()}' read as the output resolution, not the input's" for t in targets)
    # ('a UAV at about 120 km/h': a speed, no length of a pixel)
    speeds = [m.span() for m in _SPEED.finditer(lowered)]
    return _resolution(blank_spans(lowered, [t.span() for t in targets] + speeds))
