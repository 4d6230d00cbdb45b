#!/usr/bin/env python3
"""Runs papermap on tiles from a loopback server: registers a tile provider for URL (papermap
knows only its built-in providers), then makes the map as `papermap latlon` would."""
import sys
from papermap.papermap import PaperMap
from papermap.tile_provider import TileProvider
from papermap.tile_providers import KEY_TO_TILE_PROVIDER

url, lat, lon, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
grid = len(sys.argv) > 5 and sys.argv[5] == "grid"
KEY_TO_TILE_PROVIDER["bench"] = TileProvider(key="bench", name="bench", attribution="bench tiles", html_attribution="bench tiles",
                                             url_template=url, zoom_min=0, zoom_max=19)
pm = PaperMap(lat, lon, tile_provider_key="bench", paper_size="a4", scale=25000, dpi=300, add_grid=grid)
pm.render()
pm.save(out)
