// The WebAssembly core as JavaScript objects: models opened from bytes, their animations,
// warnings and primitives, and a crowd of characters updated by the C library. Every number
// that animates comes from C (ossa_characters_update, web/ossa_web.c); this file only moves
// bytes in and out of the module's memory. Used by the page (main.js) and by the node tests.

/** ossa_wrap: how a clock maps onto an animation's time range. */
export const WRAP_CLAMP = 0;
export const WRAP_LOOP = 1;
export const WRAP_PING_PONG = 2;
const WRAPS = [WRAP_CLAMP, WRAP_LOOP, WRAP_PING_PONG];

/** ossa_result OSSA_ERROR_ARGUMENT (include/ossa/result.h): a call refused for its arguments. */
const ERROR_ARGUMENT = 8;
/** bounds(): the most samples per animation. */
const MAX_BOUNDS_SAMPLES = 10000;

/** A value as a refusal quotes it: strings in quotes, NaN as NaN. */
const shown = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** A load failure or refusal: the library's ossa_error, with its JSON path. */
export class OssaError extends Error {
  constructor(code, codeName, file, path, message) {
    super([file, path, message].filter((part) => part).join(': '));
    this.code = code;
    this.codeName = codeName;
    this.file = file;
    this.path = path;
    this.detail = message;
  }
}

export class OssaCore {
  /** @param factory the emscripten module factory (createOssa from ossa.js) */
  static async create(factory, options = {}) {
    return new OssaCore(await factory(options));
  }

  constructor(module) {
    this.M = module;
    this.opened = 0;
  }

  /** The last failure of a web_* call as an OssaError. */
  lastError() {
    const M = this.M;
    const code = M._web_error_code();
    return new OssaError(code, M.UTF8ToString(M._ossa_result_name(code)),
      M.UTF8ToString(M._web_error_file()), M.UTF8ToString(M._web_error_path()),
      M.UTF8ToString(M._web_error_message()));
  }

  /** An OssaError refusing a call for its arguments (OSSA_ERROR_ARGUMENT). */
  refusal(file, message) {
    return new OssaError(ERROR_ARGUMENT, this.M.UTF8ToString(this.M._ossa_result_name(ERROR_ARGUMENT)),
      file, '', message);
  }

  /**
   * Opens a model. files: [{name, bytes}] with the .gltf/.glb first and any buffers or images
   * it names beside it (null or [] for ossa's built-in demo model); a name is a path relative to
   * the model's folder ('textures/skin.png'). Throws OssaError.
   */
  open(files) {
    const M = this.M;
    let viewer;
    if (!files || files.length === 0) {
      viewer = M._web_open(0);
    } else {
      const dir = `/model${this.opened++}`;
      const folders = [dir], written = new Set();
      try {
        M.FS.mkdir(dir);
        for (const f of files) {
          const parts = String(f.name).split('/');
          if (parts.some((part) => part === '' || part === '.' || part === '..')) {
            throw this.refusal(String(f.name), 'a file name must be a relative path without empty, . or .. parts');
          }
          for (let k = 1; k < parts.length; k++) {
            const folder = `${dir}/${parts.slice(0, k).join('/')}`;
            if (!folders.includes(folder)) {
              M.FS.mkdir(folder);
              folders.push(folder);
            }
          }
          M.FS.writeFile(`${dir}/${f.name}`, f.bytes);
          written.add(`${dir}/${f.name}`);
        }
        viewer = M.ccall('web_open', 'number', ['string'], [`${dir}/${files[0].name}`]);
      } finally {
        // the document holds its bytes
        for (const file of written) M.FS.unlink(file);
        for (const folder of folders.reverse()) M.FS.rmdir(folder);
      }
    }
    if (!viewer) throw this.lastError();
    return new Viewer(this, viewer);
  }
}

