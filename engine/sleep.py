"""Sleeping trees (port of engine_sleep.c, MuJoCo 3.17), used when the model enables
mjENBL_SLEEP (`<option><flag sleep="enable"/></option>`).

A kinematic tree whose velocity stays below opt.sleep_tolerance (per dof, scaled by
dof_length) for mjMINAWAKE steps, with no applied force, may sleep; a constraint island
sleeps when all its trees may, at once. A sleeping tree's qvel and qacc are zero, it is not
integrated, collides with nothing static or asleep, and adds no constraint rows; it wakes when
touched by an awake tree (a contact, an equality, a limited tendon), when a force is applied
to it or when its qpos is changed from outside.

d.tree_asleep is the state: a negative value counts an awake tree's quiet steps, from
-(1+mjMINAWAKE) (just woke) up to -1 (ready to sleep); a sleeping tree holds the index of the
next tree of its island, the sleeping island forming a cycle. update_sleep derives the other
fields (tree_awake, body_awake, the *_awake_ind lists and their counts) from it.
"""

from engine import flags as _flags
from engine._jit import inline_jit
from engine._jit import jit
from engine.enums import mjENBL_SLEEP
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_JOINT
from engine.enums import mjEQ_TENDON
from engine.enums import mjEQ_WELD
from engine.enums import mjMINAWAKE
from engine.enums import mjOBJ_ACTUATOR
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_CAMERA
from engine.enums import mjOBJ_DOF
from engine.enums import mjOBJ_EQUALITY
from engine.enums import mjOBJ_GEOM
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_LIGHT
from engine.enums import mjOBJ_SITE
from engine.enums import mjOBJ_TENDON
from engine.enums import mjOBJ_UNKNOWN
from engine.enums import mjOBJ_XBODY
from engine.enums import mjS_ASLEEP
from engine.enums import mjS_AWAKE
from engine.enums import mjS_STATIC
from engine.enums import mjSENS_CONTACT
from engine.enums import mjSENS_PLUGIN
from engine.enums import mjSENS_RANGEFINDER
from engine.enums import mjSENS_USER
from engine.enums import mjSLEEP_AUTO_NEVER
from engine.enums import mjSLEEP_NEVER
from engine.enums import mjTRN_BODY
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_SITE
from engine.enums import mjTRN_SLIDERCRANK
from engine.enums import mjTRN_SO3
from engine.enums import mjTRN_TENDON

AWAKE = -(1 + mjMINAWAKE)  # tree_asleep of a tree that just woke


@inline_jit
def enabled(m):
  return _flags.enabled(m, mjENBL_SLEEP)


@inline_jit
def filtering(m, d):
  """Whether some tree sleeps (the stages then skip sleeping trees)."""
  return enabled(m) and d.ntree_awake[0] < m.ntree


@inline_jit
def awake_bodies(m, d):
  """(n, filtered) for the stages' body loops: b in range(n) visits body d.body_awake_ind[b]
  when filtered (some body sleeps: only awake and static bodies), else body b."""
  if enabled(m) and d.nbody_awake[0] < m.nbody:
    return d.nbody_awake[0], True
  return m.nbody, False


# ---- derived fields ----


@jit
def update_sleep(m, d, staticawake=False):
  """Port of mj_updateSleepInit (mj_updateSleep with staticawake False): tree_awake,
  body_awake (static bodies mjS_STATIC unless staticawake; mocap bodies awake), the lists of
  awake and static bodies, of bodies with an awake or static parent and of awake dofs."""
  ntree_awake = 0
  for i in range(m.ntree):
    d.tree_awake[i] = 1 if d.tree_asleep[i] < 0 else 0
    ntree_awake += d.tree_awake[i]
  d.ntree_awake[0] = ntree_awake

  nbody_awake = 0
  nparent_awake = 0
  for i in range(m.nbody):
    tree = m.body_treeid[i]
    if tree < 0:
      if m.body_mocapid[m.body_rootid[i]] >= 0 or staticawake:
        d.body_awake[i] = mjS_AWAKE
      else:
        d.body_awake[i] = mjS_STATIC
    else:
      d.body_awake[i] = mjS_AWAKE if d.tree_awake[tree] else mjS_ASLEEP
    if d.body_awake[i] != mjS_ASLEEP:
      d.body_awake_ind[nbody_awake] = i
      nbody_awake += 1
    if i and d.body_awake[m.body_parentid[i]] != mjS_ASLEEP:
      d.parent_awake_ind[nparent_awake] = i
      nparent_awake += 1
  d.nbody_awake[0] = nbody_awake
  d.nparent_awake[0] = nparent_awake

  nv_awake = 0
  for i in range(m.nv):
    b = m.dof_bodyid[i]
    if m.body_treeid[b] >= 0 and d.body_awake[b] == mjS_AWAKE:
      d.dof_awake_ind[nv_awake] = i
      nv_awake += 1
  d.nv_awake[0] = nv_awake


