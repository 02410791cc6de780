"""2-D figures: MuJoCo's mjvFigure (line plots with grid, tick labels, title and legend), its
defaults (mjv_defaultFigure, engine_vis_init.c) and their drawing (mjr_figure, render_gl2.c).

The layout follows MuJoCo's pixel for pixel given the fonts' sizes; our fonts are Pillow's,
sized to MuJoCo's line heights, so text-dependent offsets (tick label widths) can differ by a
few pixels.
"""

import math

import numpy as np

from engine.enums import mjMAXLINE
from engine.enums import mjMAXLINEPNT
from engine.render import context
from engine.render import gl_text
from engine.render.gl_renderer import _halton

GL = context.LazyModule(context.import_opengl)  # OpenGL.GL, loaded when first drawn with

# the first eight line colours (_linergb of engine_vis_init.c); the rest come from Halton
_LINERGB = (
  (1.0, 0.3, 0.3),
  (0.1, 1.0, 0.1),
  (0.3, 0.3, 1.0),
  (0.1, 1.0, 1.0),
  (1.0, 0.2, 1.0),
  (1.0, 1.0, 0.1),
  (1.0, 0.6, 0.2),
  (0.6, 0.7, 0.4),
)

f32 = np.float32


class MjvFigure:
  """Data and style of a 2-D figure (mjvFigure), with the bindings' fields and shapes.

  Lines: linepnt[n] points (x, y) in linedata[n, :2 * linepnt[n]], coloured linergb[n] and
  named linename[n] (bytes) in the legend. mjr_figure writes xaxispixel/yaxispixel (the plot
  area in framebuffer pixels) and xaxisdata/yaxisdata (the ranges shown).
  """

  def __init__(self):
    mjv_defaultFigure(self)

  def __repr__(self):
    lines = int(np.count_nonzero(self.linepnt))
    return f"<MjvFigure title={self.title!r} lines={lines}>"


_ARRAYS = {
  "flg_ticklabel": ((2,), np.int32),
  "gridsize": ((2,), np.int32),
  "gridrgb": ((3,), f32),
  "figurergba": ((4,), f32),
  "panergba": ((4,), f32),
  "legendrgba": ((4,), f32),
  "textrgb": ((3,), f32),
  "linergb": ((mjMAXLINE, 3), f32),
  "range": ((2, 2), f32),
  "linename": ((mjMAXLINE,), "S100"),
  "highlight": ((2,), np.int32),
  "linepnt": ((mjMAXLINE,), np.int32),
  "linedata": ((mjMAXLINE, 2 * mjMAXLINEPNT), f32),
  "xaxispixel": ((2,), np.int32),
  "yaxispixel": ((2,), np.int32),
  "xaxisdata": ((2,), f32),
  "yaxisdata": ((2,), f32),
}


def mjv_defaultFigure(fig):
  """Reset fig to MuJoCo's defaults (mjv_defaultFigure): no data, legend and tick labels
  shown, ranges extended to the data, a 2 x 2 grid, eight predefined line colours."""
  for name, (shape, dtype) in _ARRAYS.items():
    array = getattr(fig, name, None)
    if isinstance(array, np.ndarray) and array.shape == shape and array.dtype == dtype:
      array[...] = 0  # in place: views the caller holds stay valid
    else:
      setattr(fig, name, np.zeros(shape, dtype))
  fig.flg_legend = 1
  fig.flg_extend = 1
  fig.flg_barplot = 0
  fig.flg_selection = 0
  fig.flg_symmetric = 0
  fig.flg_ticklabel[:] = 1
  fig.linewidth = 3.0
  fig.gridwidth = 1.0
  fig.gridsize[:] = 2
  fig.gridrgb[:] = 0.4
  fig.figurergba[3] = 1
  fig.panergba[3] = 1
  fig.legendrgba[3] = 0.3
  fig.textrgb[:] = 1
  fig.range[:] = [[0, 1], [0, 1]]
  fig.xformat = "%.0f"
  fig.yformat = "%.2g"
  fig.minwidth = "XXX"
  fig.title = ""
  fig.xlabel = ""
  fig.legendoffset = 0
  fig.subplot = 0
  fig.highlightid = -1
  fig.selection = 0.0
  for n in range(mjMAXLINE):
    if n < len(_LINERGB):
      fig.linergb[n] = _LINERGB[n]
    else:
      # float constants in double arithmetic, as C promotes them
      fig.linergb[n] = [float(f32(0.1)) + float(f32(0.8)) * _halton(n, b) for b in (2, 3, 5)]


