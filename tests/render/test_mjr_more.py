"""The bindings' remaining mjr_ functions and figures against MuJoCo's own.

Both renderers draw in one OpenGL context (tests/gl.py's backend), each into the offscreen
buffer of its own context (engine's MjrContext and mujoco.MjrContext of the same model), and
the pixels are read back from each: the same calls, the same rasterizer.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine.errors import FatalError
from engine.render import figure as F
from engine.render import gl_renderer as R
from engine.render import gl_resources
from engine.render import gl_text

# every test draws as MuJoCo does (mujoco_detail: tests/render/conftest.py)
pytestmark = pytest.mark.usefixtures("opengl", "mujoco_detail")

H, W = 240, 320
OFF = mujoco.mjtFramebuffer.mjFB_OFFSCREEN

MODEL = """
<mujoco>
  <asset>
    <texture name="checker" type="2d" builtin="checker" rgb1="0.9 0.2 0.2" rgb2="0.2 0.2 0.9"
             width="64" height="64"/>
    <material name="checker" texture="checker" texrepeat="2 2"/>
    <mesh name="tetra" vertex="0 0 0  0.4 0 0  0 0.4 0  0 0 0.4"/>
  </asset>
  <worldbody>
    <light directional="true" pos="0 0 3" dir="0 0 -1"/>
    <geom type="plane" size="1 1 0.1" rgba="0.4 0.4 0.4 1"/>
    <geom type="box" size="0.2 0.2 0.2" pos="0.35 0 0.2" material="checker"/>
    <geom type="mesh" mesh="tetra" pos="-0.5 -0.2 0" rgba="0.2 0.8 0.3 1"/>
    <camera name="top" pos="0 0 2.2"/>
  </worldbody>
</mujoco>
"""


class Both:
  """One model's GPU resources made by us and by MuJoCo, in the same OpenGL context."""

  def __init__(self, gl):
    self.gl = gl
    self.mm = mujoco.MjModel.from_xml_string(MODEL)
    self.md = mujoco.MjData(self.mm)
    mujoco.mj_forward(self.mm, self.md)
    gl.make_current()
    self.ours = R.MjrContext(self.mm, 150)
    self.theirs = mujoco.MjrContext(self.mm, mujoco.mjtFontScale.mjFONTSCALE_150)
    self.rect = R.MjrRect(0, 0, W, H)
    self.mrect = mujoco.MjrRect(0, 0, W, H)

  def free(self):
    self.gl.make_current()
    self.ours.free()
    self.theirs.free()

  def draw(self, ours, theirs, background=(0.25, 0.5, 0.75)):
    """Clear each offscreen buffer to `background`, run ours(con) and theirs(con) on it and
    return both images (top row first, int)."""
    self.gl.make_current()
    R.mjr_setBuffer(R.mjFB_OFFSCREEN, self.ours)
    gl_text.mjr_rectangle(self.rect, *background, 1)
    ours(self.ours)
    a = self.read_ours()
    mujoco.mjr_setBuffer(OFF, self.theirs)
    mujoco.mjr_rectangle(self.mrect, *background, 1)
    theirs(self.theirs)
    b = self.read_theirs()
    return a, b

  def read_ours(self):
    rgb = np.empty((H, W, 3), np.uint8)
    R.mjr_readPixels(rgb, None, self.rect, self.ours)
    return np.flipud(rgb).astype(int)

  def read_theirs(self):
    rgb = np.empty((H, W, 3), np.uint8)
    mujoco.mjr_readPixels(rgb, None, self.mrect, self.theirs)
    return np.flipud(rgb).astype(int)

  def scene(self):
    scn = mujoco.MjvScene(self.mm, 100)
    cam = mujoco.MjvCamera()
    cam.type = mujoco.mjtCamera.mjCAMERA_FIXED
    cam.fixedcamid = 0
    opt = mujoco.MjvOption()
    mujoco.mjv_updateScene(self.mm, self.md, opt, None, cam, mujoco.mjtCatBit.mjCAT_ALL, scn)
    return scn

  def render(self):
    """The scene drawn by both."""
    scn = self.scene()
    return self.draw(
      lambda con: R.mjr_render(self.rect, scn, con),
      lambda con: mujoco.mjr_render(self.mrect, scn, con),
    )