# ---- when a tree may sleep ----


@jit
def _tree_can_sleep(m, d, i, tol):
  """Port of treeCanSleep: the policy allows it, no applied force on its bodies or dofs, and
  every |qvel|*dof_length below tol (exactly zero when tol is 0)."""
  policy = m.tree_sleep_policy[i]
  if policy == mjSLEEP_NEVER or policy == mjSLEEP_AUTO_NEVER:
    return False
  for b in range(m.tree_bodyadr[i], m.tree_bodyadr[i] + m.tree_bodynum[i]):
    for k in range(6):
      if d.xfrc_applied[b, k] != 0:
        return False
  adr = m.tree_dofadr[i]
  num = m.tree_dofnum[i]
  for v in range(adr, adr + num):
    if d.qfrc_applied[v] != 0:
      return False
  for v in range(adr, adr + num):
    if tol:
      if m.dof_length[v] * abs(d.qvel[v]) >= tol:
        return False
    elif d.qvel[v] != 0:
      return False
  return True


@jit
def sleep_cycle(d, ntree, i):
  """Port of mj_sleepCycle: the smallest tree of the sleeping cycle through tree i, -1 if
  i is not in a valid cycle."""
  if i < 0 or i >= ntree:
    return -1
  smallest = i
  current = i
  count = 0
  while True:
    if count > ntree:
      return -1
    nxt = d.tree_asleep[current]
    if nxt < 0 or nxt >= ntree:
      return -1
    smallest = min(smallest, nxt)
    current = nxt
    count += 1
    if current == i:
      return smallest


# ---- waking ----


@jit
def wake_island(d, ntree, i, wakeval):
  """Port of mj_wakeIsland: wake tree i and the rest of its sleeping cycle, setting their
  tree_asleep to wakeval; an awake tree only lowers its count to wakeval. Returns the
  number of trees woken."""
  if i < 0 or i >= ntree:
    return 0
  if d.tree_asleep[i] < 0:
    d.tree_asleep[i] = min(wakeval, d.tree_asleep[i])
    return 0
  nwoke = 0
  current = i
  while True:
    nxt = d.tree_asleep[current]
    if nxt < 0 or nxt >= ntree:
      return 0
    d.tree_asleep[current] = wakeval
    nwoke += 1
    current = nxt
    if current == i or nwoke >= ntree:
      break
  return nwoke


@jit
def wake(m, d):
  """Port of mj_wake: wake the sleeping trees whose qpos was changed (kinematics marks them
  in tree_awake) or that may no longer sleep (an applied force, a velocity); with sleeping
  disabled, wake every tree. Returns the number woken."""
  ntree = m.ntree
  if not enabled(m):
    if d.ntree_awake[0] < ntree:
      for i in range(ntree):
        d.tree_asleep[i] = AWAKE
    return ntree - d.ntree_awake[0]
  nwoke = 0
  for i in range(ntree):
    if d.tree_asleep[i] < 0:
      continue
    if d.tree_awake[i] or not _tree_can_sleep(m, d, i, 0.0):
      nwoke += wake_island(d, ntree, i, AWAKE)
  return nwoke


