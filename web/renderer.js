// WebGL2 drawing of a model opened by ossa_core.js: skinning on the GPU with the library's rules,
// one instanced draw per primitive for the whole crowd.
//
// The palette of every instance lives in a float texture (RGBA32F, 3 texels per 3x4 joint
// matrix); instance i of a draw reads its joints at block i (see web/ossa_web.c). The vertex
// shader follows the CPU skinning rules of include/ossa/skin.h, which the library's GL layer
// (src/gpu/shader_source.c) shares for the blend itself: morph targets first, then the weighted
// sum of joint matrices, where zero weights and joints outside the skin are skipped, the rest are
// divided by their sum, and a vertex whose weights are all zero keeps its (morphed) position.
// The shading is the GL layer's: two-sided Lambert with a key and a fill light, and the
// material's appearance (emissive, unlit, alpha mask and blend, double-sided or culled,
// KHR_texture_transform on the base colour texture, the TEXCOORD_n it reads); materials a
// KHR_animation_pointer animates are read per instance from a float texture (see web/ossa_web.c).

const TEXTURE_WIDTH = 1024; // texels per row of the data textures
export const BACKGROUND = [0.15, 0.16, 0.18];

const VERTEX_SHADER = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in uvec4 a_joints0;
layout(location = 4) in uvec4 a_joints1;
layout(location = 5) in uvec4 a_joints2;
layout(location = 6) in uvec4 a_joints3;
layout(location = 7) in vec4 a_weights0;
layout(location = 8) in vec4 a_weights1;
layout(location = 9) in vec4 a_weights2;
layout(location = 10) in vec4 a_weights3;
uniform sampler2D u_palette;  // RGBA32F: 3 texels per joint, blocks of u_block_joints per instance
uniform sampler2D u_weights;  // R32F: u_weight_total morph weights per instance
uniform sampler2D u_targets;  // RGBA32F: per target and vertex, position then normal displacement
uniform int u_block_joints, u_palette_base, u_joint_count, u_sets;
uniform int u_weight_total, u_weight_offset, u_target_count, u_vertex_count;
uniform int u_columns;
uniform float u_spacing;
uniform mat4 u_view_proj;
out vec3 v_normal;
out vec3 v_world;
out vec2 v_uv;
flat out int v_instance;

vec4 fetch(sampler2D t, int i) {
    int w = textureSize(t, 0).x;
    return texelFetch(t, ivec2(i % w, i / w), 0);
}

struct Blend { vec4 r0, r1, r2; float total; };

void add_influence(inout Blend b, uint joint, float w) {
    if (w == 0.0 || int(joint) >= u_joint_count) return;
    int i = 3 * (gl_InstanceID * u_block_joints + u_palette_base + int(joint));
    b.r0 += w * fetch(u_palette, i);
    b.r1 += w * fetch(u_palette, i + 1);
    b.r2 += w * fetch(u_palette, i + 2);
    b.total += w;
}

void add_set(inout Blend b, uvec4 j, vec4 w) {
    add_influence(b, j.x, w.x);
    add_influence(b, j.y, w.y);
    add_influence(b, j.z, w.z);
    add_influence(b, j.w, w.w);
}