@pytest.fixture
def both(gl):
  b = Both(gl)
  yield b
  b.free()


def mad(a, b):
  return np.abs(a - b).mean()


# ---- pixels in, pixels out ----


def test_draw_pixels_writes_what_mujoco_writes(both):
  rng = np.random.default_rng(0)
  image = rng.integers(0, 256, (40, 50, 3), np.uint8)  # bottom row first, as OpenGL's
  ours, theirs = both.draw(
    lambda con: engine.mjr_drawPixels(image, None, R.MjrRect(10, 20, 50, 40), con),
    lambda con: mujoco.mjr_drawPixels(image.ravel(), None, mujoco.MjrRect(10, 20, 50, 40), con),
  )
  np.testing.assert_array_equal(ours, theirs)
  np.testing.assert_array_equal(ours[H - 60 : H - 20, 10:60], np.flipud(image))


def test_draw_pixels_rejects_wrong_arrays(both):
  rect = R.MjrRect(0, 0, 10, 10)
  with pytest.raises(TypeError, match="uint8"):
    engine.mjr_drawPixels(np.zeros((10, 10, 3), np.float32), None, rect, both.ours)
  with pytest.raises(ValueError, match="300"):
    engine.mjr_drawPixels(np.zeros(10, np.uint8), None, rect, both.ours)
  with pytest.raises(TypeError, match="float32"):
    engine.mjr_drawPixels(None, np.zeros((10, 10), np.float64), rect, both.ours)
  with pytest.raises(TypeError):
    engine.mjr_drawPixels([["a"]], None, rect, both.ours)


def test_depth_round_trips_through_draw_pixels(both):
  """Depth written with the depth test on (glDrawPixels writes depth only then) reads back."""
  from OpenGL import GL

  depth = np.linspace(0.1, 0.9, 30 * 20, dtype=np.float32).reshape(20, 30)
  read = []
  for con, draw, readpx, rect in (
    (both.ours, engine.mjr_drawPixels, R.mjr_readPixels, R.MjrRect(5, 5, 30, 20)),
    (both.theirs, mujoco.mjr_drawPixels, mujoco.mjr_readPixels, mujoco.MjrRect(5, 5, 30, 20)),
  ):
    (R.mjr_setBuffer if con is both.ours else mujoco.mjr_setBuffer)(OFF, con)
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glDepthFunc(GL.GL_ALWAYS)
    draw(None, depth.ravel(), rect, con)
    GL.glDepthFunc(GL.GL_LEQUAL)
    out = np.empty((20, 30), np.float32)
    con.readDepthMap = mujoco.mjtDepthMap.mjDEPTH_ZEROFAR  # as written
    readpx(None, out, rect, con)
    read.append(out)
  np.testing.assert_array_equal(read[0], read[1])
  np.testing.assert_allclose(read[0], depth, atol=1e-6)


def test_max_viewport_and_find_rect_are_mujocos(both):
  ours = engine.mjr_maxViewport(both.ours)
  theirs = mujoco.mjr_maxViewport(both.theirs)
  assert (ours.left, ours.bottom, ours.width, ours.height) == (
    theirs.left,
    theirs.bottom,
    theirs.width,
    theirs.height,
  )
  assert (ours.width, ours.height) == (both.mm.vis.global_.offwidth, both.mm.vis.global_.offheight)
  rect = R.MjrRect(10, 20, 30, 40)
  mrect = mujoco.MjrRect(10, 20, 30, 40)
  for x in (9, 10, 39, 40):
    for y in (19, 20, 59, 60):
      assert engine.mjr_findRect(x, y, 1, rect) == mujoco.mjr_findRect(x, y, 1, mrect), (x, y)
      assert engine.mjr_findRect(x, y, 0, rect) == -1
  # several rectangles: the first that contains the point
  rects = [R.MjrRect(0, 0, 10, 10), R.MjrRect(5, 5, 10, 10), R.MjrRect(0, 0, 100, 100)]
  assert [engine.mjr_findRect(x, x, 3, rects) for x in (2, 12, 50, 200)] == [0, 1, 2, -1]
  with pytest.raises(ValueError, match="nrect"):
    engine.mjr_findRect(0, 0, 2, rect)


