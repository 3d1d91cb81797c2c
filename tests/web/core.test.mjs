// The WebAssembly core under node against every shared golden file (../shared/golden, format
// and tolerances in its README.md), the way tests/anim/test_anim_conformance.c and the skin
// conformance suite check the C library: node world matrices, morph weights, joint matrices and
// skinned vertices (ossa_character_skin) within the golden tolerances. When the native command
// is built (OSSA_CLI, default build/ossa), every float is also compared with what the C library
// computes natively (`ossa sample --json`, printed with %.9g, which round-trips a float).
//
//   node --no-experimental-fetch --test tests/web/core.test.mjs
// Environment: OSSA_WEB_DIR (default build-web), OSSA_SHARED (default ../shared), OSSA_CLI.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const webDir = path.resolve(root, process.env.OSSA_WEB_DIR || 'build-web');
const shared = path.resolve(root, process.env.OSSA_SHARED || '../shared');
const cli = process.env.OSSA_CLI || path.join(root, 'build/ossa');
const haveCli = fs.existsSync(cli);

const require = createRequire(import.meta.url);
const { OssaCore, OssaError, WRAP_CLAMP, WRAP_LOOP, WRAP_PING_PONG } = await import(path.join(webDir, 'ossa_core.js'));
const core = await OssaCore.create(require(path.join(webDir, 'ossa.js')));

function goldenFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...goldenFiles(p));
    else if (/^anim\d+\.json$/.test(entry.name)) out.push(p);
  }
  return out;
}

// A model file and every file of its folder (buffers, images), the model first.
function modelFiles(relative) {
  const file = path.join(shared, relative);
  const dir = path.dirname(file);
  const files = [{ name: path.basename(file), bytes: fs.readFileSync(file) }];
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name !== files[0].name && fs.statSync(p).isFile() && !/\.(md|txt|json)$/i.test(name)) {
      files.push({ name, bytes: fs.readFileSync(p) });
    }
  }
  return files;
}

// Golden matrices are 16 floats column-major; ours 3x4 rows (12 floats).
function rowsToColumnMajor(m, at) {
  return [m[at], m[at + 4], m[at + 8], 0, m[at + 1], m[at + 5], m[at + 9], 0,
    m[at + 2], m[at + 6], m[at + 10], 0, m[at + 3], m[at + 7], m[at + 11], 1];
}

// A frame of the web core in the golden format (the fields ossa sample --json prints).
function frameOf(viewer) {
  const rig = viewer.rig;
  const world = viewer.world(0);
  const weights = viewer.morphWeights(0);
  const frame = { node_world: [], morph_weights: [], joint_matrices: [], primitives: [] };
  for (let g = 0; g < rig.gltfNodeCount; g++) frame.node_world.push(rowsToColumnMajor(world, 12 * rig.rigFromGltf[g]));
  for (let g = 0; g < rig.gltfNodeCount; g++) {
    const r = rig.rigFromGltf[g];
    if (!rig.weightCount[r]) continue;
    frame.morph_weights.push({ node: g, weights: Array.from(weights.subarray(rig.weightOffset[r], rig.weightOffset[r] + rig.weightCount[r])) });
  }
  for (let s = 0; s < rig.skinCount; s++) {
    const palette = viewer.palette(0, s);
    const matrices = [];
    for (let j = 0; j < rig.skinJoints[s]; j++) matrices.push(rowsToColumnMajor(palette, 12 * j));
    frame.joint_matrices.push({ skin: s, matrices });
  }
  for (const p of viewer.primitives) {
    const skinned = viewer.skin(0, p.index);
    frame.primitives.push({ node: rig.gltfFromRig[p.node], mesh: p.mesh, primitive: p.primitive, ...skinned });
  }
  return frame;
}

function xyz(array, v) {
  return [array[3 * v], array[3 * v + 1], array[3 * v + 2]];
}