@jit
def wake_collision(m, d):
  """Port of mj_wakeCollision: a contact between an awake and a sleeping tree wakes the
  sleeping one (with the awake tree's count); a mocap body's contact wakes its tree."""
  if not enabled(m):
    return 0
  nwoke = 0
  for c in range(d.ncon[0]):
    b1 = m.geom_bodyid[d.contact_geom[c, 0]]
    b2 = m.geom_bodyid[d.contact_geom[c, 1]]
    tree1 = m.body_treeid[b1]
    tree2 = m.body_treeid[b2]
    if tree1 < 0 or tree2 < 0:
      tree = tree2 if tree1 < 0 else tree1
      b = b1 if tree1 < 0 else b2
      if tree >= 0 and not d.tree_awake[tree] and d.body_awake[b] == mjS_AWAKE:
        nwoke += wake_island(d, m.ntree, tree, AWAKE)
      continue
    awake1 = d.tree_awake[tree1]
    awake2 = d.tree_awake[tree2]
    if (awake1 and awake2) or (not awake1 and not awake2):
      continue
    sleeping = tree2 if awake1 else tree1
    wakeval = d.tree_asleep[tree1] if awake1 else d.tree_asleep[tree2]
    nwoke += wake_island(d, m.ntree, sleeping, wakeval)
  return nwoke


@jit
def _tendon_limited(m, d, i):
  """Port of tendonLimit (as a flag): the tendon's length is within margin of a limit."""
  if not m.tendon_limited[i]:
    return False
  value = d.ten_length[i]
  margin = m.tendon_margin[i]
  return value - m.tendon_range[i, 0] < margin or m.tendon_range[i, 1] - value < margin


@jit
def wake_tendon(m, d):
  """Port of mj_wakeTendon: a limited tendon at its limit across an awake and a sleeping tree
  wakes the sleeping one."""
  if not enabled(m):
    return 0
  nwoke = 0
  for i in range(m.ntendon):
    if m.tendon_treenum[i] != 2 or not _tendon_limited(m, d, i):
      continue
    tree1 = m.tendon_treeid[i, 0]
    tree2 = m.tendon_treeid[i, 1]
    awake1 = d.tree_awake[tree1]
    awake2 = d.tree_awake[tree2]
    if awake1 != awake2:
      sleeping = tree2 if awake1 else tree1
      wakeval = d.tree_asleep[tree1] if awake1 else d.tree_asleep[tree2]
      nwoke += wake_island(d, m.ntree, sleeping, wakeval)
  return nwoke


@jit
def _equality_bodies(m, i):
  """The two bodies of a connect, weld or joint equality (-1 for none)."""
  id1 = m.eq_obj1id[i]
  id2 = m.eq_obj2id[i]
  if m.eq_type[i] == mjEQ_JOINT:
    return (m.jnt_bodyid[id1] if id1 >= 0 else -1), (m.jnt_bodyid[id2] if id2 >= 0 else -1)
  if m.eq_objtype[i] == mjOBJ_BODY:
    return id1, id2
  return m.site_bodyid[id1], m.site_bodyid[id2]


@jit
def _body_tree_state(m, d, body):
  """A body's tree and sleep state for equality waking: its tree's, or a dof-less body's own
  (mocap bodies awake), mjS_STATIC for none."""
  if body < 0:
    return -1, mjS_STATIC
  tree = m.body_treeid[body]
  if tree >= 0:
    return tree, d.tree_awake[tree]
  return tree, d.body_awake[body]


@jit
def wake_equality(m, d):
  """Port of mj_wakeEquality: an active connect, weld or joint equality between an awake and
  a sleeping tree wakes the sleeping one; between two sleeping islands, both."""
  if not enabled(m):
    return 0
  nwoke = 0
  for i in range(m.neq):
    if not d.eq_active[i]:
      continue
    kind = m.eq_type[i]
    if kind != mjEQ_CONNECT and kind != mjEQ_WELD and kind != mjEQ_JOINT:
      continue  # tendon equalities keep their trees awake (the compiler's sleep policy)
    body1, body2 = _equality_bodies(m, i)
    tree1, s1 = _body_tree_state(m, d, body1)
    tree2, s2 = _body_tree_state(m, d, body2)
    if s1 != mjS_ASLEEP and s2 != mjS_ASLEEP:
      continue
    if s1 == mjS_STATIC or s2 == mjS_STATIC or tree1 == tree2:
      continue
    if s1 == mjS_ASLEEP and s2 == mjS_ASLEEP:
      if sleep_cycle(d, m.ntree, tree1) != sleep_cycle(d, m.ntree, tree2):
        nwoke += wake_island(d, m.ntree, tree1, AWAKE)
        nwoke += wake_island(d, m.ntree, tree2, AWAKE)
      continue
    nwoke += wake_island(d, m.ntree, tree1 if s1 == mjS_ASLEEP else tree2, AWAKE)
  return nwoke


