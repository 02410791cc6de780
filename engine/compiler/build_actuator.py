"""Actuators: compiled from their specs (actuator_spec.py) into MuJoCo's actuator arrays, with
multi-input control signatures (one control per input) and the moment-matrix size nJmom.

Port of mjCActuator::Compile (user_objects.cc) and the actuator part of CopyObjects
(user_model.cc).
"""

from engine.compiler import build_tree as bt
from engine.compiler.build_common import arr as _arr
from engine.compiler.build_tendon import body_chain
from engine.enums import mjBIAS_AFFINE
from engine.enums import mjBIAS_MUSCLE
from engine.enums import mjBIAS_SO3
from engine.enums import mjBIAS_USER
from engine.enums import mjCHART_EXPMAP
from engine.enums import mjCHART_QUAT
from engine.enums import mjDYN_DCMOTOR
from engine.enums import mjDYN_FILTER
from engine.enums import mjDYN_FILTEREXACT
from engine.enums import mjDYN_INTEGRATOR
from engine.enums import mjDYN_NONE
from engine.enums import mjDYN_PID
from engine.enums import mjDYN_USER
from engine.enums import mjGAIN_AFFINE
from engine.enums import mjGAIN_DCMOTOR
from engine.enums import mjGAIN_FIXED
from engine.enums import mjGAIN_MUSCLE
from engine.enums import mjGAIN_PID
from engine.enums import mjGAIN_SO3
from engine.enums import mjGAIN_USER
from engine.enums import mjINPUT_FF
from engine.enums import mjINPUT_NONE
from engine.enums import mjINPUT_POS
from engine.enums import mjINPUT_PRESSURE
from engine.enums import mjINPUT_VEL
from engine.enums import mjINPUT_VOLTAGE
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjLIMITED_AUTO
from engine.enums import mjTRN_BODY
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_SITE
from engine.enums import mjTRN_SLIDERCRANK
from engine.enums import mjTRN_SO3
from engine.enums import mjTRN_TENDON


def make(ctx, root):
  """Actuator objects in document order."""
  acts = []
  for sec in root.children:
    if sec.tag != "actuator":
      continue
    for n in sec.children:
      acts.append(bt.Obj(n, ctx.defaults.spec(n, "actuator")))
  return acts


