// What every `browser-oracle` program starts from: its name, and Commander's own messages (an
// unknown option, a bad value) in the oracle's stderr form, set first so every command inherits it.
import { Command } from 'commander';
import { log } from '../system/log.js';

export const baseProgram = (): Command =>
  new Command().name('browser-oracle').configureOutput({ outputError: (message) => log.error(message.replace(/^error: /, '')) });
