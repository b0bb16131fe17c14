// The hand-written probe scripts `browser-oracle probe` runs through every engine: each covers
// something a trace observes beyond geometry, and one per family of device emulation what a case
// sees of it (docs/protocol.md, "Device emulation"). Every script ends its own trace.
import type { Emulate } from '../../protocol/emulation-schema.js';

export interface TraceProbe {
  name: string;
  html?: string;
  script: string;
  /** The trace's device emulation. */
  emulate?: Emulate;
  /**
   * The launch profile the probe needs; under any other a `media` probe is expected to show the
   * missing setup, and a `devices` one is not run (the oracle refuses its emulation).
   */
  needs?: 'media' | 'devices';
}

/** `promise` is recorded as it settles, then the trace ends (its handler runs after the record's). */
const settleThenDone = (label: string, promise: string) =>
  `const p = ${promise}; trace.settle(${JSON.stringify(label)}, p); p.finally(() => trace.done());`;

export const PROBES: TraceProbe[] = [
  {
    name: 'offline-audio-render',
    script: settleThenDone(
      'rendered',
      '(() => { const ctx = new OfflineAudioContext(1, 512, 8000); const o = ctx.createOscillator(); o.frequency.value = 440; const g = ctx.createGain(); g.gain.value = 0.5; o.connect(g).connect(ctx.destination); o.start(); return ctx.startRendering(); })()',
    ),
  },
  {
    name: 'canvas-readback',
    html: '<canvas id=c width=16 height=8></canvas>',
    script:
      "const g = c.getContext('2d'); g.fillStyle = 'rgb(200, 100, 50)'; g.fillRect(1, 1, 6, 6); g.fillStyle = 'rgba(0, 0, 255, 0.5)'; g.fillRect(4, 2, 10, 4);" +
      " trace.value('pixels', g.getImageData(0, 0, 16, 8)); trace.done();",
  },
  {
    name: 'event-bubble-order',
    html: '<div id=outer><p><button id=inner>x</button></p></div>',
    script:
      "for (const t of [window, document, document.body, outer, outer.firstChild, inner]) trace.event(t, ['click', 'custom']);" +
      " inner.click(); inner.dispatchEvent(new Event('custom', { bubbles: false })); outer.dispatchEvent(new Event('custom', { bubbles: true })); trace.done();",
  },
  {
    name: 'promise-microtask-order',
    script:
      "setTimeout(() => { trace.value('timeout', 0); trace.done(); }, 0); trace.settle('resolved', Promise.resolve('r'));" +
      " queueMicrotask(() => trace.value('microtask', 1)); (async () => { await null; trace.value('await', 2); await new Promise((r) => setTimeout(r, 0)); })();" +
      " trace.settle('rejected', Promise.reject(new TypeError('t'))); Promise.resolve().then(() => Promise.resolve()).then(() => trace.value('nested-then', 3)); trace.value('sync', 4);",
  },
  {
    name: 'idl-shape-url',
    script: "trace.value('URL.prototype', URL.prototype); trace.value('URL', URL); trace.done();",
  },
  {
    name: 'fake-camera-track-settings',
    needs: 'media',
    script: settleThenDone(
      'settings',
      "navigator.mediaDevices.getUserMedia({ video: true, audio: true }).then((s) => { const [v] = s.getVideoTracks(); const [a] = s.getAudioTracks(); const r = { video: v.getSettings(), audio: a.getSettings() }; for (const t of s.getTracks()) t.stop(); for (const k of ['deviceId', 'groupId']) { delete r.video[k]; delete r.audio[k]; } return r; })",
    ),
  },
  {
    name: 'emulated-accelerometer',
    emulate: { sensors: { accelerometer: { reading: { xyz: { x: 1.5, y: -2, z: 9.5 } } } } },
    script: settleThenDone(
      'reading',
      'new Promise((resolve, reject) => { const s = new Accelerometer(); s.onreading = () => { resolve([s.x, s.y, s.z]); s.stop(); }; s.onerror = (e) => reject(e.error); s.start(); })',
    ),
  },
  {
    name: 'emulated-pressure',
    emulate: { pressure: { cpu: { state: 'fair' } } },
    script: settleThenDone(
      'record',
      "new Promise((resolve, reject) => { const o = new PressureObserver((rs) => { o.disconnect(); resolve([rs[0].source, rs[0].state]); }); o.observe('cpu').catch(reject); })",
    ),
  },
  {
    name: 'emulated-geolocation',
    emulate: { geolocation: { latitude: 35.68, longitude: 139.76, accuracy: 5 } },
    script: settleThenDone(
      'position',
      'new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition((p) => resolve([p.coords.latitude, p.coords.longitude, p.coords.accuracy]), (e) => reject(e.code)))',
    ),
  },
  {
    name: 'emulated-locale-and-zone',
    emulate: { timezone: 'Asia/Tokyo', locale: 'de-DE' },
    script:
      "trace.value('language', navigator.language); trace.value('date', new Date(0).toLocaleString());" +
      " trace.value('zone', Intl.DateTimeFormat().resolvedOptions().timeZone); trace.done();",
  },
  {
    name: 'emulated-screen-orientation',
    emulate: { screen_orientation: { natural: 'landscape', type: 'portrait-primary' } },
    script: "trace.value('type', screen.orientation.type); trace.value('angle', screen.orientation.angle); trace.done();",
  },
  {
    name: 'emulated-authenticator',
    needs: 'devices',
    emulate: {
      authenticator: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    },
    script: settleThenDone(
      'round-trip',
      'navigator.credentials.create({ publicKey: { challenge: new Uint8Array(32), rp: { name: "probe" }, user: { id: new Uint8Array([1]), name: "u", displayName: "u" }, pubKeyCredParams: [{ type: "public-key", alg: -7 }] } })' +
        '.then((c) => navigator.credentials.get({ publicKey: { challenge: new Uint8Array(32), allowCredentials: [{ type: "public-key", id: c.rawId }] } }).then((a) => [c.type, a.id === c.id]))',
    ),
  },
  {
    name: 'emulated-bluetooth',
    needs: 'devices',
    emulate: {
      bluetooth: {
        state: 'powered-on',
        preconnectedPeripherals: [{ address: '09:09:09:09:09:09', name: 'Probe', manufacturerData: [], knownServiceUuids: [] }],
      },
    },
    script: settleThenDone('device', 'navigator.bluetooth.requestDevice({ acceptAllDevices: true }).then((d) => d.name)'),
  },
];
