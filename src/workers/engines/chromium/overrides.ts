// A trace's `emulate` over CDP, feature by feature, on one page before its document loads (measured
// on Chromium 156): virtual sensors (whose readings also drive deviceorientation and devicemotion),
// the Compute Pressure source, geolocation, time zone, locale, screen orientation and a virtual
// authenticator are the page's own and end with its target; the simulated Bluetooth adapter is
// the whole browser's (BluetoothEmulation answers only on the browser's session) and is undone
// when the case ends.
import type { Emulate } from '../../../protocol/emulation-schema.js';
import { orientationAngle, type FeatureWork } from '../emulate.js';
import { deviceMetrics } from './emulation.js';

type Send = (method: string, params?: object) => Promise<Record<string, unknown>>;

/** What the overrides are sent through, and what they keep of the page. */
export interface OverrideTarget {
  /** A command on the page's session. */
  page: Send;
  /** A command on the browser's session. */
  browser: Send;
  browserContextId: string;
  /** What the launch profile grants every context: Browser.grantPermissions denies whatever a call leaves out. */
  profilePermissions: readonly string[];
  /** The browser's own user agent, kept as it is when the accepted language changes. */
  userAgent: string;
  /** Answers each device chooser the page opens (DeviceAccess.deviceRequestPrompted) from now on. */
  onDevicePrompt(answer: (prompt: { id: string; devices: { id: string }[] }) => void): void;
}

/** The permission each feature needs granted, as CDP names it. */
const PERMISSIONS = { sensors: 'sensors', geolocation: 'geolocation' } as const;

/** The work of each feature Chromium applies, and the undoing of the browser-wide ones. */
export function chromiumOverrides(emulate: Emulate, t: OverrideTarget): { work: FeatureWork; undo: () => Promise<void> } {
  const needed = (Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]).filter((f) => emulate[f] !== undefined);
  // One call with the profile's permissions too, or the profile's camera would be denied.
  const granted = needed.length
    ? t.browser('Browser.grantPermissions', {
        browserContextId: t.browserContextId,
        permissions: [...t.profilePermissions, ...needed.map((f) => PERMISSIONS[f])],
      })
    : Promise.resolve({});
  // Each feature that needs the grant fails with it; one rejection is enough to report.
  granted.catch(() => {});
  const { sensors, pressure, geolocation, timezone, locale, screen_orientation, authenticator, bluetooth } = emulate;
  const work: FeatureWork = {};
  if (sensors)
    work.sensors = async () => {
      await granted;
      await Promise.all(
        Object.entries(sensors).map(async ([type, { reading, metadata }]) => {
          await t.page('Emulation.setSensorOverrideEnabled', { enabled: true, type, ...(metadata ? { metadata } : {}) });
          if (reading) await t.page('Emulation.setSensorOverrideReadings', { type, reading });
          // Only an overridden sensor answers this (otherwise: "not being overridden").
          const info = await t.page('Emulation.getOverriddenSensorInformation', { type });
          if (typeof info.requestedSamplingFrequency !== 'number') throw new Error(`${type}: no sampling frequency in the answer`);
        }),
      );
    };
  if (pressure)
    work.pressure = async () => {
      const { state, metadata } = pressure.cpu;
      await t.page('Emulation.setPressureSourceOverrideEnabled', { enabled: true, source: 'cpu', ...(metadata ? { metadata } : {}) });
      await t.page('Emulation.setPressureStateOverride', { source: 'cpu', state });
    };
  if (geolocation)
    work.geolocation = async () => {
      await granted;
      // WebDriver BiDi's default accuracy, so both engines that apply it report the same.
      await t.page('Emulation.setGeolocationOverride', { ...geolocation, accuracy: geolocation.accuracy ?? 1 });
    };
  if (timezone) work.timezone = async () => void (await t.page('Emulation.setTimezoneOverride', { timezoneId: timezone }));
  if (locale)
    work.locale = async () => {
      // Intl's default locale, then navigator.language (no other command sets it; it also empties
      // navigator.userAgentData, which only Chromium has).
      await t.page('Emulation.setLocaleOverride', { locale });
      await t.page('Emulation.setUserAgentOverride', { userAgent: t.userAgent, acceptLanguage: locale });
    };
  if (screen_orientation)
    work.screen_orientation = async () => {
      const { method, params } = deviceMetrics({
        angle: orientationAngle(screen_orientation.natural, screen_orientation.type),
        type: screen_orientation.type.replace(/-(.)/, (_, c: string) => c.toUpperCase()),
      });
      await t.page(method, params);
    };
  if (authenticator)
    work.authenticator = async () => {
      await t.page('WebAuthn.enable', { enableUI: false });
      const { protocol, transport, hasResidentKey, hasUserVerification, isUserConsenting, isUserVerified } = authenticator;
      const { authenticatorId } = await t.page('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: protocol === 'ctap1/u2f' ? 'u2f' : 'ctap2',
          ...(protocol === 'ctap2_1' ? { ctap2Version: 'ctap2_1' } : {}),
          transport,
          hasResidentKey: hasResidentKey ?? false,
          hasUserVerification: hasUserVerification ?? false,
          isUserVerified: isUserVerified ?? false,
          automaticPresenceSimulation: isUserConsenting ?? true,
        },
      });
      if (typeof authenticatorId !== 'string' || !authenticatorId) throw new Error('WebAuthn.addVirtualAuthenticator: no authenticator id');
    };
  let simulated = false;
  if (bluetooth)
    work.bluetooth = async () => {
      const { state, leSupported = true, preconnectedPeripherals = [] } = bluetooth;
      // An adapter an earlier case left (it cannot have: undo ran) would refuse a second enable.
      await t.browser('BluetoothEmulation.disable');
      simulated = true;
      await t.browser('BluetoothEmulation.enable', { state, leSupported });
      // The fake adapter answers this itself: the emulation is in place, not only asked for.
      if (leSupported) await t.browser('BluetoothEmulation.setSimulatedCentralState', { state });
      for (const peripheral of preconnectedPeripherals) await t.browser('BluetoothEmulation.simulatePreconnectedPeripheral', peripheral);
      const answered = new Set<string>();
      t.onDevicePrompt(({ id, devices }) => {
        // Chromium reports one chooser more than once; the first device it offers is the one chosen.
        if (answered.has(id)) return;
        answered.add(id);
        const [first] = devices;
        void (first ? t.page('DeviceAccess.selectPrompt', { id, deviceId: first.id }) : t.page('DeviceAccess.cancelPrompt', { id })).catch(
          () => {},
        );
      });
      await t.page('DeviceAccess.enable');
    };
  return {
    work,
    undo: async () => {
      if (simulated) await t.browser('BluetoothEmulation.disable');
    },
  };
}
