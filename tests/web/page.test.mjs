// The page (build-web/index.html) in headless Chromium, WebGL2 on its software renderer: a shared
// model mid-animation is drawn (foreground pixels counted on the canvas), two times give
// different images, instances multiply the drawing, a material animated by KHR_animation_pointer
// takes its colour per instance, and refusals and warnings are shown with
// their JSON paths. Screenshots are kept in OSSA_WEB_SHOTS (default build-web/test-shots).
//
//   node --test tests/web/page.test.mjs
// Environment: OSSA_WEB_DIR (default build-web), OSSA_SHARED (default ../shared),
// CHROMIUM (default /usr/bin/chromium).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Browser, serve, waitForTitle } from './browser.mjs';
import { decodePng } from './png.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const webDir = path.resolve(root, process.env.OSSA_WEB_DIR || 'build-web');
const shared = path.resolve(root, process.env.OSSA_SHARED || '../shared');
const shots = path.resolve(root, process.env.OSSA_WEB_SHOTS || path.join(webDir, 'test-shots'));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const WIDTH = 900, HEIGHT = 600, PANEL = 300; // the canvas is right of the 300 px panel
const BACKGROUND = [38, 41, 46]; // renderer.js BACKGROUND in 8 bits
const TIMEOUT = 60000;

// Without chromium every test here is reported as skipped, with the reason.
const available = fs.existsSync(chromium) && fs.existsSync(path.join(webDir, 'index.html'));
const options = available ? {} : { skip: `${chromium} is not installed (sh scripts/install-web-deps.sh --with-browser) or ${webDir} is not built` };
if (!available) console.log(`page suite SKIPPED: ${options.skip}`);

let server, browser, base;

// A triangle whose unlit, double-sided material a KHR_animation_pointer channel turns from red
// (t = 0) to blue (t = 1), written as generated/pointer.glb. Animations 1 and 2 are both named
// "Fade": 1 as animation 0, 2 in steps (red until t = 1).
function writePointerModel(dir) {
  const bin = Buffer.alloc(76);
  [-1, -1, 0, 1, -1, 0, 0, 1, 0, /* times */ 0, 1, /* colours */ 1, 0, 0, 1, 0, 0, 1, 1].forEach((v, i) => bin.writeFloatLE(v, 4 * i));
  const channels = [{ sampler: 0, target: { path: 'pointer',
    extensions: { KHR_animation_pointer: { pointer: '/materials/0/pbrMetallicRoughness/baseColorFactor' } } } }];
  const gltf = {
    asset: { version: '2.0' }, extensionsUsed: ['KHR_animation_pointer', 'KHR_materials_unlit'],
    buffers: [{ byteLength: 76 }],
    bufferViews: [{ buffer: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 8 }, { buffer: 0, byteOffset: 44, byteLength: 32 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [-1, -1, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 2, componentType: 5126, count: 2, type: 'VEC4' }],
    materials: [{ pbrMetallicRoughness: { baseColorFactor: [1, 0, 0, 1] }, doubleSided: true, extensions: { KHR_materials_unlit: {} } }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, material: 0 }] }],
    nodes: [{ mesh: 0 }], scenes: [{ nodes: [0] }], scene: 0,
    animations: [{ samplers: [{ input: 1, output: 2 }], channels }, { name: 'Fade', samplers: [{ input: 1, output: 2 }], channels },
      { name: 'Fade', samplers: [{ input: 1, output: 2, interpolation: 'STEP' }], channels }],
  };
  let json = Buffer.from(JSON.stringify(gltf));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const header = Buffer.alloc(12), jsonHeader = Buffer.alloc(8), binHeader = Buffer.alloc(8);
  header.write('glTF', 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length + 8 + bin.length, 8);
  jsonHeader.writeUInt32LE(json.length, 0);
  jsonHeader.write('JSON', 4);
  binHeader.writeUInt32LE(bin.length, 0);
  binHeader.write('BIN\0', 4);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pointer.glb'), Buffer.concat([header, jsonHeader, json, binHeader, bin]));
}

