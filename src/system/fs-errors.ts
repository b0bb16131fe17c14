import type { Dirent, Stats } from 'node:fs';
import { getSystemErrorMap } from 'node:util';

/** Why a file operation failed, as the system puts it ("no such file or directory"), without the syscall and path. */
export function fsErrorText(error: unknown): string {
  const { errno } = error as NodeJS.ErrnoException;
  return (errno !== undefined && getSystemErrorMap().get(errno)?.[1]) || (error as Error).message;
}

/** What an entry that is not a regular file is, in a message: `a folder`, `a FIFO`, … */
export function fileKind(entry: Dirent<Buffer> | Stats): string {
  if (entry.isDirectory()) return 'a folder';
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  return 'not a file';
}
