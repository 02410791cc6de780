"""Gymnasium's eleven MuJoCo environments (v5) run unchanged on our engine through
`engine.install_as_mujoco()`, and match the same environments on MuJoCo.

Each library runs in its own process (both are imported as `mujoco` there): the same seed and
the same random actions, 100 steps or until the episode ends. Observations and rewards agree to
1e-6 over the first 50 steps everywhere, and over the whole run except on HalfCheetah, whose
contact-rich running amplifies differences of 1e-12 until it leaves MuJoCo's trajectory after
about 55 steps (measured: 2.7e-7 at step 50). With `render_mode="rgb_array"` the pictures are
MuJoCo's within the differences of two rasterizers (measured 38-48 dB PSNR).
"""

import subprocess
import sys

import numpy as np
import pytest

# MuJoCo runs in a subprocess (so the import rule of tests/conftest.py cannot see it)
pytestmark = pytest.mark.oracle

NAMES = (
  "Ant-v5",
  "HalfCheetah-v5",
  "Hopper-v5",
  "Humanoid-v5",
  "HumanoidStandup-v5",
  "InvertedDoublePendulum-v5",
  "InvertedPendulum-v5",
  "Pusher-v5",
  "Reacher-v5",
  "Swimmer-v5",
  "Walker2d-v5",
)
STEPS = 100
CHAOTIC = ("HalfCheetah-v5",)

_SCRIPT = """
import sys
import numpy as np
if sys.argv[1] == "ours":
  import engine
  engine.install_as_mujoco()
import mujoco
import gymnasium as gym
assert (mujoco.__name__ == "engine") == (sys.argv[1] == "ours")
out = {}
for name in sys.argv[4].split(","):
  env = gym.make(name)
  obs, _ = env.reset(seed=0)
  rng = np.random.default_rng(0)
  observations, rewards = [obs], []
  for _ in range(int(sys.argv[3])):
    obs, reward, terminated, truncated, _ = env.step(
      rng.uniform(env.action_space.low, env.action_space.high)
    )
    observations.append(obs)
    rewards.append(reward)
    if terminated or truncated:
      break
  out[name + "/obs"] = np.array(observations)
  out[name + "/reward"] = np.array(rewards)
np.savez(sys.argv[2], **out)
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  folder = tmp_path_factory.mktemp("gymnasium")
  script = folder / "run.py"
  script.write_text(_SCRIPT)
  out = {}
  for lib in ("ours", "mujoco"):
    path = folder / f"{lib}.npz"
    args = [sys.executable, str(script), lib, str(path), str(STEPS), ",".join(NAMES)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out[lib] = dict(np.load(path))
  return out


@pytest.mark.parametrize("name", NAMES)
def test_environment_runs_unchanged_and_matches_mujoco(runs, name):
  ours, theirs = runs["ours"], runs["mujoco"]
  obs, ref_obs = ours[name + "/obs"], theirs[name + "/obs"]
  rewards, ref_rewards = ours[name + "/reward"], theirs[name + "/reward"]
  assert len(ref_rewards) > 0
  horizon = len(ref_rewards) if name not in CHAOTIC else 50
  if name not in CHAOTIC:
    assert len(rewards) == len(ref_rewards)  # the episode ends at the same step
  np.testing.assert_allclose(obs[: horizon + 1], ref_obs[: horizon + 1], rtol=0, atol=1e-6)
  np.testing.assert_allclose(rewards[:horizon], ref_rewards[:horizon], rtol=0, atol=1e-6)
  assert np.abs(obs[1] - obs[0]).max() > 0  # the environment moved


_RENDER_SCRIPT = """
import sys
import numpy as np
if sys.argv[1] == "ours":
  import engine
  engine.install_as_mujoco()
import gymnasium as gym
out = {}
for name in sys.argv[3].split(","):
  env = gym.make(name, render_mode="rgb_array")
  env.reset(seed=0)
  for _ in range(3):
    env.step(np.zeros(env.action_space.shape))
  out[name] = env.render()
  env.close()
np.savez(sys.argv[2], **out)
"""


def test_rgb_array_rendering_draws_mujocos_picture(opengl, tmp_path):
  """Gymnasium's offscreen renderer (through mujoco.egl/osmesa's GLContext, MjrContext and
  mjr_ calls) draws with our engine what it draws with MuJoCo."""
  names = ("HalfCheetah-v5", "Ant-v5", "Reacher-v5", "Humanoid-v5")
  script = tmp_path / "render.py"
  script.write_text(_RENDER_SCRIPT)
  images = {}
  for lib in ("ours", "mujoco"):
    path = tmp_path / f"{lib}.npz"
    args = [sys.executable, str(script), lib, str(path), ",".join(names)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    images[lib] = dict(np.load(path))
  for name in names:
    ours, theirs = images["ours"][name].astype(float), images["mujoco"][name].astype(float)
    assert ours.shape == theirs.shape == (480, 480, 3)
    psnr = 10 * np.log10(255**2 / np.mean((ours - theirs) ** 2))
    assert psnr > 30, (name, psnr)