// Canvas pixels within 3 of an RGB colour.
function pixelsOf(image, rgb) {
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = PANEL; x < image.width; x++) {
      const i = 4 * (y * image.width + x);
      if (rgb.every((c, k) => Math.abs(image.rgba[i + k] - c) <= 3)) count++;
    }
  }
  return count;
}

before(async () => {
  if (!available) return;
  fs.mkdirSync(shots, { recursive: true });
  writePointerModel(path.join(shots, 'generated'));
  server = await serve({ '/': webDir, '/models/': path.join(shared, 'models'), '/invalid/': path.join(shared, 'invalid'),
    '/generated/': path.join(shots, 'generated') });
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await Browser.launch(chromium, WIDTH, HEIGHT);
});

// Pages keep rendering (software WebGL) until closed: each test's pages close after it.
const pages = [];
async function openPage(url) {
  const page = await browser.open(url, WIDTH, HEIGHT);
  pages.push(page);
  return page;
}
afterEach(async () => {
  while (pages.length) await pages.pop().close();
});

after(async () => {
  server?.closeAllConnections();
  server?.close();
  await browser?.close();
});

// Opens a page, waits for "ready" or "error: ...", returns its title and (optionally) screenshot.
async function visit(query, shot) {
  const page = await openPage(`${base}/index.html${query}`);
  const title = await waitForTitle(page, (t) => t === 'ready' || t.startsWith('error'), TIMEOUT);
  let image = null;
  if (shot) {
    const { data } = await page.send('Page.captureScreenshot', { format: 'png' });
    const png = Buffer.from(data, 'base64');
    fs.writeFileSync(path.join(shots, shot), png);
    image = decodePng(png);
  }
  return { page, title, image };
}

// Canvas pixels that are not the background colour.
function foreground(image) {
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = PANEL; x < image.width; x++) {
      const i = 4 * (y * image.width + x);
      if (BACKGROUND.some((c, k) => Math.abs(image.rgba[i + k] - c) > 3)) count++;
    }
  }
  return count;
}

function differing(a, b) {
  let count = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (Math.abs(a.rgba[i] - b.rgba[i]) + Math.abs(a.rgba[i + 1] - b.rgba[i + 1]) + Math.abs(a.rgba[i + 2] - b.rgba[i + 2]) > 12) count++;
  }
  return count;
}

const canvasPixels = (WIDTH - PANEL) * HEIGHT;
const frames = {};

test('Fox walking at 0.2 s is drawn (WebGL2, skinned on the GPU)', options, async () => {
  const { title, image } = await visit('?model=/models/Fox/Fox.glb&anim=1&time=0.2', 'fox-walk-0.2.png');
  assert.equal(title, 'ready');
  const fg = foreground(image);
  console.log(`Fox walk 0.2 s: ${fg} foreground pixels of ${canvasPixels} (${((100 * fg) / canvasPixels).toFixed(1)}%)`);
  assert.ok(fg > canvasPixels * 0.02, `${fg} foreground pixels`);
  frames.a = image;
});

test('another time of the walk gives another image', options, async () => {
  const { title, image } = await visit('?model=/models/Fox/Fox.glb&anim=1&time=0.55', 'fox-walk-0.55.png');
  assert.equal(title, 'ready');
  assert.ok(foreground(image) > canvasPixels * 0.02);
  const d = differing(frames.a, image);
  console.log(`Fox walk 0.2 s vs 0.55 s: ${d} pixels differ`);
  assert.ok(d > canvasPixels * 0.002, `${d} pixels differ`);
});

test('the same frame twice gives the same image', options, async () => {
  const { image } = await visit('?model=/models/Fox/Fox.glb&anim=1&time=0.2', null).then(async (r) => {
    const { data } = await r.page.send('Page.captureScreenshot', { format: 'png' });
    return { image: decodePng(Buffer.from(data, 'base64')) };
  });
  assert.equal(differing(frames.a, image), 0);
});

