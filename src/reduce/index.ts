// The reducer's public surface: hierarchical delta debugging of a request's html and script.
export { reduce, NotReproducibleError } from './reduce.js';
export { elementRemovals } from './element-removals.js';
export type { ReductionStatus } from './types.js';
