import type { TDb } from '@proxy/db';
import { rawRows, type TRawRow } from './raw-rows.repository';

/**
 * Tokens as the gateway keeps them, and the small reads of them (changes
 * since the last sync, credentials looked up). Never on the hot path.
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
export const TOKEN_COPY_SELECT = `SELECT t.id, t.user_id,
  u.status, t.product, t.category, t.billing, t.network, t.country, t.state, t.city, t.status,
  t.username, t.password, ${epochMs('t.deleted_at')}, ${epochMs('t.expires_at')},
  t.exit_node_id, t.traffic_limit_bytes, t.traffic_used_bytes, t.traffic_leased_bytes, ${epochMs('t.updated_at')}
  FROM proxy_tokens t JOIN users u ON u.id = t.user_id`;
export const COPY_FIELDS = 20;

/** Shares one copy of each repeated short text (product, status, country...); the identity when not given. */
export type TIntern = <T extends string>(text: T) => T;
export const asIs: TIntern = (text) => text;

const dateOf = (ms: unknown): Date | null => (ms === null ? null : new Date(Number(ms)));
const numberOf = (value: unknown): number | null => (value === null ? null : Number(value));

// The repeated texts of a token (TOKEN_SELECT's joined column), split and shared.
export type TShared = [
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

/** Tokens changed after `since` (all when null). */
export async function loadTokensChangedSince(
  db: TDb,
  since: Date | null,
  intern: TIntern = asIs,
): Promise<TTokenRow[]> {
  const rows = since
    ? await rawRows(db, `${TOKEN_SELECT} WHERE t.updated_at > $1`, [since.toISOString()])
    : await rawRows(db, TOKEN_SELECT, []);
  return rows.map(tokenReader(intern));
}

/** The tokens with these usernames (a gateway looks up credentials it does not know yet). */
export async function loadTokensByUsername(db: TDb, usernames: string[], intern: TIntern = asIs): Promise<TTokenRow[]> {
  if (usernames.length === 0) return [];
  const rows = await rawRows(db, `${TOKEN_SELECT} WHERE t.username = ANY($1::text[])`, [usernames]);
  return rows.map(tokenReader(intern));
}