test('nine instances of CesiumMan (.gltf with its .bin and .jpg) in one instanced draw each', options, async () => {
  const one = await visit('?model=/models/CesiumMan/glTF/CesiumMan.gltf&anim=0&time=0.5', 'cesium-man-1.png');
  const nine = await visit('?model=/models/CesiumMan/glTF/CesiumMan.gltf&anim=0&time=0.5&instances=9', 'cesium-man-9.png');
  assert.equal(one.title, 'ready');
  assert.equal(nine.title, 'ready');
  const a = foreground(one.image), b = foreground(nine.image);
  console.log(`CesiumMan at 0.5 s: 1 instance ${a} foreground pixels, 9 instances ${b}`);
  assert.ok(a > canvasPixels * 0.01);
  // The camera frames the whole grid, so each figure is smaller, but nine of them cover more.
  assert.ok(b > a, `${b} foreground pixels for 9 instances, ${a} for one`);
  assert.equal(await nine.page.evaluate('document.getElementById("instances").value'), '9');
});

test('a KHR_animation_pointer material is drawn with its animated colour, per instance', options, async () => {
  const red = await visit('?model=/generated/pointer.glb&anim=0&time=0', 'pointer-0.png');
  // the page loops: t = 0.75 is three quarters of the way to blue
  const later = await visit('?model=/generated/pointer.glb&anim=0&time=0.75', 'pointer-0.75.png');
  assert.equal(red.title, 'ready');
  assert.equal(later.title, 'ready');
  const r = pixelsOf(red.image, [255, 0, 0]), b = pixelsOf(later.image, [64, 0, 191]);
  console.log(`pointer material: t = 0 ${r} red pixels, t = 0.75 ${b} pixels of (64, 0, 191)`);
  assert.ok(r > canvasPixels * 0.05 && b > canvasPixels * 0.05, `${r} red, ${b} at 0.75`);
  assert.equal(pixelsOf(later.image, [255, 0, 0]), 0);
  // instance 1 runs 0.29 s after instance 0: (0.71, 0, 0.29) in one instanced draw
  const two = await visit('?model=/generated/pointer.glb&anim=0&time=0&instances=2', 'pointer-instances.png');
  const first = pixelsOf(two.image, [255, 0, 0]), second = pixelsOf(two.image, [181, 0, 74]);
  console.log(`pointer material, 2 instances: ${first} red pixels, ${second} of (181, 0, 74)`);
  assert.ok(first > 1000 && second > 1000, `${first} and ${second}`);
});

test('?anim= takes a name: the first animation with it', options, async () => {
  const walk = await visit('?model=/models/Fox/Fox.glb&anim=Walk&time=0.2', 'fox-walk-by-name.png');
  assert.equal(walk.title, 'ready');
  assert.equal(await walk.page.evaluate('document.getElementById("animation").value'), '1');
  assert.equal(differing(frames.a, walk.image), 0);
  const fade = await visit('?model=/generated/pointer.glb&anim=Fade&time=0.75', 'pointer-fade.png');
  assert.equal(fade.title, 'ready');
  assert.equal(await fade.page.evaluate('document.getElementById("animation").value'), '1');
  assert.ok(pixelsOf(fade.image, [64, 0, 191]) > canvasPixels * 0.05);
});

test('unknown animations and query numbers that are not numbers are refused on the page', options, async () => {
  for (const [query, message] of [
    ['&anim=Sprint', "no animation named 'Sprint'; the model has: Survey, Walk, Run"],
    ['&anim=3', 'there is no animation 3 (the model has 3; -1 is the rest pose)'],
    ['&anim=1&time=abc', '?time=abc: not a finite number'],
    ['&time=Infinity', '?time=Infinity: not a finite number'],
    ['&time=', '?time=: not a finite number'],
    ['&instances=2.5', '?instances=2.5: not a whole number from 1 to 4096'],
    ['&instances=0', '?instances=0: not a whole number from 1 to 4096'],
    ['&instances=many', '?instances=many: not a whole number from 1 to 4096'],
  ]) {
    const { page, title } = await visit(`?model=/models/Fox/Fox.glb${query}`, null);
    assert.equal(title, `error: ${message}`);
    assert.equal(await page.evaluate('document.getElementById("error-text").textContent'), message);
    assert.equal(await page.evaluate('document.getElementById("error").hidden'), false);
  }
});

