import { getSystemErrorMap } from 'node:util';

/** Why a file operation failed, as the system puts it ("no such file or directory"), without the syscall and path. */
export function fsErrorText(error: unknown): string {
  const { errno } = error as NodeJS.ErrnoException;
  return (errno !== undefined && getSystemErrorMap().get(errno)?.[1]) || (error as Error).message;
}
