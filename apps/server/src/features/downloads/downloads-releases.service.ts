import type { TSoftwareRelease, ZSoftwareFileInput, ZSoftwareReleaseCreateBody } from '@proxy/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { uniqueViolationOf } from '../../lib/database-errors';
import type { TDeps } from '../../lib/deps';
import { fetchReleaseFile, type TFetchOutcome } from './downloads-fetch';
import {
  deleteRelease,
  deleteReleaseFile,
  findRelease,
  findReleaseByVersion,
  insertRelease,
  insertReleaseFiles,
  listReleases,
  type TReleaseWithFiles,
} from './downloads.repository';

type TFileInput = z.output<typeof ZSoftwareFileInput>;
type TCreateInput = z.output<typeof ZSoftwareReleaseCreateBody>;

/** A release as the operator's list shows it. */
export function toReleaseView(release: TReleaseWithFiles): TSoftwareRelease {
  return {
    id: release.id,
    version: release.version,
    released_on: release.releasedOn,
    notes_zh: release.notesZh,
    notes_en: release.notesEn,
    created_by: release.createdBy,
    created_at: release.createdAt.toISOString(),
    files: release.files.map((file) => ({
      id: file.id,
      platform: file.platform,
      arch: file.arch,
      url: file.url,
      size: file.sizeBytes,
      sha256: file.sha256,
      created_at: file.createdAt.toISOString(),
    })),
  };
}

/** GET /admin/downloads/releases. */
export async function listReleasesForOperator(deps: Pick<TDeps, 'db'>): Promise<TSoftwareRelease[]> {
  return (await listReleases(deps.db)).map(toReleaseView);
}

/** The refusal of a file whose fetch did not give the stated size and SHA-256; the issue names the field at `path`. */
function refusalOf(outcome: Exclude<TFetchOutcome, { kind: 'ok' }>, file: TFileInput, path: string, timeoutMs: number) {
  switch (outcome.kind) {
    case 'too_large':
      return new AppError('SOFTWARE_FILE_MISMATCH', undefined, [
        {
          path: `${path}size`,
          message: 'softwareSizeExceeded',
          params: { expected: file.size, found: outcome.found },
        },
      ]);
    case 'status':
      return new AppError('SOFTWARE_FILE_UNREACHABLE', undefined, [
        { path: `${path}url`, message: 'softwareFetchStatus', params: { status: outcome.status } },
      ]);
    case 'timeout':
      return new AppError('SOFTWARE_FILE_UNREACHABLE', undefined, [
        { path: `${path}url`, message: 'softwareFetchTimeout', params: { seconds: Math.round(timeoutMs / 1000) } },
      ]);
    case 'refused':
      return new AppError('SOFTWARE_URL_REFUSED', undefined, [
        { path: `${path}url`, message: 'softwareUrlRefused', params: { address: outcome.address } },
      ]);
    case 'failed':
      return new AppError('SOFTWARE_FILE_UNREACHABLE', undefined, [
        { path: `${path}url`, message: 'softwareFetchFailed', params: { reason: outcome.reason } },
      ]);
  }
}

/**
 * Fetches a file from its link and refuses it unless it has the size and SHA-256 the operator gave
 * (docs/operator-guide.md, "Software downloads"). `path` prefixes the fields the refusal names ("files.0.").
 */
async function verifyFile(deps: Pick<TDeps, 'config'>, file: TFileInput, path: string): Promise<void> {
  const timeoutMs = deps.config.DOWNLOAD_FETCH_TIMEOUT_MS;
  const outcome = await fetchReleaseFile(file.url, file.size, {
    allowPrivate: deps.config.DOWNLOAD_ALLOW_PRIVATE,
    timeoutMs,
  });
  if (outcome.kind !== 'ok') throw refusalOf(outcome, file, path, timeoutMs);
  if (outcome.size !== file.size)
    throw new AppError('SOFTWARE_FILE_MISMATCH', undefined, [
      { path: `${path}size`, message: 'softwareSizeMismatch', params: { expected: file.size, found: outcome.size } },
    ]);
  if (outcome.sha256 !== file.sha256)
    throw new AppError('SOFTWARE_FILE_MISMATCH', undefined, [
      {
        path: `${path}sha256`,
        message: 'softwareSha256Mismatch',
        params: { expected: file.sha256, found: outcome.sha256 },
      },
    ]);
}

