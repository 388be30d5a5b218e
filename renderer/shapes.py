"""Vector shapes drawn with ImageDraw: French pips, Italian suit symbols and figure silhouettes.

Every function draws into a box given by its centre ``(cx, cy)`` and a size in pixels, so the
same shape serves corner indices, pips and figures. Callers draw at a supersampled scale and
shrink the result (see ``theme.SUPERSAMPLE``).
"""

from __future__ import annotations

import math

from PIL import ImageDraw

Colour = tuple[int, int, int]


def _pts(
    cx: float, cy: float, s: float, coords: list[tuple[float, float]], flip: bool
) -> list[tuple[float, float]]:
    """Map unit coordinates (-0.5..0.5, y down) into the box; ``flip`` turns the shape upside down."""
    sign = -1 if flip else 1
    return [(cx + sign * x * s, cy + sign * y * s) for x, y in coords]


def french_pip(
    draw: ImageDraw.ImageDraw,
    suit: str,
    cx: float,
    cy: float,
    s: float,
    fill: Colour,
    flip: bool = False,
) -> None:
    """A French suit symbol (``d h c s``) about ``s`` pixels tall, centred on ``(cx, cy)``."""
    sign = -1 if flip else 1

    def circle(x: float, y: float, r: float) -> None:
        px, py = cx + sign * x * s, cy + sign * y * s
        draw.ellipse((px - r * s, py - r * s, px + r * s, py + r * s), fill=fill)

    if suit == "d":
        draw.polygon(_pts(cx, cy, s, [(0, -0.5), (0.36, 0), (0, 0.5), (-0.36, 0)], flip), fill=fill)
    elif suit == "h":
        circle(-0.22, -0.2, 0.25)
        circle(0.22, -0.2, 0.25)
        draw.polygon(
            _pts(cx, cy, s, [(-0.465, -0.13), (0.465, -0.13), (0.0, 0.48)], flip), fill=fill
        )
    elif suit == "s":
        circle(-0.21, 0.08, 0.23)
        circle(0.21, 0.08, 0.23)
        draw.polygon(_pts(cx, cy, s, [(-0.44, 0.02), (0.44, 0.02), (0.0, -0.5)], flip), fill=fill)
        draw.polygon(_pts(cx, cy, s, [(0, 0.1), (0.16, 0.5), (-0.16, 0.5)], flip), fill=fill)
    elif suit == "c":
        circle(0.0, -0.24, 0.22)
        circle(-0.24, 0.1, 0.22)
        circle(0.24, 0.1, 0.22)
        draw.polygon(_pts(cx, cy, s, [(0, -0.05), (0.16, 0.5), (-0.16, 0.5)], flip), fill=fill)
    else:
        raise ValueError(f"unknown suit {suit!r}")


# ----- Italian suits ---------------------------------------------------------------------------
# Two palettes give the two regional patterns their own look: napoletane warm (gold, red,
# brown), piacentine cooler (yellow, blue, green), as on the printed decks.
ITALIAN_COLOURS: dict[str, dict[str, Colour]] = {
    "napoletane": {
        "gold": (226, 170, 30),
        "red": (196, 30, 36),
        "wood": (150, 90, 40),
        "leaf": (60, 130, 60),
        "steel": (70, 110, 190),
        "hilt": (226, 170, 30),
        "ink": (30, 24, 20),
    },
    "piacentine": {
        "gold": (246, 200, 40),
        "red": (40, 80, 170),
        "wood": (40, 120, 70),
        "leaf": (200, 40, 40),
        "steel": (40, 60, 120),
        "hilt": (200, 40, 40),
        "ink": (20, 30, 60),
    },
}


