// Parsers for option values: each returns the value or throws commander's InvalidArgumentError,
// which commander reports as a usage error naming the option.
import { InvalidArgumentError } from 'commander';
import { ENGINE_NAMES, type EngineName } from '../protocol/common.js';
import { ConfigError } from '../protocol/errors.js';
import { engineMemoryBytes } from '../protocol/launch-options.js';

/** A whole number ≥ `min`; `name` is the flag, for the message. */
export const wholeNumber =
  (name: string, min = 1) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}`);
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be at most ${Number.MAX_SAFE_INTEGER}`);
    return n;
  };

/** A memory budget: a size (2GiB, 1536MiB, 3GB) or a number of bytes, at least the least budget; `name` is the flag. */
export const memorySize =
  (name: string) =>
  (value: string): number => {
    try {
      return engineMemoryBytes(value, name);
    } catch (error) {
      if (error instanceof ConfigError) throw new InvalidArgumentError(error.message);
      throw error;
    }
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

/** A language tag of the form language-REGION (en-US, fr-FR), the form the C library's locales are named by. */
export const languageRegion = (value: string): string => {
  if (!/^[a-z]{2,3}-[A-Z]{2}$/.test(value))
    throw new InvalidArgumentError(`expected language-REGION, such as en-US or fr-FR; got "${value}"`);
  return value;
};
