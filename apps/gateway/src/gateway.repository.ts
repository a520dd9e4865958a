import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { usageLogEntries } from '@proxy/db';
import {
  exitNodes,
  gatewayInstances,
  gatewayLeases,
  gatewayState,
  gatewayUsageBatches,
  ipListEntries,
  proxyTokens,
  targetRuleLists,
  tokenUsage,
  usageLogSettings,
  type TDb,
  type TDbOrTx,
} from '@proxy/db';

/**
 * The gateway's only database access: loading its in-memory copy, writing
 * usage in batches and leasing traffic allowance. Never on the hot path.
 */

/** A token as the gateway keeps it. */
export type TTokenRow = {
  id: number;
  /** The owner's account: a disabled account's proxies carry nothing. */
  ownerStatus: 'active' | 'disabled';
  userId: number;
  product: 'static' | 'dynamic';
  category: 'isp' | 'idc';
  billing: 'traffic' | 'ip';
  network: 'HTTP' | 'SOCKS5';
  country: string;
  state: string;
  city: string;
  username: string;
  password: string;
  status: 'enabled' | 'disabled' | 'expired' | 'invalid';
  deletedAt: Date | null;
  expiresAt: Date;
  exitNodeId: number | null;
  trafficLimitBytes: number | null;
  trafficUsedBytes: number;
  trafficLeasedBytes: number;
  updatedAt: Date;
};

/** An exit node as the gateway keeps it. */
export type TExitNodeRow = typeof exitNodes.$inferSelect;

/** An IP list entry as the gateway keeps it. */
export type TIpEntryRow = { userId: number; list: 'whitelist' | 'blacklist'; family: number; startHex: string; endHex: string };

/**
 * A time as whole milliseconds since the epoch. From 1900 to 2100 in float
 * arithmetic, exact there (the seconds' float rounds back to the exact
 * microsecond, and the division by 1000 to the exact millisecond), at a third
 * of the database's time of the numeric arithmetic used outside that range.
 */
function epochMs(column: string): string {
  return `CASE WHEN ${column} > '1900-01-01Z' AND ${column} < '2100-01-01Z' THEN floor(round(date_part('epoch', ${column}) * 1000000) / 1000)
    ELSE floor(extract(epoch FROM ${column}) * 1000)::float8 END`;
}

/**
 * The token columns as the gateway keeps them, in the order the readers read
 * them: the short texts every token repeats (owner status, product, category,
 * billing, network, area, status) as one text joined by U+001F (no value holds
 * a control character: the API refuses them), read and shared once per
 * distinct combination; times as whole milliseconds since the epoch (a number
 * is read far faster than a timestamp's text; Date keeps milliseconds only).
 */
const TOKEN_SELECT = `SELECT t.id, t.user_id,
  concat_ws(E'\\x1f', u.status, t.product, t.category, t.billing, t.network, t.country, t.state, t.city, t.status),
  t.username, t.password, ${epochMs('t.deleted_at')}, ${epochMs('t.expires_at')},
  t.exit_node_id, t.traffic_limit_bytes, t.traffic_used_bytes, t.traffic_leased_bytes, ${epochMs('t.updated_at')}
  FROM proxy_tokens t JOIN users u ON u.id = t.user_id`;

/**
 * The same columns for COPY's text, the repeated texts as fields of their own
 * (next to each other: the decoder reads them as one text, split once per
 * distinct combination), which spares the database joining them.
 */
const TOKEN_COPY_SELECT = `SELECT t.id, t.user_id,
  u.status, t.product, t.category, t.billing, t.network, t.country, t.state, t.city, t.status,
  t.username, t.password, ${epochMs('t.deleted_at')}, ${epochMs('t.expires_at')},
  t.exit_node_id, t.traffic_limit_bytes, t.traffic_used_bytes, t.traffic_leased_bytes, ${epochMs('t.updated_at')}
  FROM proxy_tokens t JOIN users u ON u.id = t.user_id`;
const COPY_FIELDS = 20;

