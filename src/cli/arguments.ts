// Parsers for option values: each returns the value or throws commander's InvalidArgumentError,
// which commander reports as a usage error naming the option.
import { InvalidArgumentError } from 'commander';
import { ENGINE_NAMES, type EngineName } from '../protocol/common.js';

/** A whole number ≥ 1; `name` is the flag, for the message. */
export const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
  return n;
};

/** A comma-separated list of engine names, without repeats. */
export const engineList = (value: string): EngineName[] => {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ENGINE_NAMES as readonly string[]).includes(n));
  if (unknown.length || !names.length) {
    throw new InvalidArgumentError(`expected a comma-separated list of ${ENGINE_NAMES.join(', ')}; got "${value}"`);
  }
  return [...new Set(names)] as EngineName[];
};
