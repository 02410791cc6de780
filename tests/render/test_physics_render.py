"""Physics.render against dm_control's (MuJoCo's renderer) on suite models, every camera.

Both stacks load the same MJCF with the same state and render the same camera at the same size
on the same OpenGL (the backend tests/gl.py chose; without one these tests skip). Segmentation
maps must agree on at least 97 % of the pixels, depth (metres) within 1 % (median relative
error over the pixels where both see the same object), and RGB must be recognisably the same
picture (PSNR above a floor; the value is printed). A failing comparison saves a side-by-side
PNG (ours | MuJoCo | difference) in $RENDER_ARTIFACTS (default: render-artifacts in the
system's temporary directory).
"""

import gc
import os
import pathlib
import tempfile

import numpy as np
import pytest

import engine
from suite import common

dm_mujoco = pytest.importorskip("dm_control.mujoco")
pytestmark = pytest.mark.usefixtures("opengl")

HEIGHT, WIDTH = 96, 128
# models with planes, a skybox, capsules, ellipsoids, cylinders, meshes and a height field (the
# last four, whose geoms the first three already have, with `-m slow`)
MODELS = [
  "cartpole.xml",
  "humanoid.xml",
  "quadruped.xml",
  *(
    pytest.param(name, marks=pytest.mark.slow)
    for name in ("cheetah.xml", "fish.xml", "manipulator.xml", "finger.xml")
  ),
]


def _physics_pair(name):
  xml = common.read_model(name)
  ours = engine.Physics.from_xml_string(xml, common.ASSETS)
  theirs = dm_mujoco.Physics.from_xml_string(xml, common.ASSETS)
  if ours.model.nhfield:
    # a bumpy terrain in both (the quadruped's is made by its task at episode start)
    bumps = np.random.RandomState(0).uniform(0, 1, ours.model.hfield_data.shape)
    for physics in (ours, theirs):
      physics.model.hfield_data[:] = bumps
  qpos = ours.data.qpos.copy()
  qpos += 0.1 * np.random.RandomState(1).standard_normal(qpos.shape)
  for physics in (ours, theirs):
    physics.data.qpos[:] = qpos
    physics.forward()
  return ours, theirs


def _save(name, ours, theirs):
  folder = pathlib.Path(
    os.environ.get("RENDER_ARTIFACTS", pathlib.Path(tempfile.gettempdir()) / "render-artifacts")
  )
  folder.mkdir(parents=True, exist_ok=True)
  from PIL import Image

  diff = np.abs(ours.astype(int) - theirs.astype(int)).astype(np.uint8)
  Image.fromarray(np.hstack([ours, theirs, diff])).save(folder / f"{name}.png")


def _psnr(a, b):
  mse = np.mean((a.astype(float) - b.astype(float)) ** 2)
  return float("inf") if mse == 0 else 10 * np.log10(255.0**2 / mse)


@pytest.fixture(scope="module", params=MODELS)
def pair(request):
  ours, theirs = _physics_pair(request.param)
  yield request.param, ours, theirs
  # free dm_control's context now: its release makes no context current, which must not
  # happen in the middle of a later render
  theirs.free()
  del ours, theirs
  gc.collect()


def test_every_camera_matches_mujoco(pair):
  name, ours, theirs = pair
  for camera_id in range(-1, ours.model.ncam):
    tag = f"{name[:-4]}_cam{camera_id}"
    seg_a = ours.render(HEIGHT, WIDTH, camera_id, segmentation=True)
    seg_b = theirs.render(HEIGHT, WIDTH, camera_id, segmentation=True)
    same = np.all(seg_a == seg_b, axis=-1)
    rgb_a = ours.render(HEIGHT, WIDTH, camera_id)
    rgb_b = theirs.render(HEIGHT, WIDTH, camera_id)
    psnr = _psnr(rgb_a, rgb_b)
    depth_a = ours.render(HEIGHT, WIDTH, camera_id, depth=True)
    depth_b = theirs.render(HEIGHT, WIDTH, camera_id, depth=True)
    seen = same & (seg_b[..., 0] >= 0)
    rel = np.abs(depth_a[seen] - depth_b[seen]) / np.maximum(depth_b[seen], 1e-9)
    print(
      f"{tag}: segmentation {same.mean():.4f}, depth median rel {np.median(rel):.2e}, "
      f"RGB PSNR {psnr:.1f} dB"
    )
    ok = same.mean() >= 0.97 and np.median(rel) <= 0.01 and psnr >= 20
    if not ok:
      _save(tag, rgb_a, rgb_b)
    assert same.mean() >= 0.97, tag
    assert np.median(rel) <= 0.01, tag
    assert psnr >= 20, tag
