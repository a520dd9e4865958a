import type { TDbOrTx } from '@proxy/db';
import type { TRawClient } from './raw-rows.repository';
import { asIs, COPY_FIELDS, TOKEN_COPY_SELECT, type TIntern, type TShared, type TTokenRow } from './tokens.repository';

/**
 * The state cache's cold load: every token in pages by id, read as COPY's
 * text and decoded from its bytes as they arrive. Never on the hot path.
 */

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;
const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const unescapeCopy = (text: string) => text.replace(/\\(.)/gs, (_, c: string) => COPY_ESCAPES[c] ?? c);

/**
 * Decodes tokens from COPY's text format (one line per row, fields split by
 * tabs, `\N` for NULL, backslash escapes), straight from the bytes: numbers
 * are parsed from their digits, texts made once, and no value is made that
 * the entry does not keep. Lines may arrive split across chunks.
 */
export function createTokenLineDecoder(intern: TIntern, onRow: (row: TTokenRow) => void) {
  // The repeated texts as COPY wrote them (tabs between, escapes kept), split and shared once per combination.
  const shared = new Map<string, TShared>();
  const sharedOf = (raw: string): TShared => {
    let s = shared.get(raw);
    if (!s)
      shared.set(
        raw,
        (s = raw.split('\t').map((text) => intern(text.includes('\\') ? unescapeCopy(text) : text)) as TShared),
      );
    return s;
  };
  const cuts = new Int32Array(COPY_FIELDS + 1);
  let rest: Buffer | null = null;
  let count = 0;
  let lastId = 0;
  // The last id's text when it is past 15 digits (a Number may round it: the next page starts after the exact id).
  let lastIdText: string | null = null;

  const isNull = (b: Buffer, s: number, e: number) => e - s === 2 && b[s] === BACKSLASH && b[s + 1] === 78;
  // A number as Number() reads its text (also 'Infinity' or an exponent, through the text, as do ids past 15 digits).
  function numberAt(b: Buffer, s: number, e: number): number | null {
    if (isNull(b, s, e)) return null;
    let i = s;
    const isNegative = b[i] === 45;
    if (isNegative) i++;
    if (e - i > 15 || i === e) return Number(b.toString('latin1', s, e));
    let n = 0;
    for (; i < e; i++) {
      const d = b[i] - 48;
      if (d < 0 || d > 9) return Number(b.toString('latin1', s, e));
      n = n * 10 + d;
    }
    return isNegative ? -n : n;
  }
  const rawAt = (b: Buffer, s: number, e: number, isPlain: boolean) => b.toString(isPlain ? 'latin1' : 'utf8', s, e);
  const textAt = (b: Buffer, s: number, e: number, isPlain: boolean) => {
    if (isPlain) return b.toString('latin1', s, e);
    const text = b.toString('utf8', s, e);
    return text.includes('\\') ? unescapeCopy(text) : text;
  };

  // Decodes the whole lines of b[start, end); answers where an unfinished line begins (end when none).
  function lines(b: Buffer, start: number, end: number): number {
    let lineStart = start;
    while (lineStart < end) {
      let k = 0;
      let isPlain = true;
      cuts[0] = lineStart - 1;
      let i = lineStart;
      for (; i < end; i++) {
        const c = b[i];
        if (c === NEWLINE) break;
        if (c === TAB) cuts[++k] = i;
        else if (c >= 0x80 || c === BACKSLASH) isPlain = false;
      }
      if (i === end) return lineStart;
      cuts[++k] = i;
      if (k !== COPY_FIELDS) throw new Error(`a token line holds ${k} fields, not ${COPY_FIELDS}`);
      const id = numberAt(b, cuts[0] + 1, cuts[1]) as number;
      const sh = sharedOf(rawAt(b, cuts[2] + 1, cuts[11], isPlain));
      const deleted = numberAt(b, cuts[13] + 1, cuts[14]);
      onRow({
        id,
        ownerStatus: sh[0],
        userId: numberAt(b, cuts[1] + 1, cuts[2]) as number,
        product: sh[1],
        category: sh[2],
        billing: sh[3],
        network: sh[4],
        country: sh[5],
        state: sh[6],
        city: sh[7],
        username: textAt(b, cuts[11] + 1, cuts[12], isPlain),
        password: textAt(b, cuts[12] + 1, cuts[13], isPlain),
        status: sh[8],
        deletedAt: deleted === null ? null : new Date(deleted),
        expiresAt: new Date(numberAt(b, cuts[14] + 1, cuts[15]) as number),
        exitNodeId: numberAt(b, cuts[15] + 1, cuts[16]),
        trafficLimitBytes: numberAt(b, cuts[16] + 1, cuts[17]),
        trafficUsedBytes: numberAt(b, cuts[17] + 1, cuts[18]) as number,
        trafficLeasedBytes: numberAt(b, cuts[18] + 1, cuts[19]) as number,
        updatedAt: new Date(numberAt(b, cuts[19] + 1, cuts[20]) as number),
      });
      count++;
      lastId = id;
      lastIdText = cuts[1] - cuts[0] - 1 > 15 ? b.toString('latin1', cuts[0] + 1, cuts[1]) : null;
      lineStart = i + 1;
    }
    return lineStart;
  }

  return {
    /** Decodes a chunk of COPY's output (any split; bytes the chunk's owner may reuse afterwards). */
    push(chunk: Buffer): void {
      const b = rest ? Buffer.concat([rest, chunk]) : chunk;
      const stop = lines(b, 0, b.length);
      // An unfinished line is copied: a driver may reuse the chunk's memory.
      rest = stop < b.length ? Buffer.from(b.subarray(stop)) : null;
    },
    /** Rows decoded since the last end, and the exact id of the last one (as text: ids may pass 2^53). */
    end(): { count: number; lastId: string } {
      if (rest) throw new Error('COPY ended inside a line');
      const result = { count, lastId: lastIdText ?? String(lastId) };
      count = 0;
      return result;
    },
  };
}

