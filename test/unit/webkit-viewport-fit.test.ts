// Fitting MiniBrowser's window to an 800×600 viewport, on a stand-in window whose page sees each
// resize some milliseconds after the driver answered it, as WebKitGTK's does under load; the
// in-page wait runs as it is, in a context of its own. Seen in CI: a window that fitted, sized
// from 800×600 again, read its old 800×600 at once and was left at 800×562.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { VIEWPORT } from '../../src/protocol/common.js';
import { FIRST_GUESS, fitViewport, type SizableWindow, type WindowSize } from '../../src/workers/engines/webkit/viewport-fit.js';

/** A window with a toolbar of `toolbar` px whose page gets each resize `lagMs` after it was asked. */
class LaggingWindow implements SizableWindow {
  private inner: WindowSize;
  private readonly listeners = new Set<() => void>();

  constructor(
    outer: WindowSize,
    private readonly toolbar: number,
    private readonly lagMs: number,
  ) {
    this.inner = this.viewportOf(outer);
  }

  async setWindowSize(width: number, height: number): Promise<void> {
    const inner = this.viewportOf({ width, height });
    const arrive = () => {
      this.inner = inner;
      for (const listener of this.listeners) listener();
    };
    if (this.lagMs) setTimeout(arrive, this.lagMs);
    else arrive();
  }

  executeAsyncScript(script: string, args: unknown[]): Promise<unknown> {
    const window = this;
    return new Promise((resolve) => {
      const page = {
        get innerWidth() {
          return window.inner.width;
        },
        get innerHeight() {
          return window.inner.height;
        },
        addEventListener: (_: string, listener: () => void) => this.listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => this.listeners.delete(listener),
        setTimeout,
        setInterval,
        clearInterval,
        args: [...args, resolve],
      };
      runInNewContext(`(function () { ${script} }).apply(null, args)`, page);
    });
  }

  /** The viewport once every resize asked has arrived. */
  settled(): Promise<WindowSize> {
    return new Promise((resolve) => setTimeout(() => resolve(this.inner), this.lagMs + 20));
  }

  private viewportOf(outer: WindowSize): WindowSize {
    return { width: outer.width, height: outer.height - this.toolbar };
  }
}

/** Longer than the longest lag here; the oracle's own is longer than any lag seen. */
const SETTLE_MS = 500;
const viewport = { width: VIEWPORT.width, height: VIEWPORT.height };

test('a window that fits, sized again from the size that fitted, still fits whatever the lag', async () => {
  for (const lag of [0, 50, 300]) {
    const window = new LaggingWindow(FIRST_GUESS, 38, lag);
    assert.deepEqual(await fitViewport(window, FIRST_GUESS, SETTLE_MS), FIRST_GUESS);
    assert.deepEqual(await window.settled(), viewport, `lag ${lag}`);
  }
});

test('a new window of another size or toolbar is fitted from the size its page settles at, not a read the resize has not reached', async () => {
  for (const lag of [0, 50, 300]) {
    for (const toolbar of [38, 0, 51]) {
      const window = new LaggingWindow({ width: 1024, height: 768 }, toolbar, lag);
      const fitted = await fitViewport(window, FIRST_GUESS, SETTLE_MS);
      assert.deepEqual(await window.settled(), viewport, `lag ${lag}, toolbar ${toolbar}`);
      assert.deepEqual(fitted, { width: VIEWPORT.width, height: VIEWPORT.height + toolbar });
    }
  }
});

test('a window that does not take the size is an error, not a page of another size', async () => {
  const stuck: SizableWindow = { setWindowSize: async () => undefined, executeAsyncScript: async () => [800, 562] };
  await assert.rejects(fitViewport(stuck, FIRST_GUESS, SETTLE_MS), /viewport is 800×562, not 800×600, after 8 resizes/);
});
