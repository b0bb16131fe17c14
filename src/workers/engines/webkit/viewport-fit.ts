// Sizing MiniBrowser's window so its viewport is VIEWPORT. Its toolbar takes part of the window,
// and a resize reaches the web process a while after the driver answers it (under load, long
// enough for a read at once to show the size before: seen in CI as 800×562 and 800×638). So the
// window is asked for the size that fitted last, and the page waits for the viewport to fit; one
// that does not fit within SETTLE_MS is taken as it is and corrected by the difference.
import { VIEWPORT } from '../../../protocol/common.js';

/** The part of a WebDriver client fitting needs. */
export interface SizableWindow {
  setWindowSize(width: number, height: number): Promise<unknown>;
  executeAsyncScript(script: string, args: unknown[]): Promise<unknown>;
}

export interface WindowSize {
  width: number;
  height: number;
}

/** MiniBrowser 2.50's toolbar, measured: a window of 800×600 has a viewport of 800×562. */
export const FIRST_GUESS: WindowSize = { width: VIEWPORT.width, height: VIEWPORT.height + 38 };

const ATTEMPTS = 8;
/** Longer than any resize has taken to reach a page; only a window that does not fit waits it out. */
const SETTLE_MS = 2_000;

// Answers [innerWidth, innerHeight] once they are the ones wanted, or as they are after `ms`.
// Run on the blank page, which runs no page script.
const AWAIT_VIEWPORT = `const [width, height, ms] = arguments[0];
const done = arguments[arguments.length - 1];
let answered = false;
const finish = () => {
  if (answered) return;
  answered = true;
  clearInterval(poll);
  removeEventListener('resize', check);
  done([innerWidth, innerHeight]);
};
const check = () => { if (innerWidth === width && innerHeight === height) finish(); };
const poll = setInterval(check, 10);
addEventListener('resize', check);
setTimeout(finish, ms);
check();`;

/** Sizes the current window from `guess` (the size that fitted last) and returns the window size that fits; `settleMs` is for tests. */
export async function fitViewport(window: SizableWindow, guess: WindowSize, settleMs = SETTLE_MS): Promise<WindowSize> {
  let size = guess;
  let seen: WindowSize | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await window.setWindowSize(size.width, size.height);
    const [width, height] = (await window.executeAsyncScript(AWAIT_VIEWPORT, [[VIEWPORT.width, VIEWPORT.height, settleMs]])) as [
      number,
      number,
    ];
    seen = { width, height };
    if (width === VIEWPORT.width && height === VIEWPORT.height) return size;
    size = { width: size.width + VIEWPORT.width - width, height: size.height + VIEWPORT.height - height };
  }
  throw new Error(
    `webkit: the window's viewport is ${seen?.width}×${seen?.height}, not ${VIEWPORT.width}×${VIEWPORT.height}, after ${ATTEMPTS} resizes`,
  );
}