def test_get_error_reports_and_clears_like_mujoco(both):
  from OpenGL import platform

  glEnable = platform.PLATFORM.GL.glEnable  # the library's own: PyOpenGL would read the flag
  engine.mjr_finish()
  mujoco.mjr_finish()
  assert engine.mjr_getError() == mujoco.mjr_getError() == 0
  glEnable(0xFFFF)  # GL_INVALID_ENUM
  assert engine.mjr_getError() == 0x500
  assert engine.mjr_getError() == 0
  glEnable(0xFFFF)
  assert mujoco.mjr_getError() == 0x500
  assert engine.mjr_getError() == 0


# ---- buffers ----


def test_blit_buffer_matches_mujoco(both):
  """Offscreen to window: a no-op without a window (EGL), as in MuJoCo; with one (OSMesa)
  both copy the same pixels."""

  def ours(con):
    gl_text.mjr_rectangle(R.MjrRect(0, 0, 40, 30), 1, 0, 0, 1)
    engine.mjr_blitBuffer(R.MjrRect(0, 0, 40, 30), R.MjrRect(50, 50, 80, 60), 1, 0, con)

  def theirs(con):
    mujoco.mjr_rectangle(mujoco.MjrRect(0, 0, 40, 30), 1, 0, 0, 1)
    mujoco.mjr_blitBuffer(mujoco.MjrRect(0, 0, 40, 30), mujoco.MjrRect(50, 50, 80, 60), 1, 0, con)

  a, b = both.draw(ours, theirs)
  np.testing.assert_array_equal(a, b)
  assert both.ours.currentBuffer == both.theirs.currentBuffer == R.mjFB_OFFSCREEN
  assert both.ours.windowAvailable == bool(both.theirs.windowAvailable)


@pytest.mark.parametrize("samples", [0, 4])
def test_aux_buffers_match_mujoco(both, samples):
  """Draw into an auxiliary buffer (multisampled or not), blit part of it to the offscreen
  buffer elsewhere."""

  def use(api, con, rect_type):
    api.mjr_addAux(2, 100, 80, samples, con)
    api.mjr_setAux(2, con)
    api.mjr_rectangle(rect_type(0, 0, 100, 80), 0, 1, 0, 1)
    api.mjr_rectangle(rect_type(10, 10, 30, 20), 1, 0, 1, 1)
    api.mjr_restoreBuffer(con)
    api.mjr_blitAux(2, rect_type(5, 5, 50, 40), 100, 120, con)

  a, b = both.draw(
    lambda con: use(engine, con, R.MjrRect), lambda con: use(mujoco, con, mujoco.MjrRect)
  )
  np.testing.assert_array_equal(a, b)
  # rows 120..160 from the bottom, columns 100..150: green with the magenta patch
  patch = a[H - 160 : H - 120, 100:150]
  assert (patch == [255, 0, 255]).all(-1).sum() == 30 * 20
  assert (patch == [0, 255, 0]).all(-1).sum() == 50 * 40 - 30 * 20
  assert both.ours.auxWidth[2] == both.theirs.auxWidth[2] == 100
  assert both.ours.auxSamples[2] == both.theirs.auxSamples[2]
  # size 0 frees it; blitting a missing buffer does nothing, setting it is an error
  engine.mjr_addAux(2, 0, 0, 0, both.ours)
  engine.mjr_blitAux(2, R.MjrRect(0, 0, 10, 10), 0, 0, both.ours)
  with pytest.raises(FatalError, match="does not exist"):
    engine.mjr_setAux(2, both.ours)
  with pytest.raises(FatalError, match="Invalid aux"):
    engine.mjr_addAux(10, 10, 10, 0, both.ours)
  with pytest.raises(mujoco.FatalError, match="Invalid aux"):
    mujoco.mjr_addAux(10, 10, 10, 0, both.theirs)