export type TTokenLineDecoder = ReturnType<typeof createTokenLineDecoder>;

/**
 * node-postgres's query for COPY ... TO STDOUT: each CopyData message goes to
 * the decoder as it arrives (the rows of a page are never held as values, nor
 * its text as a whole).
 */
class CopyOut {
  /** Set by node-postgres when a pool runs the query (it releases its client in it). */
  callback?: (error: unknown, result?: unknown) => void;
  private error: unknown = null;
  private settled = false;
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (error: unknown) => void;
  constructor(
    private readonly text: string,
    private readonly onChunk: (chunk: Buffer) => void,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }
  handleCopyData(msg: { chunk: Buffer }): void {
    if (this.error) return;
    try {
      this.onChunk(msg.chunk);
    } catch (error) {
      this.error = error;
    }
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handleCopyInResponse(connection: { sendCopyFail(text: string): void }): void {
    connection.sendCopyFail('not a COPY FROM');
  }
  handleError(error: unknown): void {
    this.error ??= error;
    this.settle();
  }
  handleReadyForQuery(): void {
    this.settle();
  }
  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.callback?.(this.error ?? undefined, this.error ? undefined : { rows: [] });
    if (this.error) this.reject(this.error);
    else this.resolve();
  }
}

/**
 * Streams `SELECT ...`'s rows to the decoder as COPY's text: through a
 * CopyOut query on node-postgres, through /dev/blob on PGlite (in the
 * transaction when `db` is one). COPY takes no parameters: `select` holds
 * only numbers this module wrote.
 */
async function copyOut(db: TDbOrTx, select: string, decoder: TTokenLineDecoder): Promise<void> {
  const client = (db as unknown as { session: { client: TRawClient } }).session.client;
  if (typeof client.exec === 'function') {
    const result = (await client.query(`COPY (${select}) TO '/dev/blob'`)) as { blob?: Blob };
    if (result.blob) decoder.push(Buffer.from(await result.blob.arrayBuffer()));
    return;
  }
  const query = new CopyOut(`COPY (${select}) TO STDOUT`, (chunk) => decoder.push(chunk));
  // A pool answers a promise of its own, settled by the query's callback (rejected as the query fails, or when no
  // connection could be had, where `done` never settles); a transaction's client answers the query itself.
  await Promise.all([client.query(query), query.done]);
}

/**
 * A page of every token by id (the cold load reads the table in pages, never
 * all rows at once), as COPY's text decoded while it arrives: each row goes to
 * `decoder`'s onRow. Answers the rows read and the last id.
 */
export async function readTokensAfter(
  db: TDbOrTx,
  afterId: number | string,
  limit: number,
  decoder: TTokenLineDecoder,
): Promise<{ count: number; lastId: string }> {
  if (!/^-?\d{1,19}$/.test(String(afterId)) || !Number.isSafeInteger(limit))
    throw new Error('a page is read after a whole id, in whole rows');
  await copyOut(db, `${TOKEN_COPY_SELECT} WHERE t.id > ${afterId} ORDER BY t.id LIMIT ${limit}`, decoder);
  return decoder.end();
}

/** A page of every token by id, as rows. */
export async function loadTokensAfter(
  db: TDbOrTx,
  afterId: number | string,
  limit: number,
  intern: TIntern = asIs,
): Promise<TTokenRow[]> {
  const rows: TTokenRow[] = [];
  await readTokensAfter(
    db,
    afterId,
    limit,
    createTokenLineDecoder(intern, (row) => rows.push(row)),
  );
  return rows;
}