def compile_all(ctx, lists):
  """Port of mjCActuator::Compile for every actuator."""
  kinds = {
    mjTRN_JOINT: "joint",
    mjTRN_JOINTINPARENT: "joint",
    mjTRN_TENDON: "tendon",
    mjTRN_SLIDERCRANK: "site",
    mjTRN_SITE: "site",
    mjTRN_BODY: "body",
  }
  for act in lists["actuator"]:
    s, n = act.spec, act.node
    act.user = bt.user_data(act, s, ctx.nuser["actuator"], "actuator")
    if s["nsample"] < 0:
      raise n.error("nsample must be non-negative", "nsample")
    if s["delay"] > 0 and not s["nsample"]:
      raise n.error("setting delay > 0 without a history buffer", "delay")
    trn = s["_trntype"]
    if s["_target"] is None:
      raise n.error("missing transmission target for actuator")
    act.trntype = trn
    trnid = [-1, -1]
    attr = s["_target_attr"]
    if trn == mjTRN_SLIDERCRANK:
      if not s.get("slidersite"):
        raise n.error("missing base site for slider-crank", "slidersite")
      trnid[1] = ctx.lookup("site", s["slidersite"], n, "slidersite").id
      if s["cranklength"] <= 0:
        raise n.error("crank length must be positive in actuator", "cranklength")
    if trn == mjTRN_SITE and s.get("refsite"):
      trnid[1] = ctx.lookup("site", s["refsite"], n, "refsite").id
    target = ctx.lookup(kinds[trn], s["_target"], n, attr)
    trnid[0] = target.id
    act.so3 = s["gaintype"] == mjGAIN_SO3 or s["biastype"] == mjBIAS_SO3
    if act.so3:
      _check_so3(act, n, s, trn, target, trnid)
      trn = act.trntype = mjTRN_SO3
    act.trnid = trnid
    act.target = target

    # inherit range from the target (position-like actuators)
    gainprm, biasprm = list(s["gainprm"]), list(s["biasprm"])
    ctrlrange, actrange = list(s["ctrlrange"]), list(s["actrange"])
    inheritrange = s.get("inheritrange", 0.0) or 0.0
    pid = s["gaintype"] == mjGAIN_PID
    if inheritrange > 0 and (
      pid
      or (
        s["gaintype"] == mjGAIN_FIXED
        and s["biastype"] == mjBIAS_AFFINE
        and gainprm[0] == -biasprm[1]
      )
    ):
      if pid or s["dyntype"] in (mjDYN_NONE, mjDYN_FILTEREXACT):
        rng = ctrlrange
      elif s["dyntype"] == mjDYN_INTEGRATOR:
        rng = actrange
      else:
        raise n.error(
          "inheritrange only available for position and intvelocity actuators", "inheritrange"
        )
      if trn == mjTRN_JOINT:
        if target.type not in (mjJNT_HINGE, mjJNT_SLIDE):
          raise n.error("inheritrange can only be used with hinge and slide joints", "inheritrange")
        trange = target.range
      elif trn == mjTRN_TENDON:
        trange = target.spec["range"]
      else:
        raise n.error(
          "inheritrange can only be used with joint and tendon transmission", "inheritrange"
        )
      if trange[0] == trange[1]:
        raise n.error(
          f"inheritrange used but target '{s['_target']}' has no range defined", "inheritrange"
        )
      mean = 0.5 * (trange[1] + trange[0])
      radius = 0.5 * (trange[1] - trange[0]) * inheritrange
      rng[0] = mean - radius
      rng[1] = mean + radius

    # limits
    for pre, rng in (("force", s["forcerange"]), ("ctrl", ctrlrange), ("act", actrange)):
      lim = s[pre + "limited"]
      if lim == mjLIMITED_AUTO:
        bt.check_limited(act, ctx.autolimits, "actuator", pre, lim, rng)
    act.forcelimited = bt.islimited(s["forcelimited"], s["forcerange"])
    act.ctrllimited = bt.islimited(s["ctrllimited"], ctrlrange)
    act.actlimited = bt.islimited(s["actlimited"], actrange)
    if act.forcelimited and s["forcerange"][0] >= s["forcerange"][1]:
      raise n.error("invalid force range for actuator", "forcerange")
    if act.ctrllimited and ctrlrange[0] >= ctrlrange[1]:
      raise n.error("invalid control range for actuator", "ctrlrange")
    if act.actlimited and actrange[0] >= actrange[1]:
      raise n.error("invalid actrange for actuator", "actrange")
    if act.actlimited and s["dyntype"] == mjDYN_NONE:
      raise n.error("actrange specified but dyntype is 'none' in actuator", "actrange")
    act.ctrlrange, act.actrange = ctrlrange, actrange

    # activation dimension (pid: one state per integral / slew-rate feature, checked below)
    dyn = s["dyntype"]
    actdim = s["actdim"]
    inst = getattr(act, "plugin_inst", None)
    if inst is not None:
      # actuator plugins: as many activations as the plugin asks for (its actdim hook)
      if actdim < 0:
        actdim = int(dyn not in (mjDYN_NONE, mjDYN_DCMOTOR))
      hook = inst.plugin.actdim
      expected = hook(inst.config) if callable(hook) else hook
      if expected is not None:
        # the built-in dynamics keep their own activation, the last one
        expected = int(expected) + int(dyn in (mjDYN_FILTER, mjDYN_FILTEREXACT, mjDYN_INTEGRATOR))
      if expected is not None and actdim != expected:
        raise n.error(
          f"actuator {act.id} has actdim {actdim}, expected {expected}. Add "
          f'actdim="{expected}" to the actuator plugin element.',
          "actdim",
        )
    elif dyn != mjDYN_PID:
      if actdim > 1 and dyn not in (mjDYN_USER, mjDYN_DCMOTOR):
        raise n.error(
          "actdim > 1 is only allowed for dyntype 'user', 'dcmotor' and 'pid'", "actdim"
        )
      if actdim == 1 and dyn == mjDYN_NONE:
        raise n.error("invalid actdim 1 in stateless actuator", "actdim")
      if actdim == 0 and dyn not in (mjDYN_NONE, mjDYN_DCMOTOR):
        raise n.error("invalid actdim 0 in stateful actuator", "actdim")
      if actdim < 0:
        actdim = int(dyn not in (mjDYN_NONE, mjDYN_DCMOTOR))
    if act.so3 and dyn == mjDYN_INTEGRATOR:
      actdim = 3
    act.actdim = actdim

    # muscle parameters
    for prm, used in (
      (gainprm, s["gaintype"] == mjGAIN_MUSCLE),
      (biasprm, s["biastype"] == mjBIAS_MUSCLE),
    ):
      if not used:
        continue
      if prm[0] >= prm[1]:
        raise n.error("range[0]<range[1] required in muscle", "range")
      if prm[4] >= 1 or prm[5] <= 1:
        raise n.error("lmin<1<lmax required in muscle", "lmin")
      if prm[3] <= 0 or prm[6] <= 0 or prm[7] <= 0 or prm[8] <= 0:
        raise n.error("positive scale, vmax, fpmax, fvmax required in muscle")

    if dyn == mjDYN_USER or s["gaintype"] == mjGAIN_USER or s["biastype"] == mjBIAS_USER:
      raise n.error("user actuator types (callbacks) are not supported", cls=ctx.Unsupported)

    # input signature: one control per input
    spec_in = _check_inputs(n, s, act, gainprm)
    lim = act.ctrllimited
    if act.so3:
      act.ctrlnum = 4 if spec_in == mjCHART_QUAT else 3
      act.outnum = 3
      ranges = [(ctrlrange, lim)] * act.ctrlnum
    elif spec_in == mjINPUT_NONE:
      ranges = []
    elif not spec_in:
      ranges = [(ctrlrange, lim)]
    else:
      ranges = []
      for bit in (mjINPUT_POS, mjINPUT_VEL, mjINPUT_FF, mjINPUT_VOLTAGE, mjINPUT_PRESSURE):
        if spec_in & bit:
          if pid and bit != mjINPUT_POS:
            rng = s.get("velrange" if bit == mjINPUT_VEL else "ffrange", (0.0, 0.0))
            ranges.append((rng, rng[0] < rng[1]))
          else:
            ranges.append((ctrlrange, lim))
    if not act.so3:
      act.ctrlnum, act.outnum = len(ranges), 1
    act.ctrlranges = ranges
    act.ctrlspec = spec_in
    act.gainprm, act.biasprm = gainprm, biasprm


