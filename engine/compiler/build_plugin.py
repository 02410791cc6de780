"""Engine plugin instances (mjCPlugin): `<extension>` declarations, explicit `<instance>`s,
implicit instances created in place by `<plugin>` under meshes, bodies, geoms, actuators and
sensors, and the plugin_* arrays.

Explicit instances come first, in document order, then the implicit ones (meshes, bodies in tree
order, geoms, actuators, sensors), as MuJoCo numbers them. A config value is kept as text
(plugin_attr, null-terminated, in the plugin's attribute order); the plugin's own hooks read it.
"""

import numpy as np

from engine.compiler import build_tree as bt


class Instance(bt.Obj):
  """A plugin instance: its plugin (engine.plugin.Plugin) and {attribute: value} config."""

  def __init__(self, node, plugin, config, name=""):
    super().__init__(node)
    self.name = name
    self.plugin = plugin
    self.config = config


def _find_plugin(name):
  from engine import plugin as _plugin  # the registry (plain Python)

  return _plugin.find_plugin(name)


def _plugin_for(ctx, node, name):
  """The registered plugin `name`; a clear error naming the element when there is none."""
  plugin = _find_plugin(name)
  if plugin is not None:
    return plugin
  from engine.plugins import MUJOCO_PLUGINS

  if name in MUJOCO_PLUGINS:
    raise node.error(
      f"MuJoCo's plugin '{name}' is not supported yet", "plugin", cls=ctx.Unsupported
    )
  raise node.error(
    f"unrecognized plugin '{name}': register it first with engine.plugin.register_plugin", "plugin"
  )


def _config(node, plugin):
  """{attribute: value} of the <config> children of node, every attribute present."""
  config = {a: "" for a in plugin.attributes}
  seen = set()
  for c in node.children:
    if c.tag != "config":
      continue
    key = c.attrs["key"]
    if key not in config:
      known = ", ".join(plugin.attributes) or "none"
      raise c.error(
        f"unrecognized attribute 'plugin:{key}' for plugin '{plugin.name}' "
        f"(its attributes: {known})",
        "key",
      )
    if key in seen:
      raise c.error(f"repeated config key '{key}' for plugin '{plugin.name}'", "key")
    seen.add(key)
    config[key] = c.attrs.get("value", "")
  return config


def make(ctx, root, lists):
  """The model's plugin instances; resolves every in-place <plugin> (ctx.plugin_of[node])."""
  declared = {}
  instances = []
  for ext in root.children:
    if ext.tag != "extension":
      continue
    for p in ext.children:
      name = p.attrs.get("plugin")
      if not name:
        raise p.error("plugin name is missing", "plugin")
      plugin = _plugin_for(ctx, p, name)
      declared[name] = plugin
      for inst in p.children:
        instances.append(Instance(inst, plugin, _config(inst, plugin), inst.attrs["name"]))
  explicit = {i.name: i for i in instances}
  ctx.plugin_of = {}

  def resolve(node, capability, what):
    a = node.attrs
    if a.get("instance"):
      inst = explicit.get(a["instance"])
      if inst is None:
        raise node.error(f"unknown plugin instance '{a['instance']}'", "instance")
      if any(c.tag == "config" for c in node.children):
        raise node.error(
          f"plugin instance '{inst.name}' is declared in <extension>: configure "
          "it there, not in place",
          "instance",
        )
      if a.get("plugin") and a["plugin"] != inst.plugin.name:
        raise node.error(
          f"plugin '{a['plugin']}' does not match instance '{inst.name}' of "
          f"plugin '{inst.plugin.name}'",
          "plugin",
        )
    elif (
      getattr(node, "composite_instance", None) is not None and "inst" in node.composite_instance
    ):
      inst = node.composite_instance["inst"]  # a composite's bodies share one instance
    else:
      name = a.get("plugin")
      if not name:
        raise node.error("a <plugin> element needs plugin= or instance=", "plugin")
      if name not in declared:
        _plugin_for(ctx, node, name)
        raise node.error(f"plugin '{name}' is used but not declared in <extension>", "plugin")
      inst = Instance(node, declared[name], _config(node, declared[name]))
      shared = getattr(node, "composite_instance", None)
      if shared is not None:
        inst.name = shared["name"]
        shared["inst"] = inst
      instances.append(inst)
    if not inst.plugin.capabilities & capability:
      raise node.error(f"plugin '{inst.plugin.name}' cannot be used in {what}", "plugin")
    ctx.plugin_of[id(node)] = inst
    return inst

  from engine.plugin_call import mjPLUGIN_ACTUATOR
  from engine.plugin_call import mjPLUGIN_PASSIVE
  from engine.plugin_call import mjPLUGIN_SDF
  from engine.plugin_call import mjPLUGIN_SENSOR

  for mesh in lists["mesh"]:
    for c in mesh.node.children:
      if c.tag == "plugin":
        mesh.plugin_inst = resolve(c, mjPLUGIN_SDF, "a mesh (signed distance fields only)")
  for body in lists["body"][1:]:
    for c in body.node.children:
      if c.tag == "plugin":
        body.plugin_inst = resolve(c, mjPLUGIN_PASSIVE, "a body (passive forces)")
  for geom in lists["geom"]:
    for c in geom.node.children:
      if c.tag == "plugin":
        geom.plugin_inst = resolve(c, mjPLUGIN_SDF, "a geom (signed distance fields only)")
  for act in lists["actuator"]:
    if act.node.tag == "plugin":
      act.plugin_inst = resolve(act.node, mjPLUGIN_ACTUATOR, "an actuator")
  for sen in lists["sensor"]:
    if sen.node.tag == "plugin":
      sen.plugin_inst = resolve(sen.node, mjPLUGIN_SENSOR, "a sensor")
  for i, inst in enumerate(instances):
    inst.id = i
  return instances


def arrays(ctx, lists, sizes, arrays):
  """plugin_*, body_/actuator_/sensor_plugin arrays and sizes; returns the plugins' names,
  which bind the instances to this process's registry when the MjModel is made (m.plugin,
  the registry slots, are filled then)."""
  instances = lists["plugin"]
  attr, attradr, stateadr, statenum = bytearray(), [], [], []
  for inst in instances:
    attradr.append(len(attr))
    for a in inst.plugin.attributes:
      attr += inst.config[a].encode() + b"\0"
    n = inst.plugin.state_size(inst.config)
    if n < 0:
      raise inst.error(f"plugin '{inst.plugin.name}' asks for a negative state size {n}")
    stateadr.append(sum(statenum))
    statenum.append(n)
  sizes["nplugin"] = len(instances)
  sizes["npluginattr"] = len(attr)
  sizes["npluginstate"] = sum(statenum)
  arrays["plugin_attr"] = np.frombuffer(bytes(attr), np.int8).copy()
  arrays["plugin_attradr"] = np.array(attradr, np.int32)
  arrays["plugin_stateadr"] = np.array(stateadr, np.int32)
  arrays["plugin_statenum"] = np.array(statenum, np.int32)
  for kind, field in (
    ("body", "body_plugin"),
    ("geom", "geom_plugin"),
    ("actuator", "actuator_plugin"),
    ("sensor", "sensor_plugin"),
  ):
    ids = [getattr(o, "plugin_inst", None) for o in lists[kind]]
    arrays[field] = np.array([-1 if i is None else i.id for i in ids], np.int32)
  return [inst.plugin.name for inst in instances]
