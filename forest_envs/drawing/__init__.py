"""Pillow drawing shared by the games' pictures (``canvas.py``; ``cache.py``: what pictures
draw again and again, made once)."""