def _check_inputs(n, s, act, gainprm):
  """Input signature with its defaults, and the pid / dcmotor consistency checks.

  Resolves act.actdim of pid actuators (one state per integral / slew-rate feature).
  """
  spec_in = s["_ctrlspec"]
  gain, bias, dyn = s["gaintype"], s["biastype"], s["dyntype"]
  dynprm = s["dynprm"]
  if act.so3:
    spec_in = spec_in or mjCHART_EXPMAP
    if spec_in not in (mjCHART_EXPMAP, mjCHART_QUAT):
      raise n.error("so3 input must be expmap or quat in actuator", "input")
  elif gain == mjGAIN_PID:
    spec_in = spec_in or mjINPUT_POS | mjINPUT_VEL
    if spec_in & ~(mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF):
      raise n.error("pid inputs are a subset of [pos, vel, ff] in actuator", "input")
  elif gain == mjGAIN_DCMOTOR:
    spec_in = spec_in or mjINPUT_VOLTAGE
    if spec_in != mjINPUT_NONE and spec_in & ~(
      mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF | mjINPUT_VOLTAGE
    ):
      raise n.error(
        "dcmotor inputs are 'none' or a subset of [pos, vel, ff, voltage] in actuator", "input"
      )
  elif gain in (mjGAIN_FIXED, mjGAIN_AFFINE):
    if spec_in not in (0, mjINPUT_POS, mjINPUT_VEL, mjINPUT_PRESSURE):
      raise n.error("fixed and affine gains take one input, 'pos', 'vel' or 'pressure'", "input")
  if gain == mjGAIN_PID:
    if bias != mjBIAS_AFFINE:
      raise n.error("pid requires biastype 'affine' in actuator", "biastype")
    if dyn not in (mjDYN_NONE, mjDYN_PID):
      raise n.error("pid requires dyntype 'none' or 'pid' in actuator", "dyntype")
    if dyn == mjDYN_NONE and gainprm[0]:
      raise n.error("ki (gainprm[0]) requires dyntype 'pid' in actuator", "gainprm")
  elif dyn == mjDYN_PID:
    raise n.error("dyntype 'pid' requires gaintype 'pid' in actuator", "dyntype")
  if dyn == mjDYN_PID:
    if dynprm[0] < 0:
      raise n.error("imax (dynprm[0]) must be non-negative in actuator", "dynprm")
    if dynprm[1] < 0:
      raise n.error("slewmax (dynprm[1]) must be non-negative in actuator", "dynprm")
    states = int(gainprm[0] > 0) + int(dynprm[1] > 0)
    if act.actdim > 0 and act.actdim != states:
      raise n.error("pid controller states require matching actdim in actuator", "actdim")
    if not spec_in & mjINPUT_POS:
      raise n.error("pid controller states require the pos input in actuator", "input")
    act.actdim = states
    if not states:
      raise n.error("invalid actdim 0 in stateful actuator", "actdim")
  if dyn == mjDYN_DCMOTOR and not s["actearly"]:
    raise n.error("actearly cannot be false for DC motor actuator", "actearly")
  if gain == mjGAIN_DCMOTOR:
    servo = spec_in & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF)
    if any(gainprm[4:7]) and not servo:
      raise n.error(
        "dcmotor controller gains require a controller input [pos, vel, ff] in actuator", "input"
      )
    if dynprm[7] > 0 and not servo:
      raise n.error(
        "dcmotor slew rate limiting requires a controller input [pos, vel, ff] in actuator", "input"
      )
    if servo and gainprm[1] <= 0:
      raise n.error(
        "dcmotor controller inputs require a positive motor constant in actuator", "input"
      )
    if gainprm[5] > 0 and not spec_in & mjINPUT_POS:
      raise n.error("dcmotor integral gain requires the pos input in actuator", "input")
  if gain == mjGAIN_DCMOTOR or dyn == mjDYN_DCMOTOR:
    # states: current, slew, integral, temperature, bristle (stateless allowed without the gain)
    states = sum(int(v > 0) for v in (dynprm[0], dynprm[7], gainprm[5], dynprm[2], dynprm[5]))
    if act.actdim != states and (gain == mjGAIN_DCMOTOR or act.actdim):
      raise n.error(
        f"inconsistent state array dimension in DC motor: {states} states for actdim {act.actdim}",
        "actdim",
      )
  return spec_in


