// A trace's `emulate` and `emulation`: what the schema takes and refuses, what it cannot say
// (time zones, locales, the `devices` profile), how a record is made, and how the vote and a
// campaign's bucket treat an engine that did not apply the emulation. No browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRequest } from '../../src/protocol/validate.js';
import { emulateProblem, emulationRecord, requestedFeatures, type Emulate } from '../../src/protocol/emulation-schema.js';
import type { Trace, TraceResponse } from '../../src/protocol/trace-schema.js';
import type { EngineName } from '../../src/protocol/common.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import { bucketOf, signatureOf } from '../../src/comparator/signature.js';
import { traceFixture } from '../support/trace-fixture.js';

const trace = (emulate: unknown) => checkRequest({ id: 't', op: 'trace', script: 'trace.done()', emulate });
const refusal = (emulate: unknown) => {
  const parsed = trace(emulate);
  assert.equal(parsed.ok, false, `accepted ${JSON.stringify(emulate)}`);
  return parsed.ok ? '' : parsed.error.message;
};

test('every feature in its own field names is a valid emulate', () => {
  const emulate: Emulate = {
    sensors: {
      accelerometer: { reading: { xyz: { x: 1, y: 2, z: 3 } } },
      'relative-orientation': {
        reading: { quaternion: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } },
        metadata: { maximumFrequency: 60 },
      },
      'ambient-light': { reading: { single: { value: 42 } } },
      gyroscope: { metadata: { available: false } },
    },
    pressure: { cpu: { state: 'serious' } },
    geolocation: { latitude: 48.85, longitude: 2.35, accuracy: 10 },
    timezone: 'Asia/Tokyo',
    locale: 'fr-FR',
    screen_orientation: { natural: 'landscape', type: 'portrait-primary' },
    authenticator: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, isUserVerified: true },
    bluetooth: {
      state: 'powered-on',
      preconnectedPeripherals: [
        {
          address: '09:09:09:09:09:09',
          name: 'Heart Rate',
          manufacturerData: [{ key: 17, data: 'AQID' }],
          knownServiceUuids: ['0000180d-0000-1000-8000-00805f9b34fb'],
        },
      ],
    },
  };
  assert.equal(trace(emulate).ok, true);
  assert.deepEqual(requestedFeatures(emulate), [
    'sensors',
    'pressure',
    'geolocation',
    'timezone',
    'locale',
    'screen_orientation',
    'authenticator',
    'bluetooth',
  ]);
});

test('a malformed emulate is refused, naming the field', () => {
  assert.match(refusal({}), /field "emulate"/);
  assert.match(refusal({ vibration: true }), /field "emulate.vibration": unknown field/);
  assert.match(
    refusal({ sensors: { accelerometer: { reading: { quaternion: { x: 0, y: 0, z: 0, w: 1 } } } } }),
    /emulate\.sensors\.accelerometer\.reading/,
  );
  assert.match(refusal({ sensors: { thermometer: {} } }), /field "emulate.sensors.thermometer": unknown field/);
  assert.match(refusal({ geolocation: { latitude: 91, longitude: 0 } }), /field "emulate.geolocation.latitude"/);
  assert.match(refusal({ pressure: { cpu: { state: 'hot' } } }), /field "emulate.pressure.cpu.state"/);
  assert.match(refusal({ authenticator: { protocol: 'ctap3', transport: 'usb' } }), /field "emulate.authenticator.protocol"/);
  assert.match(refusal({ screen_orientation: { natural: 'landscape' } }), /field "emulate.screen_orientation.type": is required/);
});

test('a service UUID Chromium would choke on is refused before any engine sees it', () => {
  // Measured: one short name ("heart_rate") and Chromium drops the whole simulated adapter, then never answers.
  const peripheral = (uuid: string) => ({
    bluetooth: {
      state: 'powered-on',
      preconnectedPeripherals: [{ address: '09:09:09:09:09:09', name: 'x', manufacturerData: [], knownServiceUuids: [uuid] }],
    },
  });
  assert.match(refusal(peripheral('heart_rate')), /knownServiceUuids\[0\]/);
  assert.match(refusal(peripheral('0000180D-0000-1000-8000-00805F9B34FB')), /knownServiceUuids\[0\]/);
  assert.equal(trace(peripheral('0000180d-0000-1000-8000-00805f9b34fb')).ok, true);
});

test('time zones and locales are checked by name, and device features need the devices profile', () => {
  assert.equal(emulateProblem({ timezone: 'Asia/Tokyo', locale: 'de-DE' }, 'default'), null);
  assert.equal(emulateProblem({ timezone: 'Asia/Kolkata' }, 'default'), null);
  assert.match(emulateProblem({ timezone: 'Mars/Olympus' }, 'default')!, /^field "emulate.timezone": "Mars\/Olympus"/);
  assert.match(emulateProblem({ timezone: 'asia/tokyo' }, 'default')!, /^field "emulate.timezone"/);
  assert.match(emulateProblem({ locale: 'fr_FR' }, 'default')!, /^field "emulate.locale"/);
  assert.match(emulateProblem({ locale: 'EN-us' }, 'default')!, /^field "emulate.locale"/);
  const authenticator: Emulate = { authenticator: { protocol: 'ctap2', transport: 'usb' } };
  assert.match(
    emulateProblem(authenticator, 'media')!,
    /^field "emulate.authenticator": needs the launch profile "devices".*runs "media"$/,
  );
  assert.match(
    emulateProblem({ bluetooth: { state: 'powered-on' } }, 'default')!,
    /^field "emulate.bluetooth": needs the launch profile "devices"/,
  );
  assert.equal(emulateProblem(authenticator, 'devices'), null);
});

