// The page: opens a model (file picker, drag and drop, ?model=URL or the built-in demo), lists
// its animations and plays them on a crowd of characters. The C library computes every pose
// (ossa_core.js); this file keeps the playback clock, the camera and the controls.
//
// ?model=URL&anim=K&time=T&instances=N renders that frame, paused, and sets document.title to
// "ready" (or "error: ...") once it is on screen, for headless browsers. K is an animation's
// index (-1: the rest pose) or its name (the first animation with that name).
import { OssaCore, OssaError } from './ossa_core.js';
import { Renderer } from './renderer.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const STAGGER = 0.29; // seconds between the clocks of consecutive instances
const MAX_INSTANCES = 4096; // as index.html's instance input

const state = {
  core: null, renderer: null, viewer: null, anim: -1, clock: 0, speed: 1, paused: false,
  instances: 1, bounds: null, yaw: 0.6, pitch: 0.25, zoom: 1, last: 0,
};

// ---- camera (drawing only) ---------------------------------------------------------------

function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1,
    0, 0, (2 * far * near) / (near - far), 0];
}

function lookAt(eye, target) {
  const sub = (a, b) => a.map((x, i) => x - b[i]);
  const norm = (a) => { const l = Math.hypot(...a); return a.map((x) => x / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, target)), x = norm(cross([0, 1, 0], z)), y = cross(z, x);
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
    -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}

function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  return out;
}

// The crowd's grid and a camera that frames it.
function layout() {
  const b = state.bounds;
  const size = [b[3] - b[0], b[4] - b[1], b[5] - b[2]].map((x) => (x > 0 ? x : 0));
  const columns = Math.ceil(Math.sqrt(state.instances));
  const rows = Math.ceil(state.instances / columns);
  const spacing = 1.3 * Math.max(size[0], size[2], 1e-6);
  const center = [(b[0] + b[3]) / 2 + ((columns - 1) * spacing) / 2, (b[1] + b[4]) / 2,
    (b[2] + b[5]) / 2 + ((rows - 1) * spacing) / 2];
  const radius = 0.5 * Math.hypot(size[0] + (columns - 1) * spacing, size[1], size[2] + (rows - 1) * spacing) || 1;
  const canvas = state.renderer.canvas;
  const aspect = canvas.width / Math.max(1, canvas.height);
  const fovy = Math.PI / 4;
  const distance = (state.zoom * radius) / Math.sin(fovy / 2) / Math.min(1, aspect);
  const eye = [center[0] + distance * Math.cos(state.pitch) * Math.sin(state.yaw),
    center[1] + distance * Math.sin(state.pitch),
    center[2] + distance * Math.cos(state.pitch) * Math.cos(state.yaw)];
  const viewProj = multiply(perspective(fovy, aspect, distance / 100, distance * 3), lookAt(eye, center));
  return { viewProj, columns, spacing };
}

// ---- frames ------------------------------------------------------------------------------

function resize() {
  const canvas = state.renderer.canvas;
  const scale = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * scale)), h = Math.max(1, Math.round(canvas.clientHeight * scale));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
}

function render() {
  resize();
  if (!state.viewer) {
    state.renderer.draw(null, 1, 0);
    return;
  }
  state.viewer.update(state.anim, state.clock, STAGGER);
  state.renderer.upload();
  const { viewProj, columns, spacing } = layout();
  state.renderer.draw(viewProj, columns, spacing);
  showTime();
}

function tick(now) {
  const dt = state.last ? (now - state.last) / 1000 : 0;
  state.last = now;
  if (state.viewer && !state.paused && state.anim >= 0) state.clock += dt * state.speed;
  try {
    render();
  } catch (e) {
    showError(e);
    state.viewer = null;
  }
  requestAnimationFrame(tick);
}

// ---- controls ----------------------------------------------------------------------------

function showTime() {
  const slider = $('time');
  if (state.anim < 0) {
    $('time-value').value = 'rest pose';
    return;
  }
  const a = state.viewer.animations[state.anim];
  const t = state.viewer.clipTime(state.anim, state.clock);
  slider.min = a.start;
  slider.max = a.end;
  if (document.activeElement !== slider) slider.value = t;
  $('time-value').value = `${t.toFixed(3)} s / ${a.duration.toFixed(3)} s`;
}

