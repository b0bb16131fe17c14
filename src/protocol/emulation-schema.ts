// A trace's device emulation: what a request may ask (`emulate`), and the record each engine's
// trace carries of what its driver applied (`emulation`). Each feature keeps the field names of the
// specification or DevTools domain it comes from (docs/protocol.md, "Device emulation").
import { Type, type Static } from '@sinclair/typebox';
import { literalUnion, strict, type ProfileName } from './common.js';

/** Every feature an `emulate` field may ask for, in the order a record lists them. */
const EMULATION_FEATURES = [
  'sensors',
  'pressure',
  'geolocation',
  'timezone',
  'locale',
  'screen_orientation',
  'authenticator',
  'bluetooth',
] as const;
export type EmulationFeature = (typeof EMULATION_FEATURES)[number];

/** The features that need settings made when the browsers start: the launch profile `devices`. */
const DEVICES_FEATURES: readonly EmulationFeature[] = ['authenticator', 'bluetooth'];

// The Generic Sensor readings as CDP's Emulation domain names them (SensorReadingXYZ, …Quaternion, …Single).
const Xyz = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() }, strict);
const Quaternion = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number(), w: Type.Number() }, strict);
const Single = Type.Object({ value: Type.Number() }, strict);

const SensorMetadata = Type.Object(
  {
    available: Type.Optional(Type.Boolean({ description: 'False: the sensor exists but cannot be started (its start fails).' })),
    minimumFrequency: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    maximumFrequency: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  { ...strict, description: "CDP's SensorMetadata." },
);

/** One virtual sensor: its reading under CDP's key for its kind (`xyz`, `quaternion`, `single`), and its metadata. */
const sensor = (key: 'xyz' | 'quaternion' | 'single', reading: typeof Xyz | typeof Quaternion | typeof Single, description: string) =>
  Type.Optional(
    Type.Object(
      { reading: Type.Optional(Type.Object({ [key]: reading }, strict)), metadata: Type.Optional(SensorMetadata) },
      { ...strict, description },
    ),
  );

const xyz = (what: string) => sensor('xyz', Xyz, `${what}: {"reading": {"xyz": {"x", "y", "z"}}}`);
const orientation = (what: string) => sensor('quaternion', Quaternion, `${what}: {"reading": {"quaternion": {"x", "y", "z", "w"}}}`);

/** One entry per virtual sensor, keyed by CDP's SensorType. */
const SensorsSchema = Type.Object(
  {
    'absolute-orientation': orientation('AbsoluteOrientationSensor, deviceorientationabsolute'),
    accelerometer: xyz('Accelerometer, devicemotion'),
    'ambient-light': sensor('single', Single, 'AmbientLightSensor: {"reading": {"single": {"value"}}}'),
    gravity: xyz('GravitySensor'),
    gyroscope: xyz('Gyroscope, devicemotion'),
    'linear-acceleration': xyz('LinearAccelerationSensor, devicemotion'),
    magnetometer: xyz('Magnetometer'),
    'relative-orientation': orientation('RelativeOrientationSensor, deviceorientation'),
  },
  {
    ...strict,
    minProperties: 1,
    description:
      "Virtual sensors (CDP Emulation.setSensorOverrideEnabled / setSensorOverrideReadings), keyed by CDP's SensorType. A reading left out: the sensor starts and reports nothing.",
  },
);

const PressureSchema = Type.Object(
  {
    cpu: Type.Object(
      {
        state: literalUnion(['nominal', 'fair', 'serious', 'critical'] as const, "CDP's PressureState: what every PressureRecord reports."),
        metadata: Type.Optional(Type.Object({ available: Type.Optional(Type.Boolean()) }, strict)),
      },
      strict,
    ),
  },
  {
    ...strict,
    description:
      'A virtual Compute Pressure source (CDP Emulation.setPressureSourceOverrideEnabled / setPressureStateOverride), keyed by source.',
  },
);

const GeolocationSchema = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
    accuracy: Type.Optional(Type.Number({ minimum: 0, description: 'Metres; 1 when left out, in every engine.' })),
    altitude: Type.Optional(Type.Number()),
    altitudeAccuracy: Type.Optional(Type.Number({ minimum: 0 })),
    heading: Type.Optional(Type.Number({ minimum: 0, maximum: 360 })),
    speed: Type.Optional(Type.Number({ minimum: 0 })),
  },
  {
    ...strict,
    description:
      'The position getCurrentPosition and watchPosition report, as GeolocationCoordinates names its fields; the permission is granted.',
  },
);

const ScreenOrientationSchema = Type.Object(
  {
    natural: literalUnion(['portrait', 'landscape'] as const),
    type: literalUnion(['portrait-primary', 'portrait-secondary', 'landscape-primary', 'landscape-secondary'] as const),
  },
  {
    ...strict,
    description: 'screen.orientation, as WebDriver BiDi emulation.setScreenOrientationOverride names it; the viewport stays 800×600.',
  },
);

const AuthenticatorSchema = Type.Object(
  {
    protocol: literalUnion(['ctap1/u2f', 'ctap2', 'ctap2_1'] as const),
    transport: literalUnion(['usb', 'nfc', 'ble', 'smart-card', 'hybrid', 'internal'] as const),
    hasResidentKey: Type.Optional(Type.Boolean({ description: 'Default false.' })),
    hasUserVerification: Type.Optional(Type.Boolean({ description: 'Default false.' })),
    isUserConsenting: Type.Optional(Type.Boolean({ description: 'Default true: every test of user presence succeeds.' })),
    isUserVerified: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  },
  {
    ...strict,
    description:
      'A virtual authenticator, with the parameters of WebAuthn\'s "Add Virtual Authenticator" command. Needs the launch profile "devices".',
  },
);

