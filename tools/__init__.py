"""Developer tools, never shipped: the wheel and the container hold only engine/, renderer/, bot/.

- ``python -m tools.gallery out/gallery``: a PNG of every game's board (``make gallery``);
- ``python -m tools.fontbuild``: rebuild the font subsets ``renderer.typeface`` chains;
- ``tools.samples``: hand-made views and long playouts the gallery, tests and bench draw.
"""