def _check_so3(act, n, s, trn, target, trnid):
  """Validity of an so3 (orientation) actuator: ball joint or site with refsite."""
  if s["gaintype"] != mjGAIN_SO3 or s["biastype"] != mjBIAS_SO3:
    raise n.error("gaintype and biastype must both be 'so3' in actuator", "gaintype")
  if trn == mjTRN_JOINT:
    if target.type != mjJNT_BALL:
      raise n.error("so3 joint transmission requires a ball joint in actuator", "joint")
  elif trn == mjTRN_SITE:
    if trnid[1] < 0:
      raise n.error("so3 site transmission requires refsite in actuator", "refsite")
  else:
    raise n.error("so3 actuators need a ball joint or a site with refsite", "gaintype")
  if s["_ctrlspec"] == mjCHART_QUAT and s["dyntype"] != mjDYN_NONE:
    raise n.error("so3 quat input requires dyntype 'none' in actuator", "input")
  if s["dyntype"] not in (mjDYN_NONE, mjDYN_INTEGRATOR):
    raise n.error("so3 requires dyntype 'none' or 'integrator' in actuator", "dyntype")
  if bt.islimited(s["forcelimited"], s["forcerange"]) and s["forcerange"][0] != 0:
    raise n.error(
      "so3 forcerange bounds the force norm, lower bound must be 0 in actuator", "forcerange"
    )


