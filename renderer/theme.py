"""Colours and sizes shared by every sprite and board.

Boards are high-contrast on purpose: a dark green table, white cards, bright highlight colours
that differ in hue *and* brightness so they survive a small phone screen.
"""

from __future__ import annotations

# Sprites are drawn this many times larger, then shrunk with a good filter: cheap anti-aliasing
# (they are drawn once and cached, so the cost does not matter).
SUPERSAMPLE = 3

TABLE = (22, 92, 52)
TABLE_DARK = (14, 62, 35)
HEADER = (10, 40, 24)
INK = (20, 20, 24)
WHITE = (255, 255, 255)
CARD_WHITE = (252, 252, 248)
CREAM = (250, 242, 220)
RED = (206, 22, 32)
BLACK = (22, 22, 26)
GOLD = (232, 180, 30)
LABEL_BG = (8, 30, 18)
LABEL_TEXT = (235, 245, 235)
MUTED = (170, 205, 180)
SLOT_LINE = (120, 175, 140)

LAST_MOVE = (255, 205, 0)  # warm yellow: "what just happened"
SELECTED = (0, 215, 255)  # cyan: the pile or hand card picked by a button
TARGET = (120, 255, 90)  # green: where the selected card may go

TURN_BG = (40, 70, 30)  # the seat row of the player to move (Cartas Maestras)

BACK_MAIN = (34, 60, 150)
BACK_ALT = (70, 110, 210)

# Card geometry of the pile games (French and Italian faces share it so layouts do not move).
CARD_W = 100
CARD_H = 144
CARD_RADIUS = 8
