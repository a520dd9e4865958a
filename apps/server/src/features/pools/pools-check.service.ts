import { createHash } from 'node:crypto';
import type net from 'node:net';
import {
  createAreaSpeller,
  encodePoolSessionId,
  isIsoCountryCode,
  poolAreaKey,
  poolServesArea,
  randomPoolSessionId,
  renderPoolUsername,
  type TPoolArea,
  type TPoolCheckBody,
  type TPoolCheckResult,
  type TPoolLastCheck,
  type TPoolTemplate,
  type TPoolUsernameValues,
} from '@proxy/contract';
import { dialUpstream, type TUpstreamDialOutcome } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { noteAuditEffect } from '../audit/audit.service';
import { toAreaSlug } from '../inventory/inventory-csv';
import { getOverTunnel, parseEchoAddress } from '../inventory/inventory-probe.service';
import { countryCodeOfAddress } from '../ip-quality/ip-quality.service';
import { findPool, recordPoolCheck, type TPoolRow } from './pools.repository';
import { openPoolPassword, templateOf } from './pools.service';

/**
 * A pool's check (POST /admin/pools/:id/check, docs/pools.md "Check"): the username rendered from the template
 * for the area (and a session), a dial through the pool's endpoints with the upstream dial the inventory probe
 * uses, and a GET of the same IP echo the probe fetches (INVENTORY_PROBE_URL) inside the tunnel. It answers what
 * came back: the exit IP the echo saw and its country, the latency, or the provider's refusal as it said it. The
 * outcome is kept as the pool's last check (and in the audit entry); the password is in none of it.
 */

type TCheckDeps = Pick<TDeps, 'db' | 'config' | 'clock'>;

/** Sticky minutes of a check with a session and no minutes (the gateway's default for a sticky session). */
const CHECK_SESSION_MINUTES = 10;

function areaOf(input: TPoolCheckBody): TPoolArea {
  if (!isIsoCountryCode(input.country))
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'country', message: 'invalidValue' }]);
  const state = toAreaSlug(input.state);
  const city = toAreaSlug(input.city);
  if (city && !state) throw new AppError('BAD_REQUEST', undefined, [{ path: 'city', message: 'stateRequired' }]);
  return { country: input.country, state, city };
}

/**
 * The username of the check. A session label maps to one pool session id per pool (a hash, as the gateway will
 * map a customer's session), so two checks with the same label ask the provider for the same sticky exit. A
 * template that requires a session gets a random one when no label is given.
 */
function usernameFor(
  row: TPoolRow,
  template: TPoolTemplate,
  area: TPoolArea,
  input: TPoolCheckBody,
): { username: string; sessionId: string | null } {
  const spelled = createAreaSpeller({ areaCase: row.areaCase, mapping: row.areaMapping })(area);
  const values: TPoolUsernameValues = { user: row.username, ...spelled };
  if (input.session) {
    const digest = createHash('sha256').update(`pool-check:${row.id}:${input.session}`).digest();
    values.session = encodePoolSessionId(digest, template.sessionLength);
    values.minutes = input.minutes ?? CHECK_SESSION_MINUTES;
  }
  let rendered = renderPoolUsername(template, values);
  if (
    !rendered.ok &&
    rendered.reason === 'missing' &&
    (rendered.placeholder === 'session' || rendered.placeholder === 'minutes')
  ) {
    values.session ||= randomPoolSessionId(template.sessionLength);
    values.minutes ||= input.minutes ?? CHECK_SESSION_MINUTES;
    rendered = renderPoolUsername(template, values);
  }
  if (rendered.ok) return { username: rendered.username, sessionId: values.session ?? null };
  if (rendered.reason === 'missing')
    throw new AppError('POOL_USERNAME_MISSING', { placeholder: `{${rendered.placeholder}}` });
  if (rendered.reason === 'separator' || rendered.reason === 'refused-character') {
    const value = rendered.placeholder === 'user' ? row.username : String(values[rendered.placeholder] ?? '');
    throw new AppError('POOL_USERNAME_SEPARATOR', {
      placeholder: `{${rendered.placeholder}}`,
      value,
      char: `"${rendered.char}"`,
    });
  }
  throw new AppError('POOL_USERNAME_TOO_LONG');
}

