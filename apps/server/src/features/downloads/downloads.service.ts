import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  ZSoftwareManifest,
  deriveRoles,
  fenToYuan,
  type TLang,
  type TSoftwareList,
  type TSoftwareManifest,
} from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { AppError } from '../../lib/app-error';
import { hasReleases, listReleases } from './downloads.repository';

/**
 * The legacy manifest in DATA_DIR/downloads (format in docs/operator-guide.md, "Software downloads"): read only while
 * the database holds no release (installs from before the operator's releases screen).
 */
export const MANIFEST_FILE = 'manifest.json';
/** How long a download link works (long enough to resume a large download). */
export const DOWNLOAD_LINK_TTL_S = 3600;

/** Content types of installer formats the generic table lacks (or names vaguely); others come from the file extension. */
const INSTALLER_TYPES: Record<string, string> = {
  '.exe': 'application/vnd.microsoft.portable-executable',
  '.msi': 'application/x-msi',
  '.dmg': 'application/x-apple-diskimage',
  '.pkg': 'application/vnd.apple.installer+xml',
  '.appimage': 'application/vnd.appimage',
  '.deb': 'application/vnd.debian.binary-package',
  '.rpm': 'application/x-rpm',
};

/** Content type of a download: the installer table, else what the extension says, else octet-stream. */
export function downloadContentType(file: string, byExtension: string | undefined): string {
  return INSTALLER_TYPES[path.extname(file).toLowerCase()] ?? byExtension ?? 'application/octet-stream';
}

/** The manifest as read now: the releases, or why there are none. */
export type TManifestState =
  { status: 'ok'; manifest: TSoftwareManifest } | { status: 'not_published' } | { status: 'invalid_manifest' };