/** Shares one copy of each repeated short text (product, status, country...); the identity when not given. */
export type TIntern = <T extends string>(text: T) => T;
const asIs: TIntern = (text) => text;

type TRawRow = unknown[];
type TRawClient = {
  query(...args: unknown[]): Promise<{ rows: unknown[] }>;
  /** PGlite (and its transactions) only. */
  exec?: unknown;
};

/**
 * Rows as arrays, straight from the driver of `db` (node-postgres or PGlite,
 * inside the transaction when `db` is one): no per-row mapping by Drizzle,
 * which dominated the cold load of a million tokens.
 */
export async function rawRows(db: TDbOrTx, text: string, values: unknown[]): Promise<TRawRow[]> {
  // Drizzle's session holds the driver's client (the pool, the PGlite instance, or the transaction's connection).
  const client = (db as unknown as { session: { client: TRawClient } }).session.client;
  const result =
    typeof client.exec === 'function' ? await client.query(text, values, { rowMode: 'array' }) : await client.query({ text, values, rowMode: 'array' });
  return result.rows as TRawRow[];
}

const dateOf = (ms: unknown): Date | null => (ms === null ? null : new Date(Number(ms)));
const numberOf = (value: unknown): number | null => (value === null ? null : Number(value));

// The repeated texts of a token (TOKEN_SELECT's joined column), split and shared.
type TShared = [
  TTokenRow['ownerStatus'],
  TTokenRow['product'],
  TTokenRow['category'],
  TTokenRow['billing'],
  TTokenRow['network'],
  string,
  string,
  string,
  TTokenRow['status'],
];

/** The repeated texts of a token, split and shared once per distinct combination. */
function createSharedTexts(intern: TIntern): (key: string) => TShared {
  const shared = new Map<string, TShared>();
  return (key) => {
    let s = shared.get(key);
    if (!s) shared.set(key, (s = key.split('\x1f').map((text) => intern(text)) as TShared));
    return s;
  };
}

/** Builds token rows from raw rows (small reads: changes, credentials looked up). */
export function tokenReader(intern: TIntern): (r: TRawRow) => TTokenRow {
  const sharedOf = createSharedTexts(intern);
  return (r) => {
    const s = sharedOf(r[2] as string);
    return {
      id: Number(r[0]),
      ownerStatus: s[0],
      userId: Number(r[1]),
      product: s[1],
      category: s[2],
      billing: s[3],
      network: s[4],
      country: s[5],
      state: s[6],
      city: s[7],
      username: r[3] as string,
      password: r[4] as string,
      status: s[8],
      deletedAt: dateOf(r[5]),
      expiresAt: new Date(Number(r[6])),
      exitNodeId: numberOf(r[7]),
      trafficLimitBytes: numberOf(r[8]),
      trafficUsedBytes: Number(r[9]),
      trafficLeasedBytes: Number(r[10]),
      updatedAt: new Date(Number(r[11])),
    };
  };
}

/** The version row gateways poll. */
export async function readVersion(db: TDb): Promise<number> {
  const [row] = await db.select({ version: gatewayState.version }).from(gatewayState).where(eq(gatewayState.id, 1));
  return row?.version ?? 0;
}

/** Tokens changed after `since` (all when null). */
export async function loadTokensChangedSince(db: TDb, since: Date | null, intern: TIntern = asIs): Promise<TTokenRow[]> {
  const rows = since ? await rawRows(db, `${TOKEN_SELECT} WHERE t.updated_at > $1`, [since.toISOString()]) : await rawRows(db, TOKEN_SELECT, []);
  return rows.map(tokenReader(intern));
}

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
    if (!s) shared.set(raw, (s = raw.split('\t').map((text) => intern(text.includes('\\') ? unescapeCopy(text) : text)) as TShared));
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
  client.query(query);
  await query.done;
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
  if (!/^-?\d{1,19}$/.test(String(afterId)) || !Number.isSafeInteger(limit)) throw new Error('a page is read after a whole id, in whole rows');
  await copyOut(db, `${TOKEN_COPY_SELECT} WHERE t.id > ${afterId} ORDER BY t.id LIMIT ${limit}`, decoder);
  return decoder.end();
}