// Checks one sample against the golden one within its tolerances; returns the failures.
function compareGolden(golden, ours, tol, tolU) {
  const failures = [];
  const matrix = (g, o, where) => {
    let scale = 0;
    for (let c = 0; c < 3; c++) scale = Math.max(scale, Math.hypot(g[4 * c], g[4 * c + 1], g[4 * c + 2]));
    const linearTol = tolU * (scale > 0 ? scale : 1);
    for (let c = 0; c < 3; c++) {
      for (let r = 0; r < 3; r++) {
        if (!(Math.abs(g[4 * c + r] - o[4 * c + r]) <= linearTol)) failures.push(`${where}: 3x3 [${c}][${r}] ${o[4 * c + r]} vs ${g[4 * c + r]}`);
      }
    }
    for (let r = 0; r < 3; r++) {
      if (!(Math.abs(g[12 + r] - o[12 + r]) <= tol)) failures.push(`${where}: translation[${r}] ${o[12 + r]} vs ${g[12 + r]}`);
    }
  };
  if (golden.node_world.length !== ours.node_world.length) failures.push('node count');
  golden.node_world.forEach((g, i) => matrix(g, ours.node_world[i], `node_world[${i}]`));
  if (golden.morph_weights.length !== ours.morph_weights.length) failures.push('morph weight entries');
  golden.morph_weights.forEach((g, i) => {
    const o = ours.morph_weights[i];
    if (!o || o.node !== g.node || o.weights.length !== g.weights.length) failures.push(`morph_weights[${i}] node or count`);
    else g.weights.forEach((w, k) => { if (!(Math.abs(w - o.weights[k]) <= tolU)) failures.push(`morph_weights[${i}][${k}] ${o.weights[k]} vs ${w}`); });
  });
  if (golden.joint_matrices.length !== ours.joint_matrices.length) failures.push('skin count');
  golden.joint_matrices.forEach((g, s) => {
    const o = ours.joint_matrices[s];
    if (!o || o.matrices.length !== g.matrices.length) failures.push(`skin ${s} joint count`);
    else g.matrices.forEach((m, j) => matrix(m, o.matrices[j], `skin ${s} joint ${j}`));
  });
  for (const gp of golden.primitives || []) {
    const op = ours.primitives.find((p) => p.node === gp.node && p.mesh === gp.mesh && p.primitive === gp.primitive);
    if (!op) {
      failures.push(`primitive node ${gp.node} mesh ${gp.mesh}/${gp.primitive} missing`);
      continue;
    }
    gp.vertices.forEach((v, i) => {
      const d = xyz(op.positions, v).map((x, c) => Math.abs(x - gp.positions[i][c]));
      if (!(Math.max(...d) <= tol)) failures.push(`node ${gp.node} vertex ${v} position off by ${Math.max(...d)}`);
      if (gp.normals && gp.normals.length && op.normals) {
        const n = xyz(op.normals, v).map((x, c) => Math.abs(x - gp.normals[i][c]));
        if (!(Math.max(...n) <= tolU)) failures.push(`node ${gp.node} vertex ${v} normal off by ${Math.max(...n)}`);
      }
    });
  }
  return failures;
}

// The native library picks AVX-512 forward kinematics and palettes at run time where the CPU
// has them (src/pose/pose_avx512.h: FMAs, which round differently) and AVX2 / AVX-512 skinning
// kernels; WebAssembly runs the portable code. Where the native command runs portable code too
// (no AVX-512 here, or OSSA_CLI_PORTABLE=1 for a CLI run under valgrind, which hides
// AVX-512), sampled poses, world matrices and palettes must be the same floats.
const nativePortable = process.env.OSSA_CLI_PORTABLE === '1' ||
  (fs.existsSync('/proc/cpuinfo') && !/\bavx512f\b/.test(fs.readFileSync('/proc/cpuinfo', 'utf8')));

// Every float of our frame against the native C library's (ossa sample --json): counts of
// identical floats and the largest difference.
// Per kind of value: floats compared, identical ones, the largest difference and where.
const native = {};
function compareNative(nativeSample, ours, label) {
  const visit = (kind, n, o, where) => {
    if (Array.isArray(n)) {
      assert.equal(o.length, n.length, `${label} ${where}: length`);
      n.forEach((x, i) => visit(kind, x, o[i], `${where}[${i}]`));
      return;
    }
    const k = (native[kind] ||= { floats: 0, identical: 0, worst: 0, where: '' });
    k.floats++;
    if (Math.fround(n) === o) k.identical++;
    const d = Math.abs(Math.fround(n) - o);
    if (d > k.worst) {
      k.worst = d;
      k.where = `${label} ${where}: web ${o} native ${n}`;
    }
  };
  visit('node_world', nativeSample.node_world, ours.node_world, 'node_world');
  nativeSample.morph_weights.forEach((m, i) => visit('morph_weights', m.weights, ours.morph_weights[i].weights, `morph_weights[${i}]`));
  nativeSample.joint_matrices.forEach((s, i) => visit('joint_matrices', s.matrices, ours.joint_matrices[i].matrices, `joint_matrices[${i}]`));
  for (const np of nativeSample.primitives) {
    const op = ours.primitives.find((p) => p.node === np.node && p.mesh === np.mesh && p.primitive === np.primitive);
    assert.ok(op, `${label}: primitive of node ${np.node} drawn by the web core`);
    np.vertices.forEach((v, i) => {
      visit('positions', np.positions[i], xyz(op.positions, v), `node ${np.node} position ${v}`);
      if (np.normals.length && op.normals) visit('normals', np.normals[i], xyz(op.normals, v), `node ${np.node} normal ${v}`);
    });
  }
}

