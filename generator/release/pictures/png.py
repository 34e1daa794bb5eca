"""What every picture we make shares: PNG bytes that are the same on every run, and readable text.

The PNG is written by Pillow with fixed settings and nothing but the pixels (no time, no text
chunks, no colour profile), so the same pixels give the same bytes and the package zip stays
byte-identical. Text uses Pillow's built-in bitmap font, drawn at a whole multiple of its size:
no font file or font engine of the machine changes a single pixel.
"""

from __future__ import annotations

import io
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageFont

Colour = tuple[int, int, int]
GLYPH_WIDTH = 6  # the bitmap font's advance, in its own pixels
GLYPH_HEIGHT = 11  # its line height; capitals are 7 pixels tall


def png_bytes(image: Image.Image) -> bytes:
    """The image as PNG, with fixed settings and no metadata."""
    out = io.BytesIO()
    # zlib's default level: the ~500 pictures of a package of every variant take 0.5 s and 3.09 MB,
    # against 2.2 s (half of `package`) and 3.04 MB at level 9.
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def hex_colour(text: str) -> Colour:
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


@cache
def _font() -> ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default_imagefont()


def text_size(text: str, scale: int) -> tuple[int, int]:
    """Width and height of `text` drawn by `draw_text` at `scale`."""
    return len(text) * GLYPH_WIDTH * scale, GLYPH_HEIGHT * scale


def draw_text(
    image: Image.Image, at: tuple[int, int], text: str, colour: Colour, scale: int = 1, halo: Colour | None = None
) -> None:
    """`text` (ASCII; others become '?') with its top-left corner at `at`, each font pixel a scale x scale block.

    `halo` draws a one-font-pixel rim around every letter, so the text reads on any background.
    """
    from PIL import Image, ImageDraw, ImageFilter

    shown = "".join(c if 32 <= ord(c) < 127 else "?" for c in text)
    width, height = text_size(shown, 1)
    mask = Image.new("L", (width + 2, height + 2), 0)
    ImageDraw.Draw(mask).text((1, 1), shown, font=_font(), fill=255)
    if scale > 1:
        mask = mask.resize((mask.width * scale, mask.height * scale), Image.Resampling.NEAREST)
    x, y = at[0] - scale, at[1] - scale
    if halo is not None:
        rim = mask.filter(ImageFilter.MaxFilter(3 if scale < 3 else 5))
        image.paste(Image.new(image.mode, rim.size, _mode_colour(image, halo)), (x, y), rim)
    image.paste(Image.new(image.mode, mask.size, _mode_colour(image, colour)), (x, y), mask)


def _mode_colour(image: Image.Image, colour: Colour) -> tuple[int, ...]:
    return (*colour, 255) if image.mode == "RGBA" else colour


def label(
    image: Image.Image, centre: tuple[int, int], text: str, fill: Colour, ink: Colour, scale: int = 1
) -> tuple[int, int, int, int]:
    """`text` in a filled box with a dark border, centred at `centre`; returns the box."""
    from PIL import ImageDraw

    width = text_size(text, scale)[0] - scale  # the last glyph's spacing column is not ink
    band = 9 * scale  # font rows 2..10: capitals, digits and most of the descenders
    pad = scale + 2
    left, top = centre[0] - width // 2 - pad, centre[1] - band // 2 - pad
    box = (left, top, left + width + 2 * pad, top + band + 2 * pad)
    ImageDraw.Draw(image).rectangle(box, fill=_mode_colour(image, fill), outline=_mode_colour(image, (0, 0, 0)))
    draw_text(image, (left + pad, top + pad - 2 * scale), text, ink, scale)
    return box
