// A trace's `emulate` on the three real engines: one trace per feature, each engine's emulation
// record (applied only where its driver confirmed it), the vote over an emulation two engines
// took, what the next case on the same worker sees, two Bluetooth cases at once, a page trying to
// detect or forge the record, and the pinned locale and time zone (default and --locale/--timezone).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import { TraceResponseSchema, type TraceResponse } from '../../src/protocol/trace-schema.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import { bucketOf, signatureOf } from '../../src/comparator/signature.js';
import { ONE_PAGE, OracleProcess, UNHURRIED, type Line } from '../support/oracle-process.js';

const checkResponse = TypeCompiler.Compile(TraceResponseSchema);
let seq = 0;

/** Runs a trace on `oracle`, checks the response's shape and that no engine failed; resolves with the response. */
async function trace(oracle: OracleProcess, script: string, emulate?: Line): Promise<Line> {
  const response = await oracle.request({ id: `emu-${seq++}`, op: 'trace', script, ...(emulate ? { emulate } : {}) });
  assert.ok(checkResponse.Check(response), JSON.stringify([...checkResponse.Errors(response)].slice(0, 3)) + JSON.stringify(response));
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  return response;
}

/** Each record's label and what it holds (a value, or a settled promise's state and value or reason). */
const recorded = (t: Line) => Object.fromEntries(t.records.map((r: Line) => [r.label, r.kind === 'settle' ? [r.state, r.value] : r.value]));

/** Ends the trace once `p` settled, recording it as `label`. */
const settleThenDone = (label: string, p: string) => `const p = (${p}); trace.settle('${label}', p); p.finally(() => trace.done());`;

const array = (...elements: unknown[]) => ({ $shape: 'array', length: elements.length, elements });

/** An emulated device a case can pick: its name is what requestDevice() answers. */
const peripheral = (n: number) => ({
  address: `09:09:09:09:09:0${n}`,
  name: `Peripheral ${n}`,
  manufacturerData: [],
  knownServiceUuids: [],
});
const REQUEST_DEVICE = 'navigator.bluetooth.requestDevice({ acceptAllDevices: true }).then((d) => d.name)';

/** A WebAuthn create() then a get() of the credential it made: the credential's type and whether get() found it. */
const WEBAUTHN_ROUND_TRIP =
  'navigator.credentials.create({ publicKey: { challenge: new Uint8Array(32), rp: { name: "oracle" },' +
  ' user: { id: new Uint8Array([1]), name: "u", displayName: "u" }, pubKeyCredParams: [{ type: "public-key", alg: -7 }], timeout: 20000 } })' +
  '.then((c) => navigator.credentials.get({ publicKey: { challenge: new Uint8Array(32), allowCredentials: [{ type: "public-key", id: c.rawId }], timeout: 20000 } })' +
  '.then((a) => [c.type, a.id === c.id]))';
const AUTHENTICATOR = { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true };

/** What a case reads of the locale and the time zone. */
const LOCALE_AND_ZONE =
  "trace.value('language', navigator.language); trace.value('intl', Intl.DateTimeFormat().resolvedOptions().locale);" +
  " trace.value('zone', Intl.DateTimeFormat().resolvedOptions().timeZone); trace.value('offset', new Date(0).getTimezoneOffset()); trace.done();";

