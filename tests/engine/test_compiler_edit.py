"""engine.compiler.edit: an attribute edited into a compiled model equals a recompilation with
the new value, array for array; an edit it cannot make exactly is refused, the model unchanged."""

import numpy as np
import pytest

from engine import enums
from engine import support
from engine import types
from engine.compiler import edit
from tests import same_model

# classes fill what the elements leave out (a partial size, an rgba, a light's dir); a static
# body and a free body (with a mesh) get their inertia from their geoms; a tendon wraps a site
XML = """
<mujoco>
  <asset><mesh name="tet" vertex="0 0 0 0.1 0 0 0 0.1 0 0 0 0.1"/></asset>
  <default>
    <geom size="0.1 0.2 0.3" rgba="0.2 0.3 0.4 1"/>
    <default class="post"><geom type="capsule" size="0.05 0.5"/></default>
    <light dir="0 1 -1"/>
  </default>
  <worldbody>
    <light name="lamp" pos="0 0 3"/>
    <camera name="top" pos="0 0 5" fovy="40"/>
    <geom name="floor" type="plane" size="4 4 0.1"/>
    <geom name="wall" type="box" pos="2 0 0.5" size="0.1"/>
    <frame pos="0 1 0" euler="0 0 30">
      <geom name="framed" type="box" pos="0.5 0 0" size="0.2 0.1 0.1"/>
    </frame>
    <geom name="post" class="post" fromto="0 -1 0 0 -1 1"/>
    <site name="mark" type="box" pos="1 1 0" size="0.1 0.1 0.1"/>
    <site name="anchor" pos="0 0 2"/>
    <site name="side" pos="1 -1.5 0.5"/>
    <site name="end" pos="1 -2.5 0.5"/>
    <geom name="spool" type="cylinder" size="0.1 0.3" pos="0.5 -2 0.5"/>
    <body name="goal" pos="3 0 0">
      <geom name="bar" type="capsule" fromto="0 -1 1 0 1 1" size="0.05"/>
      <geom name="side" type="box" pos="0 1 0.5" size="0.05 0.05 0.5"/>
      <site name="goal_site" pos="0 0 1.1"/>
    </body>
    <body name="ball" pos="0 0 1">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.2"/>
      <geom name="knob" type="box" pos="0.2 0 0" size="0.05 0.05 0.05"/>
      <geom name="tet" type="mesh" mesh="tet" pos="-0.2 0 0"/>
      <site name="knob_site" pos="0.25 0 0"/>
      <site name="ball_site" pos="0 0 0.2"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="rope" limited="false"><site site="anchor"/><site site="knob_site"/></spatial>
    <spatial name="strap" limited="false">
      <site site="anchor"/><geom geom="spool" sidesite="side"/><site site="end"/>
    </spatial>
  </tendon>
</mujoco>
"""

# (kind, name, attribute, new value, the same change in the XML (old text, new text))
EDITS = [
  ("geom", "wall", "pos", (2.5, 0.1, 0.5), ('pos="2 0 0.5"', 'pos="2.5 0.1 0.5"')),
  ("geom", "wall", "size", (0.3,), ('size="0.1"/>', 'size="0.3"/>')),
  ("geom", "floor", "size", (5.0, 3.0, 0.2), ('size="4 4 0.1"', 'size="5 3 0.2"')),
  ("geom", "framed", "pos", (0.7, 0.2, 0.0), ('pos="0.5 0 0"', 'pos="0.7 0.2 0"')),
  ("geom", "post", "fromto", (1.0, -1.0, 0.0, 1.0, -1.0, 2.0), ("0 -1 0 0 -1 1", "1 -1 0 1 -1 2")),
  ("geom", "bar", "fromto", (0.0, -2.0, 1.5, 0.0, 2.0, 1.5), ("0 -1 1 0 1 1", "0 -2 1.5 0 2 1.5")),
  ("geom", "bar", "size", (0.08,), ('size="0.05"/>', 'size="0.08"/>')),
  ("geom", "side", "pos", (0.0, 2.0, 0.7), ('pos="0 1 0.5"', 'pos="0 2 0.7"')),
  ("geom", "knob", "size", (0.1, 0.05, 0.02), ('"0.05 0.05 0.05"', '"0.1 0.05 0.02"')),
  ("geom", "ball", "rgba", (1.0, 0.0, 0.0, 1.0), ('size="0.2"', 'size="0.2" rgba="1 0 0 1"')),
  ("site", "mark", "pos", (1.5, 1.0, 0.2), ('pos="1 1 0"', 'pos="1.5 1 0.2"')),
  ("site", "mark", "size", (0.2, 0.1, 0.3), ('size="0.1 0.1 0.1"', 'size="0.2 0.1 0.3"')),
  ("site", "goal_site", "pos", (0.0, 0.5, 1.0), ('pos="0 0 1.1"', 'pos="0 0.5 1"')),
  (
    "site",
    "knob_site",
    "rgba",
    (0.0, 1.0, 0.0, 0.5),
    ('pos="0.25 0 0"', 'pos="0.25 0 0" rgba="0 1 0 0.5"'),
  ),
  ("site", "ball_site", "pos", (0.1, 0.0, 0.2), ('pos="0 0 0.2"', 'pos="0.1 0 0.2"')),
  ("camera", "top", "fovy", 60.0, ('fovy="40"', 'fovy="60"')),
  ("light", "lamp", "pos", (1.0, 2.0, 4.0), ('pos="0 0 3"', 'pos="1 2 4"')),
  ("light", "lamp", "dir", (0.0, 0.0, -2.0), ('name="lamp"', 'name="lamp" dir="0 0 -2"')),
]