# ---- falling asleep ----


@jit
def _sleep_tree(m, d, tree, nxt):
  """Port of one tree of mj_sleepTrees: link it to the next tree of its sleeping cycle, zero
  its qvel and qacc."""
  if d.tree_asleep[tree] == -1:
    d.tree_asleep[tree] = nxt
  adr = m.tree_dofadr[tree]
  for v in range(adr, adr + m.tree_dofnum[tree]):
    d.qvel[v] = 0.0
    d.qacc[v] = 0.0


@jit
def sleep(m, d):
  """Port of mj_sleep: count quiet steps of each awake tree (or restart the count), then put
  to sleep each island whose trees are all ready and each ready unconstrained tree. Returns
  the number of trees put to sleep."""
  if not enabled(m):
    return 0
  nisland = d.nisland[0]
  if d.nefc[0] and not nisland:
    return 0  # constraints but no islands (islands disabled): cannot sleep

  tol = m.opt.sleep_tolerance[0]
  for i in range(m.ntree):
    if d.tree_asleep[i] >= 0:
      continue
    if _tree_can_sleep(m, d, i, tol):
      if d.tree_asleep[i] < -1:
        d.tree_asleep[i] += 1
    else:
      d.tree_asleep[i] = AWAKE

  nslept = 0
  for i in range(nisland):
    start = d.island_itreeadr[i]
    n = d.island_ntree[i]
    ready = True
    for j in range(start, start + n):
      if d.tree_asleep[d.map_itree2tree[j]] < -1:
        ready = False
        break
    if ready:
      for j in range(start, start + n):
        nxt = d.map_itree2tree[start if j == start + n - 1 else j + 1]
        _sleep_tree(m, d, d.map_itree2tree[j], nxt)
      nslept += n

  # trees in no island
  start = d.island_itreeadr[nisland - 1] + d.island_ntree[nisland - 1] if nisland else 0
  for j in range(start, m.ntree):
    i = d.map_itree2tree[j] if nisland else j
    if d.tree_asleep[i] == -1:
      _sleep_tree(m, d, i, i)
      nslept += 1
  return nslept


# ---- sleep state of objects ----


@jit
def _tendon_state(m, d, i):
  """Port of mj_tendonSleepState."""
  n = m.tendon_treenum[i]
  if n == 0:
    return mjS_STATIC
  awake = d.tree_awake[m.tendon_treeid[i, 0]]
  if n == 2:
    awake = awake or d.tree_awake[m.tendon_treeid[i, 1]]
  elif n > 2:
    return mjS_AWAKE
  return mjS_AWAKE if awake else mjS_ASLEEP


@jit
def object_state(m, d, objtype, i):
  """Port of mj_sleepState for bodies, joints, dofs, sites, geoms, cameras, lights and
  tendons: mjS_AWAKE, mjS_ASLEEP or mjS_STATIC (unknown objects are awake)."""
  if objtype == mjOBJ_BODY or objtype == mjOBJ_XBODY:
    return d.body_awake[i]
  if objtype == mjOBJ_JOINT:
    return d.body_awake[m.jnt_bodyid[i]]
  if objtype == mjOBJ_DOF:
    return d.body_awake[m.dof_bodyid[i]]
  if objtype == mjOBJ_SITE:
    return d.body_awake[m.site_bodyid[i]]
  if objtype == mjOBJ_GEOM:
    return d.body_awake[m.geom_bodyid[i]]
  if objtype == mjOBJ_CAMERA:
    return d.body_awake[m.cam_bodyid[i]]
  if objtype == mjOBJ_LIGHT:
    return d.body_awake[m.light_bodyid[i]]
  if objtype == mjOBJ_TENDON:
    return _tendon_state(m, d, i)
  return mjS_AWAKE


