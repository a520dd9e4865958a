import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TDbHandle } from '@proxy/db';
import { createTestDatabase, insertExit, insertUser } from '../test/fixtures';
import { createTokenLineDecoder, loadTokensAfter, readTokensAfter } from './cold-load.repository';
import { loadTokensChangedSince, type TTokenRow } from './tokens.repository';

// Every text the page reader reads, awkward: COPY escapes tabs, newlines and backslashes; quotes and non-ASCII pass as they are.
const AWKWARD = [
  'tab\there',
  'line\nbreak\r\nand\vmore\f\b',
  'back\\slash\\\\t \\N',
  `quote's "double"`,
  '代理 ünïcødé 🚀',
  '\\N',
  '',
];

describe('gateway repository: the cold load page reader', () => {
  let handle: TDbHandle;
  let ids: number[];

  beforeAll(async () => {
    handle = await createTestDatabase();
    const db = handle.db;
    const userId = await insertUser(db);
    const disabledOwner = await insertUser(db);
    await db.execute(sql`UPDATE users SET status = 'disabled' WHERE id = ${disabledOwner}`);
    const exitId = await insertExit(db);
    ids = [];
    const insert = async (values: {
      id?: string;
      userId: number;
      text: string;
      status?: string;
      deletedAt?: string | null;
      expiresAt?: string;
      exitNodeId?: number | null;
      limit?: string | null;
      used?: string;
      leased?: string;
    }) => {
      const t = values.text;
      const id = values.id ? sql`${values.id}::bigint` : sql`nextval(pg_get_serial_sequence('proxy_tokens', 'id'))`;
      const result = await db.execute(sql`
        INSERT INTO proxy_tokens (id, user_id, product, category, billing, network, country, state, city, username, password, status,
          deleted_at, expires_at, exit_node_id, traffic_limit_bytes, traffic_used_bytes, traffic_leased_bytes)
        VALUES (${id}, ${values.userId}, 'dynamic', 'idc', 'traffic', 'SOCKS5', ${`c ${t}`}, ${`s ${t}`}, ${`${t} city`},
          ${`user ${ids.length} ${t}`}, ${`${t} pw`}, ${values.status ?? 'enabled'}, ${values.deletedAt ?? null}::timestamptz,
          ${values.expiresAt ?? '2026-12-01 00:00:00+00'}::timestamptz, ${values.exitNodeId ?? null}::bigint,
          ${values.limit ?? null}::bigint, ${values.used ?? '0'}::bigint, ${values.leased ?? '0'}::bigint)
        RETURNING id`);
      const rows = Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows;
      ids.push(Number(rows[0].id));
    };
    for (const [i, text] of AWKWARD.entries()) {
      await insert({
        userId: i % 2 === 0 ? userId : disabledOwner,
        text,
        status: i % 3 === 0 ? 'disabled' : 'enabled',
        deletedAt: i % 2 === 0 ? '2026-11-20 08:00:00.123999+00' : null,
        exitNodeId: i % 2 === 1 ? exitId : null,
        limit: i % 2 === 0 ? '5000000000' : null,
        used: String(1234 * i),
      });
    }
    // Times (updated_at is the trigger's) at the edges of the fast arithmetic and beyond it, microseconds that round the wrong way in floats.
    const times = [
      '1899-12-31 23:59:59.999999+00',
      '1900-01-01 00:00:00.000001+00',
      '1969-12-31 23:59:59.999500+00',
      '2026-11-23 20:00:00.123000+00',
      '2038-01-19 03:14:07.999999+00',
      '2099-12-31 23:59:59.999999+00',
      '2100-01-01 00:00:00.001+00',
      '9999-12-31 23:59:59.999999+00',
      '1800-01-01 00:00:00.000001+00',
    ];
    for (const [i, time] of times.entries())
      await insert({ userId, text: `time ${i}`, deletedAt: time, expiresAt: time, limit: '0', leased: '17' });
    // Ids and counters past 2^53 (read as Number reads them) and at the top of bigint.
    await insert({
      id: '9007199254740993',
      userId,
      text: 'big',
      limit: '9223372036854775807',
      used: '9007199254740995',
      leased: '123456789012345678',
    });
    await insert({ id: '9223372036854775807', userId, text: 'top', limit: '-1', used: '1', leased: '0' });
  });

  afterAll(async () => {
    await handle?.close();
  });

  it('reads exactly the entries of the row reader, in pages of any size', async () => {
    const byRows = await loadTokensChangedSince(handle.db, new Date('1700-01-01T00:00:00Z'));
    byRows.sort((a, b) => a.id - b.id);
    expect(byRows).toHaveLength(ids.length);
    for (const pageSize of [1, 3, 1000]) {
      const pages: TTokenRow[] = [];
      const decoder = createTokenLineDecoder(
        (t) => t,
        (row) => pages.push(row),
      );
      await handle.db.transaction(async (tx) => {
        for (let afterId = '0'; ;) {
          const page = await readTokensAfter(tx, afterId, pageSize, decoder);
          if (page.count < pageSize) return;
          afterId = page.lastId;
        }
      });
      expect(pages).toEqual(byRows);
    }
    expect(await loadTokensAfter(handle.db, '9007199254740993', 10)).toEqual([byRows.at(-1)]);
    // The texts as written, whatever they hold.
    const first = byRows.find((r) => r.id === ids[0])!;
    expect(first).toMatchObject({
      username: `user 0 ${AWKWARD[0]}`,
      password: `${AWKWARD[0]} pw`,
      country: `c ${AWKWARD[0]}`,
      ownerStatus: 'active',
    });
    for (const [i, text] of AWKWARD.entries()) {
      const row = byRows.find((r) => r.id === ids[i])!;
      expect([row.username, row.password, row.country, row.state, row.city]).toEqual([
        `user ${i} ${text}`,
        `${text} pw`,
        `c ${text}`,
        `s ${text}`,
        `${text} city`,
      ]);
      expect(row.ownerStatus).toBe(i % 2 === 0 ? 'active' : 'disabled');
    }
    // Times to the millisecond, floored as Date keeps them.
    const at = (i: number) => byRows.find((r) => r.id === ids[AWKWARD.length + i])!;
    expect(at(0).expiresAt.toISOString()).toBe('1899-12-31T23:59:59.999Z');
    expect(at(2).deletedAt?.toISOString()).toBe('1969-12-31T23:59:59.999Z');
    expect(at(3).deletedAt?.toISOString()).toBe('2026-11-23T20:00:00.123Z');
    expect(at(5).expiresAt.toISOString()).toBe('2099-12-31T23:59:59.999Z');
    expect(at(7).expiresAt.toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(at(8).expiresAt.toISOString()).toBe('1800-01-01T00:00:00.000Z');
    const big = byRows.find((r) => r.username.endsWith(' big'))!;
    expect(big).toMatchObject({
      id: 9007199254740992,
      trafficLimitBytes: Number('9223372036854775807'),
      trafficUsedBytes: 9007199254740996,
    });
  });

  it('fails a page whose rows the decoder refuses, and the database serves the next query', async () => {
    const refusing = createTokenLineDecoder(
      (t) => t,
      () => {
        throw new Error('row refused');
      },
    );
    await expect(readTokensAfter(handle.db, '0', 3, refusing)).rejects.toThrow('row refused');
    expect(await loadTokensAfter(handle.db, '0', 1)).toHaveLength(1);
  });

  it('decodes lines split anywhere across chunks', async () => {
    const line = (id: number, name: string) =>
      Buffer.from(
        `${id}\t7\tactive\tstatic\tisp\tip\tHTTP\tus\t\t\tenabled\t${name}\tp\\\\w\t\\N\t1764000000123\t\\N\t\\N\t0\t0\t1764000000000\n`,
      );
    const text = Buffer.concat([line(1, 'a\\tb'), line(2, '名字'), line(3, 'c')]);
    const whole: TTokenRow[] = [];
    const whole0 = createTokenLineDecoder(
      (t) => t,
      (r) => whole.push(r),
    );
    whole0.push(text);
    expect(whole0.end()).toEqual({ count: 3, lastId: '3' });
    expect(whole.map((r) => [r.username, r.password])).toEqual([
      ['a\tb', 'p\\w'],
      ['名字', 'p\\w'],
      ['c', 'p\\w'],
    ]);
    for (let cut = 1; cut < text.length; cut += 7) {
      const split: TTokenRow[] = [];
      const decoder = createTokenLineDecoder(
        (t) => t,
        (r) => split.push(r),
      );
      decoder.push(text.subarray(0, cut));
      decoder.push(text.subarray(cut));
      expect(decoder.end().count).toBe(3);
      expect(split).toEqual(whole);
    }
    const broken = createTokenLineDecoder(
      (t) => t,
      () => {},
    );
    broken.push(text.subarray(0, 20));
    expect(() => broken.end()).toThrow(/inside a line/);
  });
});
