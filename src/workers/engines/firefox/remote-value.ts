// Values across BiDi: JSON-like arguments into its LocalValue form, and results out of its
// RemoteValue form. Only what JSON can say (plus undefined and the non-finite numbers) crosses.

export interface RemoteValue {
  type: string;
  value?: unknown;
}

const SPECIAL_NUMBERS = new Map([
  ['NaN', Number.NaN],
  ['-0', -0],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]);

/** `value` as a BiDi LocalValue; throws on what JSON cannot hold (functions, symbols, bigints). */
export function toLocalValue(value: unknown): object {
  if (value === null) return { type: 'null' };
  switch (typeof value) {
    case 'undefined':
      return { type: 'undefined' };
    case 'string':
      return { type: 'string', value };
    case 'boolean':
      return { type: 'boolean', value };
    case 'number':
      return { type: 'number', value: Number.isFinite(value) && !Object.is(value, -0) ? value : String(value) };
    case 'object':
      if (Array.isArray(value)) return { type: 'array', value: value.map(toLocalValue) };
      return { type: 'object', value: Object.entries(value).map(([key, item]) => [key, toLocalValue(item)]) };
    default:
      throw new TypeError(`a ${typeof value} cannot be passed to a page`);
  }
}

/** A RemoteValue as a plain value; throws on anything JSON cannot hold (nodes, functions, maps, a cut-off object). */
export function fromRemoteValue(remote: RemoteValue): unknown {
  switch (remote.type) {
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'string':
    case 'boolean':
      return remote.value;
    case 'number':
      return typeof remote.value === 'string' ? SPECIAL_NUMBERS.get(remote.value) : remote.value;
    case 'array':
      if (Array.isArray(remote.value)) return remote.value.map((item) => fromRemoteValue(item as RemoteValue));
      break;
    case 'object':
      if (Array.isArray(remote.value)) {
        const object: Record<string, unknown> = {};
        for (const [key, item] of remote.value as [unknown, RemoteValue][]) {
          if (typeof key !== 'string') throw new TypeError('the page answered an object with a key that is not a string');
          // A key like __proto__ is data here, never a prototype.
          Object.defineProperty(object, key, { value: fromRemoteValue(item), enumerable: true, writable: true, configurable: true });
        }
        return object;
      }
      break;
  }
  throw new TypeError(`the page answered a value JSON cannot hold (${remote.type})`);
}