def arrays(ctx, lists, sizes, arrays):
  """Actuator arrays (CopyObjects), jnt/tendon_actuatorid and nJmom."""
  acts = lists["actuator"]
  nu = len(acts)
  actadr, adr = [], 0
  ctrladr, outadr, nctrl, nout = [], [], 0, 0
  for a in acts:
    actadr.append(adr if a.actdim else -1)
    adr += a.actdim
    ctrladr.append(nctrl)
    outadr.append(nout)
    nctrl += a.ctrlnum
    nout += a.outnum
  sizes.update(nactuator=nu, nu=nctrl, na=adr, nout=nout)
  s = [a.spec for a in acts]

  def per(values, counts):
    # one row per control or output of each actuator
    return [v for v, k in zip(values, counts) for _ in range(k)]

  ctrlnum = [a.ctrlnum for a in acts]
  outnum = [a.outnum for a in acts]
  _arr(arrays, "actuator_trntype", [a.trntype for a in acts])
  _arr(arrays, "actuator_dyntype", [x["dyntype"] for x in s])
  _arr(arrays, "actuator_gaintype", [x["gaintype"] for x in s])
  _arr(arrays, "actuator_biastype", [x["biastype"] for x in s])
  _arr(arrays, "actuator_ctrladr", ctrladr)
  _arr(arrays, "actuator_ctrlnum", ctrlnum)
  _arr(arrays, "actuator_ctrlspec", [a.ctrlspec for a in acts])
  _arr(arrays, "actuator_outadr", outadr)
  _arr(arrays, "actuator_outnum", outnum)
  _arr(arrays, "actuator_actadr", actadr)
  _arr(arrays, "actuator_actnum", [a.actdim for a in acts])
  _arr(arrays, "actuator_trnid", [a.trnid for a in acts], (nu, 2))
  _arr(arrays, "actuator_cranklength", [x["cranklength"] for x in s])
  _arr(arrays, "actuator_dynprm", [x["dynprm"] for x in s], (nu, 10))
  _arr(arrays, "actuator_gainprm", [a.gainprm for a in acts], (nu, 10))
  _arr(arrays, "actuator_biasprm", [a.biasprm for a in acts], (nu, 10))
  _arr(arrays, "actuator_actlimited", [a.actlimited for a in acts])
  _arr(arrays, "actuator_actrange", [a.actrange for a in acts], (nu, 2))
  _arr(arrays, "actuator_actearly", [bool(x["actearly"]) for x in s])
  hist, histadr = [], []
  nhist = 0
  for a, x in zip(acts, s):
    hist.append((x["nsample"], x["interp"]))
    histadr.append(nhist if x["nsample"] else -1)
    if x["nsample"]:
      nhist += 2 + x["nsample"] * (1 + a.ctrlnum)
  sizes["nhistory"] = nhist
  _arr(arrays, "actuator_history", hist, (nu, 2))
  _arr(arrays, "actuator_historyadr", histadr)
  _arr(arrays, "actuator_delay", [x["delay"] for x in s])
  _arr(arrays, "actuator_damping", [x["damping"][0] for x in s])
  _arr(arrays, "actuator_dampingpoly", [x["damping"][1:3] for x in s], (nu, 2))
  _arr(arrays, "actuator_armature", [x["armature"] for x in s])
  _arr(arrays, "actuator_group", [x["group"] for x in s])
  _arr(arrays, "actuator_user", [a.user for a in acts], (nu, ctx.nuser["actuator"]))
  _arr(arrays, "actuator_plugin", [-1] * nu)
  _arr(arrays, "actuator_forcelimited", [a.forcelimited for a in acts])
  _arr(arrays, "actuator_forcerange", [x["forcerange"] for x in s], (nu, 2))
  _arr(arrays, "actuator_ctrllimited", [lim for a in acts for _, lim in a.ctrlranges])
  _arr(arrays, "actuator_ctrlrange", [r for a in acts for r, _ in a.ctrlranges], (nctrl, 2))
  _arr(arrays, "actuator_gear", per([x["gear"] for x in s], outnum), (nout, 6))
  _arr(arrays, "actuator_acc0", [0.0] * nout)
  _arr(arrays, "actuator_length0", [0.0] * nout)
  _arr(arrays, "actuator_lengthrange", per([x["lengthrange"] for x in s], outnum), (nout, 2))

  # joint/tendon -> actuator with damping or armature (-2: more than one)
  jid = [-1] * sizes["njnt"]
  tid = [-1] * sizes["ntendon"]
  for i, a in enumerate(acts):
    x = a.spec
    if not (x["damping"][0] or x["damping"][1] or x["damping"][2] or x["armature"]):
      continue
    if a.trntype in (mjTRN_JOINT, mjTRN_JOINTINPARENT):
      tgt = jid
    elif a.trntype == mjTRN_TENDON:
      tgt = tid
    else:
      continue
    k = a.trnid[0]
    tgt[k] = i if tgt[k] == -1 else -2
  _arr(arrays, "jnt_actuatorid", jid)
  _arr(arrays, "tendon_actuatorid", tid)

  # nonzeros of the actuator moment matrix (upper bound MuJoCo allocates)
  nv = sizes["nv"]
  site_body = arrays["site_bodyid"]
  njmom = 0
  for a in acts:
    if a.trntype in (mjTRN_JOINT, mjTRN_JOINTINPARENT) or (
      a.trntype == mjTRN_SO3 and a.target.node.tag != "site"
    ):
      njmom += a.target.nv
    elif a.trntype == mjTRN_SO3:
      njmom += 3 * nv
    elif a.trntype == mjTRN_TENDON:
      njmom += int(arrays["ten_J_rownnz"][a.trnid[0]])
    elif a.trntype == mjTRN_SITE:
      c1 = set(body_chain(arrays, site_body[a.trnid[0]]))
      if a.trnid[1] >= 0:
        c1 ^= set(body_chain(arrays, site_body[a.trnid[1]]))
      njmom += len(c1)
    elif a.trntype == mjTRN_SLIDERCRANK:
      c1 = set(body_chain(arrays, site_body[a.trnid[0]]))
      c1 |= set(body_chain(arrays, site_body[a.trnid[1]]))
      njmom += len(c1)
    else:
      njmom += nv
  sizes["nJmom"] = njmom
