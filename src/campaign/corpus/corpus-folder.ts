// A folder corpus on disk: which of its entries are cases, and reading one when its turn comes.
// Names are taken as the bytes the file system holds (a name that is not UTF-8 still names its
// file). A link is followed when it resolves inside the corpus folder, to a file or a folder
// (never into a folder it is already in); a link that leaves the folder or leads nowhere, and
// anything that is neither a folder nor a regular file (a FIFO, a socket, a device), is skipped
// and reported, never opened. A regular file counts when its name ends in `.html`.
import { constants, type Dirent, type Stats } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { fileKind, fsErrorText } from '../../system/fs-errors.js';
import { fileNameText } from '../../system/visible-text.js';

/** A case file of the folder. */
export interface FolderFile {
  /** Its path relative to the folder, `/`-separated: its id. */
  id: string;
  /** Every name on the path is UTF-8, so the id is the path itself (else each byte past ASCII shows as \xHH). */
  utf8: boolean;
  /** The path as bytes. */
  path: Buffer;
}

/** An entry that is not a case although it might have held or been one, and why. */
export interface SkippedEntry {
  id: string;
  why: string;
}

interface FolderListing {
  /** The folder's own real path: what every followed link must stay inside. */
  root: Buffer;
  files: FolderFile[];
  skipped: SkippedEntry[];
}

const SLASH = Buffer.from('/');
const HTML = Buffer.from('.html');
const inside = (root: Buffer, target: Buffer) =>
  target.equals(root) || (target.subarray(0, root.length).equals(root) && (root.at(-1) === 0x2f || target[root.length] === 0x2f));

/** Where a link leads, when that is inside `root`, and what is there; else why it is not followed. */
async function followed(link: Buffer, root: Buffer): Promise<{ target: Buffer; stats: Stats } | { why: string }> {
  let target: Buffer;
  try {
    target = await realpath(link, { encoding: 'buffer' });
  } catch (error) {
    return { why: `a link to nothing (${fsErrorText(error)})` };
  }
  if (!inside(root, target)) return { why: `a link that leaves the corpus folder (to ${target.toString()})` };
  try {
    return { target, stats: await stat(target) };
  } catch (error) {
    return { why: `a link to nothing (${fsErrorText(error)})` };
  }
}

/** Every case file of the folder `dir` at any depth, and what was skipped. */
export async function listFolder(dir: string): Promise<FolderListing> {
  const top = Buffer.from(dir);
  const root = await realpath(top, { encoding: 'buffer' });
  const files: FolderFile[] = [];
  const skipped: SkippedEntry[] = [];
  // `ancestors`: the real paths of the folders being walked, so a link back into one is a cycle.
  const walk = async (path: Buffer, id: string, allUtf8: boolean, real: Buffer, ancestors: ReadonlySet<string>): Promise<void> => {
    let entries: Dirent<Buffer>[];
    try {
      entries = await readdir(path, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      skipped.push({ id: id || '.', why: `a folder that cannot be listed (${fsErrorText(error)})` });
      return;
    }
    for (const entry of entries) {
      const name = fileNameText(entry.name);
      const child: FolderFile = {
        id: id ? `${id}/${name.text}` : name.text,
        utf8: allUtf8 && name.utf8,
        path: Buffer.concat([path, SLASH, entry.name]),
      };
      let kind: Dirent<Buffer> | Stats = entry;
      let target: Buffer = Buffer.concat([real, SLASH, entry.name]);
      if (entry.isSymbolicLink()) {
        const link = await followed(child.path, root);
        if ('why' in link) {
          skipped.push({ id: child.id, why: link.why });
          continue;
        }
        ({ target, stats: kind } = link);
      }
      if (kind.isDirectory()) {
        const key = target.toString('latin1');
        if (ancestors.has(key)) skipped.push({ id: child.id, why: 'a link to a folder it is in (a cycle)' });
        else await walk(child.path, child.id, child.utf8, target, new Set([...ancestors, key]));
      } else if (kind.isFile()) {
        if (entry.name.subarray(-HTML.length).equals(HTML)) files.push(child);
      } else skipped.push({ id: child.id, why: `not a regular file (${fileKind(kind)})` });
    }
  };
  await walk(top, '', true, root, new Set([root.toString('latin1')]));
  return { root, files, skipped };
}

/**
 * A case file's bytes, or why they cannot be read. It is looked at again first: a link that now
 * leads out of the folder is refused, and anything that is no longer a regular file (a FIFO
 * would block the read for ever) is never read.
 */
export async function readFolderFile(root: Buffer, file: FolderFile): Promise<{ bytes: Buffer } | { error: string }> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const target = await realpath(file.path, { encoding: 'buffer' });
    if (!inside(root, target)) return { error: `it now leads out of the corpus folder (to ${target.toString()})` };
    // O_NONBLOCK: opening a FIFO that took the file's place returns at once instead of waiting for a writer.
    handle = await open(target, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile()) return { error: `it is no longer a regular file (${fileKind(stats)})` };
    return { bytes: await handle.readFile() };
  } catch (error) {
    return { error: fsErrorText(error) };
  } finally {
    await handle?.close();
  }
}
