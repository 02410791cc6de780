"""2D drawing over a rendered image: rectangles, text and overlays (render_gl2.c's text part).

MuJoCo ships its own bitmap fonts; we rasterize Pillow's bundled font into glBitmap display
lists of the same layout (one list per ASCII code, normal, shadow and big variants).
"""

import numpy as np

from engine.render import context

GL = context.LazyModule(context.import_opengl)  # OpenGL.GL, loaded when first drawn with

# fonts (mjtFont) and overlay grid positions (mjtGridPos)
mjFONT_NORMAL, mjFONT_SHADOW, mjFONT_BIG = 0, 1, 2
mjGRID_TOPLEFT, mjGRID_TOPRIGHT, mjGRID_BOTTOMLEFT, mjGRID_BOTTOMRIGHT = 0, 1, 2, 3
mjGRID_TOP, mjGRID_BOTTOM, mjGRID_LEFT, mjGRID_RIGHT = 4, 5, 6, 7


def make_glyphs(con, px, dilate, widths=None):
  """Display lists of the printable ASCII glyphs (glBitmap) at pixel size px; registered in
  con._lists to be freed with the context. Returns (char widths (128,), height, list base)."""
  from PIL import Image
  from PIL import ImageDraw
  from PIL import ImageFilter
  from PIL import ImageFont

  font = ImageFont.load_default(size=px)
  ascent, descent = font.getmetrics()
  height = ascent + descent + 2
  base = GL.glGenLists(128)
  con._lists.append((base, 128))
  char_width = np.zeros(128, np.int32)
  for c in range(32, 127):
    w = widths[c] if widths is not None else max(1, int(np.ceil(font.getlength(chr(c)))) + 1)
    char_width[c] = w
    img = Image.new("L", (w, height))
    ImageDraw.Draw(img).text((0, 1), chr(c), font=font, fill=255)
    if dilate:
      img = img.filter(ImageFilter.MaxFilter(3))
    # glBitmap rows go bottom-up, packed 8 pixels per byte, most significant bit first
    bits = np.packbits(np.flipud(np.asarray(img) > 96), axis=1)
    GL.glNewList(base + c, GL.GL_COMPILE)
    GL.glBitmap(w, height, 0, 0, w, 0, np.ascontiguousarray(bits))
    GL.glEndList()
  return char_width, height, base


def _init_2d():
  GL.glDisable(GL.GL_NORMALIZE)
  GL.glDisable(GL.GL_DEPTH_TEST)
  GL.glShadeModel(GL.GL_FLAT)
  GL.glDisable(GL.GL_CULL_FACE)
  GL.glDisable(GL.GL_LIGHTING)
  GL.glDisable(GL.GL_COLOR_MATERIAL)
  GL.glDisable(GL.GL_BLEND)
  GL.glDisable(GL.GL_FOG)
  GL.glDisable(GL.GL_TEXTURE_2D)
  GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
  GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
  GL.glMatrixMode(GL.GL_PROJECTION)
  GL.glLoadIdentity()
  GL.glOrtho(0, 1, 0, 1, -1, 1)
  GL.glMatrixMode(GL.GL_MODELVIEW)
  GL.glLoadIdentity()


def mjr_rectangle(viewport, r, g, b, a):
  """Fill the viewport with a colour, alpha-blended (mjr_rectangle)."""
  _init_2d()
  if viewport.width <= 0 or viewport.height <= 0:
    return
  GL.glViewport(viewport.left, viewport.bottom, viewport.width, viewport.height)
  GL.glEnable(GL.GL_BLEND)
  GL.glColor4f(r, g, b, a)
  GL.glBegin(GL.GL_QUADS)
  for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)):
    GL.glVertex2f(x, y)
  GL.glEnd()
  GL.glDisable(GL.GL_BLEND)


def text_actual(font, text, con, x, y, z, r, g, b):
  """mjr_textActual: draw text at a raster position in the current projection."""
  data = text.encode("ascii", "replace")
  if not data:
    return
  if font == mjFONT_SHADOW:
    GL.glListBase(con.baseFontShadow)
    GL.glColor4f(0, 0, 0, 0.5)
    GL.glRasterPos3f(x, y, z)
    GL.glCallLists(data)
    GL.glListBase(con.baseFontNormal)
  else:
    GL.glListBase(con.baseFontBig if font == mjFONT_BIG else con.baseFontNormal)
  GL.glColor4f(r, g, b, 1)
  GL.glRasterPos3f(x, y, z)
  GL.glCallLists(data)


def text_at(text, con, pos, rgb, shadow=False):
  """Geom label at its 3D position, with a shadow (labels in mjr_render)."""
  text_actual(
    mjFONT_SHADOW if shadow else mjFONT_NORMAL,
    text,
    con,
    float(pos[0]),
    float(pos[1]),
    float(pos[2]),
    *rgb,
  )


def mjr_text(font, txt, con, x, y, r, g, b):
  """Draw text at (x, y) in relative viewport coordinates [0, 1] (mjr_text)."""
  _init_2d()
  text_actual(font, txt, con, x, y, 0, r, g, b)


