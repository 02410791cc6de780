"""Rendering: the abstract scene (visualize.py, MuJoCo's mjv_*), the OpenGL renderer
(gl_renderer.py, MuJoCo's mjr_*), OpenGL contexts (context.py: EGL, OSMesa, GLFW, chosen with
MUJOCO_GL), dm_control's Camera API (camera.py, behind Physics.render) and `Renderer`
(renderer.py, MuJoCo's Python renderer). Physics-only use never imports this package.
"""

from engine.render.camera import Camera as Camera
from engine.render.camera import CameraMatrices as CameraMatrices
from engine.render.camera import Contexts as Contexts
from engine.render.camera import MovableCamera as MovableCamera
from engine.render.camera import Pose as Pose
from engine.render.camera import TextOverlay as TextOverlay
from engine.render.camera import contexts as contexts
from engine.render.camera import free_contexts as free_contexts
from engine.render.camera import render_physics as render_physics
from engine.render.gl_renderer import set_render_shortcuts as set_render_shortcuts
from engine.render.renderer import Renderer as Renderer
