"""mjcf.edits.EditTracker: the attributes changed since a compilation, as engine edits, and the
changes that need a recompilation instead."""

import functools

import pytest

import mjcf
from engine import enums
from engine import support
from engine.compiler import edit
from mjcf import edits
from tests import same_model


def _model():
  root = mjcf.RootElement(model="arena")
  root.default.geom.rgba = [0.5, 0.5, 0.5, 1]
  root.worldbody.add("geom", name="floor", type="plane", size=[2, 2, 0.1])
  root.worldbody.add("site", type="box", size=[0.1, 0.1, 0.1])  # unnamed
  creature = mjcf.RootElement(model="creature")
  body = creature.worldbody.add("body", name="torso")
  body.add("joint", type="hinge")
  body.add("geom", name="torso", type="sphere", size=[0.1])
  root.worldbody.attach(creature)
  return root, creature


def _compiled(root):
  editor = mjcf.physics.compile_editable(root)
  tracker = edits.EditTracker(root)
  tracker.snapshot()
  return editor, tracker


def test_nothing_changed_is_no_edit():
  root, _ = _model()
  editor, tracker = _compiled(root)
  assert tracker.edits(editor.model) == []
  root.find("geom", "floor").size  # handed out, unchanged
  assert tracker.edits(editor.model) == []


def test_set_attributes_become_edits_with_compiled_ids():
  root, creature = _model()
  editor, tracker = _compiled(root)
  root.find("geom", "floor").size = [3, 1, 0.1]
  site = root.worldbody.site[0]
  site.set_attributes(pos=[1, 2, 3], rgba=[1, 0, 0, 1])
  creature.find("geom", "torso").size = [0.2]
  found = sorted(tracker.edits(editor.model))
  geom = functools.partial(support.mj_name2id, editor.model, enums.mjOBJ_GEOM)
  assert found == sorted(
    [
      ("geom", geom("floor"), "size", (3.0, 1.0, 0.1)),
      ("site", 0, "pos", (1.0, 2.0, 3.0)),
      ("site", 0, "rgba", (1.0, 0.0, 0.0, 1.0)),
      ("geom", geom("creature/torso"), "size", (0.2,)),
    ]
  )
  # applied, they give what a recompilation gives, and the next snapshot starts afresh
  assert editor.apply(found)
  tracker.snapshot()
  assert tracker.edits(editor.model) == []
  reference = mjcf.Physics.from_mjcf_model(root).model
  same_model.assert_same_values(editor.model, reference, groups=())


def test_an_array_handed_out_before_and_changed_in_place_after_is_an_edit():
  root, _ = _model()
  size = root.find("geom", "floor").size  # kept across the compilation
  editor, tracker = _compiled(root)
  size[0] = 5.0
  assert tracker.edits(editor.model) == [("geom", 0, "size", (5.0, 2.0, 0.1))]


@pytest.mark.parametrize(
  "change",
  [
    lambda root, creature: root.worldbody.add("geom", size=[1]),
    lambda root, creature: creature.find("geom", "torso").remove(),
    lambda root, creature: setattr(root.find("geom", "floor"), "name", "ground"),
    lambda root, creature: creature.detach(),
    lambda root, creature: creature.worldbody.add("site"),
    lambda root, creature: root.worldbody.attach(mjcf.RootElement(model="other")),
  ],
  ids=["add", "remove", "rename", "detach", "add-in-attached", "attach"],
)
def test_a_change_of_the_tree_needs_a_recompilation(change):
  root, creature = _model()
  editor, tracker = _compiled(root)
  change(root, creature)
  assert tracker.edits(editor.model) is None


def test_other_models_changing_do_not_matter():
  root, _ = _model()
  editor, tracker = _compiled(root)
  other = mjcf.RootElement()
  other.worldbody.add("geom", size=[1])
  assert tracker.edits(editor.model) == []


@pytest.mark.parametrize(
  "change",
  [
    lambda root: setattr(root.default.geom, "rgba", [1, 1, 1, 1]),  # a class
    lambda root: setattr(root.find("geom", "floor"), "friction", [1, 0.1, 0.1]),
    lambda root: setattr(root.option, "timestep", 0.01),
    lambda root: setattr(root.find("geom", "floor"), "size", None),  # the class's again
  ],
  ids=["default-class", "not-editable", "option", "unset"],
)
def test_a_change_the_engine_cannot_edit_needs_a_recompilation(change):
  root, _ = _model()
  editor, tracker = _compiled(root)
  change(root)
  assert tracker.edits(editor.model) is None


def test_the_editable_attributes_are_the_engines():
  assert set(edit.EDITABLE) == set(edits._KINDS)