const Uuid = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'A 128-bit UUID, lower case (Chromium drops its emulation on anything else, and then never answers).',
});

const PeripheralSchema = Type.Object(
  {
    address: Type.String({ pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$' }),
    name: Type.String({ maxLength: 248 }),
    manufacturerData: Type.Array(
      Type.Object(
        {
          key: Type.Integer({ minimum: 0, maximum: 0xffff, description: 'A Bluetooth SIG company identifier.' }),
          data: Type.String({
            pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
            maxLength: 1024,
            description: 'Base64.',
          }),
        },
        strict,
      ),
      { maxItems: 16 },
    ),
    knownServiceUuids: Type.Array(Uuid, { maxItems: 16 }),
  },
  { ...strict, description: 'As WebDriver BiDi bluetooth.simulatePreconnectedPeripheral (and CDP) name its parameters.' },
);

const BluetoothSchema = Type.Object(
  {
    state: literalUnion(['absent', 'powered-off', 'powered-on'] as const, 'The simulated adapter (bluetooth.simulateAdapter).'),
    leSupported: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    preconnectedPeripherals: Type.Optional(Type.Array(PeripheralSchema, { maxItems: 16 })),
  },
  {
    ...strict,
    description:
      'A simulated Bluetooth adapter and its preconnected peripherals; requestDevice() is answered with the first device its chooser offers. Needs the launch profile "devices".',
  },
);

export const EmulateSchema = Type.Object(
  {
    sensors: Type.Optional(SensorsSchema),
    pressure: Type.Optional(PressureSchema),
    geolocation: Type.Optional(GeolocationSchema),
    timezone: Type.Optional(Type.String({ minLength: 1, description: 'An IANA time zone (Asia/Tokyo), for Date and Intl.' })),
    locale: Type.Optional(Type.String({ minLength: 1, description: 'A BCP 47 language tag (fr-FR), for navigator.language and Intl.' })),
    screen_orientation: Type.Optional(ScreenOrientationSchema),
    authenticator: Type.Optional(AuthenticatorSchema),
    bluetooth: Type.Optional(BluetoothSchema),
  },
  {
    ...strict,
    minProperties: 1,
    description:
      "Device emulation, applied before the trace page loads, so the recorder and the script see it from their first line. Each engine's trace says what its driver applied (`emulation`).",
  },
);
export type Emulate = Static<typeof EmulateSchema>;

/** What became of one feature on one engine. */
const OutcomeSchema = Type.Union(
  [
    Type.Literal('applied', { description: 'The driver confirmed it.' }),
    Type.Literal('unsupported', { description: "The engine's driver has no way to apply it." }),
    Type.String({ pattern: '^failed: ', description: 'The driver refused it: "failed: " and the first line of its error.' }),
  ],
  { description: '"applied", "unsupported" or "failed: <first line of the error>".' },
);
export type FeatureOutcome = 'applied' | 'unsupported' | `failed: ${string}`;

export const EmulationSchema = Type.Object(
  {
    applied: Type.Boolean({ description: 'Every feature the request asked for was applied. False: the vote never compares this trace.' }),
    features: Type.Object(Object.fromEntries(EMULATION_FEATURES.map((f) => [f, Type.Optional(OutcomeSchema)])), {
      ...strict,
      description: 'One entry per feature the request asked for.',
    }),
  },
  {
    ...strict,
    description: "What this engine's driver applied of the request's `emulate`, made by the oracle (never read from the page).",
  },
);
export type Emulation = {
  applied: boolean;
  features: Partial<Record<EmulationFeature, FeatureOutcome>>;
};

/** The record of one engine's outcomes, features in EMULATION_FEATURES order. */
export function emulationRecord(outcomes: Partial<Record<EmulationFeature, FeatureOutcome>>): Emulation {
  const features: Emulation['features'] = {};
  for (const f of EMULATION_FEATURES) if (outcomes[f] !== undefined) features[f] = outcomes[f];
  return { applied: Object.values(features).every((o) => o === 'applied'), features };
}

/** The features `emulate` asks for, in EMULATION_FEATURES order. */
export const requestedFeatures = (emulate: Emulate): EmulationFeature[] => EMULATION_FEATURES.filter((f) => emulate[f] !== undefined);

/**
 * What the schema cannot say about a valid `emulate`: a time zone or locale no engine knows, and a
 * feature that needs the launch profile `devices` under another. The message names the field, as a
 * schema error's does; null when there is nothing to refuse.
 */
export function emulateProblem(emulate: Emulate, profile: ProfileName): string | null {
  if (emulate.timezone !== undefined && !isTimeZone(emulate.timezone))
    return `field "emulate.timezone": ${JSON.stringify(emulate.timezone)} is not an IANA time zone name as ICU spells it (Asia/Tokyo, UTC)`;
  if (emulate.locale !== undefined && !isLanguageTag(emulate.locale))
    return `field "emulate.locale": ${JSON.stringify(emulate.locale)} is not a canonical BCP 47 language tag (fr-FR)`;
  if (profile !== 'devices') {
    const needs = DEVICES_FEATURES.find((f) => emulate[f] !== undefined);
    if (needs)
      return `field "emulate.${needs}": needs the launch profile "devices" (--profile=devices), which sets it up as the browsers start; this oracle runs "${profile}"`;
  }
  return null;
}

/**
 * A time zone ICU knows, spelt with its capitals (Asia/Tokyo, not asia/tokyo). A link stays as
 * given: ICU resolves some canonical names to older ones (Asia/Kolkata to Asia/Calcutta).
 */
export function isTimeZone(name: string): boolean {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

/** A well-formed BCP 47 language tag in its canonical form (fr-FR, not fr_fr). */
function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag)[0] === tag;
  } catch {
    return false;
  }
}
