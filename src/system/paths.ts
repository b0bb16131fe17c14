import { fileURLToPath } from 'node:url';

/** The package root, from either src/ (tsc output lives in dist/src/). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Holds fonts.conf, which every engine is started with. */
export const CONFIG_DIR = `${PACKAGE_ROOT}config`;
export const CASE_WORKER = fileURLToPath(new URL('../workers/case-worker.js', import.meta.url));