def _draw_overlay(font, viewport, skip, gridpos, rgb, overlay, con):
  """One column of an overlay on a translucent black box; returns its width (draw_overlay)."""
  big = font == mjFONT_BIG
  widths = con.charWidthBig if big else con.charWidth
  char_height = con.charHeightBig if big else con.charHeight
  pad = 5
  lines = overlay.split("\n")
  nc = max(
    (sum(int(widths[ord(ch)]) if ord(ch) < 128 else 0 for ch in line) for line in lines), default=0
  )
  nr = char_height + (len(lines) - 1) * (pad + char_height)
  w, h = pad + nc + 8, pad + nr
  vl, vb, vw, vh = viewport.left, viewport.bottom, viewport.width, viewport.height
  left = vl + skip + pad  # left column: TOPLEFT, BOTTOMLEFT, LEFT
  if gridpos in (mjGRID_TOPRIGHT, mjGRID_BOTTOMRIGHT, mjGRID_RIGHT):
    left = vl + vw - skip - 1 - pad - w
  elif gridpos in (mjGRID_TOP, mjGRID_BOTTOM):
    left = vl + int((vw - skip - w) / 2) - 1 - pad
  bottom = vb + pad  # bottom row: BOTTOMLEFT, BOTTOMRIGHT, BOTTOM
  if gridpos in (mjGRID_TOPLEFT, mjGRID_TOPRIGHT, mjGRID_TOP):
    bottom = vb + vh - 1 - pad - h
  elif gridpos in (mjGRID_LEFT, mjGRID_RIGHT):
    bottom = vb + int((vh - h) / 2) - 1 - pad
  GL.glViewport(left, bottom, w, h)
  GL.glMatrixMode(GL.GL_PROJECTION)
  GL.glLoadIdentity()
  GL.glOrtho(0, w - 1, 0, h - 1, -1, 1)
  GL.glMatrixMode(GL.GL_MODELVIEW)
  GL.glLoadIdentity()
  GL.glEnable(GL.GL_BLEND)
  GL.glColor4f(0, 0, 0, 0.5)
  GL.glBegin(GL.GL_QUADS)
  for x, y in ((0, 0), (0, h), (w, h), (w, 0)):
    GL.glVertex2f(x, y)
  GL.glEnd()
  GL.glDisable(GL.GL_BLEND)
  y = h - char_height
  for line in lines:
    text_actual(font, line, con, 3, y, 0, *rgb)
    y -= pad + char_height
  return w - 2


def mjr_overlay(font, gridpos, viewport, overlay, overlay2, con):
  """Text overlay in a corner of the viewport, in one or two columns (mjr_overlay)."""
  if viewport.width <= 0 or viewport.height <= 0:
    return
  _init_2d()
  dim, bright = (0.7, 0.7, 0.7), (1.0, 1.0, 1.0)
  if overlay2:
    if gridpos in (mjGRID_TOPLEFT, mjGRID_BOTTOMLEFT):
      skip = _draw_overlay(font, viewport, 0, gridpos, dim, overlay, con)
      _draw_overlay(font, viewport, skip, gridpos, bright, overlay2, con)
    else:
      skip = _draw_overlay(font, viewport, 0, gridpos, bright, overlay2, con)
      _draw_overlay(font, viewport, skip, gridpos, dim, overlay, con)
  else:
    _draw_overlay(font, viewport, 0, gridpos, bright, overlay, con)


def mjr_label(viewport, font, txt, r, g, b, a, rt, gt, bt, con):
  """Fill the viewport with (r, g, b, a), blended, and centre txt on it in (rt, gt, bt)
  (mjr_label)."""
  if viewport.width <= 0 or viewport.height <= 0:
    return
  w, h = int(viewport.width), int(viewport.height)
  GL.glDisable(GL.GL_NORMALIZE)
  GL.glDisable(GL.GL_DEPTH_TEST)
  GL.glDisable(GL.GL_CULL_FACE)
  GL.glDisable(GL.GL_LIGHTING)
  GL.glDisable(GL.GL_COLOR_MATERIAL)
  GL.glShadeModel(GL.GL_FLAT)
  GL.glEnable(GL.GL_BLEND)
  GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
  GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
  GL.glMatrixMode(GL.GL_PROJECTION)
  GL.glLoadIdentity()
  GL.glOrtho(0, w, 0, h, -1, 1)
  GL.glMatrixMode(GL.GL_MODELVIEW)
  GL.glLoadIdentity()
  GL.glViewport(int(viewport.left), int(viewport.bottom), w, h)
  GL.glBegin(GL.GL_QUADS)
  GL.glColor4f(r, g, b, a)
  for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
    GL.glVertex2i(x, y)
  GL.glEnd()
  data = (txt or "").encode("ascii", "replace")
  if not data:
    return  # (the blend stays enabled, as MuJoCo leaves it)
  big = font == mjFONT_BIG
  widths = con.charWidthBig if big else con.charWidth
  width = sum(int(widths[c]) if c < 128 else 0 for c in data)
  cx = int((w - width) / 2)  # C's division, toward zero
  cy = int((h - (con.charHeightBig if big else con.charHeight)) / 2)
  GL.glListBase(con.baseFontBig if big else con.baseFontNormal)
  GL.glColor3f(rt, gt, bt)
  GL.glRasterPos2i(max(0, cx), cy)
  GL.glCallLists(data)


def text_width(con, text):
  """Width in pixels of text in the normal font (textwidth of render_gl2.c)."""
  return sum(int(con.charWidth[c]) if c < 128 else 0 for c in text.encode("ascii", "replace"))
