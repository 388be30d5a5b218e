"""The features: each module owns some commands, button verbs and hooks; ``bot.app`` wires them in."""