def test_resize_offscreen_like_mujoco(both):
  for api, con in ((engine, both.ours), (mujoco, both.theirs)):
    api.mjr_resizeOffscreen(700, 500, con)
  assert (both.ours.offWidth, both.ours.offHeight) == (both.theirs.offWidth, both.theirs.offHeight)
  ours, theirs = engine.mjr_maxViewport(both.ours), mujoco.mjr_maxViewport(both.theirs)
  assert (ours.width, ours.height) == (theirs.width, theirs.height) == (700, 500)
  # the new area is drawable: a rectangle beyond the old 640 x 480 reads back
  R.mjr_setBuffer(R.mjFB_OFFSCREEN, both.ours)
  gl_text.mjr_rectangle(R.MjrRect(650, 490, 20, 10), 1, 1, 0, 1)
  rgb = np.empty((10, 20, 3), np.uint8)
  R.mjr_readPixels(rgb, None, R.MjrRect(650, 490, 20, 10), both.ours)
  assert (rgb == [255, 255, 0]).all()
  with pytest.raises(ValueError, match="negative"):
    engine.mjr_resizeOffscreen(-1, 10, both.ours)


def test_change_font_sizes_like_mujoco(both):
  for scale in (100, 200, 300, 150):
    engine.mjr_changeFont(scale, both.ours)
    mujoco.mjr_changeFont(scale, both.theirs)
    assert both.ours.fontScale == both.theirs.fontScale == scale
    assert abs(both.ours.charHeight - both.theirs.charHeight) <= 2
    assert abs(both.ours.charHeightBig - both.theirs.charHeightBig) <= 2
  # the new font draws
  a, _ = both.draw(
    lambda con: gl_text.mjr_text(R.mjFONT_NORMAL, "Hello", con, 0.1, 0.5, 1, 1, 1),
    lambda con: None,
  )
  assert (a == 255).all(-1).sum() > 20
  with pytest.raises(FatalError, match="fontscale"):
    engine.mjr_changeFont(123, both.ours)


def test_label_matches_mujoco(both):
  """The box is exact; the centred text is in the same place, in another font."""
  rect = (20, 30, 200, 60)
  a, b = both.draw(
    lambda con: engine.mjr_label(
      R.MjrRect(*rect), R.mjFONT_BIG, "Label", 0.2, 0.2, 0.2, 1, 1, 1, 0, con
    ),
    lambda con: mujoco.mjr_label(mujoco.MjrRect(*rect), 2, "Label", 0.2, 0.2, 0.2, 1, 1, 1, 0, con),
  )
  box = np.zeros((H, W), bool)
  box[H - 90 : H - 30, 20:220] = True
  np.testing.assert_array_equal(a[~box], b[~box])
  yellow_a = np.argwhere((a == [255, 255, 0]).all(-1))
  yellow_b = np.argwhere((b == [255, 255, 0]).all(-1))
  assert len(yellow_a) > 50 and len(yellow_b) > 50
  assert box[tuple(yellow_a.T)].all()
  # centred alike: the glyphs' centroids within a tenth of the big font's line height
  # (measured: 3.6 pixels vertically, 0.1 horizontally; the glyph designs differ)
  np.testing.assert_allclose(yellow_a.mean(0), yellow_b.mean(0), atol=0.1 * both.ours.charHeightBig)
  grey = (np.abs(a - 51) <= 1).all(-1) & box
  assert grey.sum() > 0.7 * box.sum()


