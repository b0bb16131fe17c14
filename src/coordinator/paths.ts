import { fileURLToPath } from 'node:url';

/** The package root, from either src/ (tsc output lives in dist/src/). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FONTCONFIG_FILE = `${PACKAGE_ROOT}config/fonts.conf`;
export const CASE_WORKER = fileURLToPath(new URL('../workers/case-worker.js', import.meta.url));