/** A page of every token by id, as rows. */
export async function loadTokensAfter(db: TDbOrTx, afterId: number | string, limit: number, intern: TIntern = asIs): Promise<TTokenRow[]> {
  const rows: TTokenRow[] = [];
  await readTokensAfter(
    db,
    afterId,
    limit,
    createTokenLineDecoder(intern, (row) => rows.push(row)),
  );
  return rows;
}

/** The tokens with these usernames (a gateway looks up credentials it does not know yet). */
export async function loadTokensByUsername(db: TDb, usernames: string[], intern: TIntern = asIs): Promise<TTokenRow[]> {
  if (usernames.length === 0) return [];
  const rows = await rawRows(db, `${TOKEN_SELECT} WHERE t.username = ANY($1::text[])`, [usernames]);
  return rows.map(tokenReader(intern));
}

/** The IP list entries of these users. */
export async function loadIpEntriesOfUsers(db: TDb, userIds: number[]): Promise<TIpEntryRow[]> {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: ipListEntries.userId,
      list: ipListEntries.list,
      family: ipListEntries.family,
      startHex: ipListEntries.startHex,
      endHex: ipListEntries.endHex,
    })
    .from(ipListEntries)
    .where(inArray(ipListEntries.userId, userIds));
}

/** A target rule list as the gateway keeps it (tokenId null: the account's list). */
export type TTargetRuleRow = { id: number; userId: number; tokenId: number | null; mode: 'deny' | 'allow'; rules: string[]; updatedAt: Date };

const targetRuleColumns = {
  id: targetRuleLists.id,
  userId: targetRuleLists.userId,
  tokenId: targetRuleLists.tokenId,
  mode: targetRuleLists.mode,
  rules: targetRuleLists.rules,
  updatedAt: targetRuleLists.updatedAt,
};

/** Every target rule list (at most one per account and one per token, 200 rules each). */
export async function loadTargetRules(db: TDb): Promise<TTargetRuleRow[]> {
  return db.select(targetRuleColumns).from(targetRuleLists);
}

/** The target rule lists of these users (account and token lists). */
export async function loadTargetRulesOfUsers(db: TDb, userIds: number[]): Promise<TTargetRuleRow[]> {
  if (userIds.length === 0) return [];
  return db.select(targetRuleColumns).from(targetRuleLists).where(inArray(targetRuleLists.userId, userIds));
}

/** The whole inventory (small). */
export async function loadExitNodes(db: TDb): Promise<TExitNodeRow[]> {
  return db.select().from(exitNodes);
}

/** Every IP list entry (capped per user). */
export async function loadIpEntries(db: TDb): Promise<TIpEntryRow[]> {
  return db
    .select({
      userId: ipListEntries.userId,
      list: ipListEntries.list,
      family: ipListEntries.family,
      startHex: ipListEntries.startHex,
      endHex: ipListEntries.endHex,
    })
    .from(ipListEntries);
}

/** The accounts that opted in to the per-connection usage log (few rows: only those who chose). */
export async function loadUsageLogUsers(db: TDb): Promise<number[]> {
  const rows = await db.select({ userId: usageLogSettings.userId }).from(usageLogSettings).where(eq(usageLogSettings.enabled, true));
  return rows.map((r) => r.userId);
}

/** One connection of the usage log as the gateway writes it (its expiry day is set by the INSERT from the owner's retention). */
export type TUsageLogRow = Omit<typeof usageLogEntries.$inferInsert, 'expiresOn'>;

/** One flush of usage log rows: its id (in gateway_usage_batches, like the meter's) makes writing it again a no-op. */
export type TUsageLogBatch = { id: string; rows: TUsageLogRow[] };