def _cdiv(a, b):
  """C's integer division (toward zero)."""
  return int(a / b)


def _format(fmt, value):
  """snprintf(fmt, value) for a float, as Python's % (C's conversions)."""
  try:
    return fmt % float(value)
  except (TypeError, ValueError):
    return repr(float(value))


def _maketext(fmt, num):
  """Tick label: the number formatted, trailing zeros of a decimal fraction removed."""
  txt = _format(fmt, num)[:99]
  i = len(txt)
  while i > 0 and txt[i - 1] == "0":
    i -= 1
  if i <= 1:
    return txt
  if txt[i - 1] == ".":
    return txt[: i - 1]
  j = i - 1
  while j >= 0 and "0" <= txt[j] <= "9":
    j -= 1
  if j >= 0 and txt[j] == ".":
    return txt[:i]
  return txt


def _fill(rgba, x0, y0, x1, y1):
  GL.glEnable(GL.GL_BLEND)
  GL.glColor4fv(np.asarray(rgba, f32))
  GL.glBegin(GL.GL_QUADS)
  for x, y in ((x0, y0), (x0, y1), (x1, y1), (x1, y0)):
    GL.glVertex2d(x, y)
  GL.glEnd()
  GL.glDisable(GL.GL_BLEND)


def _ortho(x0, x1, y0, y1):
  GL.glMatrixMode(GL.GL_PROJECTION)
  GL.glLoadIdentity()
  GL.glOrtho(x0, x1, y0, y1, -1, 1)


def _axis_range(fig, lines, axis):
  """MuJoCo's range of one axis: fig.range, or the data's (finite) extent when the range is
  empty or flg_extend, at least 1e-5 wide; y snapped outwards to its decimal order."""
  lo, hi = f32(fig.range[axis, 0]), f32(fig.range[axis, 1])
  flg = lo < hi
  if not flg or fig.flg_extend:
    values = [data[axis::2] for data in lines]
    values = np.concatenate(values) if values else np.zeros(0, f32)
    values = values[np.isfinite(values)]
    if values.size:
      if flg:
        lo, hi = min(lo, values.min()), max(hi, values.max())
      else:
        lo, hi = values.min(), values.max()
  minrange = f32(1e-5)
  if hi - lo < minrange:
    needed = minrange - (hi - lo)
    lo, hi = lo - f32(0.5) * needed, hi + f32(0.5) * needed
  if axis == 1:
    diff = hi - lo
    if diff > 0:
      power = f32(10.0 ** math.floor(float(np.log10(diff))))
      lo = f32(np.floor(lo / power) * power)
      hi = f32(np.ceil(hi / power) * power)
    if fig.flg_symmetric:
      sym = max(abs(lo), abs(hi))
      lo, hi = -sym, sym
  return f32(lo), f32(hi)


def _title_span(title, subplot):
  """(start, length) of subplot `subplot`'s title: subplots are separated by 2+ spaces."""
  t = title.encode("ascii", "replace")[:999]

  def ch(i):
    return t[i] if i < len(t) else 0

  space = ord(" ")
  adr = count = 0
  while count < subplot and adr < 1000 and ch(adr):
    while adr < 1000 and ch(adr) and ch(adr) != space:
      adr += 1
    spaces = 0
    while adr < 1000 and ch(adr) == space:
      adr += 1
      spaces += 1
    if spaces > 1:
      count += 1
  n = 0
  while (adr + n < 1000 and ch(adr + n) and ch(adr + n) != space) or (
    adr + n + 1 < 1000 and ch(adr + n + 1) and ch(adr + n + 1) != space
  ):
    n += 1
  return t, adr, n


