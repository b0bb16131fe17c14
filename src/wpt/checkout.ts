// A web-platform-tests checkout on disk: its files by their path in the tree (`/`-separated,
// relative to its root), read only from inside it, a symbolic link that leads out included.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fsErrorText } from '../system/fs-errors.js';

/** The origin test URLs are resolved against; only their paths are ever used. */
const ORIGIN = 'http://web-platform.test';

/** File types a trace's `files` can carry (as text); any other file is binary. */
const TEXT_TYPES = new Set(['html', 'htm', 'xhtml', 'xht', 'xml', 'svg', 'js', 'mjs', 'css', 'json', 'txt']);

/** A checkout that cannot be used, or a path outside it: one line for the user. */
export class CheckoutError extends Error {
  override name = 'CheckoutError';
}

export class Checkout {
  private constructor(readonly root: string) {}

  /** The checkout at `dir`, which must hold WPT's resources/testharness.js. */
  static open(dir: string): Checkout {
    let root: string;
    try {
      root = realpathSync(dir);
    } catch (error) {
      throw new CheckoutError(`${dir}: ${fsErrorText(error)}`);
    }
    const checkout = new Checkout(root);
    if (checkout.read('resources/testharness.js') === undefined)
      throw new CheckoutError(`${dir}: not a web-platform-tests checkout (it has no resources/testharness.js)`);
    return checkout;
  }

  /** The path in the tree of `given` (a path on disk, relative to the working directory, or absolute). */
  pathOf(given: string): string {
    let real: string;
    try {
      real = realpathSync(given);
    } catch (error) {
      throw new CheckoutError(`${given}: ${fsErrorText(error)}`);
    }
    const inside = relative(this.root, real);
    if (inside.startsWith('..') || inside.startsWith(sep)) throw new CheckoutError(`${given}: not inside the checkout ${this.root}`);
    return inside.split(sep).join('/');
  }

  /** The text of the file at `path`, or undefined when there is no such file inside the checkout. */
  read(path: string): string | undefined {
    const file = this.fileOf(path);
    return file === undefined ? undefined : readFileSync(file, 'utf8');
  }

  exists(path: string): boolean {
    return this.fileOf(path) !== undefined;
  }

  /** Whether the file at `path` is a folder. */
  isFolder(path: string): boolean {
    const real = this.realOf(path);
    return real !== undefined && statSync(real).isDirectory();
  }

  /** Every file under the folder `path` ('' for the whole tree), in code-unit order of path; hidden names left out. */
  *files(path: string): Generator<string> {
    const real = this.realOf(path);
    if (real === undefined) return;
    const names = readdirSync(real, { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    for (const name of names) {
      const child = path ? `${path}/${name}` : name;
      if (this.isFolder(child)) yield* this.files(child);
      else if (this.exists(child)) yield child;
    }
  }

  /** The test URL of the file at `path`. */
  static urlOf(path: string): URL {
    return new URL(`/${path}`, ORIGIN);
  }

  /** The path in the tree a URL on the test's origin names, or null for another origin. */
  static pathOfUrl(url: URL): string | null {
    if (url.origin !== ORIGIN) return null;
    try {
      return decodeURIComponent(url.pathname).slice(1);
    } catch {
      return url.pathname.slice(1);
    }
  }

  static isText(path: string): boolean {
    return TEXT_TYPES.has(/\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '');
  }

  private realOf(path: string): string | undefined {
    try {
      const real = realpathSync(join(this.root, ...path.split('/')));
      const inside = relative(this.root, real);
      return inside.startsWith('..') || inside.startsWith(sep) ? undefined : real;
    } catch {
      return undefined;
    }
  }

  private fileOf(path: string): string | undefined {
    const real = this.realOf(path);
    return real !== undefined && statSync(real).isFile() ? real : undefined;
  }
}