function endpointText(endpoint: { host: string; port: number }): string {
  return `${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
}

function outcomeOfRefusal(outcome: Exclude<TUpstreamDialOutcome, { kind: 'connected' }>): TPoolCheckResult['outcome'] {
  if (outcome.kind !== 'refused') return outcome.kind;
  return outcome.reason === 'other' ? 'refused' : outcome.reason;
}

// GET of the echo inside the tunnel, bounded by the probe's timeout: the address it saw, or null.
async function echoThrough(url: URL, tunnel: net.Socket, timeoutMs: number): Promise<string | null> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const answer = await getOverTunnel(url, tunnel, abort.signal);
    return answer.status === 200 ? parseEchoAddress(answer.body) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    tunnel.destroy();
  }
}

/** POST /admin/pools/:id/check. */
export async function checkPool(deps: TCheckDeps, input: TPoolCheckBody): Promise<TPoolCheckResult> {
  const row = await findPool(deps.db, input.id);
  if (!row) throw new AppError('NOT_FOUND');
  const area = areaOf(input);
  const template = templateOf(row);
  const { username, sessionId } = usernameFor(row, template, area, input);
  const echoUrl = new URL(deps.config.inventoryProbeUrl);
  const timeoutMs = deps.config.INVENTORY_PROBE_TIMEOUT_MS;
  const started = performance.now();
  const dialled = await dialUpstream({
    protocol: row.protocol,
    endpoints: row.endpoints,
    username,
    password: openPoolPassword(deps, row),
    target: {
      host: echoUrl.hostname.replace(/^\[|\]$/g, ''),
      port: echoUrl.port ? Number(echoUrl.port) : echoUrl.protocol === 'https:' ? 443 : 80,
    },
    timeoutMs,
  });
  const result: TPoolCheckResult = {
    outcome: 'ok',
    username,
    area: poolAreaKey(area),
    is_covered: poolServesArea({ mode: row.coverageMode, areas: row.coverage }, area),
    session_id: sessionId,
    endpoint: dialled.kind === 'unreachable' || dialled.kind === 'timeout' ? null : endpointText(dialled.endpoint),
    attempts: dialled.attempts.map((a) => ({
      endpoint: endpointText(a.endpoint),
      outcome: a.outcome,
      ms: a.ms,
      detail: a.detail,
    })),
    provider_status: null,
    provider_detail: null,
    exit_ip: null,
    exit_country: null,
    provider_exit_ip: null,
    provider_exit_country: null,
    connect_ms: null,
    latency_ms: null,
    checked_at: deps.clock.now().toISOString(),
  };
  if (dialled.kind === 'connected') {
    result.connect_ms = dialled.connectMs;
    result.provider_exit_ip = dialled.exit.ip;
    result.provider_exit_country = dialled.exit.country;
    const exitIp = await echoThrough(echoUrl, dialled.socket, timeoutMs);
    if (exitIp) {
      result.exit_ip = exitIp;
      result.exit_country = (await countryCodeOfAddress(exitIp))?.toLowerCase() ?? null;
      result.latency_ms = Math.round(performance.now() - started);
    } else {
      result.outcome = 'echo-failed';
    }
  } else {
    result.outcome = outcomeOfRefusal(dialled);
    if (dialled.kind === 'refused') {
      result.provider_status = dialled.status;
      result.provider_detail = dialled.detail;
    }
  }
  const last: TPoolLastCheck = {
    at: result.checked_at,
    outcome: result.outcome,
    area: result.area,
    exit_ip: result.exit_ip,
    exit_country: result.exit_country,
    latency_ms: result.latency_ms,
  };
  // The dial's outcome goes into the audit entry written with the pool's last check (never the password).
  noteAuditEffect('check', result.outcome);
  await deps.db.transaction((tx) => recordPoolCheck(tx, row.id, last));
  return result;
}