def _check(fig):
  linepnt = np.asarray(fig.linepnt)
  if linepnt.shape != (mjMAXLINE,) or np.any(linepnt < 0) or np.any(linepnt > mjMAXLINEPNT):
    raise ValueError(f"fig.linepnt must hold {mjMAXLINE} counts in [0, {mjMAXLINEPNT}]")
  linedata = np.asarray(fig.linedata)
  if linedata.shape != (mjMAXLINE, 2 * mjMAXLINEPNT):
    raise ValueError(f"fig.linedata must have shape ({mjMAXLINE}, {2 * mjMAXLINEPNT})")


def mjr_figure(viewport, fig, con):
  """Draw figure fig in the viewport (mjr_figure): background, title, x label, tick labels,
  pane, grid, lines (back to front), selection line, legend and highlighted line."""
  if viewport.width <= 0 or viewport.height <= 0:
    return
  _check(fig)
  left, bottom = int(viewport.left), int(viewport.bottom)
  width, height = int(viewport.width), int(viewport.height)
  pad = con.charHeight // 2
  offset = 0.001
  linepnt = np.asarray(fig.linepnt)
  linedata = np.ascontiguousarray(fig.linedata, f32)
  lines = [linedata[n, : 2 * linepnt[n]] for n in range(mjMAXLINE) if linepnt[n]]
  textrgb = np.asarray(fig.textrgb, f32)

  gl_text._init_2d()
  GL.glViewport(left, bottom, width, height)
  _fill(fig.figurergba, 0, 0, 1, 1)

  (x0, x1), (y0, y1) = _axis_range(fig, lines, 0), _axis_range(fig, lines, 1)
  fig.xaxisdata[:] = (x0, x1)
  fig.yaxisdata[:] = (y0, y1)

  GL.glMatrixMode(GL.GL_PROJECTION)
  GL.glLoadIdentity()
  if width <= 1 or height <= 1:
    return
  GL.glOrtho(0, width - 1, 0, height - 1, -1, 1)

  def text(font, txt, x, y, rgb):
    gl_text.text_actual(font, txt, con, float(x), float(y), 0.0, *(float(c) for c in rgb))

  # title: the selected subplot's in the text colour, its neighbours dimmed
  sy_title = 0
  title, subadr, sublen = _title_span(fig.title, int(fig.subplot))
  if sublen:
    widths = con.charWidth
    sy_title = con.charHeight
    sx_title = sum(int(widths[c]) if c < 128 else 0 for c in title[subadr : subadr + sublen])
    tleft = max(0, _cdiv(width, 2) - _cdiv(sx_title, 2))
    left1, adr1 = tleft, subadr
    while adr1 > 0 and left1 >= int(widths[title[adr1 - 1] % 128]):
      left1 -= int(widths[title[adr1 - 1] % 128])
      adr1 -= 1
    len1, right1 = 0, left1
    while adr1 + len1 < len(title) and right1 + int(widths[title[adr1 + len1] % 128]) < width:
      right1 += int(widths[title[adr1 + len1] % 128])
      len1 += 1
    figure = np.asarray(fig.figurergba, f32)
    GL.glListBase(con.baseFontNormal)
    GL.glColor4f(*(0.4 * textrgb + 0.6 * figure[:3]), 1)
    GL.glRasterPos3f(left1, height - pad - sy_title, 0)
    GL.glCallLists(title[adr1 : adr1 + len1])
    GL.glColor4f(*textrgb, 1)
    GL.glRasterPos3f(tleft, height - pad - sy_title, 0)
    GL.glCallLists(title[subadr : subadr + sublen])

  # x label, centred at the bottom
  sy_label = 0
  xlabel = fig.xlabel[:99]
  if xlabel:
    sx_label = gl_text.text_width(con, xlabel)
    sy_label = con.charHeight
    text(gl_text.mjFONT_NORMAL, xlabel, max(0, _cdiv(width, 2) - _cdiv(sx_label, 2)), pad, textrgb)

  if sy_title or sy_label:
    below = sy_label + pad // 2 if sy_label else 0
    bottom += below
    height -= below + (sy_title + pad if sy_title else 0)
    if width <= 0 or height <= 0:
      return
    GL.glViewport(left, bottom, width, height)
    _ortho(0, width - 1, 0, height - 1)

  # tick labels; MuJoCo colours them (textrgb[0], textrgb[0], textrgb[0])
  grid = fig.gridsize[0] > 1 and fig.gridsize[1] > 1
  if grid:
    tick_rgb = (textrgb[0],) * 3
    nx, ny = min(20, int(fig.gridsize[0])), min(20, int(fig.gridsize[1]))
    xformat, yformat = fig.xformat[:19], fig.yformat[:19]
    xtick_height = con.charHeight + pad if fig.flg_ticklabel[0] else 0
    ytick_width = 0
    yticks = [_maketext(yformat, y0 + (y1 - y0) * f32(i) / f32(ny - 1)) for i in range(ny)]
    if fig.flg_ticklabel[1]:
      minwidth = fig.minwidth[:19]
      ytick_width = gl_text.text_width(con, minwidth) if minwidth else 0
      ytick_width = max([ytick_width] + [gl_text.text_width(con, t) for t in yticks]) + pad
    if fig.flg_ticklabel[0]:
      for i in range(nx):
        txt = _maketext(xformat, x0 + (x1 - x0) * f32(i) / f32(nx - 1))
        w = gl_text.text_width(con, txt)
        shift = 0 if i == 0 else (-w if i == nx - 1 else -_cdiv(w, 2))
        x = pad + ytick_width + shift + f32(width - 2 * pad - ytick_width) * i / f32(nx - 1)
        text(gl_text.mjFONT_NORMAL, txt, x, pad, tick_rgb)
    if fig.flg_ticklabel[1]:
      for i, txt in enumerate(yticks):
        w = gl_text.text_width(con, txt)
        y = pad + xtick_height - con.charHeight // 2
        y += f32(height - 2 * pad - xtick_height) * i / f32(ny - 1)
        text(gl_text.mjFONT_NORMAL, txt, ytick_width - w, y, tick_rgb)
    left += ytick_width
    width -= ytick_width
    bottom += xtick_height
    height -= xtick_height

  # the plot area
  left, width, bottom, height = left + pad, width - 2 * pad, bottom + pad, height - 2 * pad
  if width <= 0 or height <= 0:
    return
  GL.glViewport(left, bottom, width, height)
  fig.xaxispixel[:] = (left, left + width - 1)
  fig.yaxispixel[:] = (bottom, bottom + height - 1)
  _ortho(-offset, 1 + offset, -offset, 1 + offset)
  _fill(fig.panergba, 0, 0, 1, 1)

  GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
  try:
    _draw_data(fig, con, grid, lines, linepnt, linedata, (x0, x1, y0, y1), (width, height))
  finally:
    GL.glDisableClientState(GL.GL_VERTEX_ARRAY)


