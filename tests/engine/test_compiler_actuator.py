"""Actuator shortcuts read over default classes of every kind, against MuJoCo 3.17.

A shortcut inherits its gain/bias/dynamics parameters only from a class written by the same
shortcut or by a compatible <general>; these combinations pin that behaviour down.
"""

import random

import mujoco
import pytest

from engine.compiler import compile_model
from engine.errors import CompileError
from tests.engine.test_compiler import compare

CLASSES = {
  "none": "",
  "pos": '<position kp="5" kv="1"/>',
  "posdr": '<position kp="5" dampratio="0.5" timeconst="0.2"/>',
  "vel": '<velocity kv="3"/>',
  "intv": '<intvelocity kp="4" kv="2"/>',
  "damp": '<damper kv="2" ctrlrange="0 1"/>',
  "cyl": '<cylinder area="2" timeconst="0.5" bias="1 2 3"/>',
  "gen_affine": (
    '<general gainprm="7 8 9" biasprm="1 2 3" dynprm="4 5 6" dyntype="filter" '
    'gaintype="affine" biastype="affine"/>'
  ),
  "gen_plain": '<general gainprm="7 8 9" biasprm="1 2 3" dynprm="4 5 6"/>',
  "gen_fe": (
    '<general gainprm="3" biasprm="0 -3 -1" biastype="affine" dyntype="filterexact" dynprm="0.2"/>'
  ),
  "mus": '<muscle timeconst="0.02 0.05" range="0.7 1.1" force="10"/>',
  "adh": '<adhesion gain="3" ctrlrange="0 1"/>',
  "mot": '<motor gear="2"/>',
  "adh_gen": '<adhesion gain="3" ctrlrange="0 1"/><general gainprm="4"/>',
  "pos_child": "CHILD",
  "orient": '<orientation kp="3" kv="0.5" input="quat"/>',
}
ELEMENTS = {
  "motor": '<motor joint="j" class="c"/>',
  "position": '<position joint="j" class="c"/>',
  "velocity": '<velocity joint="j" class="c"/>',
  "intvelocity": '<intvelocity joint="j" class="c"/>',
  "damper": '<damper joint="j" class="c" ctrlrange="0 1"/>',
  "cylinder": '<cylinder joint="j" class="c"/>',
  "muscle": '<muscle joint="j" class="c" lengthrange="0 1"/>',
  "adhesion": '<adhesion body="b" class="c" ctrlrange="0 1"/>',
  "general": '<general joint="j" class="c"/>',
  "orientation": '<orientation joint="jb" class="c"/>',
}
BASE = """<mujoco>
  <default>
    <default class="p"><position kp="9"/>{child}</default>
  </default>
  <worldbody>
    <body name="b"><joint name="j" range="-1 1"/><geom size=".1"/>
      <body><joint name="jb" type="ball"/><geom size=".1"/></body>
    </body>
  </worldbody>
  <actuator>{elem}</actuator>
</mujoco>"""


def _xml(cls, elems, nested):
  if CLASSES[cls] == "CHILD":
    child = '<default class="c"><velocity kv="2"/></default>'
  else:
    child = f'<default class="c">{CLASSES[cls]}</default>'
  xml = BASE.format(child=child, elem="".join(ELEMENTS[e] for e in elems))
  if not nested:
    xml = xml.replace('<position kp="9"/>', "")
  return xml


def _check(xml):
  try:
    mujoco.MjModel.from_xml_string(xml)
  except ValueError:
    with pytest.raises(CompileError):
      compile_model(xml=xml)
    return False
  compare(xml=xml)
  return True


@pytest.mark.parametrize("nested", [True, False], ids=["under_position_class", "under_main"])
@pytest.mark.parametrize("cls", list(CLASSES))
def test_shortcuts_over_class(cls, nested):
  # all shortcuts in one model; one at a time when MuJoCo rejects some of them
  if not _check(_xml(cls, ELEMENTS, nested)):
    for elem in ELEMENTS:
      _check(_xml(cls, [elem], nested))


# ---- pid, dcmotor and multi-input signatures: random elements against MuJoCo --------------

_INPUTS = [
  "pos",
  "vel",
  "ff",
  "pos vel",
  "pos vel ff",
  "vel ff",
  "pos ff",
  "voltage",
  "none",
  "pos voltage",
  "pressure",
  "expmap",
  "quat",
]
_SERVO_BASE = """<mujoco><compiler autolimits="{auto}"/>
  <default><default class="c">{cls}</default></default>
  <worldbody><body name="b"><joint name="j" range="-1 2" limited="true"/><geom size=".1"/>
    <body><joint name="k"/><geom size=".1"/></body></body></worldbody>
  <actuator>{elems}</actuator></mujoco>"""