class Viewer {
  constructor(core, handle) {
    this.core = core;
    this.M = core.M;
    this.handle = handle;
    const M = this.M;
    this.model = M._web_model(handle);
    this.file = M.UTF8ToString(M._ossa_model_file(this.model));
    this.warnings = [];
    for (let i = 0; i < M._web_warning_count(handle); i++) {
      this.warnings.push({ path: M.UTF8ToString(M._web_warning_path(handle, i)),
        message: M.UTF8ToString(M._web_warning_message(handle, i)) });
    }
    this.animations = [];
    for (let k = 0; k < M._ossa_model_clip_count(this.model); k++) {
      const clip = M._ossa_model_clip(this.model, k);
      this.animations.push({ index: k, name: M.UTF8ToString(M._ossa_clip_name(clip)),
        start: M._ossa_clip_start(clip), end: M._ossa_clip_end(clip),
        duration: M._ossa_clip_duration(clip) });
    }
    this.blockJoints = M._web_block_joints(handle);
    this.rig = this.withScratch(8 * 4, (p) => {
      M._web_rig(handle, p);
      const f = M.HEAPU32.slice(p / 4, p / 4 + 8);
      const rig = { nodeCount: f[0], gltfNodeCount: f[1], skinCount: f[3], weightTotal: f[4] };
      rig.rigFromGltf = new Int32Array(M.HEAP32.buffer, f[2], f[1]).slice();
      rig.weightOffset = new Uint32Array(M.HEAP32.buffer, f[5], f[0]).slice();
      rig.weightCount = new Uint32Array(M.HEAP32.buffer, f[6], f[0]).slice();
      rig.gltfFromRig = new Int32Array(M.HEAP32.buffer, f[7], f[0]).slice();
      rig.skinJoints = [];
      rig.skinBase = [];
      for (let s = 0; s < rig.skinCount; s++) {
        rig.skinJoints.push(M._web_skin_joint_count(handle, s));
        rig.skinBase.push(M._web_skin_base(handle, s));
      }
      return rig;
    });
    this.primitives = this.readPrimitives();
    this.instances = 0;
  }

  /** Calls fn with a pointer to `bytes` of module memory, freed afterwards. */
  withScratch(bytes, fn) {
    const p = this.M._malloc(bytes);
    try {
      return fn(p);
    } finally {
      this.M._free(p);
    }
  }

  /** Every primitive with copies of its streams (typed arrays; null where absent). */
  readPrimitives() {
    const M = this.M;
    const list = [];
    this.withScratch(22 * 4, (p) => {
      for (let i = 0; M._web_primitive(this.handle, i, p); i++) {
        const f = M.HEAPU32.slice(p / 4, p / 4 + 22);
        const n = f[5], sets = f[10], targets = f[8];
        const floats = (ptr, count) => (ptr ? new Float32Array(M.HEAPF32.buffer, ptr, count).slice() : null);
        list.push({
          index: i, node: f[0], mesh: f[1], primitive: f[2], skin: f[3] | 0, jointCount: f[4],
          vertexCount: n, indexCount: f[6], mode: f[7], targetCount: targets,
          weightOffset: f[9], setCount: sets, hasNormals: f[11] !== 0, material: f[12] | 0,
          positions: floats(f[13], 3 * n), normals: floats(f[14], 3 * n),
          texcoords: floats(f[15], 2 * n),
          joints: f[16] ? new Uint16Array(M.HEAPU16.buffer, f[16], 4 * sets * n).slice() : null,
          weights: floats(f[17], 4 * sets * n),
          targetPositions: floats(f[18], 3 * n * targets),
          targetNormals: floats(f[19], 3 * n * targets),
          indices: f[20] ? new Uint32Array(M.HEAPU32.buffer, f[20], f[6]).slice() : null,
          paletteBase: f[21],
        });
      }
    });
    return list;
  }

  /** The handle of the open model; throws OssaError once it is closed. */
  live() {
    if (!this.handle) throw this.core.refusal(this.file, 'the model is closed');
    return this.handle;
  }

  /** `value` when it is a whole number from `low` to count - 1; throws OssaError naming `what`. */
  index(value, count, what, low = 0) {
    this.live();
    if (!Number.isInteger(value)) throw this.core.refusal(this.file, `${what} must be a whole number, not ${shown(value)}`);
    if (value >= low && value < count) return value;
    const valid = count > low ? `${low}..${count - 1}` : 'none';
    throw this.core.refusal(this.file, `${what} ${value} is out of range (valid: ${valid})`);
  }

  /** `value` when it is a finite number; throws OssaError naming `what`. */
  finite(value, what) {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    throw this.core.refusal(this.file, `${what} must be a finite number, not ${shown(value)}`);
  }

  /** Material `index` (-1: default) as the renderer draws it, with its encoded image bytes. */
  material(index) {
    const M = this.M;
    this.index(index, this.materialCount, 'material', -1);
    return this.withScratch(16 * 4 + 6 * 4, (p) => {
      M._web_material(this.handle, index, p, p + 64);
      const f = M.HEAPF32.slice(p / 4, p / 4 + 16);
      const [ptr, size, mime, unlit, doubleSided, alphaMode] = M.HEAPU32.slice(p / 4 + 16, p / 4 + 22);
      return { color: Array.from(f.subarray(0, 4)), emissive: Array.from(f.subarray(4, 7)),
        alphaCutoff: f[7], uvTransform: Array.from(f.subarray(8, 14)),
        unlit: unlit !== 0, doubleSided: doubleSided !== 0, alphaMode,
        image: ptr ? M.HEAPU8.slice(ptr, ptr + size) : null, mime: mime ? M.UTF8ToString(mime) : null };
    });
  }