def italian_pip(
    draw: ImageDraw.ImageDraw,
    suit: str,
    cx: float,
    cy: float,
    s: float,
    style: str,
    tilt: int = 0,
) -> None:
    """An Italian suit symbol: denari (``d``) coin, coppe (``h``) cup, bastoni (``c``) club,
    spade (``s``) sword; ``s`` pixels tall. ``tilt`` -1/0/1 leans clubs and swords."""
    c = ITALIAN_COLOURS[style]
    ink = c["ink"]
    w = max(1, round(s * 0.04))
    if suit == "d":
        r = s * 0.46
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c["gold"], outline=ink, width=w)
        r2 = r * 0.72
        draw.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=c["red"], outline=ink, width=w)
        # a rosette of petals: what makes a coin read as denari and not as a dot
        for k in range(8):
            a = k * math.pi / 4
            px, py = cx + math.cos(a) * r2 * 0.55, cy + math.sin(a) * r2 * 0.55
            pr = r2 * 0.26
            draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=c["gold"])
        r3 = r2 * 0.28
        draw.ellipse((cx - r3, cy - r3, cx + r3, cy + r3), fill=c["gold"], outline=ink, width=w)
    elif suit == "h":
        top = cy - s * 0.46
        bowl = [
            (cx - s * 0.36, top),
            (cx + s * 0.36, top),
            (cx + s * 0.3, top + s * 0.2),
            (cx + s * 0.12, top + s * 0.42),
            (cx - s * 0.12, top + s * 0.42),
            (cx - s * 0.3, top + s * 0.2),
        ]
        draw.polygon(bowl, fill=c["gold"], outline=ink, width=w)
        draw.rectangle(
            (cx - s * 0.36, top, cx + s * 0.36, top + s * 0.07),
            fill=c["red"],
            outline=ink,
            width=w,
        )
        draw.rectangle(
            (cx - s * 0.05, top + s * 0.42, cx + s * 0.05, top + s * 0.72),
            fill=c["gold"],
            outline=ink,
            width=w,
        )
        draw.ellipse(
            (cx - s * 0.1, top + s * 0.52, cx + s * 0.1, top + s * 0.64),
            fill=c["red"],
            outline=ink,
            width=w,
        )
        draw.polygon(
            [
                (cx - s * 0.07, top + s * 0.72),
                (cx + s * 0.07, top + s * 0.72),
                (cx + s * 0.28, top + s * 0.92),
                (cx - s * 0.28, top + s * 0.92),
            ],
            fill=c["red"],
            outline=ink,
            width=w,
        )
    elif suit == "c":
        # a knotty club, thick at the top: tilted like the printed bastoni
        lean = tilt * 0.18
        pts = [(-0.11, 0.48), (0.11, 0.48), (0.2, -0.46), (-0.2, -0.46)]
        pts = [(x + lean * (-y), y) for x, y in pts]
        draw.polygon(_pts(cx, cy, s, pts, False), fill=c["wood"], outline=ink, width=w)
        for ky in (-0.28, -0.02, 0.24):
            kx = lean * (-ky)
            for side in (-1, 1):
                px, py = cx + (kx + side * 0.16) * s, cy + ky * s
                pr = s * 0.065
                draw.ellipse(
                    (px - pr, py - pr, px + pr, py + pr), fill=c["leaf"], outline=ink, width=w
                )
    elif suit == "s":
        lean = tilt * 0.18
        blade = [(-0.1, -0.22), (0.1, -0.22), (0.08, 0.4), (0.0, 0.5), (-0.08, 0.4)]
        blade = [(x + lean * y, y) for x, y in blade]
        draw.polygon(_pts(cx, cy, s, blade, False), fill=c["steel"], outline=ink, width=w)
        guard = [(-0.28, -0.28), (0.28, -0.28), (0.28, -0.19), (-0.28, -0.19)]
        guard = [(x + lean * y, y) for x, y in guard]
        draw.polygon(_pts(cx, cy, s, guard, False), fill=c["hilt"], outline=ink, width=w)
        grip = [(-0.06, -0.44), (0.06, -0.44), (0.06, -0.27), (-0.06, -0.27)]
        grip = [(x + lean * y, y) for x, y in grip]
        draw.polygon(_pts(cx, cy, s, grip, False), fill=c["wood"], outline=ink, width=w)
        px, py = cx + lean * -0.47 * s, cy - 0.47 * s
        pr = s * 0.06
        draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=c["hilt"], outline=ink, width=w)
    else:
        raise ValueError(f"unknown suit {suit!r}")