describe('under the devices profile', () => {
  let oracle: OracleProcess;
  let ping: Line;

  before(async () => {
    oracle = new OracleProcess(['--workers=1', UNHURRIED, '--profile=devices']);
    ping = await oracle.ready();
  });
  after(async () => {
    await oracle.shutdown();
  });

  test('ping reports the profile and the pinned locale and time zone', () => {
    assert.equal(ping.profile, 'devices');
    assert.equal(ping.locale, 'en-US');
    assert.equal(ping.timezone, 'UTC');
  });

  test('by default every engine reads the same language and time zone', async () => {
    const response = await trace(oracle, LOCALE_AND_ZONE);
    for (const engine of ENGINE_NAMES) {
      assert.equal(response.traces[engine].emulation, undefined, `${engine}: a trace without emulate has no record`);
      assert.deepEqual(recorded(response.traces[engine]), { language: 'en-US', intl: 'en-US', zone: 'UTC', offset: 0 }, engine);
    }
  });

  test('Chromium: an Accelerometer reads exactly the override', async () => {
    // Readings are rounded to 0.1 m/s² (the Generic Sensor spec's mitigation): the override is on that grid.
    const response = await trace(
      oracle,
      settleThenDone(
        'reading',
        'new Promise((resolve, reject) => { const s = new Accelerometer({ frequency: 10 }); s.onreading = () => { resolve([s.x, s.y, s.z]); s.stop(); }; s.onerror = (e) => reject(e.error); s.start(); })',
      ),
      { sensors: { accelerometer: { reading: { xyz: { x: 1.5, y: -2, z: 9.5 } } } } },
    );
    const chromium = response.traces.chromium;
    assert.deepEqual(chromium.emulation, { applied: true, features: { sensors: 'applied' } });
    assert.deepEqual(recorded(chromium).reading, ['fulfilled', array(1.5, -2, 9.5)]);
    for (const engine of ['firefox', 'webkit'] as const)
      assert.deepEqual(response.traces[engine].emulation, { applied: false, features: { sensors: 'unsupported' } }, engine);
  });

  test('Chromium: deviceorientation follows an orientation sensor override', async () => {
    // A quarter turn about z: alpha 90, no tilt.
    const response = await trace(
      oracle,
      settleThenDone(
        'orientation',
        "new Promise((resolve) => window.addEventListener('deviceorientation', (e) => { if (e.alpha !== null) resolve([Math.round(e.alpha), Math.round(e.beta), Math.round(e.gamma)]); }))",
      ),
      { sensors: { 'relative-orientation': { reading: { quaternion: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } } } } },
    );
    assert.equal(response.traces.chromium.emulation.applied, true);
    assert.deepEqual(recorded(response.traces.chromium).orientation, ['fulfilled', array(90, 0, 0)]);
  });

  test('Chromium: a PressureObserver records the emulated state', async () => {
    const response = await trace(
      oracle,
      settleThenDone(
        'pressure',
        "new Promise((resolve, reject) => { const o = new PressureObserver((records) => { o.disconnect(); resolve([records[0].source, records[0].state]); }); o.observe('cpu').catch(reject); })",
      ),
      { pressure: { cpu: { state: 'serious' } } },
    );
    assert.deepEqual(response.traces.chromium.emulation, { applied: true, features: { pressure: 'applied' } });
    assert.deepEqual(recorded(response.traces.chromium).pressure, ['fulfilled', array('cpu', 'serious')]);
  });

  test('Chromium and Firefox: a WebAuthn create() then get() round trip on the virtual authenticator', async () => {
    const response = await trace(oracle, settleThenDone('webauthn', WEBAUTHN_ROUND_TRIP), { authenticator: AUTHENTICATOR });
    for (const engine of ['chromium', 'firefox'] as const) {
      assert.deepEqual(response.traces[engine].emulation, { applied: true, features: { authenticator: 'applied' } }, engine);
      assert.deepEqual(recorded(response.traces[engine]).webauthn, ['fulfilled', array('public-key', true)], engine);
    }
  });

  test('Chromium: requestDevice() resolves to the emulated peripheral', async () => {
    const response = await trace(oracle, settleThenDone('device', REQUEST_DEVICE), {
      bluetooth: { state: 'powered-on', preconnectedPeripherals: [peripheral(1)] },
    });
    assert.deepEqual(response.traces.chromium.emulation, { applied: true, features: { bluetooth: 'applied' } });
    assert.deepEqual(recorded(response.traces.chromium).device, ['fulfilled', 'Peripheral 1']);
  });

  test('Firefox (and Chromium): geolocation, time zone, locale and orientation; WebKit: every feature unsupported', async () => {
    const response = await trace(
      oracle,
      "trace.value('language', navigator.language); trace.value('zone', Intl.DateTimeFormat().resolvedOptions().timeZone);" +
        " trace.value('orientation', screen.orientation.type);" +
        settleThenDone(
          'position',
          'new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition((p) => resolve([p.coords.latitude, p.coords.longitude]), (e) => reject(e.code)))',
        ),
      {
        geolocation: { latitude: 48.85, longitude: 2.35 },
        timezone: 'Asia/Tokyo',
        locale: 'fr-FR',
        screen_orientation: { natural: 'landscape', type: 'portrait-primary' },
      },
    );
    const features = { geolocation: 'applied', timezone: 'applied', locale: 'applied', screen_orientation: 'applied' };
    for (const engine of ['chromium', 'firefox'] as const) {
      assert.deepEqual(response.traces[engine].emulation, { applied: true, features }, engine);
      assert.deepEqual(
        recorded(response.traces[engine]),
        { language: 'fr-FR', zone: 'Asia/Tokyo', orientation: 'portrait-primary', position: ['fulfilled', array(48.85, 2.35)] },
        engine,
      );
    }
    const unsupported = Object.fromEntries(Object.keys(features).map((f) => [f, 'unsupported']));
    assert.deepEqual(response.traces.webkit.emulation, { applied: false, features: unsupported });

    // The vote: WebKit is shown but never compared, so the response is not a split but insufficient,
    // and the emulated pair is still compared record by record.
    const vote = voteTraces(response as TraceResponse);
    assert.equal(vote.verdict, 'insufficient');
    assert.deepEqual(vote.engines.webkit, { status: 'unemulated' });
    assert.deepEqual(Object.keys(vote.pairs), ['chromium~firefox']);
    assert.deepEqual(vote.pairs['chromium~firefox'], { verdict: 'pass', failures: [] });
    assert.equal(signatureOf(bucketOf({ op: 'trace', vote })!), 'trace insufficient | webkit unemulated');
  });

  test('WebKit: every feature of a full emulate is unsupported, and the record says not applied', async () => {
    const response = await trace(oracle, 'trace.done();', {
      sensors: { accelerometer: { reading: { xyz: { x: 0, y: 0, z: 0 } } } },
      pressure: { cpu: { state: 'nominal' } },
      geolocation: { latitude: 0, longitude: 0 },
      timezone: 'Asia/Tokyo',
      locale: 'fr-FR',
      screen_orientation: { natural: 'landscape', type: 'landscape-primary' },
      authenticator: AUTHENTICATOR,
      bluetooth: { state: 'powered-on' },
    });
    const webkit = response.traces.webkit.emulation;
    assert.equal(webkit.applied, false);
    assert.deepEqual(Object.keys(webkit.features), [
      'sensors',
      'pressure',
      'geolocation',
      'timezone',
      'locale',
      'screen_orientation',
      'authenticator',
      'bluetooth',
    ]);
    for (const outcome of Object.values(webkit.features)) assert.equal(outcome, 'unsupported');
  });

  test('after an emulated trace, the next plain trace on the worker sees no sensor, authenticator or peripheral', async () => {
    // What a case can see of each: a sensor's first reading, whether a user-verifying authenticator is there, the adapter.
    // The trace ends once all three have settled (each is recorded first), not after a fixed wait that a slow machine could outrun.
    const look =
      "const looks = [['sensor', () => new Promise((resolve) => { const s = new Accelerometer(); s.onreading = () => { resolve(s.x); s.stop(); }; s.onerror = (e) => resolve(e.error.name); s.start(); })]," +
      " ['authenticator', () => PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable()]," +
      " ['adapter', () => navigator.bluetooth.getAvailability()]].map(([label, look]) => { const p = look(); trace.settle(label, p); return p; });" +
      ' Promise.allSettled(looks).then(() => trace.done());';
    const emulated = await trace(oracle, look, {
      sensors: { accelerometer: { reading: { xyz: { x: 1, y: 2, z: 3 } } } },
      authenticator: AUTHENTICATOR,
      bluetooth: { state: 'powered-on', preconnectedPeripherals: [peripheral(2)] },
    });
    const plain = await trace(oracle, look);
    assert.deepEqual(recorded(emulated.traces.chromium), {
      sensor: ['fulfilled', 1],
      authenticator: ['fulfilled', true],
      adapter: ['fulfilled', true],
    });
    assert.deepEqual(recorded(plain.traces.chromium), {
      sensor: ['fulfilled', 'NotReadableError'],
      authenticator: ['fulfilled', false],
      adapter: ['fulfilled', false],
    });
    assert.deepEqual(recorded(emulated.traces.firefox).authenticator, ['fulfilled', true]);
    assert.deepEqual(recorded(plain.traces.firefox).authenticator, ['fulfilled', false]);
  });

  test('two Bluetooth cases in flight never see each other’s devices', async () => {
    // Each case's chooser offers what its adapter simulates; one adapter for both would offer one device to both, or both to each.
    const script = settleThenDone('device', REQUEST_DEVICE);
    const [three, four] = await Promise.all(
      [3, 4].map((n) => trace(oracle, script, { bluetooth: { state: 'powered-on', preconnectedPeripherals: [peripheral(n)] } })),
    );
    assert.deepEqual(recorded(three!.traces.chromium).device, ['fulfilled', 'Peripheral 3']);
    assert.deepEqual(recorded(four!.traces.chromium).device, ['fulfilled', 'Peripheral 4']);
  });

  test('a page can neither detect the emulation nor forge its record', async () => {
    // What a script could look for: an own global the driver left, or a record it can write.
    const probe =
      "trace.value('globals', Object.getOwnPropertyNames(window).filter((n) => /emulat|oracle|webauthn|cdp/i.test(n)));" +
      " trace.value('webdriver', navigator.webdriver); window.emulation = { applied: false }; trace.emulation = { applied: false };" +
      ' try { trace.value("emulation", { applied: false, features: {} }); } finally { trace.done(); }';
    const plain = await trace(oracle, probe);
    const emulated = await trace(oracle, probe, { timezone: 'Asia/Tokyo', geolocation: { latitude: 1, longitude: 2 } });
    for (const engine of ENGINE_NAMES) {
      assert.deepEqual(recorded(emulated.traces[engine]).globals, recorded(plain.traces[engine]).globals, engine);
      assert.deepEqual(recorded(emulated.traces[engine]).webdriver, recorded(plain.traces[engine]).webdriver, engine);
    }
    for (const engine of ['chromium', 'firefox'] as EngineName[])
      assert.deepEqual(
        emulated.traces[engine].emulation,
        { applied: true, features: { geolocation: 'applied', timezone: 'applied' } },
        engine,
      );
    assert.equal(emulated.traces.webkit.emulation.applied, false);
    assert.equal(plain.traces.chromium.emulation, undefined);
  });
});