  /**
   * The box [min x, y, z, max x, y, z] around the skinned model in the rest pose and at
   * `samples` times (0 to MAX_BOUNDS_SAMPLES) across every clip.
   */
  bounds(samples = 9) {
    const M = this.M;
    this.index(samples, MAX_BOUNDS_SAMPLES + 1, 'sample count');
    return this.withScratch(24, (p) => {
      if (M._web_bounds(this.handle, samples, p)) throw this.core.lastError();
      return Array.from(M.HEAPF32.slice(p / 4, p / 4 + 6));
    });
  }

  /** Makes `count` (1 or more) characters; on failure the previous ones stay. */
  setInstances(count) {
    this.index(count, 2 ** 32, 'instance count', 1);
    if (this.M._web_set_instances(this.handle, count)) throw this.core.lastError();
    this.instances = this.M._web_instances(this.handle);
  }

  /**
   * Plays animation `clip` (-1: rest pose), instance i at clock + i * stagger, wrapped as
   * `wrap` (WRAP_CLAMP, WRAP_LOOP or WRAP_PING_PONG).
   */
  update(clip, clock, stagger = 0, wrap = WRAP_LOOP) {
    this.index(clip, this.animations.length, 'animation', -1);
    this.finite(clock, 'the clock');
    this.finite(stagger, 'the stagger');
    if (!WRAPS.includes(wrap)) {
      throw this.core.refusal(this.file, `unknown wrap ${shown(wrap)} (WRAP_CLAMP, WRAP_LOOP or WRAP_PING_PONG)`);
    }
    if (!this.instances) this.setInstances(1);
    if (this.M._web_update(this.handle, clip, clock, stagger, wrap)) throw this.core.lastError();
  }

  /** The clip time a clock shows for animation k (looping), from ossa_clip_time. */
  clipTime(k, clock) {
    this.index(k, this.animations.length, 'animation');
    return this.M._ossa_clip_time(this.M._ossa_model_clip(this.model, k), this.finite(clock, 'the clock'), WRAP_LOOP);
  }

  /** Views of this frame's palette blocks and morph weights (valid until the next call). */
  paletteView() {
    return new Float32Array(this.M.HEAPF32.buffer, this.M._web_palette(this.live()),
      this.instances * this.blockJoints * 12);
  }

  /** This frame's animated materials (16 floats per instance and material), null without. */
  materialsView() {
    const p = this.M._web_materials(this.live());
    return p ? new Float32Array(this.M.HEAPF32.buffer, p, this.instances * this.materialCount * 16) : null;
  }

  get materialCount() {
    return this.M._web_material_count(this.live());
  }

  /** Whether a clip animates material `index` (KHR_animation_pointer). */
  materialAnimated(index) {
    return this.M._web_material_animated(this.handle, this.index(index, this.materialCount, 'material', -1)) !== 0;
  }

  weightsView() {
    return new Float32Array(this.M.HEAPF32.buffer, this.M._web_weights(this.live()),
      this.instances * this.rig.weightTotal);
  }

  /** The character of instance i (0 .. instances - 1). */
  character(i) {
    return this.M._web_character(this.handle, this.index(i, this.instances, 'instance'));
  }

  /** Instance i's world matrices (12 per rig node), skin palette s, morph weights (copies). */
  world(i) {
    return new Float32Array(this.M.HEAPF32.buffer, this.M._ossa_character_world(this.character(i)),
      12 * this.rig.nodeCount).slice();
  }

  palette(i, s) {
    const c = this.character(i);
    return new Float32Array(this.M.HEAPF32.buffer,
      this.M._ossa_character_palette(c, this.index(s, this.rig.skinCount, 'skin')), 12 * this.rig.skinJoints[s]).slice();
  }

  morphWeights(i) {
    return new Float32Array(this.M.HEAPF32.buffer, this.M._ossa_character_weights(this.character(i)),
      this.rig.weightTotal).slice();
  }

  /** Primitive p of instance i skinned on the CPU by the library: {positions, normals}. */
  skin(i, p) {
    this.index(i, this.instances, 'instance');
    const n = this.primitives[this.index(p, this.primitives.length, 'primitive')].vertexCount;
    const M = this.M;
    return this.withScratch(24 * n + 24, (out) => {
      if (M._web_skin(this.handle, i, p, out, out + 12 * n + 12, n)) throw this.core.lastError();
      return { positions: M.HEAPF32.slice(out / 4, out / 4 + 3 * n),
        normals: this.primitives[p].hasNormals
          ? M.HEAPF32.slice((out + 12 * n + 12) / 4, (out + 12 * n + 12) / 4 + 3 * n) : null };
    });
  }

  /** Frees the model; every later call throws OssaError, and closing again does nothing. */
  close() {
    if (this.handle) this.M._web_close(this.handle);
    this.handle = 0;
    this.instances = 0;
  }
}