# ---- uploads ----


def test_upload_mesh_after_editing_vertices(both):
  before, _ = both.render()
  meshid = 0
  adr, n = both.mm.mesh_vertadr[meshid], both.mm.mesh_vertnum[meshid]
  both.mm.mesh_vert[adr : adr + n] *= 1.8
  engine.mjr_uploadMesh(both.mm, both.ours, meshid)
  mujoco.mjr_uploadMesh(both.mm, both.theirs, meshid)
  ours, theirs = both.render()
  assert mad(ours, before) > 1  # the bigger tetrahedron shows
  assert mad(ours, theirs) < 0.02
  with pytest.raises(FatalError, match="Invalid mesh index"):
    engine.mjr_uploadMesh(both.mm, both.ours, 1)


def test_upload_texture_after_editing_texels(both):
  before, _ = both.render()
  texid = 0
  adr = both.mm.tex_adr[texid]
  size = both.mm.tex_width[texid] * both.mm.tex_height[texid] * both.mm.tex_nchannel[texid]
  both.mm.tex_data[adr : adr + size] = 255 - both.mm.tex_data[adr : adr + size]
  engine.mjr_uploadTexture(both.mm, both.ours, texid)
  mujoco.mjr_uploadTexture(both.mm, both.theirs, texid)
  ours, theirs = both.render()
  assert mad(ours, before) > 1
  assert mad(ours, theirs) < 0.02
  with pytest.raises(FatalError, match="Invalid texture index"):
    engine.mjr_uploadTexture(both.mm, both.ours, 3)


# ---- figures ----


def make_figures(title=True, ticks=True, legend=True):
  """The same figure for MuJoCo and for us: sine, cosine and a ramp, a 5 x 4 grid."""
  figs = (mujoco.MjvFigure(), engine.MjvFigure())
  x = np.linspace(0, 6, 200, dtype=np.float32)
  for fig in figs:
    fig.gridsize[:] = [5, 4]
    fig.flg_legend = int(legend)
    fig.flg_ticklabel[:] = int(ticks)
    fig.figurergba[:] = [0.1, 0.1, 0.15, 1]
    fig.panergba[:] = [0.2, 0.2, 0.25, 1]
    if title:
      fig.title = "Signals"
      fig.xlabel = "time"
    for n, (name, y) in enumerate((("sin", np.sin(x)), ("cos", np.cos(x)), ("ramp", x / 6))):
      fig.linepnt[n] = len(x)
      fig.linedata[n, : 2 * len(x) : 2] = x
      fig.linedata[n, 1 : 2 * len(x) : 2] = y
      fig.linename[n] = name
  return figs


def draw_figures(both, figs, rect=(0, 0, W, H)):
  theirs, ours = figs
  return both.draw(
    lambda con: F.mjr_figure(R.MjrRect(*rect), ours, con),
    lambda con: mujoco.mjr_figure(mujoco.MjrRect(*rect), theirs, con),
  )


def test_default_figure_is_mujocos():
  theirs, ours = mujoco.MjvFigure(), engine.MjvFigure()
  for name in dir(theirs):
    if not name.startswith("_"):
      a, b = getattr(ours, name), getattr(theirs, name)
      assert np.array_equal(np.asarray(a), np.asarray(b)), name
      assert np.asarray(a).shape == np.asarray(b).shape, name
  ours.linepnt[3] = 7
  ours.title = "x"
  engine.mjv_defaultFigure(ours)
  assert ours.linepnt[3] == 0 and ours.title == ""