# ----- figures ---------------------------------------------------------------------------------
def figure(
    draw: ImageDraw.ImageDraw,
    kind: str,
    box: tuple[float, float, float, float],
    body: Colour,
    trim: Colour,
    skin: Colour = (246, 214, 176),
    ink: Colour = (25, 25, 25),
) -> None:
    """A figure silhouette filling ``box``: ``page`` (Jack/Fante: tall cap with a feather),
    ``queen`` (a tiara and long gown), ``king`` (a crown and a wide cape) or ``knight`` (a
    rider on a horse: Cavallo). Each has a different outline so they are told apart at a glance."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    lw = max(1, round(w * 0.02))

    def P(u: float, v: float) -> tuple[float, float]:
        return (x0 + u * w, y0 + v * h)

    if kind == "knight":
        # horse body, legs, neck and head, rider on top
        draw.polygon(
            [P(0.18, 0.62), P(0.78, 0.6), P(0.86, 0.7), P(0.8, 0.78), P(0.2, 0.8), P(0.12, 0.7)],
            fill=trim,
            outline=ink,
            width=lw,
        )
        for u in (0.22, 0.34, 0.64, 0.76):
            draw.rectangle((*P(u, 0.76), *P(u + 0.06, 0.97)), fill=trim, outline=ink, width=lw)
        draw.polygon(
            [P(0.7, 0.64), P(0.8, 0.36), P(0.95, 0.42), P(0.96, 0.5), P(0.86, 0.5), P(0.84, 0.66)],
            fill=trim,
            outline=ink,
            width=lw,
        )
        draw.polygon([P(0.12, 0.66), P(0.02, 0.82), P(0.08, 0.84), P(0.18, 0.7)], fill=ink)  # tail
        draw.polygon(
            [P(0.38, 0.62), P(0.58, 0.62), P(0.56, 0.3), P(0.4, 0.3)],
            fill=body,
            outline=ink,
            width=lw,
        )
        draw.ellipse((*P(0.4, 0.12), *P(0.56, 0.3)), fill=skin, outline=ink, width=lw)
        draw.polygon(
            [P(0.38, 0.16), P(0.58, 0.16), P(0.6, 0.08), P(0.36, 0.08)],
            fill=trim,
            outline=ink,
            width=lw,
        )
        draw.line([P(0.56, 0.4), P(0.84, 0.44)], fill=ink, width=lw * 2)  # reins
        return
    # standing figures: gown/cape, head, headgear
    if kind == "king":
        draw.polygon([P(0.5, 0.3), P(0.92, 0.98), P(0.08, 0.98)], fill=trim, outline=ink, width=lw)
        draw.polygon(
            [P(0.32, 0.34), P(0.68, 0.34), P(0.76, 0.98), P(0.24, 0.98)],
            fill=body,
            outline=ink,
            width=lw,
        )
    elif kind == "queen":
        draw.polygon(
            [P(0.36, 0.32), P(0.64, 0.32), P(0.86, 0.98), P(0.14, 0.98)],
            fill=body,
            outline=ink,
            width=lw,
        )
        draw.rectangle((*P(0.4, 0.42), *P(0.6, 0.46)), fill=trim)
    else:  # page
        draw.polygon(
            [P(0.34, 0.32), P(0.66, 0.32), P(0.64, 0.68), P(0.36, 0.68)],
            fill=body,
            outline=ink,
            width=lw,
        )
        draw.rectangle((*P(0.37, 0.68), *P(0.47, 0.98)), fill=trim, outline=ink, width=lw)
        draw.rectangle((*P(0.53, 0.68), *P(0.63, 0.98)), fill=trim, outline=ink, width=lw)
    draw.ellipse((*P(0.38, 0.1), *P(0.62, 0.32)), fill=skin, outline=ink, width=lw)
    if kind == "king":
        draw.polygon(
            [
                P(0.36, 0.13),
                P(0.36, 0.0),
                P(0.43, 0.07),
                P(0.5, -0.02),
                P(0.57, 0.07),
                P(0.64, 0.0),
                P(0.64, 0.13),
            ],
            fill=(236, 188, 40),
            outline=ink,
            width=lw,
        )
    elif kind == "queen":
        draw.polygon(
            [P(0.38, 0.14), P(0.44, 0.04), P(0.5, 0.1), P(0.56, 0.04), P(0.62, 0.14)],
            fill=(236, 188, 40),
            outline=ink,
            width=lw,
        )
        for u in (0.44, 0.56):
            draw.ellipse((*P(u - 0.03, 0.01), *P(u + 0.03, 0.07)), fill=trim)
    else:
        draw.polygon(
            [P(0.34, 0.16), P(0.66, 0.16), P(0.6, 0.06), P(0.38, 0.06)],
            fill=trim,
            outline=ink,
            width=lw,
        )
        draw.line([P(0.62, 0.08), P(0.8, -0.02)], fill=ink, width=lw * 3)  # feather
