"""Fixtures of the render tests that compare our drawing with MuJoCo's."""

import pytest

from engine.render import context
from engine.render import gl_renderer as R


@pytest.fixture(scope="module")
def gl(request):
  """An offscreen GL context of the test module's image size (its module-level W and H)."""
  ctx = context.GLContext(request.module.W, request.module.H)
  yield ctx
  ctx.free()


@pytest.fixture
def mujoco_detail():
  """MuJoCo's tessellation and full-size shadow maps at every image size (the render
  shortcuts have their own test); modules that compare with MuJoCo use it for every test."""
  R.set_render_shortcuts(False)
  yield
  R.set_render_shortcuts(True)