describe('under the media profile, with --locale and --timezone', () => {
  let oracle: OracleProcess;
  let ping: Line;

  before(async () => {
    oracle = new OracleProcess([...ONE_PAGE, UNHURRIED, '--profile=media', '--locale=fr-FR', '--timezone=Asia/Tokyo']);
    ping = await oracle.ready();
  });
  after(async () => {
    await oracle.shutdown();
  });

  test('ping reports the locale and the time zone, and every engine follows them', async () => {
    assert.equal(ping.locale, 'fr-FR');
    assert.equal(ping.timezone, 'Asia/Tokyo');
    const response = await trace(oracle, LOCALE_AND_ZONE);
    for (const engine of ENGINE_NAMES)
      assert.deepEqual(recorded(response.traces[engine]), { language: 'fr-FR', intl: 'fr-FR', zone: 'Asia/Tokyo', offset: -540 }, engine);
  });

  test('bluetooth or authenticator without the devices profile is invalid_request naming the field', async () => {
    for (const field of ['bluetooth', 'authenticator'] as const) {
      const emulate = field === 'bluetooth' ? { bluetooth: { state: 'powered-on' } } : { authenticator: AUTHENTICATOR };
      const response = await oracle.request({ id: `refused-${field}`, op: 'trace', script: 'trace.done()', emulate });
      assert.match(response.error, new RegExp(`^invalid_request: field "emulate\\.${field}": needs the launch profile "devices"`));
      assert.equal(response.traces, undefined);
    }
  });

  test('an emulated geolocation keeps the profile’s camera', async () => {
    const response = await trace(
      oracle,
      'const position = new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition((p) => resolve(p.coords.latitude), (e) => reject(e.code)));' +
        ' const camera = navigator.mediaDevices.getUserMedia({ video: true }).then((s) => { for (const t of s.getTracks()) t.stop(); return s.getVideoTracks().length; });' +
        " trace.settle('position', position); trace.settle('camera', camera); Promise.allSettled([position, camera]).then(() => trace.done());",
      { geolocation: { latitude: 10, longitude: 20 } },
    );
    const chromium = recorded(response.traces.chromium);
    assert.deepEqual(chromium.position, ['fulfilled', 10]);
    assert.deepEqual(chromium.camera, ['fulfilled', 1]);
    assert.deepEqual(recorded(response.traces.firefox).position, ['fulfilled', 10]);
  });
});
