import { fileURLToPath } from 'node:url';

export const CASE_WORKER = fileURLToPath(new URL('../workers/case-worker.js', import.meta.url));