test('a record is applied only when every feature asked for was', () => {
  assert.deepEqual(emulationRecord({ timezone: 'applied', geolocation: 'applied' }), {
    applied: true,
    features: { geolocation: 'applied', timezone: 'applied' },
  });
  assert.deepEqual(emulationRecord({ sensors: 'unsupported', geolocation: 'applied' }), {
    applied: false,
    features: { sensors: 'unsupported', geolocation: 'applied' },
  });
  assert.equal(emulationRecord({ locale: 'failed: Emulation.setLocaleOverride: Invalid locale' }).applied, false);
});

/** A trace of `values`, one value record each, with the emulation record `applied` (none when undefined). */
function traceOf(engine: EngineName, values: unknown[], applied?: boolean): Trace {
  const records = values.map((value, seq) => ({ seq, kind: 'value' as const, label: `v${seq}`, value }));
  if (applied === undefined) return traceFixture(engine, records);
  const emulation = applied
    ? emulationRecord({ geolocation: 'applied', timezone: 'applied' })
    : emulationRecord({ geolocation: 'unsupported', timezone: 'unsupported' });
  return traceFixture(engine, records, { emulation });
}

test('the prototype: geolocation and a time zone emulated in two engines are not a split', () => {
  // What the engines recorded for a script reading the position and the zone: WebKit could apply neither.
  const response: Pick<TraceResponse, 'traces'> = {
    traces: {
      chromium: traceOf('chromium', [48.85, 'Asia/Tokyo'], true),
      firefox: traceOf('firefox', [48.85, 'Asia/Tokyo'], true),
      webkit: traceOf('webkit', [{ $error: true, name: 'GeolocationPositionError' }, 'UTC'], false),
    },
  };
  const vote = voteTraces(response);
  assert.notEqual(vote.verdict, 'split');
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.engines, { chromium: { status: 'usable' }, firefox: { status: 'usable' }, webkit: { status: 'unemulated' } });
  assert.deepEqual(Object.keys(vote.pairs), ['chromium~firefox']);
  assert.equal(vote.pairs['chromium~firefox']!.verdict, 'pass');
  const bucket = bucketOf({ op: 'trace', vote })!;
  assert.equal(signatureOf(bucket), 'trace insufficient | webkit unemulated');
});

test('the emulated pair is still compared record by record', () => {
  const vote = voteTraces({
    traces: {
      chromium: traceOf('chromium', [1, 'a', true], true),
      firefox: traceOf('firefox', [1, 'b', true], true),
      webkit: traceOf('webkit', [1, 'a', true], false),
    },
  });
  assert.equal(vote.verdict, 'insufficient');
  assert.equal(vote.pairs['chromium~firefox']!.verdict, 'fail');
  assert.deepEqual(vote.records, [{ seq: 1, labels: ['v1'], outlier: null, kinds: ['value'] }]);
  assert.equal(vote.pairs['chromium~webkit'], undefined);
});

test('three emulated engines vote as ever; traces without emulation are usable', () => {
  const agreeing = (applied?: boolean) =>
    voteTraces({
      traces: {
        chromium: traceOf('chromium', [1], applied),
        firefox: traceOf('firefox', [1], applied),
        webkit: traceOf('webkit', [1], applied),
      },
    });
  assert.equal(agreeing(true).verdict, 'unanimous');
  assert.equal(agreeing(undefined).verdict, 'unanimous');
  assert.equal(agreeing(false).verdict, 'insufficient');
  assert.equal(
    signatureOf(bucketOf({ op: 'trace', vote: agreeing(false) })!),
    'trace insufficient | chromium unemulated, firefox unemulated, webkit unemulated',
  );
});

test('by label, an unemulated engine shapes no row of the emulated pairs', () => {
  const labelled = (engine: EngineName, labels: string[], applied: boolean, last = 1): Trace => ({
    ...traceOf(engine, [], applied),
    records: labels.map((label, seq) => ({ seq, kind: 'value', label, value: seq === labels.length - 1 ? last : 1 })),
  });
  const vote = voteTraces(
    {
      traces: {
        chromium: labelled('chromium', ['a', 'b'], true),
        firefox: labelled('firefox', ['a', 'b'], true),
        webkit: labelled('webkit', ['denied', 'a', 'b'], false),
      },
    },
    'label',
  );
  assert.equal(vote.verdict, 'insufficient');
  assert.deepEqual(vote.pairs['chromium~firefox'], { verdict: 'pass', failures: [] });
  assert.deepEqual(vote.records, []);
  // Where the pair parts, the row is the pair's own: "b" is its second label, whatever WebKit recorded first.
  const parted = voteTraces(
    {
      traces: {
        chromium: labelled('chromium', ['a', 'b'], true, 2),
        firefox: labelled('firefox', ['a', 'b'], true, 3),
        webkit: labelled('webkit', ['denied', 'a', 'b'], false),
      },
    },
    'label',
  );
  assert.deepEqual(parted.records, [{ seq: 1, labels: ['b'], outlier: null, kinds: ['value'] }]);
});
