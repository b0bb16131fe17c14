// Whether the oracle runs in a network namespace of its own (bin/browser-oracle puts it in one
// when the system allows): then loopback is its only interface, and nothing a case sends can
// leave the machine or reach the host's loopback services, whatever the browsers do.
import { networkInterfaces } from 'node:os';

export type NetworkIsolation = 'namespace' | 'proxy';

export function networkIsolation(): NetworkIsolation {
  const names = Object.keys(networkInterfaces());
  return names.length > 0 && names.every((name) => name === 'lo') ? 'namespace' : 'proxy';
}