_OBJ = {"geom": enums.mjOBJ_GEOM, "site": enums.mjOBJ_SITE}
_OBJ.update(camera=enums.mjOBJ_CAMERA, light=enums.mjOBJ_LIGHT)


def _edit_of(model, kind, name, attribute, value):
  return (kind, support.mj_name2id(model, _OBJ[kind], name), attribute, value)


def _snapshot(model):
  return {k: v.copy() for k, v in model._arrays.items() if isinstance(v, np.ndarray)}


@pytest.mark.parametrize("change", EDITS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_an_edit_equals_a_recompilation(change):
  kind, name, attribute, value, (old, new) = change
  assert XML.count(old) == 1
  editor = edit.compile_editable(XML)
  before = _snapshot(editor.model)
  assert editor.apply([_edit_of(editor.model, kind, name, attribute, value)])
  same_model.assert_same_values(editor.model, types.MjModel.from_xml_string(XML.replace(old, new)))
  assert any(
    not np.array_equal(before[k], v) for k, v in editor.model._arrays.items() if k in before
  )


def test_many_edits_at_once_and_in_turn():
  editor = edit.compile_editable(XML)
  xml = XML
  for half in (EDITS[::2], EDITS[1::2]):
    assert editor.apply([_edit_of(editor.model, *c[:4]) for c in half])
    for *_, (old, new) in half:
      xml = xml.replace(old, new)
    same_model.assert_same_values(editor.model, types.MjModel.from_xml_string(xml))


@pytest.mark.parametrize(
  "kind, name, attribute, value, why",
  [
    ("site", "anchor", "pos", (0.0, 0.0, 2.5), "a tendon wraps it"),
    ("site", "side", "pos", (1.0, -1.0, 1.0), "a tendon's side site"),
    ("geom", "spool", "size", (0.2, 0.3, 0.0), "a tendon wraps it"),
    ("site", "knob_site", "pos", (0.3, 0.0, 0.0), "in a moving body, read by a tendon"),
    ("geom", "framed", "size", (0.2, 0.1), "shorter than the size given"),
    ("camera", "top", "fovy", 180.0, "the compiler refuses it"),
    ("geom", "bar", "fromto", (0.0, 0.0, 1.0, 0.0, 0.0, 1.0), "the compiler refuses it"),
    ("geom", "wall", "friction", (1.0, 0.1, 0.1), "not an editable attribute"),
    ("geom", "wall", "pos", (1.0, 2.0), "a partial position"),
  ],
)
def test_an_edit_that_needs_a_recompilation_is_refused(kind, name, attribute, value, why):
  editor = edit.compile_editable(XML)
  model = editor.model
  good = _edit_of(model, "geom", "wall", "pos", (9.0, 9.0, 9.0))
  before = _snapshot(model)
  assert not editor.apply([good, _edit_of(model, kind, name, attribute, value)]), why
  for k, v in before.items():
    np.testing.assert_array_equal(model._arrays[k], v, err_msg=k)
  # the editor still works after a refusal
  assert editor.apply([good])
  xml = XML.replace('pos="2 0 0.5"', 'pos="9 9 9"')
  same_model.assert_same_values(model, types.MjModel.from_xml_string(xml))


@pytest.mark.parametrize(
  "actuator, compiler",
  [
    ('<muscle tendon="rope" lengthrange="0.5 3"/>', ""),
    (
      '<motor tendon="rope" lengthrange="0.5 3"/>',
      '<compiler><lengthrange mode="all"/></compiler>',
    ),
  ],
  ids=["muscle", "lengthrange-all"],
)
def test_length_ranges_refuse_edits_but_colours(actuator, compiler):
  """An actuator's length range may come from a simulation that any pose could change."""
  xml = XML.replace("<mujoco>", "<mujoco>" + compiler).replace(
    "</mujoco>", f"<actuator>{actuator}</actuator></mujoco>"
  )
  editor = edit.compile_editable(xml)
  m = editor.model
  assert not editor.apply([_edit_of(m, "geom", "wall", "pos", (2.5, 0.1, 0.5))])
  assert editor.apply([_edit_of(m, "geom", "wall", "rgba", (1.0, 1.0, 1.0, 1.0))])
  plain = edit.compile_editable(XML)
  assert plain.apply([_edit_of(plain.model, "geom", "wall", "pos", (2.5, 0.1, 0.5))])


def test_a_mesh_geom_and_fused_bodies_are_refused():
  mesh = """
  <mujoco>
    <compiler fusestatic="true"/>
    <asset><mesh name="tet" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>
    <worldbody>
      <geom name="tet" type="mesh" mesh="tet"/>
      <geom name="box" type="box" size="1 1 1" pos="0 0 -1"/>
      <body name="static" pos="1 0 0"><geom name="inner" size="0.1" pos="0 0 1"/></body>
    </worldbody>
  </mujoco>"""
  editor = edit.compile_editable(mesh)
  m = editor.model
  before = _snapshot(m)
  assert not editor.apply([_edit_of(m, "geom", "tet", "pos", (1.0, 0.0, 0.0))])
  # fused into the world, whose geoms' poses are then not all their own
  assert not editor.apply([("geom", 2, "pos", (0.0, 0.0, 2.0))])
  assert not editor.apply([_edit_of(m, "geom", "box", "pos", (0.0, 0.0, -2.0))])
  assert editor.apply([_edit_of(m, "geom", "box", "rgba", (1.0, 0.0, 0.0, 1.0))])
  for k, v in before.items():
    if k != "geom_rgba":
      np.testing.assert_array_equal(m._arrays[k], v, err_msg=k)
