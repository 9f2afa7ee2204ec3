#!/usr/bin/python3
"""Makes src/plot/font/DejaVuSans-subset.ttf, the font of the plots' text (src/plot/mod.rs).

    /usr/bin/python3 scripts/make-font.py [/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf]

Needs fontTools (Debian: python3-fonttools) and DejaVu Sans (Debian: fonts-dejavu-core).

1. Subsets DejaVu Sans to printable ASCII, the Greek alphabet, sub- and superscript digits and
   µ × – — ≈ ≤ ≥ … · − ± √ ∝ ⟨ ⟩ ° (about 25 KB), without hinting (ab_glyph does not hint).
2. Adds to every outlined glyph a one-point contour at x = 0 (the glyph's origin). It draws
   nothing (no area), but it makes the glyph's outline bounds start at x = 0. plotters 0.3.7's
   ab_glyph backend places each glyph's pixels at the pen position without adding the outline's
   left edge (`px_bounds().min.x`), so without the point every glyph is drawn shifted left by its
   left side bearing and digits look unevenly spaced ("1 00"); with it, the left edge is the
   origin and glyphs land where the font puts them. (Glyphs that reach left of their origin —
   J, T, Y, _, j — are still drawn that little bit to the right.)

The licence (LICENSE-DejaVu.txt, Bitstream Vera terms) allows modified copies whose names do not
contain "Bitstream" or "Vera"; the font keeps its name "DejaVu Sans".
"""

import os
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "src", "plot", "font", "DejaVuSans-subset.ttf"
)
# Printable ASCII, the Greek alphabet (symbols of parameters and measures: η, ρ, φ, χ, Σ, …),
# sub- and superscript digits and minus (v₀, wu⁻²), and a few signs of units and statistics.
TEXT = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(chr(c) for c in range(0x391, 0x3AA))
    + "".join(chr(c) for c in range(0x3B1, 0x3CA))
    + "".join(chr(c) for c in range(0x2080, 0x208A))
    + "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
    + "µ×–—≈≤≥…·−±√∝⟨⟩|°"
)

options = subset.Options()
options.hinting = False
options.notdef_outline = True
font = TTFont(SOURCE)
sub = subset.Subsetter(options)
sub.populate(text=TEXT)
sub.subset(font)

glyf = font["glyf"]
for name in font.getGlyphOrder():
    g = glyf[name]
    if g.numberOfContours <= 0:
        continue
    # One more contour: a single point at (0, yMin), so the bounds reach x = 0 and no higher
    # or lower than before.
    g.coordinates.append((0, g.yMin))
    g.flags.append(1)  # on-curve
    g.endPtsOfContours.append(len(g.coordinates) - 1)
    g.numberOfContours += 1
font["maxp"].maxContours = max(
    (glyf[n].numberOfContours for n in font.getGlyphOrder()), default=0
)
font.save(OUT)
print(OUT)