def _draw_data(fig, con, grid, lines, linepnt, linedata, ranges, size):
  x0, x1, y0, y1 = ranges
  width, height = size
  pad = con.charHeight // 2
  offset = f32(0.001)
  if grid:
    GL.glColor3fv(np.asarray(fig.gridrgb, f32))
    GL.glLineWidth(float(fig.gridwidth))
    n = min(20, int(fig.gridsize[0]))
    at = np.arange(n, dtype=f32) / f32(n - 1)
    vertical = np.ascontiguousarray(
      np.stack([at, np.zeros(n, f32), at, np.ones(n, f32)], 1).ravel()
    )
    GL.glVertexPointer(2, GL.GL_FLOAT, 0, vertical)
    GL.glDrawArrays(GL.GL_LINES, 0, 2 * n)
    n = min(20, int(fig.gridsize[1]))
    at = np.arange(n, dtype=f32) / f32(n - 1)
    horizontal = np.ascontiguousarray(
      np.stack([np.zeros(n, f32), at, np.ones(n, f32), at], 1).ravel()
    )
    GL.glVertexPointer(2, GL.GL_FLOAT, 0, horizontal)
    GL.glDrawArrays(GL.GL_LINES, 0, 2 * n)

  difx, dify = x1 - x0, y1 - y0
  data_ortho = (
    float(x0 - difx * offset),
    float(x1 + difx * offset),
    float(y0 - dify * offset),
    float(y1 + dify * offset),
  )
  _ortho(*data_ortho)
  mode = GL.GL_LINES if fig.flg_barplot else GL.GL_LINE_STRIP
  linergb = np.asarray(fig.linergb, f32)
  for n in range(mjMAXLINE - 1, -1, -1):
    if linepnt[n]:
      GL.glVertexPointer(2, GL.GL_FLOAT, 0, linedata[n])
      GL.glColor3fv(linergb[n])
      GL.glLineWidth(float(fig.linewidth))
      GL.glDrawArrays(mode, 0, int(linepnt[n]))

  if fig.flg_selection:
    GL.glColor3f(1, 1, 1)
    GL.glLineWidth(3)
    GL.glBegin(GL.GL_LINES)
    GL.glVertex2f(float(fig.selection), float(y0))
    GL.glVertex2f(float(fig.selection), float(y1))
    GL.glEnd()

  hlight = int(fig.highlightid)
  if fig.flg_legend:
    GL.glMatrixMode(GL.GL_PROJECTION)
    GL.glLoadIdentity()
    if width <= 1 or height <= 1:
      return
    GL.glOrtho(0, width - 1, 0, height - 1, -1, 1)
    names = [
      (n, bytes(fig.linename[n]).split(b"\0")[0].decode("ascii", "replace"))
      for n in range(max(0, int(fig.legendoffset)), mjMAXLINE)
    ]
    names = [(n, name) for n, name in names if name]
    lw = lh = cnt = 0
    for _, name in names:
      lw = max(lw, gl_text.text_width(con, name))
      lh += con.charHeight
      cnt += 1
      if lh + 2 * pad >= height:
        cnt -= 1
        lh -= con.charHeight
        break
    hcnt = -1
    hx = int(fig.highlight[0]) - int(fig.xaxispixel[0])
    hy = int(fig.highlight[1]) - int(fig.yaxispixel[0])
    if width - pad - lw <= hx <= width - pad and height - pad - lh <= hy <= height - pad:
      hcnt = _cdiv(height - pad - hy, con.charHeight)
    if cnt:
      _fill(fig.legendrgba, width - 2 * pad - lw, height - 2 * pad - lh, width, height)
    cnt = 0
    for n, name in names:
      w = gl_text.text_width(con, name)
      gl_text.text_actual(
        gl_text.mjFONT_SHADOW,
        name,
        con,
        float(width - pad - w),
        float(height - pad - (cnt + 1) * con.charHeight),
        0.0,
        *(float(c) for c in linergb[n]),
      )
      if hcnt == cnt:
        hlight = n
      cnt += 1
      if (cnt + 1) * con.charHeight + 2 * pad >= height:
        break

  if 0 <= hlight < mjMAXLINE:
    _ortho(*data_ortho)
    GL.glVertexPointer(2, GL.GL_FLOAT, 0, linedata[hlight])
    GL.glColor3fv(linergb[hlight])
    GL.glLineWidth(5 * float(fig.linewidth))
    GL.glDrawArrays(mode, 0, int(linepnt[hlight]))
    if fig.flg_selection and linepnt[hlight]:
      xs = linedata[hlight, 0 : 2 * linepnt[hlight] : 2]
      best = int(np.argmin(np.abs(f32(fig.selection) - xs)))
      label = "( %.4g : %.4g )" % (float(xs[best]), float(linedata[hlight, 2 * best + 1]))
      gl_text.text_actual(
        gl_text.mjFONT_SHADOW,
        label,
        con,
        float(0.9 * x0 + 0.1 * x1),
        float(0.9 * y0 + 0.1 * y1),
        0.0,
        *(float(c) for c in np.asarray(fig.textrgb, f32)),
      )
