// WebKit: WebKitGTK through its own W3C WebDriver server (Playwright cannot drive stock WebKit),
// under an X display (MiniBrowser has no headless mode): a private Xvfb unless one is given. The
// browser starts with one session, which its first page takes (browser.ts).
import { existsSync } from 'node:fs';
import { startXvfb } from '../../../system/xvfb.js';
import type { LaunchEngine } from '../../engine.js';
import { WebKitBrowser } from './browser.js';
import { WebKitSession } from './session.js';

export const launchWebKit: LaunchEngine = async (options) => {
  if (options.display) checkDisplay(options.display);
  const display = options.display ? undefined : await startXvfb();
  try {
    const withDisplay = { ...options, display: options.display ?? display!.name };
    return new WebKitBrowser(withDisplay, await WebKitSession.start(withDisplay), display);
  } catch (error) {
    await display?.stop();
    throw error;
  }
};

/** A display given by name must have an X server listening, or MiniBrowser would only time out. */
function checkDisplay(name: string): void {
  const number = /^[^:]*:(\d+)(?:\.\d+)?$/.exec(name)?.[1];
  const socket = `/tmp/.X11-unix/X${number}`;
  if (number === undefined || !existsSync(socket)) throw new Error(`no X server at display ${name} (no ${socket})`);
}