const files = goldenFiles(path.join(shared, 'golden'));
let samplesChecked = 0;

test('the golden corpus is there', () => {
  assert.ok(files.length >= 30, `found ${files.length} golden files under ${shared}/golden`);
});

for (const file of files) {
  const golden = JSON.parse(fs.readFileSync(file, 'utf8'));
  const name = path.relative(path.join(shared, 'golden'), file);
  for (const model of [golden.model, ...(golden.model_variants || [])]) {
    test(`${name}: ${model}`, () => {
      const viewer = core.open(modelFiles(model));
      try {
        const failures = [];
        const times = golden.samples.map((s) => s.time);
        const nativeRun = haveCli && model === golden.model
          ? JSON.parse(execFileSync(cli, ['sample', path.join(shared, model), '--anim', String(golden.animation), '--json',
            ...times.flatMap((t) => ['--time', String(t)])], { maxBuffer: 1 << 30 }).toString())
          : null;
        golden.samples.forEach((sample, i) => {
          // As ossa sample does: the time through float, clamped to the animation.
          viewer.update(golden.animation, Math.fround(sample.time), 0, WRAP_CLAMP);
          const ours = frameOf(viewer);
          for (const f of compareGolden(sample, ours, golden.tolerance, golden.tolerance_unitless)) failures.push(`t=${sample.time} ${f}`);
          if (nativeRun) compareNative(nativeRun.samples[i], ours, `${name} t=${sample.time}`);
          samplesChecked++;
        });
        assert.deepEqual(failures.slice(0, 10), [], `${failures.length} values outside the golden tolerances`);
      } finally {
        viewer.close();
      }
    });
  }
}

test('a refused file names its JSON path', () => {
  const gltf = JSON.stringify({ asset: { version: '2.0' }, nodes: [{ children: [0] }] });
  assert.throws(() => core.open([{ name: 'cycle.gltf', bytes: new TextEncoder().encode(gltf) }]), (e) => {
    assert.equal(e.file, 'cycle.gltf');
    assert.match(e.path, /^nodes\[0\]/);
    assert.equal(e.codeName, 'invalid glTF');
    return true;
  });
});

test('the built-in demo model plays through the crowd arrays', () => {
  const viewer = core.open(null);
  try {
    assert.equal(viewer.animations.length, 3);
    viewer.setInstances(3);
    viewer.update(0, 0.25, 0.5);
    const palette = viewer.paletteView().slice();
    const block = viewer.blockJoints * 12;
    assert.equal(palette.length, 3 * block);
    // Instance 2 of the crowd equals a lone character at clock 0.25 + 2 * 0.5.
    viewer.setInstances(1);
    viewer.update(0, 1.25, 0);
    assert.deepEqual(Array.from(viewer.paletteView()), Array.from(palette.subarray(2 * block, 3 * block)));
    assert.notDeepEqual(Array.from(palette.subarray(0, block)), Array.from(palette.subarray(2 * block, 3 * block)));
  } finally {
    viewer.close();
  }
});

// Asserts that fn throws an OssaError refusing its arguments, its message matching `pattern`.
function refused(fn, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof OssaError, `${e}`);
    assert.equal(e.codeName, 'invalid argument');
    assert.match(e.message, pattern);
    return true;
  });
}

