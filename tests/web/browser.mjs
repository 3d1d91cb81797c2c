// Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe, file
// descriptors 3 and 4), and a static file server on 127.0.0.1: enough to open a page, wait for
// its title and take a screenshot, without any package beyond node and Debian's chromium.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
  '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.png': 'image/png' };

/** Serves each URL prefix from a folder ({'/': dir, '/models/': dir2}); resolves to the server. */
export function serve(mounts) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const prefix = Object.keys(mounts).sort((a, b) => b.length - a.length).find((p) => url.startsWith(p));
    let rel = prefix ? url.slice(prefix.length) : '';
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(mounts[prefix] || '/nonexistent', path.normalize(`/${rel}`));
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404);
        res.end('not found');
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export class Browser {
  /** Starts chromium; flags as on this machine kind (software WebGL, no background network). */
  static async launch(executable, width, height) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ossa-chromium-'));
    const args = ['--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
      '--no-first-run', '--disable-default-apps', '--disable-extensions', `--user-data-dir=${profile}`,
      `--window-size=${width},${height}`, '--remote-debugging-pipe', 'about:blank'];
    const child = spawn(executable, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    const browser = new Browser(child, profile);
    child.stderr.on('data', (d) => { browser.log += d.toString(); });
    return browser;
  }

  constructor(child, profile) {
    this.child = child;
    this.profile = profile;
    this.log = '';
    this.id = 0;
    this.pending = new Map();
    this.buffer = '';
    this.events = [];
    child.stdio[4].on('data', (chunk) => {
      this.buffer += chunk.toString();
      let end;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
        if (message.id && this.pending.has(message.id)) {
          const { resolve, reject } = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) reject(new Error(`${message.error.message}`));
          else resolve(message.result);
        } else {
          this.events.push(message);
        }
      }
    });
    child.on('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error(`chromium exited: ${this.log.slice(-2000)}`));
      this.pending.clear();
    });
  }

  send(method, params = {}, sessionId = undefined) {
    const id = ++this.id;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    this.child.stdio[3].write(`${JSON.stringify(message)}\0`);
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /** Opens a page of width x height at url; returns a session for page commands. */
  async open(url, width, height) {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = {
      send: (method, params) => this.send(method, params, sessionId),
      close: () => this.send('Target.closeTarget', { targetId }),
      evaluate: async (expression) => {
        const reply = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId);
        if (reply.exceptionDetails) throw new Error(`in the page: ${reply.exceptionDetails.exception?.description || reply.exceptionDetails.text}`);
        return reply.result.value;
      },
    };
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    await page.send('Page.enable');
    await page.send('Page.navigate', { url });
    return page;
  }

  /** Ends chromium (waiting for it to exit) and removes its profile. */
  async close() {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill();
      await exited;
    }
    // Chromium's helper processes may still be writing the profile for a moment.
    try {
      fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } catch (e) {
      console.log(`could not remove ${this.profile}: ${e.message}`);
    }
  }
}

/** Polls document.title until `until` accepts it or timeoutMs passes; returns the last title. */
export async function waitForTitle(page, until, timeoutMs) {
  const end = Date.now() + timeoutMs;
  let title = '';
  while (Date.now() < end) {
    title = await page.evaluate('document.title');
    if (until(title)) return title;
    await new Promise((r) => setTimeout(r, 100));
  }
  return title;
}