class _Servos:
  """Random <pid>, <dcmotor> and <general> (pid/dcmotor types) elements."""

  def __init__(self, seed, neg=0.15):
    self.r = random.Random(seed)
    self.neg = neg

  def num(self):
    r = self.r
    if r.random() < self.neg:
      return r.choice([0, -1, round(r.uniform(-1, 3), 4)])
    return r.choice([0, 1, 2, 0.5, 0.01, 3.5, round(r.uniform(0.1, 3), 4)])

  def vec(self, n):
    return " ".join(f"{self.num():g}" for _ in range(self.r.randint(1, n)))

  def maybe(self, a, p, name, value):
    if self.r.random() < p:
      a[name] = value

  def pid(self, a):
    for k in ("kp", "kv", "dampratio", "ki", "imax", "slewmax", "inheritrange"):
      self.maybe(a, 0.3, k, f"{self.num():g}")
    for k in ("posrange", "velrange", "ffrange", "ctrlrange", "forcerange"):
      self.maybe(a, 0.2, k, self.r.choice(["-1 1", "0 2", "1 -1", "0 0"]))
    self.maybe(a, 0.2, "ctrllimited", self.r.choice(["true", "false", "auto"]))
    return "pid"

  def dcmotor(self, a):
    self.maybe(a, 0.85, "motorconst", self.vec(2))
    self.maybe(a, 0.85, "resistance", f"{self.num():g}")
    for k, n in (
      ("nominal", 3),
      ("saturation", 3),
      ("inductance", 2),
      ("cogging", 3),
      ("controller", 6),
      ("thermal", 6),
      ("lugre", 5),
    ):
      self.maybe(a, 0.25, k, self.vec(n))
    self.maybe(a, 0.2, "ctrlrange", self.r.choice(["-1 1", "0 2"]))
    self.maybe(a, 0.2, "damping", self.r.choice(["0.1", "1 0.2"]))
    return "dcmotor"

  def general(self, a):
    r = self.r
    kind = r.choice(["pid", "dcmotor", "mix"])
    if kind == "pid":
      a.update(gaintype="pid", biastype="affine", dyntype=r.choice(["pid", "none"]))
    elif kind == "dcmotor":
      a.update(
        gaintype="dcmotor",
        biastype="dcmotor",
        actearly="true",
        dyntype=r.choice(["dcmotor", "none"]),
      )
    else:
      a.update(
        gaintype=r.choice(["pid", "dcmotor", "fixed", "affine"]),
        biastype=r.choice(["affine", "dcmotor", "none"]),
        dyntype=r.choice(["pid", "dcmotor", "none", "integrator"]),
      )
    for k in ("gainprm", "biasprm", "dynprm"):
      self.maybe(a, 0.6, k, self.vec(10))
    self.maybe(a, 0.3, "actdim", str(r.choice([-1, 0, 1, 2, 3])))
    self.maybe(a, 0.2, "actearly", r.choice(["true", "false"]))
    self.maybe(a, 0.2, "ctrlrange", r.choice(["-1 1", "0 2"]))
    return "general"

  def element(self, target):
    a = {}
    tag = self.r.choice([self.pid, self.dcmotor, self.general])(a)
    self.maybe(a, 0.4, "input", self.r.choice(_INPUTS))
    attrs = " ".join(f'{k}="{v}"' for k, v in a.items())
    return f"<{tag} {target} {attrs}/>"

  def model(self):
    r = self.r
    cls = self.element("") if r.random() < 0.4 else ""
    elems = [
      self.element(f'joint="{r.choice("jk")}"' + (' class="c"' if cls else ""))
      for _ in range(r.randint(1, 2))
    ]
    return _SERVO_BASE.format(
      auto=r.choice(["true", "true", "false"]), cls=cls, elems="".join(elems)
    )


@pytest.mark.parametrize("seed", range(6))
def test_pid_dcmotor_random(seed):
  """Accepted models match MuJoCo field by field; rejected ones raise CompileError."""
  gen = _Servos(seed)
  accepted = 0
  for _ in range(120):
    accepted += _check(gen.model())
  assert accepted >= 15  # the generator keeps exploring valid models


@pytest.mark.parametrize(
  "xml_act, msg",
  [
    ('<pid joint="j" input="voltage"/>', "pid inputs are a subset"),
    ('<pid joint="j" ki="1" input="vel"/>', "require the pos input"),
    ('<pid joint="j" kv="1" dampratio="1"/>', "kv and dampratio"),
    ('<dcmotor joint="j" resistance="1"/>', "motor constant K must be positive"),
    (
      '<dcmotor joint="j" motorconst="1" resistance="1" controller="1"/>',
      "controller gains require a controller input",
    ),
    ('<general joint="j" input="vel pos"/>', "canonical order"),
    ('<general joint="j" input="pos vel"/>', "fixed and affine gains take one input"),
  ],
)
def test_servo_errors_name_element_and_line(xml_act, msg):
  xml = (
    '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>\n'
    f"<actuator>\n{xml_act}\n</actuator></mujoco>"
  )
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(CompileError) as e:
    compile_model(xml=xml)
  assert msg in str(e.value)
  assert e.value.line == 3 and e.value.element == xml_act.split()[0][1:]