void main() {
    vec3 p = a_position, n = a_normal;
    for (int k = 0; k < u_target_count; k++) {
        float w = fetch(u_weights, gl_InstanceID * u_weight_total + u_weight_offset + k).r;
        if (w == 0.0) continue;
        int t = 2 * (k * u_vertex_count + gl_VertexID);
        p += w * fetch(u_targets, t).xyz;
        n += w * fetch(u_targets, t + 1).xyz;
    }
    Blend b = Blend(vec4(0.0), vec4(0.0), vec4(0.0), 0.0);
    if (u_sets == 0) {
        add_influence(b, 0u, 1.0); // unskinned: joint 0 is the node's world matrix
    } else {
        add_set(b, a_joints0, a_weights0);
        if (u_sets > 1) add_set(b, a_joints1, a_weights1);
        if (u_sets > 2) add_set(b, a_joints2, a_weights2);
        if (u_sets > 3) add_set(b, a_joints3, a_weights3);
    }
    vec3 world = p;
    v_normal = n;
    if (b.total > 0.0) {
        vec4 hp = vec4(p, 1.0);
        vec4 r0 = b.r0 / b.total, r1 = b.r1 / b.total, r2 = b.r2 / b.total;
        world = vec3(dot(r0, hp), dot(r1, hp), dot(r2, hp));
        v_normal = vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n));
    }
    int rows = (gl_InstanceID / u_columns);
    int column = gl_InstanceID - rows * u_columns;
    vec3 offset = u_spacing * vec3(float(column), 0.0, float(rows));
    v_world = world + offset;
    v_uv = a_uv;
    v_instance = gl_InstanceID;
    gl_Position = u_view_proj * vec4(v_world, 1.0);
}`;

const FRAGMENT_SHADER = `#version 300 es
precision highp float;
precision highp int;
in vec3 v_normal;
in vec3 v_world;
in vec2 v_uv;
flat in int v_instance;
uniform vec4 u_base_color;
uniform vec3 u_emissive;
uniform int u_has_texture, u_has_normals, u_unlit, u_alpha_mode;
uniform float u_alpha_cutoff;
uniform vec3 u_uv_row0, u_uv_row1; // KHR_texture_transform as a 2x3 row matrix
uniform sampler2D u_base_color_texture;
uniform vec3 u_light_dir;
// Animated materials (KHR_animation_pointer): 4 texels per instance and material, the first at
// u_material_texel + instance * u_material_stride; -1: the uniforms above.
uniform highp sampler2D u_materials;
uniform int u_material_texel, u_material_stride;
out vec4 o_color;
vec4 material_texel(int i) {
    int w = textureSize(u_materials, 0).x;
    return texelFetch(u_materials, ivec2(i % w, i / w), 0);
}
void main() {
    vec4 color = u_base_color;
    vec3 emissive = u_emissive, uv_row0 = u_uv_row0, uv_row1 = u_uv_row1;
    float cutoff = u_alpha_cutoff;
    if (u_material_texel >= 0) {
        int t = u_material_texel + v_instance * u_material_stride;
        color = material_texel(t);
        vec4 glow = material_texel(t + 1);
        emissive = glow.rgb;
        cutoff = glow.a;
        uv_row0 = material_texel(t + 2).xyz;
        uv_row1 = material_texel(t + 3).xyz;
    }
    vec3 uv = vec3(v_uv, 1.0);
    if (u_has_texture != 0) color *= texture(u_base_color_texture, vec2(dot(uv_row0, uv), dot(uv_row1, uv)));
    if (u_alpha_mode == 1 && color.a < cutoff) discard; // MASK
    float alpha = u_alpha_mode == 2 ? color.a : 1.0;            // BLEND
    if (u_unlit != 0) {
        o_color = vec4(color.rgb, alpha);
        return;
    }
    // Without NORMAL the face normal from the screen-space derivatives of the position.
    vec3 normal = u_has_normals != 0 ? v_normal : cross(dFdx(v_world), dFdy(v_world));
    float len = length(normal);
    vec3 n = len > 0.0 ? normal / len : vec3(0.0, 1.0, 0.0);
    if (u_has_normals != 0 && !gl_FrontFacing) n = -n;
    if (u_has_normals == 0 && dot(n, u_light_dir) < 0.0) n = -n;
    float key = max(dot(n, u_light_dir), 0.0);
    float fill = max(dot(n, normalize(vec3(-0.4, 0.2, -0.6))), 0.0);
    o_color = vec4(color.rgb * (0.28 + 0.62 * key + 0.2 * fill) + emissive, alpha);
}`;

function compile(gl, type, source) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(shader)}`);
  return shader;
}

// The drawing program, or with `feedback` the one that captures v_world (transform feedback).
function program(gl, feedback = false) {
  const p = gl.createProgram();
  gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, VERTEX_SHADER));
  gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT_SHADER));
  if (feedback) gl.transformFeedbackVaryings(p, ['v_world'], gl.SEPARATE_ATTRIBS);
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`program: ${gl.getProgramInfoLog(p)}`);
  const uniforms = {};
  for (let i = 0; i < gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS); i++) {
    const name = gl.getActiveUniform(p, i).name;
    uniforms[name] = gl.getUniformLocation(p, name);
  }
  return { program: p, uniforms };
}

