// Where a campaign's cases come from: an NDJSON file of requests (as on stdio), a folder of
// .html files (one geometry case each), or NDJSON on stdin (`-`). Items come one at a time, in
// a stable order, and only the current one is held in memory.
//
// Every item has an id, its key in the journal:
//   - a request's own `id`;
//   - `line:<n>` (n counts every line from 1, blank ones included) for an NDJSON line without
//     an `id`, which is then the id the request is run under. Such a key moves when lines are
//     inserted above it: give ids to a corpus that will be edited;
//   - for a folder, the file's path relative to the folder (`/`-separated); corpus-folder.ts says
//     which entries are cases, and what is skipped (reported on stderr, and in `skipped`).
// A line the oracle would reject becomes an invalid item carrying the oracle's own error text
// (src/protocol/validate.ts), keyed by its id when one can be read, else `line:<n>`. So is a
// line of an op a corpus may not hold (src/protocol/ops.ts): a control op, or one no vote judges.
// So is a folder's file that cannot be read, or whose name is not UTF-8 (an id is text).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { OracleError } from '../../protocol/errors.js';
import { CORPUS_OPS, listOps, UNNAMED_OP, type CorpusOp, type RequestOf } from '../../protocol/ops.js';
import { isCorpusRequest, parseRequestLine, type Parsed } from '../../protocol/validate.js';
import { log } from '../../system/log.js';
import { CampaignError } from '../campaign-error.js';
import { contentHash } from './case-hash.js';
import { type FolderFile, listFolder, readFolderFile, type SkippedEntry } from './corpus-folder.js';

/** A request a campaign runs and votes. */
export type CaseRequest = RequestOf<CorpusOp>;

/** The op of a case request: the one it names, or the op of requests that name none. */
export const opOf = (request: CaseRequest): CorpusOp => ('op' in request ? request.op : UNNAMED_OP);

/** One case of a corpus: `given` is its text as the corpus holds it (the line, or the folder case as a request). */
export type CorpusItem =
  | { ok: true; id: string; hash: string; given: string; request: CaseRequest }
  | { ok: false; id: string; hash: string; given: string; error: string };

export interface Corpus {
  /** How many items a full pass yields (reading the source once), or null when it cannot be known ahead (stdin). */
  count(): Promise<number | null>;
  /** Every item, in the corpus's order. */
  items(): AsyncGenerator<CorpusItem>;
  /** A folder's entries that are not cases although they might have been (links that leave it, FIFOs …). */
  skipped?: readonly SkippedEntry[];
}

/** The corpus at `path`: a folder, an NDJSON file, or `-` for `stdin`. */
export async function openCorpus(path: string, stdin: Readable = process.stdin): Promise<Corpus> {
  if (path === '-') return { count: async () => null, items: () => ndjsonItems(stdin) };
  const kind = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new CampaignError(`--corpus ${path}: ${e.code === 'ENOENT' ? 'no such file or folder' : e.message}`);
  });
  if (kind.isDirectory()) return folderCorpus(path);
  return {
    count: async () => {
      let n = 0;
      for await (const _ of lines(createReadStream(path))) n++;
      return n;
    },
    items: () => ndjsonItems(createReadStream(path)),
  };
}

async function* ndjsonItems(input: Readable): AsyncGenerator<CorpusItem> {
  for await (const { n, bytes } of lines(input)) yield lineItem(n, bytes);
}

/** The non-blank lines of `input` as raw bytes (so invalid UTF-8 reaches the validator), numbered from 1. */
async function* lines(input: Readable): AsyncGenerator<{ n: number; bytes: Buffer }> {
  // latin1 maps every byte to one character and back, so readline splits lines without decoding them.
  input.setEncoding('latin1');
  let n = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    if (!/^[ \t]*$/.test(line)) yield { n, bytes: Buffer.from(line, 'latin1') };
  }
}

/** What a corpus may hold, as a refusal says it. */
const corpusHolds = `a corpus holds ${listOps(CORPUS_OPS, 'and')} requests`;

function lineItem(n: number, bytes: Buffer): CorpusItem {
  const given = bytes.toString('utf8');
  const parsed = withLineId(parseRequestLine(bytes), given, n);
  if (!parsed.ok) return { ok: false, id: parsed.id ?? `line:${n}`, hash: contentHash(given), given, error: parsed.error.wireText };
  if (!isCorpusRequest(parsed)) {
    const error = new OracleError('invalid_request', `field "op": ${JSON.stringify(parsed.op)} is not a case (${corpusHolds})`);
    return { ok: false, id: parsed.request.id, hash: contentHash(given), given, error: error.wireText };
  }
  return { ok: true, id: parsed.request.id, hash: contentHash(parsed.request), given, request: parsed.request };
}

/** A line that failed only for want of an id is validated again under `line:<n>`. */
function withLineId(parsed: Parsed, text: string, n: number): Parsed {
  if (parsed.ok || parsed.id !== null) return parsed;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parsed;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.hasOwn(value, 'id')) return parsed;
  return parseRequestLine(JSON.stringify({ id: `line:${n}`, ...value }));
}

/** How many skipped entries the warning names; the rest are counted. */
const NAMED_SKIPS = 5;

async function folderCorpus(dir: string): Promise<Corpus> {
  const { root, files, skipped } = await listFolder(dir);
  if (skipped.length) {
    const named = skipped.slice(0, NAMED_SKIPS).map((s) => `${JSON.stringify(s.id)}: ${s.why}`);
    if (skipped.length > NAMED_SKIPS) named.push(`${skipped.length - NAMED_SKIPS} more`);
    log.warn(
      `--corpus ${dir}: skipped ${skipped.length} entr${skipped.length === 1 ? 'y' : 'ies'} that are not cases: ${named.join('; ')}`,
    );
  }
  // Default sort: by UTF-16 code units, the same on every machine and locale.
  files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    count: async () => files.length,
    items: async function* () {
      for (const file of files) yield await fileItem(root, file);
    },
    skipped,
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An invalid folder item: its given text names it alone, so its hash stays put while the reason does. */
function invalidFile(id: string, message: string): CorpusItem {
  const given = JSON.stringify({ id });
  return { ok: false, id, hash: contentHash(given), given, error: new OracleError('invalid_request', message).wireText };
}

async function fileItem(root: Buffer, file: FolderFile): Promise<CorpusItem> {
  const { id } = file;
  if (!file.utf8)
    return invalidFile(
      id,
      'the file name is not valid UTF-8 (its id shows each byte of it past ASCII, and each backslash, as \\xHH); rename it',
    );
  const read = await readFolderFile(root, file);
  if ('error' in read) return invalidFile(id, `the file cannot be read: ${read.error}`);
  let html: string;
  try {
    html = utf8.decode(read.bytes);
  } catch {
    const given = JSON.stringify({ id, html: read.bytes.toString('utf8') });
    return {
      ok: false,
      id,
      hash: contentHash(given),
      given,
      error: new OracleError('invalid_request', 'the file is not valid UTF-8').wireText,
    };
  }
  const request = { id, html };
  return { ok: true, id, hash: contentHash(request), given: JSON.stringify(request), request };
}