const fileRow = (releaseId: number, file: TFileInput) => ({
  releaseId,
  platform: file.platform,
  arch: file.arch,
  url: file.url,
  sizeBytes: file.size,
  sha256: file.sha256,
});

function versionTaken(error: unknown, version: string): AppError | null {
  return uniqueViolationOf(error) === 'software_releases_version_key'
    ? new AppError('SOFTWARE_VERSION_TAKEN', { version })
    : null;
}

/**
 * POST /admin/downloads/releases: every file is fetched and checked first (together), then the release and its
 * files are written in one transaction; a refused file stores nothing.
 */
export async function createRelease(deps: TDeps, operatorId: number, input: TCreateInput): Promise<TSoftwareRelease> {
  const taken = await findReleaseByVersion(deps.db, input.version);
  if (taken) throw new AppError('SOFTWARE_VERSION_TAKEN', { version: taken.version });
  const checks = await Promise.allSettled(input.files.map((file, i) => verifyFile(deps, file, `files.${i}.`)));
  // Every refused file is named under its fields at once (the first one's error is the call's).
  const refused = checks.flatMap((c) => (c.status === 'rejected' ? [c.reason as unknown] : []));
  if (refused.length > 0) {
    const first = refused[0];
    if (!(first instanceof AppError)) throw first;
    const issues = refused.flatMap((e) => (e instanceof AppError ? (e.issues ?? []) : []));
    throw new AppError(first.errorName, first.params, issues);
  }
  try {
    const id = await deps.db.transaction(async (tx) => {
      const release = await insertRelease(tx, {
        version: input.version,
        releasedOn: input.released_on,
        notesZh: input.notes_zh,
        notesEn: input.notes_en,
        createdBy: operatorId,
      });
      await insertReleaseFiles(
        tx,
        input.files.map((file) => fileRow(release.id, file)),
      );
      return release.id;
    });
    return toReleaseView((await findRelease(deps.db, id))!);
  } catch (error) {
    throw versionTaken(error, input.version) ?? error;
  }
}

/** DELETE /admin/downloads/releases/:id. */
export async function removeRelease(deps: TDeps, id: number): Promise<{ id: number }> {
  const isDeleted = await deps.db.transaction((tx) => deleteRelease(tx, id));
  if (!isDeleted) throw new AppError('SOFTWARE_RELEASE_NOT_FOUND');
  return { id };
}

const sameSlot = (a: { platform: string; arch: string }, b: { platform: string; arch: string }) =>
  a.platform === b.platform && a.arch.toLowerCase() === b.arch.toLowerCase();

/** POST /admin/downloads/releases/:id/files: fetched and checked first; the release is locked while it is added. */
export async function addReleaseFile(deps: TDeps, id: number, file: TFileInput): Promise<TSoftwareRelease> {
  const release = await findRelease(deps.db, id);
  if (!release) throw new AppError('SOFTWARE_RELEASE_NOT_FOUND');
  if (release.files.some((f) => sameSlot(f, file))) throw new AppError('SOFTWARE_RELEASE_FILE_TAKEN');
  await verifyFile(deps, file, '');
  await deps.db.transaction(async (tx) => {
    const locked = await findRelease(tx, id, { lock: true });
    if (!locked) throw new AppError('SOFTWARE_RELEASE_NOT_FOUND');
    if (locked.files.some((f) => sameSlot(f, file))) throw new AppError('SOFTWARE_RELEASE_FILE_TAKEN');
    await insertReleaseFiles(tx, [fileRow(id, file)]);
  });
  return toReleaseView((await findRelease(deps.db, id))!);
}

/** DELETE /admin/downloads/releases/:id/files/:file_id: a release keeps at least one file. */
export async function removeReleaseFile(deps: TDeps, id: number, fileId: number): Promise<TSoftwareRelease> {
  await deps.db.transaction(async (tx) => {
    const release = await findRelease(tx, id, { lock: true });
    if (!release) throw new AppError('SOFTWARE_RELEASE_NOT_FOUND');
    if (!release.files.some((f) => f.id === fileId)) throw new AppError('SOFTWARE_RELEASE_FILE_NOT_FOUND');
    if (release.files.length === 1) throw new AppError('SOFTWARE_RELEASE_LAST_FILE');
    await deleteReleaseFile(tx, id, fileId);
  });
  return toReleaseView((await findRelease(deps.db, id))!);
}
