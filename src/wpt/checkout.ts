// A web-platform-tests checkout on disk: its files by their path in the tree (`/`-separated,
// relative to its root), read only from inside it, a symbolic link that leads out included. A
// checkout is someone else's tree: a file is read only up to MAX_FILE_BYTES, a folder is walked
// once however many links lead to it (a link back into a folder it is in is a loop, not a way
// down), the walk's cost grows with the number of entries, not with their depth, and what it
// cannot take — a name that is not UTF-8, a link out of the checkout or to nothing, something that
// is not a file — is said, not skipped in silence.
import { closeSync, constants, type Dirent, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { formatSize } from '../protocol/sizes.js';
import { fileKind, fsErrorText } from '../system/fs-errors.js';
import { fileNameText } from '../system/visible-text.js';
import { Refusal } from './refusal.js';
import { supportFolder, testLikeName } from './test-kind.js';

/** The origin test URLs are resolved against; only their paths are ever used. */
const ORIGIN = 'http://web-platform.test';

/** File types a trace's `files` can carry (as text); any other file is binary. */
const TEXT_TYPES = new Set(['html', 'htm', 'xhtml', 'xht', 'xml', 'svg', 'js', 'mjs', 'css', 'json', 'txt']);

/**
 * The largest file the importer reads: the largest text files of a WPT checkout are a few MB, and
 * a request must fit the oracle's line (64 MiB by default) with its files, escaped as JSON.
 */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A checkout that cannot be used, or a path outside it: one line for the user. */
export class CheckoutError extends Error {
  override name = 'CheckoutError';
}

/** What a walk found: the files under the folder (paths in the tree, in code-unit order), and the entries it could not take. */
export interface Walk {
  files: string[];
  /** Entries refused, each with its reason (a name, a link out, not a file…), in code-unit order of path. */
  refused: { path: string; refusal: Refusal }[];
  /** Links to a folder the walk takes under another path (or that holds the link: a loop), each with why it was not followed. */
  skipped: { path: string; why: string }[];
}

const byPath =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

export class Checkout {
  /** Real paths of files and folders the last walk found, by path in the tree: what read() would otherwise resolve again. */
  private readonly known = new Map<string, string>();

  private constructor(
    readonly root: string,
    private readonly maxFileBytes: number,
  ) {}

  /** The checkout at `dir`, which must hold WPT's resources/testharness.js; files over `maxFileBytes` are refused, never read. */
  static open(dir: string, { maxFileBytes = MAX_FILE_BYTES } = {}): Checkout {
    let root: string;
    try {
      root = realpathSync(dir);
    } catch (error) {
      throw new CheckoutError(`${dir}: ${fsErrorText(error)}`);
    }
    const checkout = new Checkout(root, maxFileBytes);
    let harness: string | undefined;
    try {
      harness = checkout.read('resources/testharness.js');
    } catch (error) {
      if (error instanceof Refusal) throw new CheckoutError(`${dir}: ${error.detail}`);
      throw error;
    }
    if (harness === undefined) throw new CheckoutError(`${dir}: not a web-platform-tests checkout (it has no resources/testharness.js)`);
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

  /**
   * The text of the file at `path`, or undefined when there is no such file inside the checkout.
   * A file over the size limit, or one that cannot be read, is a Refusal (too_large, unreadable).
   */
  read(path: string): string | undefined {
    return this.bytes(path)?.toString('utf8');
  }

  /** The bytes of the file at `path`, as `read` reads them (a binary file: a font, an image). */
  bytes(path: string): Buffer | undefined {
    const file = this.realOf(path);
    if (file === undefined) return undefined;
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO in a file's place answers at once instead of waiting for a writer.
      fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      throw new Refusal('unreadable', `${path} cannot be read (${fsErrorText(error)})`);
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) return undefined;
      if (!stats.isFile()) throw new Refusal('unreadable', `${path} is not a regular file (${fileKind(stats)})`);
      if (stats.size > this.maxFileBytes) throw this.tooLarge(path, stats.size);
      // One byte more than the limit at most, however the file grows meanwhile.
      const buffer = Buffer.allocUnsafe(Math.min(stats.size, this.maxFileBytes) + 1);
      let length = 0;
      for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
      if (length > this.maxFileBytes) throw this.tooLarge(path, length);
      return buffer.subarray(0, length);
    } catch (error) {
      if (error instanceof Refusal) throw error;
      throw new Refusal('unreadable', `${path} cannot be read (${fsErrorText(error)})`);
    } finally {
      closeSync(fd);
    }
  }

  exists(path: string): boolean {
    const real = this.realOf(path);
    return real !== undefined && statOf(real)?.isFile() === true;
  }

  /** Whether the file at `path` is a folder. */
  isFolder(path: string): boolean {
    const real = this.realOf(path);
    return real !== undefined && statOf(real)?.isDirectory() === true;
  }

  /**
   * Every file under the folder `path` ('' for the whole tree); hidden names left out. The real
   * folders are walked first, each once; then the links, in order of path: a link to a file is
   * taken under its own path unless its file was taken, a link to a folder walked under its own
   * path unless the folder was walked already (or holds the link), a link out of the checkout or
   * to nothing refused. Each step reads one folder or resolves one link, so a tree 1000 folders
   * deep costs what 1000 folders side by side do.
   */
  walk(path: string): Walk {
    const walk: Walk = { files: [], refused: [], skipped: [] };
    const start = this.realOf(path);
    if (start === undefined) return walk;
    /** Real paths of the folders walked, and of the files taken, with the path they were found under. */
    const walked = new Map<string, string>();
    const taken = new Map<string, string>();
    const links: { path: string; at: string }[] = [];
    const folders = [{ path, real: start }];
    const descend = () => {
      for (let folder = folders.pop(); folder; folder = folders.pop()) {
        if (walked.has(folder.real)) continue;
        walked.set(folder.real, folder.path);
        this.known.set(folder.path, folder.real);
        let entries: Dirent<Buffer>[];
        try {
          entries = readdirSync(folder.real, { withFileTypes: true, encoding: 'buffer' });
        } catch (error) {
          this.refuse(
            walk,
            folder.path,
            true,
            new Refusal('unreadable', `the folder ${folder.path} cannot be listed (${fsErrorText(error)})`),
          );
          continue;
        }
        for (const entry of entries) {
          if (entry.name[0] === 0x2e) continue; // hidden: `.git` and the like
          const name = fileNameText(entry.name);
          const child = folder.path ? `${folder.path}/${name.text}` : name.text;
          const real = `${folder.real}/${entry.name.toString()}`;
          if (!name.utf8) {
            const detail = `the name is not UTF-8 (shown with \\xHH for each byte past ASCII): a test's id and URL are text; rename it`;
            this.refuse(walk, child, entry.isDirectory(), new Refusal('bad_name', detail));
          } else if (entry.isDirectory()) folders.push({ path: child, real });
          else if (entry.isSymbolicLink()) links.push({ path: child, at: real });
          else if (entry.isFile()) this.take(walk, taken, child, real);
          else this.refuse(walk, child, false, new Refusal('unreadable', `${child} is not a regular file (${fileKind(entry)})`));
        }
      }
    };
    descend();
    // Links last, so that a folder is found under its own path first; a folder a link leads to may hold more links.
    links.sort(byPath((l) => l.path));
    for (let i = 0; i < links.length; i++) {
      const link = links[i]!;
      let target: string;
      try {
        target = realpathSync(link.at);
      } catch (error) {
        this.refuse(walk, link.path, true, new Refusal('unreadable', `${link.path} is a link to nothing (${fsErrorText(error)})`));
        continue;
      }
      if (!this.inside(target)) {
        this.refuse(walk, link.path, true, new Refusal('outside_checkout', `${link.path} is a link that leads out of the checkout`));
        continue;
      }
      const stats = statOf(target);
      if (stats?.isDirectory()) {
        const first = walked.get(target);
        if (first !== undefined) {
          // A folder the walk went through to reach the link: following it would go round for ever.
          const loop = first === '' || link.path.startsWith(`${first}/`);
          walk.skipped.push({
            path: link.path,
            why: `a link to ${first || 'the top of the walk'}, ${loop ? 'a folder it is in (a loop)' : 'which is walked under its own path'}`,
          });
        } else {
          folders.push({ path: link.path, real: target });
          const before = links.length;
          descend();
          // The links found below it join the queue in order.
          if (links.length > before) links.push(...links.splice(i + 1).sort(byPath((l) => l.path)));
        }
      } else if (stats?.isFile()) this.take(walk, taken, link.path, target);
      else this.refuse(walk, link.path, false, new Refusal('unreadable', `${link.path} is a link to what is not a regular file`));
    }
    walk.files.sort(byPath((f) => f));
    walk.refused.sort(byPath((r) => r.path));
    return walk;
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

  /** A file found by the walk: taken under `path`, unless the same file was taken under another (through a link). */
  private take(walk: Walk, taken: Map<string, string>, path: string, real: string): void {
    const first = taken.get(real);
    if (first !== undefined) {
      walk.skipped.push({ path, why: `a link to ${first}, which is taken under its own path` });
      return;
    }
    taken.set(real, path);
    this.known.set(path, real);
    walk.files.push(path);
  }

  /** An entry the walk cannot take: refused when it could hold or be a test (a folder, a name like a test's) outside the support folders. */
  private refuse(walk: Walk, path: string, folderLike: boolean, refusal: Refusal): void {
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    if (supportFolder(path.slice(0, Math.max(0, slash))) || (!folderLike && !testLikeName(name))) return;
    walk.refused.push({ path, refusal });
  }

  private tooLarge(path: string, size: number): Refusal {
    return new Refusal('too_large', `${path} has ${formatSize(size)}; the importer reads no file over ${formatSize(this.maxFileBytes)}`);
  }

  private inside(real: string): boolean {
    const inside = relative(this.root, real);
    return !inside.startsWith('..') && !inside.startsWith(sep);
  }

  /** The real path of `path`, when it is inside the checkout: as the walk found it, or resolved once. */
  private realOf(path: string): string | undefined {
    const known = this.known.get(path);
    if (known !== undefined) return known;
    try {
      const real = realpathSync.native(join(this.root, ...path.split('/')));
      return this.inside(real) ? real : undefined;
    } catch {
      return undefined;
    }
  }
}

function statOf(real: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(real);
  } catch {
    return undefined;
  }
}