function showError(e) {
  $('error').hidden = false;
  const text = $('error-text');
  text.textContent = '';
  if (e instanceof OssaError) {
    const head = document.createElement('div');
    head.textContent = `${e.codeName}: ${e.file || '(file)'}`;
    const where = document.createElement('div');
    where.className = 'path';
    where.textContent = e.path || '(the file as a whole)';
    const what = document.createElement('div');
    what.textContent = e.detail;
    text.append(head, where, what);
  } else {
    text.textContent = String(e && e.message ? e.message : e);
  }
}

function showModel(viewer, extra) {
  $('error').hidden = true;
  $('model-info').hidden = false;
  $('model-name').textContent = viewer.file;
  $('model-facts').textContent = `${viewer.rig.nodeCount} nodes, ${viewer.rig.skinCount} skins, ` +
    `${viewer.primitives.length} primitives, ${viewer.animations.length} animations`;
  const select = $('animation');
  select.textContent = '';
  const rest = new Option('rest pose', '-1');
  select.add(rest);
  for (const a of viewer.animations) select.add(new Option(`${a.index}: ${a.name || '(unnamed)'} (${a.duration.toFixed(2)} s)`, String(a.index)));
  select.value = String(state.anim);
  const list = $('warning-list');
  list.textContent = '';
  const warnings = viewer.warnings.concat(extra.map((message) => ({ path: 'viewer', message })));
  for (const w of warnings) {
    const item = document.createElement('li');
    const path = document.createElement('span');
    path.className = 'path';
    path.textContent = w.path || '(file)';
    item.append(path, `: ${w.message}`);
    list.append(item);
  }
  $('warnings').hidden = warnings.length === 0;
}

// The animation `anim` names (?anim=): an index (-1: the rest pose) or a name, the first
// animation with it; undefined: the first animation.
function animationIndex(viewer, anim) {
  const names = viewer.animations.map((a) => a.name);
  if (anim === undefined) return names.length ? 0 : -1;
  if (/^-?\d+$/.test(anim)) {
    const k = Number(anim);
    if (k >= -1 && k < names.length) return k;
    throw new Error(`there is no animation ${anim} (the model has ${names.length}; -1 is the rest pose)`);
  }
  const k = names.indexOf(anim);
  if (k >= 0) return k;
  throw new Error(`no animation named '${anim}'; the model has: ${names.length ? names.map((n) => n || '(unnamed)').join(', ') : 'none'}`);
}

/** Opens files ([{name, bytes}], model first; null: the demo) and starts playing. */
async function open(files, options = {}) {
  const viewer = state.core.open(files); // throws OssaError on refusal
  let anim;
  try {
    anim = animationIndex(viewer, options.anim);
  } catch (e) {
    viewer.close();
    throw e;
  }
  if (state.viewer) state.viewer.close();
  state.viewer = null;
  const model = await state.renderer.setModel(viewer);
  state.bounds = viewer.bounds();
  if (!(state.bounds[0] <= state.bounds[3])) state.bounds = [-1, -1, -1, 1, 1, 1];
  state.anim = anim;
  state.clock = options.time !== undefined ? options.time
    : (state.anim >= 0 ? viewer.animations[state.anim].start : 0);
  viewer.setInstances(state.instances);
  state.viewer = viewer;
  showModel(viewer, model.skipped);
}

