// The hand-written probe scripts `browser-oracle probe` runs through every engine: each covers
// something a trace observes beyond geometry. Every script ends its own trace.

export interface TraceProbe {
  name: string;
  html?: string;
  script: string;
  /** The launch profile the probe needs; under any other it is expected to show the missing setup. */
  needs?: 'media';
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
];