/** Reads DATA_DIR/downloads/manifest.json on each call, so a new release shows without a restart. */
export async function readManifest(deps: TDeps): Promise<TManifestState> {
  let text: string;
  try {
    text = await readFile(path.join(deps.config.downloadsDir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      deps.log.warn({ err: error }, 'downloads: the manifest cannot be read');
    return { status: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not_published' : 'invalid_manifest' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    deps.log.warn({ err: error }, 'downloads: manifest.json is not JSON');
    return { status: 'invalid_manifest' };
  }
  const parsed = ZSoftwareManifest.safeParse(json);
  if (!parsed.success) {
    deps.log.warn({ issues: parsed.error.issues }, 'downloads: manifest.json does not follow the documented format');
    return { status: 'invalid_manifest' };
  }
  return { status: 'ok', manifest: parsed.data };
}

/** Spec section 6: the software is for the role "user" (a total top-up above 1 yuan); the server checks it too. */
export function assertSoftwareRole(user: { totalRechargeFen: number }): void {
  if (!deriveRoles(fenToYuan(user.totalRechargeFen)).includes('user')) throw new AppError('SOFTWARE_ROLE_REQUIRED');
}

// SHA-256 of files the manifest gives none for, by path, size and modification time.
const digestCache = new Map<string, string>();

async function sha256Of(file: string, size: number, mtimeMs: number): Promise<string> {
  const key = `${file}:${size}:${mtimeMs}`;
  const cached = digestCache.get(key);
  if (cached) return cached;
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  const digest = hash.digest('hex');
  digestCache.set(key, digest);
  return digest;
}

async function fileFacts(deps: TDeps, name: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    const info = await stat(path.join(deps.config.downloadsDir, name));
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** The file name a link ends with (what the page shows), else the platform and arch. */
function fileNameOfUrl(url: string, fallback: string): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return decodeURIComponent(last) || fallback;
  } catch {
    return fallback;
  }
}

/**
 * The software page: the operator's releases in the database, newest release date first, each file with its link;
 * while there is none, the legacy manifest's (a missing file is marked, not an error).
 */
export async function listSoftware(deps: TDeps, lang: TLang): Promise<TSoftwareList> {
  const releases = await listReleases(deps.db);
  if (releases.length > 0)
    return {
      status: 'ok',
      name: null,
      releases: releases.map((release) => ({
        version: release.version,
        date: release.releasedOn,
        notes: lang === 'zh' ? release.notesZh : release.notesEn,
        files: release.files.map((file) => ({
          platform: file.platform,
          arch: file.arch || null,
          file: fileNameOfUrl(file.url, [file.platform, file.arch].filter(Boolean).join('-')),
          size: file.sizeBytes,
          sha256: file.sha256,
          is_available: true,
          url: file.url,
        })),
      })),
    };
  return listManifestSoftware(deps, lang);
}

async function listManifestSoftware(deps: TDeps, lang: TLang): Promise<TSoftwareList> {
  const state = await readManifest(deps);
  if (state.status !== 'ok') return { status: state.status, name: null, releases: [] };
  const releases = await Promise.all(
    state.manifest.releases.map(async (release) => ({
      version: release.version,
      date: release.date,
      notes: release.notes[lang],
      files: await Promise.all(
        release.files.map(async (entry) => {
          const facts = await fileFacts(deps, entry.file);
          const sha256 = facts
            ? (entry.sha256 ??
              (await sha256Of(path.join(deps.config.downloadsDir, entry.file), facts.size, facts.mtimeMs)))
            : (entry.sha256 ?? null);
          return {
            platform: entry.platform,
            arch: entry.arch ?? null,
            file: entry.file,
            size: facts?.size ?? null,
            sha256,
            is_available: facts !== null,
            url: null,
          };
        }),
      ),
    })),
  );
  return { status: 'ok', name: state.manifest.name ?? null, releases };
}

/** The manifest names this file and it is there (and no release in the database replaces it); otherwise the clear refusal. */
async function assertDownloadable(deps: TDeps, file: string): Promise<void> {
  if (await hasReleases(deps.db)) throw new AppError('SOFTWARE_FILE_MISSING');
  const state = await readManifest(deps);
  if (state.status !== 'ok') throw new AppError('SOFTWARE_NOT_PUBLISHED');
  const isListed = state.manifest.releases.some((release) => release.files.some((entry) => entry.file === file));
  if (!isListed || !(await fileFacts(deps, file))) throw new AppError('SOFTWARE_FILE_MISSING');
}

function signature(deps: TDeps, userId: number, file: string, expiresAtS: number): string {
  return createHmac('sha256', deps.config.jwtSecret)
    .update(`software-download\n${userId}\n${file}\n${expiresAtS}`)
    .digest('base64url');
}

/** A link for one file: a ticket signed for the user, the file and an hour, so a plain browser download (and its resumption) needs no header. */
export async function createDownloadLink(
  deps: TDeps,
  user: { id: number; totalRechargeFen: number },
  file: string,
): Promise<{ url: string; expires_at: string }> {
  assertSoftwareRole(user);
  await assertDownloadable(deps, file);
  const expiresAtS = Math.floor(deps.clock.now().getTime() / 1000) + DOWNLOAD_LINK_TTL_S;
  const ticket = `${user.id}.${expiresAtS}.${signature(deps, user.id, file, expiresAtS)}`;
  return {
    url: `/api/tools/software/file/${encodeURIComponent(file)}?ticket=${encodeURIComponent(ticket)}`,
    expires_at: new Date(expiresAtS * 1000).toISOString(),
  };
}

/** Checks a download ticket for the file; DOWNLOAD_LINK_INVALID when forged, for another file or expired. */
export async function checkDownloadTicket(deps: TDeps, file: string, ticket: string): Promise<void> {
  const match = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
  if (!match) throw new AppError('DOWNLOAD_LINK_INVALID');
  const userId = Number(match[1]);
  const expiresAtS = Number(match[2]);
  const expected = Buffer.from(signature(deps, userId, file, expiresAtS));
  const given = Buffer.from(match[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new AppError('DOWNLOAD_LINK_INVALID');
  if (expiresAtS * 1000 <= deps.clock.now().getTime()) throw new AppError('DOWNLOAD_LINK_INVALID');
  await assertDownloadable(deps, file);
}