// A float texture of TEXTURE_WIDTH texels per row holding `texels` texels.
function dataTexture(gl, internal, format, channels, texels) {
  const height = Math.max(1, Math.ceil(texels / TEXTURE_WIDTH));
  const texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, internal, TEXTURE_WIDTH, height);
  for (const p of [gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER]) gl.texParameteri(gl.TEXTURE_2D, p, gl.NEAREST);
  return { texture, internal, format, channels, texels };
}

// Writes data (channels floats per texel) into a data texture: whole rows, then the rest.
function uploadData(gl, t, data) {
  const texels = data.length / t.channels;
  const rows = Math.floor(texels / TEXTURE_WIDTH);
  gl.bindTexture(gl.TEXTURE_2D, t.texture);
  if (rows) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, TEXTURE_WIDTH, rows, t.format, gl.FLOAT, data, 0);
  const rest = texels - rows * TEXTURE_WIDTH;
  if (rest) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, rows, rest, 1, t.format, gl.FLOAT, data, rows * TEXTURE_WIDTH * t.channels);
}

export class Renderer {
  constructor(canvas) {
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error('WebGL2 is not available in this browser');
    this.gl = gl;
    this.canvas = canvas;
    this.shader = program(gl);
    this.model = null;
    // Joint attributes a primitive does not use read the generic value, whose type must match
    // the shader's uvec4 (WebGL2 refuses the draw otherwise).
    for (let k = 0; k < 4; k++) gl.vertexAttribI4ui(3 + k, 0, 0, 0, 0);
  }

