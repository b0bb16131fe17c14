import { fileURLToPath } from 'node:url';

export const CASE_WORKER = fileURLToPath(new URL('../workers/case-worker.js', import.meta.url));

/** The package's root folder (package.json, config/, schema/), from dist/src/system. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
