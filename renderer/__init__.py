"""Board images for Tavolo: ``render(game_id, view, **style) -> PNG bytes``. No rules, no chat."""