test('indices out of range, negative or fractional are refused everywhere', () => {
  const fox = core.open(modelFiles('models/Fox/Fox.glb'));
  try {
    refused(() => fox.world(0), /^Fox\.glb: instance 0 is out of range \(valid: none\)$/); // no crowd yet
    fox.setInstances(2);
    fox.update(1, 0.3, 0.29, WRAP_CLAMP);
    assert.equal(fox.world(1).length, 12 * 26);
    assert.notDeepEqual(Array.from(fox.world(1)), Array.from(fox.world(0)));
    for (const i of [2, 5, -1]) {
      refused(() => fox.world(i), new RegExp(`instance ${i} is out of range \\(valid: 0\\.\\.1\\)`));
      refused(() => fox.palette(i, 0), /instance .* is out of range/);
      refused(() => fox.morphWeights(i), /instance .* is out of range/);
      refused(() => fox.skin(i, 0), /instance .* is out of range/);
    }
    refused(() => fox.world(0.5), /instance must be a whole number, not 0\.5/);
    refused(() => fox.palette(0, 1), /skin 1 is out of range \(valid: 0\.\.0\)/);
    refused(() => fox.skin(0, 9), /primitive 9 is out of range \(valid: 0\.\.0\)/);
    refused(() => fox.skin(0, -1), /primitive -1 is out of range/);
    refused(() => fox.material(1), /material 1 is out of range \(valid: -1\.\.0\)/);
    refused(() => fox.material(-2), /material -2 is out of range/);
    refused(() => fox.materialAnimated(1), /material 1 is out of range/);
    refused(() => fox.clipTime(3, 0), /animation 3 is out of range \(valid: 0\.\.2\)/);
    refused(() => fox.clipTime(-1, 0), /animation -1 is out of range/);
    refused(() => fox.update(3, 0), /animation 3 is out of range \(valid: -1\.\.2\)/);
    refused(() => fox.update(-2, 0), /animation -2 is out of range/);
    refused(() => fox.update('Walk', 0), /animation must be a whole number, not "Walk"/);
    refused(() => fox.update(1, NaN), /the clock must be a finite number, not NaN/);
    refused(() => fox.update(1, 0, Infinity), /the stagger must be a finite number, not Infinity/);
    refused(() => fox.bounds(-1), /sample count -1 is out of range \(valid: 0\.\.10000\)/);
    refused(() => fox.bounds(1.5), /sample count must be a whole number/);
    // The refused calls changed nothing: instance 1 still shows the walk at 0.3 + 0.29 s.
    const world = fox.world(1);
    fox.update(1, 0.59, 0, WRAP_CLAMP);
    assert.deepEqual(Array.from(fox.world(0)), Array.from(world));
  } finally {
    fox.close();
  }
});

test('wraps outside WRAP_CLAMP, WRAP_LOOP and WRAP_PING_PONG are refused', () => {
  const fox = core.open(modelFiles('models/Fox/Fox.glb'));
  try {
    for (const wrap of [7, -1, 0.5, '1']) refused(() => fox.update(1, 0.3, 0, wrap), /unknown wrap .* \(WRAP_CLAMP, WRAP_LOOP or WRAP_PING_PONG\)/);
    // Past the end ping-pong runs backwards, as far as the clamp is from its end.
    const walk = fox.animations[1];
    fox.update(1, walk.end + 0.25, 0, WRAP_PING_PONG);
    const back = fox.world(0);
    fox.update(1, walk.end - 0.25, 0, WRAP_CLAMP);
    const ahead = fox.world(0);
    back.forEach((x, k) => assert.ok(Math.abs(x - ahead[k]) < 1e-3, `float ${k}: ${x} vs ${ahead[k]}`));
    fox.update(1, walk.end + 0.25, 0, WRAP_LOOP);
    assert.notDeepEqual(Array.from(fox.world(0)), Array.from(back));
  } finally {
    fox.close();
  }
});

test('a closed model refuses every call, and closing twice does nothing', () => {
  const demo = core.open(null);
  demo.setInstances(2);
  demo.update(0, 0.5);
  demo.close();
  assert.equal(demo.instances, 0);
  const calls = {
    world: () => demo.world(0), palette: () => demo.palette(0, 0), morphWeights: () => demo.morphWeights(0),
    skin: () => demo.skin(0, 0), update: () => demo.update(0, 0.5), setInstances: () => demo.setInstances(1),
    bounds: () => demo.bounds(), clipTime: () => demo.clipTime(0, 0), material: () => demo.material(-1),
    materialAnimated: () => demo.materialAnimated(-1), materialCount: () => demo.materialCount,
    paletteView: () => demo.paletteView(), weightsView: () => demo.weightsView(), materialsView: () => demo.materialsView(),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, (e) => e instanceof OssaError && e.message === 'ossa-demo.glb: the model is closed', name);
  }
  demo.close();
  const again = core.open(null);
  again.update(0, 0.5);
  assert.equal(again.world(0).length, 12 * again.rig.nodeCount);
  again.close();
});