function wire() {
  $('animation').addEventListener('change', (e) => {
    state.anim = Number(e.target.value);
    state.clock = state.anim >= 0 ? state.viewer.animations[state.anim].start : 0;
  });
  $('pause').addEventListener('click', () => {
    state.paused = !state.paused;
    $('pause').textContent = state.paused ? 'Play' : 'Pause';
  });
  $('speed').addEventListener('input', (e) => {
    state.speed = Number(e.target.value);
    $('speed-value').value = `${state.speed.toFixed(2)}×`;
  });
  $('time').addEventListener('input', (e) => {
    state.clock = Number(e.target.value);
  });
  $('instances').addEventListener('change', (e) => {
    state.instances = Math.max(1, Math.min(MAX_INSTANCES, Math.floor(Number(e.target.value)) || 1));
    e.target.value = state.instances;
    if (state.viewer) state.viewer.setInstances(state.instances);
  });
  $('demo').addEventListener('click', () => open(null).catch(showError));
  $('file').addEventListener('change', (e) => openLocal(e.target.files));
  const view = document.body;
  view.addEventListener('dragover', (e) => {
    e.preventDefault();
    $('drop-hint').hidden = false;
  });
  view.addEventListener('dragleave', (e) => {
    if (e.target === $('drop-hint')) $('drop-hint').hidden = true;
  });
  view.addEventListener('drop', (e) => {
    e.preventDefault();
    $('drop-hint').hidden = true;
    openLocal(e.dataTransfer.files);
  });
  const canvas = $('canvas');
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => { drag = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    state.yaw -= (e.clientX - drag[0]) * 0.01;
    state.pitch = Math.max(-1.5, Math.min(1.5, state.pitch + (e.clientY - drag[1]) * 0.01));
    drag = [e.clientX, e.clientY];
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    state.zoom = Math.max(0.05, Math.min(20, state.zoom * Math.exp(e.deltaY * 0.001)));
  }, { passive: false });
}

async function openLocal(fileList) {
  const all = Array.from(fileList);
  const main = all.find((f) => /\.(glb|gltf)$/i.test(f.name)) || all[0];
  if (!main) return;
  const files = [main, ...all.filter((f) => f !== main)];
  try {
    await open(await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) }))));
  } catch (e) {
    showError(e);
  }
}

// A model from a URL; a .gltf brings the relative buffer and image URIs it names.
async function fetchModel(url) {
  const get = async (u) => {
    const response = await fetch(u);
    if (!response.ok) throw new Error(`${u}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  const absolute = new URL(url, location.href);
  const name = decodeURIComponent(absolute.pathname.split('/').pop()) || 'model.glb';
  const bytes = await get(absolute);
  const files = [{ name, bytes }];
  if (/\.gltf$/i.test(name)) {
    let json = null;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      // the library reports the JSON error with its position
    }
    const uris = json ? [...(json.buffers || []), ...(json.images || [])].map((x) => x.uri) : [];
    for (const uri of uris) {
      if (typeof uri !== 'string' || uri.startsWith('data:') || /^[a-z]+:|^\/|\.\./i.test(uri)) continue;
      files.push({ name: decodeURIComponent(uri), bytes: await get(new URL(uri, absolute)) });
    }
  }
  return files;
}

// A number of the query (?time=, ?instances=): undefined when absent; refused unless it is a
// finite number (and a whole one from `min` to `max` when those are given).
function queryNumber(name, min, max) {
  if (!params.has(name)) return undefined;
  const text = params.get(name);
  const value = text.trim() === '' ? NaN : Number(text);
  if (min === undefined) {
    if (Number.isFinite(value)) return value;
    throw new Error(`?${name}=${text}: not a finite number`);
  }
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  throw new Error(`?${name}=${text}: not a whole number from ${min} to ${max}`);
}

async function main() {
  state.renderer = new Renderer($('canvas'));
  window.ossaPage = state; // for tests and the browser's console
  // eslint-disable-next-line no-undef
  state.core = await OssaCore.create(createOssa);
  wire();
  const model = params.get('model');
  if (!model) {
    await open(null);
    requestAnimationFrame(tick);
    return;
  }
  // A frame for screenshots: paused at the time asked for.
  state.paused = params.has('time');
  $('pause').textContent = state.paused ? 'Play' : 'Pause';
  const time = queryNumber('time');
  state.instances = queryNumber('instances', 1, MAX_INSTANCES) ?? 1;
  $('instances').value = state.instances;
  const options = { time };
  if (params.has('anim')) options.anim = params.get('anim');
  await open(await fetchModel(model), options);
  render();
  state.renderer.gl.finish();
  document.title = 'ready';
  requestAnimationFrame(tick);
}

main().catch((e) => {
  showError(e);
  document.title = `error: ${e && e.message ? e.message : e}`;
  if (state.renderer) state.renderer.draw(null, 1, 0);
});