def test_figure_without_text_is_mujocos(both):
  """Without title, tick labels and legend the layout depends on the font only through the
  padding (half a line height, equal here): grid and lines land on the same pixels."""
  assert both.ours.charHeight // 2 == both.theirs.charHeight // 2
  figs = make_figures(title=False, ticks=False, legend=False)
  a, b = draw_figures(both, figs)
  theirs, ours = figs
  np.testing.assert_array_equal(ours.xaxispixel, theirs.xaxispixel)
  np.testing.assert_array_equal(ours.yaxispixel, theirs.yaxispixel)
  np.testing.assert_array_equal(ours.xaxisdata, theirs.xaxisdata)
  np.testing.assert_array_equal(ours.yaxisdata, theirs.yaxisdata)
  # measured on llvmpipe: identical images
  assert mad(a, b) < 0.01, mad(a, b)
  for rgb in ([255, 76, 76], [26, 255, 26], [76, 76, 255]):  # the three line colours
    assert (a == rgb).all(-1).sum() > 100


def test_full_figure_matches_mujocos_layout(both):
  """Title, x label, tick labels and legend: fonts differ, so text widths shift the plot area
  by a few pixels; the lines must still be drawn where MuJoCo draws them (within that shift)."""
  from scipy import ndimage

  figs = make_figures()
  a, b = draw_figures(both, figs)
  theirs, ours = figs
  np.testing.assert_array_equal(ours.xaxisdata, theirs.xaxisdata)
  np.testing.assert_array_equal(ours.yaxisdata, theirs.yaxisdata)
  shift = np.abs(np.r_[ours.xaxispixel - theirs.xaxispixel, ours.yaxispixel - theirs.yaxispixel])
  assert shift.max() <= 6, shift
  for rgb in ([255, 76, 76], [26, 255, 26], [76, 76, 255]):
    mask_a, mask_b = (a == rgb).all(-1), (b == rgb).all(-1)
    assert mask_a.sum() > 100 and mask_b.sum() > 100
    # distance from each of our line pixels to MuJoCo's nearest pixel of that line
    far = ndimage.distance_transform_edt(~mask_b)[mask_a]
    assert np.percentile(far, 95) <= shift.max() + 1, np.percentile(far, 95)
  # text: title at the top centre, legend at the top right, tick labels left and bottom
  for region in (
    (slice(0, 40), slice(W // 3, 2 * W // 3)),  # title
    (slice(H - 40, H), slice(0, W)),  # x tick labels and label
    (slice(0, H), slice(0, 40)),  # y tick labels
  ):
    white_a = ((a[region] >= 250).all(-1)).sum()
    white_b = ((b[region] >= 250).all(-1)).sum()
    assert white_a > 10 and white_b > 10, region
    assert 0.4 < white_a / white_b < 2.5, (region, white_a, white_b)


def test_figure_y_range_is_snapped_like_mujocos(both):
  figs = make_figures(title=False)
  for fig in figs:
    fig.linedata[0, 1:400:2] *= 3.3
    fig.flg_symmetric = 1
  draw_figures(both, figs, rect=(0, 0, 200, 150))
  theirs, ours = figs
  np.testing.assert_array_equal(ours.yaxisdata, theirs.yaxisdata)
  np.testing.assert_array_equal(ours.xaxisdata, theirs.xaxisdata)
  assert ours.yaxisdata[0] == -ours.yaxisdata[1]


def test_figure_rejects_bad_counts(both):
  fig = engine.MjvFigure()
  fig.linepnt[0] = 5000
  with pytest.raises(ValueError, match="linepnt"):
    F.mjr_figure(R.MjrRect(0, 0, 100, 100), fig, both.ours)


def test_new_functions_are_exported():
  for name in (
    "mjr_finish mjr_getError mjr_maxViewport mjr_findRect mjr_drawPixels mjr_blitBuffer "
    "mjr_setAux mjr_addAux mjr_blitAux mjr_changeFont mjr_resizeOffscreen mjr_label "
    "mjr_uploadMesh mjr_uploadTexture MjvFigure mjv_defaultFigure mjr_figure"
  ).split():
    assert callable(getattr(engine, name)), name
    assert name in engine._RENDER_NAMES
  assert gl_resources.mjNAUX == 10  # mjNAUX of mjrender.h