test('instance counts that are not whole numbers from 1 are refused, and a failed count keeps the crowd', () => {
  const fox = core.open(modelFiles('models/Fox/Fox.glb'));
  try {
    fox.setInstances(2);
    fox.update(1, 0.3, 0.29);
    const second = fox.world(1);
    for (const count of [-1, 0, 1.5, NaN, 2 ** 32]) refused(() => fox.setInstances(count), /instance count/);
    refused(() => fox.setInstances(-1), /instance count -1 is out of range \(valid: 1\.\.4294967295\)/);
    assert.throws(() => fox.setInstances(2 ** 32 - 1), (e) => e.codeName === 'out of memory' && /too many instances/.test(e.message));
    // 1e6 Fox palettes (2.4 GB) pass the size check but not the 2 GB WebAssembly heap.
    assert.throws(() => fox.setInstances(1e6), (e) => e.codeName === 'out of memory' && /out of memory/.test(e.message));
    assert.equal(fox.instances, 2);
    assert.deepEqual(Array.from(fox.world(1)), Array.from(second));
    fox.update(1, 0.3, 0.29);
    assert.deepEqual(Array.from(fox.world(1)), Array.from(second));
  } finally {
    fox.close();
  }
});

test('file names may name folders; names leaving the folder are refused', () => {
  // CesiumMan.gltf with its buffer and image moved into folders its URIs name.
  const [gltf, ...rest] = modelFiles('models/CesiumMan/glTF/CesiumMan.gltf');
  const json = JSON.parse(new TextDecoder().decode(gltf.bytes));
  json.buffers[0].uri = `data/${json.buffers[0].uri}`;
  json.images[0].uri = `data/images/${json.images[0].uri}`;
  const named = (suffix) => rest.find((f) => f.name.endsWith(suffix));
  const image = named('.jpg');
  const man = core.open([{ name: 'man/CesiumMan.gltf', bytes: new TextEncoder().encode(JSON.stringify(json)) },
    { name: 'man/data/CesiumMan_data.bin', bytes: named('.bin').bytes }, { name: `man/${json.images[0].uri}`, bytes: image.bytes }]);
  try {
    assert.equal(man.file, 'CesiumMan.gltf');
    assert.equal(man.primitives[0].vertexCount, 3273);
    assert.deepEqual(man.material(man.primitives[0].material).image, new Uint8Array(image.bytes));
  } finally {
    man.close();
  }
  for (const name of ['../Fox.glb', '/Fox.glb', 'a//Fox.glb', './Fox.glb']) {
    refused(() => core.open([{ name, bytes: fs.readFileSync(path.join(shared, 'models/Fox/Fox.glb')) }]),
      /a file name must be a relative path without empty, \. or \.\. parts/);
  }
  assert.deepEqual(core.M.FS.readdir('/').filter((name) => name.startsWith('model')), [], 'no files left behind');
  const fox = core.open(modelFiles('models/Fox/Fox.glb'));
  assert.equal(fox.animations.length, 3);
  fox.close();
});

test('summary', () => {
  assert.ok(samplesChecked > 0);
  if (haveCli) {
    for (const [kind, k] of Object.entries(native)) {
      console.log(`web core vs native C library (${path.relative(root, cli)}), ${kind}: ${k.identical} of ${k.floats} floats identical; largest difference ${k.worst}${k.where ? ` (${k.where})` : ''}`);
    }
  } else {
    console.log(`native comparison skipped: ${cli} is not built`);
  }
  console.log(`${files.length} golden files, ${samplesChecked} samples checked against their tolerances`);
  if (haveCli) {
    // Morph weights are lerps on every path: always the same floats.
    assert.equal(native.morph_weights.identical, native.morph_weights.floats);
    if (nativePortable) {
      for (const kind of ['node_world', 'joint_matrices']) assert.equal(native[kind].identical, native[kind].floats, `${kind}: ${native[kind].where}`);
    } else {
      console.log('native FK and palettes ran AVX-512 code: world matrices and palettes compared within the golden tolerances only');
    }
  }
});