  /** Uploads a viewer's primitives, materials and textures (awaits image decoding). */
  async setModel(viewer) {
    this.dropModel();
    const gl = this.gl;
    const model = { viewer, primitives: [], textures: [], skipped: [] };
    const materials = new Map();
    for (const p of viewer.primitives) {
      if (p.setCount > 4) model.skipped.push(`primitive ${p.index} (mesh ${p.mesh}): ${p.setCount} influence sets, the shader reads the first 4`);
      const vao = gl.createVertexArray();
      gl.bindVertexArray(vao);
      const buffers = [];
      const attribute = (location, data, size, integer = false, stride = 0, offset = 0) => {
        const buffer = gl.createBuffer();
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
        buffers.push(buffer);
        for (let k = 0; k < (integer || stride ? Math.min(4, p.setCount) : 1); k++) {
          gl.enableVertexAttribArray(location + k);
          if (integer) gl.vertexAttribIPointer(location + k, 4, gl.UNSIGNED_SHORT, stride, offset + 8 * k);
          else if (stride) gl.vertexAttribPointer(location + k, 4, gl.FLOAT, false, stride, offset + 16 * k);
          else gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
        }
      };
      attribute(0, p.positions, 3);
      if (p.normals) attribute(1, p.normals, 3);
      else gl.vertexAttrib3f(1, 0, 0, 0);
      if (p.texcoords) attribute(2, p.texcoords, 2);
      const skinned = p.skin >= 0 && p.joints && p.weights && p.setCount > 0;
      if (skinned) {
        attribute(3, p.joints, 4, true, 8 * p.setCount);
        attribute(7, p.weights, 4, false, 16 * p.setCount);
      }
      let indexBuffer = null;
      if (p.indices) {
        indexBuffer = gl.createBuffer();
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
        gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, p.indices, gl.STATIC_DRAW);
      }
      gl.bindVertexArray(null);
      let targets = null;
      if (p.targetCount) {
        const data = new Float32Array(8 * p.targetCount * p.vertexCount);
        for (let t = 0; t < p.targetCount; t++) {
          for (let v = 0; v < p.vertexCount; v++) {
            const to = 8 * (t * p.vertexCount + v), from = 3 * (t * p.vertexCount + v);
            if (p.targetPositions) data.set(p.targetPositions.subarray(from, from + 3), to);
            if (p.targetNormals) data.set(p.targetNormals.subarray(from, from + 3), to + 4);
          }
        }
        targets = dataTexture(gl, gl.RGBA32F, gl.RGBA, 4, data.length / 4);
        uploadData(gl, targets, data);
      }
      if (!materials.has(p.material)) materials.set(p.material, await this.material(viewer, p.material, model));
      model.primitives.push({ info: p, vao, buffers, indexBuffer, targets, skinned,
        material: materials.get(p.material) });
    }
    const empty = dataTexture(gl, gl.RGBA32F, gl.RGBA, 4, 2);
    model.emptyTargets = empty;
    this.model = model;
    this.instances = 0;
    return model;
  }

  async material(viewer, index, model) {
    const m = viewer.material(index);
    let texture = null;
    if (m.image) {
      try {
        const bitmap = await createImageBitmap(new Blob([m.image], { type: m.mime }));
        const gl = this.gl;
        texture = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, texture);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
        gl.generateMipmap(gl.TEXTURE_2D);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
        model.textures.push(texture);
      } catch (e) {
        model.skipped.push(`material ${index}: its image does not decode (${e.message})`);
      }
    }
    return { ...m, texture, index, animated: index >= 0 && viewer.materialAnimated(index) };
  }

  dropModel() {
    if (!this.model) return;
    const gl = this.gl;
    for (const p of this.model.primitives) {
      gl.deleteVertexArray(p.vao);
      for (const b of p.buffers) gl.deleteBuffer(b);
      if (p.indexBuffer) gl.deleteBuffer(p.indexBuffer);
      if (p.targets) gl.deleteTexture(p.targets.texture);
    }
    for (const t of this.model.textures) gl.deleteTexture(t);
    gl.deleteTexture(this.model.emptyTargets.texture);
    if (this.palette) gl.deleteTexture(this.palette.texture);
    if (this.weights) gl.deleteTexture(this.weights.texture);
    if (this.materials) gl.deleteTexture(this.materials.texture);
    this.palette = this.weights = this.materials = null;
    this.model = null;
  }

  /** Streams the viewer's current palettes and morph weights (after viewer.update). */
  upload() {
    const gl = this.gl;
    const viewer = this.model.viewer;
    if (this.instances !== viewer.instances) {
      if (this.palette) gl.deleteTexture(this.palette.texture);
      if (this.weights) gl.deleteTexture(this.weights.texture);
      if (this.materials) gl.deleteTexture(this.materials.texture);
      this.palette = dataTexture(gl, gl.RGBA32F, gl.RGBA, 4, 3 * viewer.blockJoints * viewer.instances);
      this.weights = dataTexture(gl, gl.R32F, gl.RED, 1, Math.max(1, viewer.rig.weightTotal * viewer.instances));
      this.materials = dataTexture(gl, gl.RGBA32F, gl.RGBA, 4, Math.max(1, 4 * viewer.materialCount * viewer.instances));
      this.instances = viewer.instances;
    }
    uploadData(gl, this.palette, viewer.paletteView());
    if (viewer.rig.weightTotal) uploadData(gl, this.weights, viewer.weightsView());
    const materials = viewer.materialsView();
    if (materials) uploadData(gl, this.materials, materials);
  }

  // Uniforms and textures shared by every primitive of a frame.
  bindFrame(u, columns, spacing) {
    const gl = this.gl;
    gl.uniform1i(u.u_block_joints, this.model.viewer.blockJoints);
    gl.uniform1i(u.u_weight_total, this.model.viewer.rig.weightTotal);
    gl.uniform1i(u.u_columns, columns);
    gl.uniform1f(u.u_spacing, spacing);
    gl.uniform1i(u.u_palette, 0);
    gl.uniform1i(u.u_weights, 1);
    gl.uniform1i(u.u_targets, 2);
    gl.uniform1i(u.u_base_color_texture, 3);
    gl.uniform1i(u.u_materials, 4);
    gl.uniform1i(u.u_material_stride, 4 * this.model.viewer.materialCount);
    gl.activeTexture(gl.TEXTURE4);
    gl.bindTexture(gl.TEXTURE_2D, this.materials.texture);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.palette.texture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.weights.texture);
  }

  // Uniforms, textures and vertex array of one primitive.
  bindPrimitive(u, prim) {
    const gl = this.gl;
    const info = prim.info;
    gl.uniform1i(u.u_palette_base, info.paletteBase);
    gl.uniform1i(u.u_joint_count, prim.skinned ? info.jointCount : 1);
    gl.uniform1i(u.u_sets, prim.skinned ? Math.min(4, info.setCount) : 0);
    gl.uniform1i(u.u_weight_offset, info.weightOffset);
    gl.uniform1i(u.u_target_count, info.targetCount);
    gl.uniform1i(u.u_vertex_count, info.vertexCount);
    gl.uniform1i(u.u_has_normals, info.normals ? 1 : 0);
    const m = prim.material;
    gl.uniform4fv(u.u_base_color, m.color);
    gl.uniform3fv(u.u_emissive, m.emissive);
    gl.uniform1i(u.u_unlit, m.unlit ? 1 : 0);
    gl.uniform1i(u.u_alpha_mode, m.alphaMode);
    gl.uniform1f(u.u_alpha_cutoff, m.alphaCutoff);
    gl.uniform3fv(u.u_uv_row0, m.uvTransform.slice(0, 3));
    gl.uniform3fv(u.u_uv_row1, m.uvTransform.slice(3, 6));
    gl.uniform1i(u.u_has_texture, m.texture && info.texcoords ? 1 : 0);
    gl.uniform1i(u.u_material_texel, m.animated ? 4 * m.index : -1);
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, (prim.targets || this.model.emptyTargets).texture);
    gl.activeTexture(gl.TEXTURE3);
    gl.bindTexture(gl.TEXTURE_2D, prim.material.texture);
    gl.bindVertexArray(prim.vao);
  }

  /**
   * The vertex shader's world-space positions of primitive `index` for instance 0, captured by
   * transform feedback (original vertex order), to check the GPU against the CPU skinning.
   */
  feedback(index) {
    const gl = this.gl;
    if (!this.feedbackShader) this.feedbackShader = program(gl, true);
    const { program: p, uniforms: u } = this.feedbackShader;
    const prim = this.model.primitives[index];
    const n = prim.info.vertexCount;
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
    gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, 12 * n, gl.STATIC_READ);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    const tf = gl.createTransformFeedback();
    gl.useProgram(p);
    this.bindFrame(u, 1, 0);
    this.bindPrimitive(u, prim);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, n);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindVertexArray(null);
    const out = new Float32Array(3 * n);
    gl.bindBuffer(gl.COPY_READ_BUFFER, buffer);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, out);
    gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    gl.deleteBuffer(buffer);
    gl.deleteTransformFeedback(tf);
    return out;
  }

  /** Draws every instance: a grid `columns` wide, `spacing` apart along x and z. */
  draw(viewProj, columns, spacing) {
    const gl = this.gl;
    const { program: p, uniforms: u } = this.shader;
    const width = this.canvas.width, height = this.canvas.height;
    gl.viewport(0, 0, width, height);
    gl.clearColor(...BACKGROUND, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (!viewProj || !this.model || !this.palette) return;
    gl.enable(gl.DEPTH_TEST);
    gl.useProgram(p);
    gl.uniformMatrix4fv(u.u_view_proj, false, viewProj);
    gl.uniform3f(u.u_light_dir, 0.4, 0.8, 0.45);
    this.bindFrame(u, columns, spacing);
    // Opaque and masked primitives first, then blended ones over them without writing depth;
    // single-sided materials cull back faces.
    const blend = (prim) => prim.material.alphaMode === 2;
    for (const pass of [false, true]) {
      if (pass) {
        gl.enable(gl.BLEND);
        gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
        gl.depthMask(false);
      }
      for (const prim of this.model.primitives) {
        if (blend(prim) !== pass) continue;
        if (prim.material.doubleSided) gl.disable(gl.CULL_FACE);
        else gl.enable(gl.CULL_FACE);
        this.bindPrimitive(u, prim);
        const info = prim.info;
        if (prim.indexBuffer) gl.drawElementsInstanced(info.mode, info.indexCount, gl.UNSIGNED_INT, 0, this.instances);
        else gl.drawArraysInstanced(info.mode, 0, info.vertexCount, this.instances);
      }
    }
    gl.disable(gl.BLEND);
    gl.disable(gl.CULL_FACE);
    gl.depthMask(true);
    gl.bindVertexArray(null);
  }
}