// One INSERT per batch from 13 arrays (unnest): 13 parameters whatever the batch holds, far less work to
// build and parse than a parameter per value (the gateway's event loop pays for it, with PGlite in-process too).
// expires_on (the partition key: the last day the row is kept) is the day plus the owner's retention now; a
// day whose partition is missing lands in the table's DEFAULT partition, so the write never fails for it.
const INSERT_LOG_ROWS = `INSERT INTO usage_log_entries
  (user_id, token_id, day, protocol, source_ip, target_host, target_port, started_at, ended_at, bytes_up, bytes_down, outcome, reason, expires_on)
  SELECT r.*, r.day + COALESCE(s.retention_days, 1)
  FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::text[], $5::text[], $6::text[], $7::int[],
    $8::timestamptz[], $9::timestamptz[], $10::bigint[], $11::bigint[], $12::text[], $13::text[])
    AS r(user_id, token_id, day, protocol, source_ip, target_host, target_port, started_at, ended_at, bytes_up, bytes_down, outcome, reason)
  LEFT JOIN usage_log_settings s ON s.user_id = r.user_id`;

/** Writes a batch of usage log rows in one transaction; answers false when the batch was already written. */
export async function writeUsageLog(db: TDb, batch: TUsageLogBatch): Promise<boolean> {
  if (batch.rows.length === 0) return false;
  const rows = batch.rows;
  const column = <T>(pick: (r: TUsageLogRow) => T) => rows.map(pick);
  return db.transaction(async (tx) => {
    const recorded = await tx.insert(gatewayUsageBatches).values({ id: batch.id }).onConflictDoNothing().returning({ id: gatewayUsageBatches.id });
    if (recorded.length === 0) return false;
    await rawRows(tx, INSERT_LOG_ROWS, [
      column((r) => r.userId),
      column((r) => r.tokenId),
      column((r) => r.day),
      column((r) => r.protocol),
      column((r) => r.sourceIp),
      column((r) => r.targetHost),
      column((r) => r.targetPort),
      column((r) => (r.startedAt as Date).toISOString()),
      column((r) => (r.endedAt as Date).toISOString()),
      column((r) => r.bytesUp),
      column((r) => r.bytesDown),
      column((r) => r.outcome),
      column((r) => r.reason ?? null),
    ]);
    return true;
  });
}

/** One flush of metered bytes: its id makes writing it again a no-op. */
export type TUsageBatch = { id: string; bucket: Date; rows: { tokenId: number; userId: number; bytes: number }[] };

/** Written batches are kept this long (a batch retried later than this would count twice). */
export const USAGE_BATCH_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Writes a batch of metered bytes in one short transaction: its id, the hourly
 * buckets, the tokens' used counters, and what of this gateway's leases the
 * bytes spent. A batch whose id is already recorded (its commit went through
 * but the answer was lost) writes nothing: answers false.
 */
export async function writeUsage(db: TDb, batch: TUsageBatch, instanceId: string): Promise<boolean> {
  if (batch.rows.length === 0) return false;
  const rows = [...batch.rows].sort((a, b) => a.tokenId - b.tokenId);
  return db.transaction(async (tx) => {
    const recorded = await tx.insert(gatewayUsageBatches).values({ id: batch.id }).onConflictDoNothing().returning({ id: gatewayUsageBatches.id });
    if (recorded.length === 0) return false;
    await tx
      .insert(tokenUsage)
      .values(rows.map((r) => ({ tokenId: r.tokenId, userId: r.userId, bucket: batch.bucket, bytes: r.bytes })))
      .onConflictDoUpdate({ target: [tokenUsage.tokenId, tokenUsage.bucket], set: { bytes: sql`${tokenUsage.bytes} + excluded.bytes` } });
    // Token rows in id order, as every other writer locks them.
    for (const r of rows) {
      await tx
        .update(proxyTokens)
        .set({ trafficUsedBytes: sql`${proxyTokens.trafficUsedBytes} + ${r.bytes}` })
        .where(eq(proxyTokens.id, r.tokenId));
    }
    const spent = sql.join(
      rows.map((r) => sql`(${r.tokenId}::bigint, ${r.bytes}::bigint)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE gateway_leases l SET bytes = GREATEST(0, l.bytes - s.bytes)
      FROM (VALUES ${spent}) AS s(token_id, bytes)
      WHERE l.instance_id = ${instanceId} AND l.token_id = s.token_id`);
    return true;
  });
}

/**
 * Claims up to `slice` bytes of a traffic token's allowance for this gateway
 * (recorded as its lease). Answers the bytes granted (0 when the allowance is all handed out).
 */
export async function claimLease(db: TDb, instanceId: string, tokenId: number, slice: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ limit: proxyTokens.trafficLimitBytes, leased: proxyTokens.trafficLeasedBytes, used: proxyTokens.trafficUsedBytes })
      .from(proxyTokens)
      .where(and(eq(proxyTokens.id, tokenId), isNotNull(proxyTokens.trafficLimitBytes)))
      .for('update');
    if (!row || row.limit === null) return 0;
    // Leases never exceed the limit; bytes already used (e.g. by a gateway that overshot) count too.
    const floor = Math.max(row.leased, row.used);
    const granted = Math.max(0, Math.min(slice, row.limit - floor));
    if (granted === 0) return 0;
    await tx
      .update(proxyTokens)
      .set({ trafficLeasedBytes: floor + granted })
      .where(eq(proxyTokens.id, tokenId));
    await tx
      .insert(gatewayLeases)
      .values({ instanceId, tokenId, bytes: granted })
      .onConflictDoUpdate({ target: [gatewayLeases.instanceId, gatewayLeases.tokenId], set: { bytes: sql`${gatewayLeases.bytes} + excluded.bytes` } });
    return granted;
  });
}