test('a refused file shows its JSON path', options, async () => {
  const { page, title } = await visit('?model=/invalid/assimp/BoxWithInfinites/BoxWithInfinites.glb', 'refused.png');
  assert.match(title, /^error: BoxWithInfinites\.glb: meshes\[0\]\.primitives\[0\]\.attributes\.POSITION: /);
  const text = await page.evaluate('document.getElementById("error-text").textContent');
  assert.match(text, /meshes\[0\]\.primitives\[0\]\.attributes\.POSITION/);
  assert.equal(await page.evaluate('document.getElementById("error").hidden'), false);
});

test('warnings are listed with their JSON paths', options, async () => {
  const { page, title } = await visit('?model=/invalid/validator/buffer/extra_padding.glb', null);
  assert.equal(title, 'ready');
  const items = await page.evaluate('[...document.querySelectorAll("#warning-list li")].map((li) => li.textContent)');
  assert.deepEqual(items, ['buffers[0]: the GLB BIN chunk has 7 bytes beyond byteLength 17']);
});

test('without ?model the built-in demo plays and its animations are listed', options, async () => {
  const page = await openPage(`${base}/index.html`);
  const names = await (async () => {
    const end = Date.now() + TIMEOUT;
    while (Date.now() < end) {
      const list = await page.evaluate('[...document.querySelectorAll("#animation option")].map((o) => o.textContent)');
      if (list && list.length) return list;
      await new Promise((r) => setTimeout(r, 100));
    }
    return [];
  })();
  assert.equal(names.length, 4, names.join(', '));
  assert.equal(names[0], 'rest pose');
  assert.equal(await page.evaluate('document.getElementById("model-name").textContent'), 'ossa-demo.glb');
});