@jit
def equality_asleep(m, d, i):
  """Port of mj_equalitySleepState == mjS_ASLEEP: neither object of equality i is awake."""
  kind = m.eq_type[i]
  if kind == mjEQ_CONNECT or kind == mjEQ_WELD:
    objtype = m.eq_objtype[i]
  elif kind == mjEQ_JOINT:
    objtype = mjOBJ_JOINT
  elif kind == mjEQ_TENDON:
    objtype = mjOBJ_TENDON
  else:
    return False
  id1 = m.eq_obj1id[i]
  id2 = m.eq_obj2id[i]
  s1 = object_state(m, d, objtype, id1) if id1 >= 0 else mjS_STATIC
  s2 = object_state(m, d, objtype, id2) if id2 >= 0 else mjS_STATIC
  return s1 != mjS_AWAKE and s2 != mjS_AWAKE


@jit
def actuator_asleep(m, d, i):
  """Port of mj_actuatorSleepState == mjS_ASLEEP: the actuator's transmission target sleeps."""
  trntype = m.actuator_trntype[i]
  id1 = m.actuator_trnid[i, 0]
  id2 = m.actuator_trnid[i, 1]
  if trntype == mjTRN_JOINT or trntype == mjTRN_JOINTINPARENT:
    return object_state(m, d, mjOBJ_JOINT, id1) == mjS_ASLEEP
  if trntype == mjTRN_TENDON:
    return _tendon_state(m, d, id1) == mjS_ASLEEP
  if trntype == mjTRN_SITE:
    return object_state(m, d, mjOBJ_SITE, id1) == mjS_ASLEEP
  if trntype == mjTRN_BODY:
    return object_state(m, d, mjOBJ_BODY, id1) == mjS_ASLEEP
  if trntype == mjTRN_SO3 and id2 == -1:
    return object_state(m, d, mjOBJ_JOINT, id1) == mjS_ASLEEP
  if trntype == mjTRN_SLIDERCRANK or trntype == mjTRN_SO3:
    return (
      object_state(m, d, mjOBJ_SITE, id1) != mjS_AWAKE
      and object_state(m, d, mjOBJ_SITE, id2) != mjS_AWAKE
    )
  return False


@jit
def _any_state(m, d, objtype, i):
  """mj_sleepState of any object a sensor names (mjOBJ_UNKNOWN and others awake)."""
  if objtype == mjOBJ_ACTUATOR:
    return mjS_ASLEEP if actuator_asleep(m, d, i) else mjS_AWAKE
  if objtype == mjOBJ_EQUALITY:
    return mjS_ASLEEP if equality_asleep(m, d, i) else mjS_AWAKE
  return object_state(m, d, objtype, i)


@jit
def sensor_asleep(m, d, i):
  """Port of mj_sensorSleepState == mjS_ASLEEP: neither the sensor's object nor its
  reference (where given) is awake; user, plugin, rangefinder and site-volume contact sensors
  never sleep."""
  kind = m.sensor_type[i]
  objtype = m.sensor_objtype[i]
  reftype = m.sensor_reftype[i]
  if kind == mjSENS_USER or kind == mjSENS_PLUGIN or kind == mjSENS_RANGEFINDER:
    return False
  if kind == mjSENS_CONTACT and (objtype == mjOBJ_SITE or reftype == mjOBJ_SITE):
    return False
  if objtype == mjOBJ_UNKNOWN and reftype == mjOBJ_UNKNOWN:
    return False
  s_obj = _any_state(m, d, objtype, m.sensor_objid[i])
  s_ref = _any_state(m, d, reftype, m.sensor_refid[i])
  if objtype == mjOBJ_UNKNOWN:
    return s_ref == mjS_ASLEEP
  if reftype == mjOBJ_UNKNOWN:
    return s_obj == mjS_ASLEEP
  return s_obj != mjS_AWAKE and s_ref != mjS_AWAKE
