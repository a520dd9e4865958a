import {
  SESSTIME_DEFAULT_MINUTES,
  ZSpiderParams,
  type TCreateSpiderBody,
  type TPage,
  type TSpiderParams,
  type TSpiderRecord,
  type TSpiderRecordWithLines,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { findUserTokens } from '../proxies/proxies.repository';
import { assertAreaServed, buildEndpoints, isPinnedToken } from './endpoint-lines';
import {
  findSpiderRecord,
  insertSpiderRecord,
  listSpiderRecordsPage,
  type TSpiderListRow,
} from './endpoint-generator.repository';

/**
 * Endpoint files (spider records): N endpoint lines of one of the user's
 * tokens for an area, session settings and line format, stored for download.
 */

type TSpiderDeps = Pick<TDeps, 'db' | 'config' | 'clock'>;

function filenameOf(id: number): string {
  return `endpoints-${id}.txt`;
}

function toRecord(
  row: Pick<TSpiderListRow, 'id' | 'tokenId' | 'params' | 'lineCount' | 'createdAt'>,
  tokenUsername: string,
): TSpiderRecord {
  return {
    id: row.id,
    token_id: row.tokenId,
    token_username: tokenUsername,
    params: ZSpiderParams.parse(JSON.parse(row.params)),
    line_count: row.lineCount,
    filename: filenameOf(row.id),
    created_at: row.createdAt.toISOString(),
  };
}

/** Builds and stores an endpoint file; answers the record and its lines. */
export async function createSpiderRecord(
  deps: TSpiderDeps,
  userId: number,
  body: TCreateSpiderBody,
): Promise<TSpiderRecordWithLines> {
  const [token] = await findUserTokens(deps.db, userId, [body.token_id]);
  if (!token || token.deletedAt) throw new AppError('NOT_FOUND');
  const isPinned = isPinnedToken(token);
  // A static token's exit is pinned: area and session options would not change it, so they are not recorded.
  const params: TSpiderParams = isPinned
    ? { country_id: '', state_id: '', city_id: '', session: 'rotating', sesstime: null, line: body.line, count: 1 }
    : {
        country_id: body.country_id ?? '',
        state_id: body.state_id ?? '',
        city_id: body.city_id ?? '',
        session: body.session,
        sesstime: body.session === 'sticky' ? (body.sesstime ?? SESSTIME_DEFAULT_MINUTES) : null,
        line: body.line,
        count: body.count,
      };
  if (!isPinned)
    await assertAreaServed(deps, token, { country: params.country_id, state: params.state_id, city: params.city_id });
  const endpoints = buildEndpoints(
    deps.config,
    token,
    {
      country: params.country_id,
      state: params.state_id,
      city: params.city_id,
      session: params.session,
      sesstime: params.sesstime ?? undefined,
      line: params.line,
    },
    params.count,
  );
  const lines = endpoints.map((e) => e.line);
  const row = await insertSpiderRecord(deps.db, {
    userId,
    tokenId: token.id,
    params: JSON.stringify(params),
    lineCount: lines.length,
    content: `${lines.join('\n')}\n`,
    createdAt: deps.clock.now(),
  });
  return { ...toRecord(row, token.username), lines };
}

/** A page of the user's endpoint files, newest first. */
export async function listSpiderRecords(
  deps: TSpiderDeps,
  userId: number,
  query: { page: number; page_size: number; token_id?: number },
): Promise<TPage<TSpiderRecord>> {
  const { rows, total } = await listSpiderRecordsPage(deps.db, userId, query.token_id, {
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return {
    records: rows.map((r) => toRecord(r, r.tokenUsername)),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** The endpoint file as a text download; another user's id is NOT_FOUND. */
export async function downloadSpiderRecord(deps: TSpiderDeps, userId: number, id: number): Promise<RawReply> {
  const row = await findSpiderRecord(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  return new RawReply(row.content, 'text/plain; charset=utf-8', filenameOf(row.id));
}