// Waits until the page's model name reads `name` (after a file was given to it).
async function modelName(page, name) {
  const end = Date.now() + TIMEOUT;
  let shown = '';
  while (Date.now() < end) {
    shown = await page.evaluate('document.getElementById("model-name")?.textContent || ""');
    if (shown === name) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return shown;
}

test('the file picker opens a .glb and lists its animations', options, async () => {
  const page = await openPage(`${base}/index.html`);
  assert.equal(await modelName(page, 'ossa-demo.glb'), 'ossa-demo.glb');
  const { root } = await page.send('DOM.getDocument');
  const { nodeId } = await page.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#file' });
  await page.send('DOM.setFileInputFiles', { nodeId, files: [path.join(shared, 'models/Fox/Fox.glb')] });
  assert.equal(await modelName(page, 'Fox.glb'), 'Fox.glb');
  const names = await page.evaluate('[...document.querySelectorAll("#animation option")].map((o) => o.textContent)');
  assert.deepEqual(names, ['rest pose', '0: Survey (3.42 s)', '1: Walk (0.71 s)', '2: Run (1.16 s)']);
});

test('a .glb dropped on the page opens (a synthetic drop event carrying the file)', options, async () => {
  const page = await openPage(`${base}/index.html`);
  assert.equal(await modelName(page, 'ossa-demo.glb'), 'ossa-demo.glb');
  // Headless Chromium's native drag and drop needs a window system; the page's own handlers are
  // driven with the DragEvent and DataTransfer a real drop delivers.
  await page.evaluate(`(async () => {
    const bytes = await (await fetch('/models/CesiumMan/glTF-Binary/CesiumMan.glb')).arrayBuffer();
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'CesiumMan.glb'));
    for (const type of ['dragover', 'drop']) {
      document.getElementById('canvas').dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  })()`);
  assert.equal(await modelName(page, 'CesiumMan.glb'), 'CesiumMan.glb');
  assert.equal(await page.evaluate('document.getElementById("drop-hint").hidden'), true);
});

// The GPU against the CPU: every primitive's vertex shader output (transform feedback) against
// ossa_character_skin of the same character, for models covering skins of one and two influence
// sets, normalized integer weights, morph targets before skinning and unskinned nodes.
const FEEDBACK_MODELS = [
  ['Fox/Fox.glb', 1, 0.3], ['CesiumMan/glTF/CesiumMan.gltf', 0, 0.7], ['OracleSynth/Synth.gltf', 0, 0.6],
  ['AnimatedMorphCube/AnimatedMorphCube.gltf', 0, 1.3], ['SimpleSkin/SimpleSkin.gltf', 0, 2.5],
  ['RiggedSimple/RiggedSimple.gltf', 0, 0.9], ['MorphStressTest/MorphStressTest.gltf', 0, 1.1],
];
for (const [model, anim, time] of FEEDBACK_MODELS) {
  test(`GPU skinning equals the CPU's: ${model} at ${time} s`, options, async () => {
    const { page, title } = await visit(`?model=/models/${model}&anim=${anim}&time=${time}`, null);
    assert.equal(title, 'ready');
    const result = await page.evaluate(`(() => {
      const { viewer, renderer } = window.ossaPage;
      const b = viewer.bounds();
      const diagonal = Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
      let worst = 0, vertices = 0;
      for (const p of viewer.primitives) {
        const gpu = renderer.feedback(p.index);
        const cpu = viewer.skin(0, p.index).positions;
        for (let i = 0; i < cpu.length; i++) worst = Math.max(worst, Math.abs(gpu[i] - cpu[i]));
        vertices += p.vertexCount;
      }
      return { worst, diagonal, vertices, primitives: viewer.primitives.length };
    })()`);
    console.log(`${model}: ${result.vertices} vertices of ${result.primitives} primitives, GPU vs CPU at most ${result.worst.toExponential(2)} (${(result.worst / result.diagonal).toExponential(2)} of the model's size)`);
    assert.ok(result.vertices > 0);
    assert.ok(result.worst <= 1e-5 * result.diagonal, `GPU off the CPU by ${result.worst}`);
  });
}

// The skinning rules on the GPU where the shared models do not reach them: a triangle whose
// vertex 0 has weights summing to 0.5 (divided by their sum: it moves with its joint by a whole
// 1), vertex 1 all-zero weights (kept in place), vertex 2 weight 1; the joint is translated by
// (1, 0, 0). Dropped on the page as a .gltf; the loader's warnings are listed with their paths.
function weightsGltf() {
  const bytes = Buffer.alloc(96);
  [0, 0, 0, 1, 0, 0, 0, 1, 0].forEach((x, i) => bytes.writeFloatLE(x, 4 * i));
  [0.25, 0.25, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0].forEach((x, i) => bytes.writeFloatLE(x, 48 + 4 * i));
  return JSON.stringify({
    asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0, 1] }],
    nodes: [{ mesh: 0, skin: 0 }, { translation: [1, 0, 0] }],
    skins: [{ joints: [1] }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, JOINTS_0: 1, WEIGHTS_0: 2 } }] }],
    buffers: [{ byteLength: 96, uri: `data:application/octet-stream;base64,${bytes.toString('base64')}` }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 12 },
      { buffer: 0, byteOffset: 48, byteLength: 48 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5121, count: 3, type: 'VEC4' },
      { bufferView: 2, componentType: 5126, count: 3, type: 'VEC4' },
    ],
  });
}

test('GPU weights are divided by their sum and all-zero vertices stay in place', options, async () => {
  const page = await openPage(`${base}/index.html`);
  assert.equal(await modelName(page, 'ossa-demo.glb'), 'ossa-demo.glb');
  await page.evaluate(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([${JSON.stringify(weightsGltf())}], 'weights.gltf'));
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  })()`);
  assert.equal(await modelName(page, 'weights.gltf'), 'weights.gltf');
  const result = await page.evaluate(`(async () => {
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame); // a frame drawn
    const { viewer, renderer } = window.ossaPage;
    return { gpu: Array.from(renderer.feedback(0)), cpu: Array.from(viewer.skin(0, 0).positions),
      warnings: [...document.querySelectorAll('#warning-list li')].map((li) => li.textContent) };
  })()`);
  assert.deepEqual(result.cpu, [1, 0, 0, 1, 0, 0, 1, 1, 0]);
  assert.deepEqual(result.gpu, [1, 0, 0, 1, 0, 0, 1, 1, 0]);
  assert.deepEqual(result.warnings, [
    'meshes[0].primitives[0].attributes.WEIGHTS_0: the weights of 2 vertices do not sum to 1 (first: vertex 0, sum 0.5)',
    'meshes[0].primitives[0].attributes.JOINTS_0: vertex 0 lists joint 0 twice with non-zero weights',
  ]);
});