/** Records a running gateway (or its heartbeat). Answers false when it had no row (new, or swept as stale: its leases are gone). */
export async function heartbeat(db: TDb, instanceId: string, label: string): Promise<boolean> {
  const touched = await db
    .update(gatewayInstances)
    .set({ heartbeatAt: sql`now()` })
    .where(eq(gatewayInstances.id, instanceId))
    .returning({ id: gatewayInstances.id });
  if (touched.length > 0) return true;
  await db.insert(gatewayInstances).values({ id: instanceId, label }).onConflictDoNothing();
  return false;
}

/**
 * Returns the leases of gateways gone (a stale heartbeat, or no row) or of
 * `instanceId` (its clean stop): each token's `traffic_leased_bytes` drops by
 * what those gateways held and had not written as used. Also forgets stale
 * gateways and usage batches past their retention. Answers the leases returned.
 */
export async function releaseLeases(db: TDb, options: { staleAfterMs: number; instanceId?: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const stale = sql`now() - make_interval(secs => ${options.staleAfterMs / 1000})`;
    const own = options.instanceId ?? null;
    const gone = await tx.execute(sql`
      DELETE FROM gateway_leases l
      WHERE l.instance_id = ${own}::uuid
         OR NOT EXISTS (SELECT 1 FROM gateway_instances i WHERE i.id = l.instance_id AND i.heartbeat_at > ${stale})
      RETURNING l.token_id, l.bytes`);
    const perToken = new Map<number, number>();
    for (const r of rowsOf<{ token_id: string | number; bytes: string | number }>(gone))
      perToken.set(Number(r.token_id), (perToken.get(Number(r.token_id)) ?? 0) + Number(r.bytes));
    // Token rows in id order, as every other writer locks them.
    for (const tokenId of [...perToken.keys()].sort((a, b) => a - b)) {
      const bytes = perToken.get(tokenId) ?? 0;
      if (bytes <= 0) continue;
      await tx
        .update(proxyTokens)
        .set({ trafficLeasedBytes: sql`GREATEST(${proxyTokens.trafficUsedBytes}, ${proxyTokens.trafficLeasedBytes} - ${bytes})` })
        .where(eq(proxyTokens.id, tokenId));
    }
    await tx.execute(sql`DELETE FROM gateway_instances WHERE id = ${own}::uuid OR heartbeat_at <= ${stale}`);
    await tx.execute(sql`DELETE FROM gateway_usage_batches WHERE created_at < now() - make_interval(secs => ${USAGE_BATCH_RETENTION_MS / 1000})`);
    return perToken.size;
  });
}

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
