import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam, zJsonNumber } from './validators';

/** Platforms a desktop build is made for. */
export const SOFTWARE_PLATFORMS = ['windows', 'macos', 'linux'] as const;
export type TSoftwarePlatform = (typeof SOFTWARE_PLATFORMS)[number];

/** A file name in DATA_DIR/downloads: one path segment, no leading dot. */
export const zDownloadFileName = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .max(200, { error: 'tooLong' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, { error: 'downloadFileName' });

/**
 * DATA_DIR/downloads/manifest.json, written by the operator (docs/operator-guide.md,
 * "Software downloads"): the releases newest first, each with its files.
 */
export const ZSoftwareManifest = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  releases: z
    .array(
      z.object({
        version: z.string().trim().min(1).max(40),
        /** Release date, YYYY-MM-DD. */
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        notes: z.object({ zh: z.string().max(4000), en: z.string().max(4000) }),
        files: z
          .array(
            z.object({
              platform: z.enum(SOFTWARE_PLATFORMS),
              /** Free text such as "x64", "arm64", "universal". */
              arch: z.string().trim().max(20).optional(),
              file: zDownloadFileName,
              /** Hex SHA-256 of the file; computed from the file when left out. */
              sha256: z
                .string()
                .regex(/^[0-9a-fA-F]{64}$/)
                .transform((v) => v.toLowerCase())
                .optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});
export type TSoftwareManifest = z.infer<typeof ZSoftwareManifest>;

/** One downloadable file as the console shows it. */
export const ZSoftwareFile = z.object({
  platform: z.enum(SOFTWARE_PLATFORMS),
  arch: z.string().nullable(),
  file: z.string(),
  /** Size in bytes; null when the file is missing. */
  size: z.number().int().nullable(),
  sha256: z.string().nullable(),
  is_available: z.boolean(),
  /** A release the operator published in the console: the file's own link, opened as it is; null for the manifest's files (they go through softwareLink). */
  url: z.string().nullable(),
});
export type TSoftwareFile = z.infer<typeof ZSoftwareFile>;

/**
 * The software page: "ok" with the releases (the operator's releases in the database, else the legacy manifest);
 * "not_published" when there are neither; "invalid_manifest" when the legacy manifest cannot be read.
 */
export const ZSoftwareList = z.object({
  status: z.enum(['ok', 'not_published', 'invalid_manifest']),
  name: z.string().nullable(),
  releases: z.array(
    z.object({
      version: z.string(),
      date: z.string(),
      notes: z.string(),
      files: z.array(ZSoftwareFile),
    }),
  ),
});
export type TSoftwareList = z.infer<typeof ZSoftwareList>;

/** Software download (spec section 6: role "user", a total top-up above 1 yuan). */
export const DOWNLOAD_ROUTES = {
  softwareList: defineRoute({
    method: 'GET',
    path: '/tools/software/list',
    auth: 'user',
    summary: 'Desktop software releases: versions, platforms, sizes, SHA-256, notes',
    tag: 'tools',
    output: ZSoftwareList,
  }),
  softwareLink: defineRoute({
    method: 'POST',
    path: '/tools/software/link',
    auth: 'user',
    summary: 'A download link for one file, valid for an hour',
    tag: 'tools',
    input: z.object({ file: zDownloadFileName }),
    output: z.object({ url: z.string(), expires_at: z.string() }),
  }),
  softwareFile: defineRoute({
    method: 'GET',
    path: '/tools/software/file/:file',
    auth: 'none',
    summary: 'The file of a download link (ranges supported)',
    tag: 'tools',
    input: z.object({
      file: zDownloadFileName,
      ticket: z.string({ error: 'required' }).max(200, { error: 'tooLong' }),
    }),
    isBlob: true,
  }),
} as const satisfies Record<string, TRouteDef>;

/** The largest file a release may list (bytes): the API reads it whole to check it. */
export const SOFTWARE_FILE_SIZE_MAX = 8 * 1024 ** 3;
/** Files one release may list. */
export const SOFTWARE_FILES_MAX = 12;

/** An http:// or https:// link without a user name, a password or a fragment. */
export function isSoftwareUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.hash;
}

/** One file of a release as the operator gives it: the checks the API makes against the file at the link. */
export const ZSoftwareFileInput = z.object({
  platform: z.enum(SOFTWARE_PLATFORMS, { error: 'softwarePlatform' }),
  /** Free text such as "x64", "arm64", "universal"; empty when not given. */
  arch: z
    .string()
    .trim()
    .max(20, { error: 'softwareArch' })
    .regex(/^[A-Za-z0-9._-]*$/, { error: 'softwareArch' })
    .default(''),
  url: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(2000, { error: 'tooLong' })
    .refine(isSoftwareUrl, { error: 'softwareUrl' }),
  /** Size in bytes, as the operator states it; the file at the link must have exactly this size. */
  size: zJsonNumber('softwareSize')
    .int({ error: 'softwareSize' })
    .min(1, { error: 'softwareSize' })
    .max(SOFTWARE_FILE_SIZE_MAX, { error: 'softwareSize' }),
  /** Hex SHA-256 (either case; kept lower-case). */
  sha256: z
    .string({ error: 'required' })
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, { error: 'softwareSha256' })
    .transform((v) => v.toLowerCase()),
});
export type TSoftwareFileInput = z.input<typeof ZSoftwareFileInput>;

const fileKey = (file: { platform: string; arch: string }) => `${file.platform}/${file.arch.toLowerCase()}`;

/** A release to publish: its version, date, notes in both languages and one or more files (one per platform and arch). */
export const ZSoftwareReleaseCreateBody = z.object({
  version: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(40, { error: 'tooLong' })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, { error: 'softwareVersion' }),
  /** Release date, YYYY-MM-DD. */
  released_on: z.iso.date({ error: 'dateInvalid' }),
  notes_zh: z.string().max(4000, { error: 'tooLong' }).default(''),
  notes_en: z.string().max(4000, { error: 'tooLong' }).default(''),
  files: z
    .array(ZSoftwareFileInput, { error: 'required' })
    .min(1, { error: 'softwareFilesRequired' })
    .max(SOFTWARE_FILES_MAX, { error: 'tooMany' })
    .superRefine((files, ctx) => {
      const seen = new Set<string>();
      files.forEach((file, index) => {
        if (seen.has(fileKey(file)))
          ctx.addIssue({ code: 'custom', message: 'softwareFileTwice', path: [index, 'arch'] });
        seen.add(fileKey(file));
      });
    }),
});
export type TSoftwareReleaseCreateBody = z.input<typeof ZSoftwareReleaseCreateBody>;

/** A file of a published release, as the operator sees it. */
export const ZSoftwareReleaseFile = z.object({
  id: z.number().int(),
  platform: z.enum(SOFTWARE_PLATFORMS),
  arch: z.string(),
  url: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  created_at: z.string(),
});
export type TSoftwareReleaseFile = z.infer<typeof ZSoftwareReleaseFile>;

/** A published release with its files, as the operator sees it. */
export const ZSoftwareRelease = z.object({
  id: z.number().int(),
  version: z.string(),
  released_on: z.string(),
  notes_zh: z.string(),
  notes_en: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  files: z.array(ZSoftwareReleaseFile),
});
export type TSoftwareRelease = z.infer<typeof ZSoftwareRelease>;

/**
 * The operator's software releases (docs/operator-guide.md, "Software downloads"): kept in the database, so every
 * API instance shows them. A file is added only after the API fetched its link and found the size and SHA-256 given.
 */
export const DOWNLOAD_ADMIN_ROUTES = {
  adminSoftwareReleaseList: defineRoute({
    method: 'GET',
    path: '/admin/downloads/releases',
    auth: 'admin',
    summary: 'The published software releases with their files, newest release date first',
    tag: 'admin',
    output: z.array(ZSoftwareRelease),
  }),
  adminSoftwareReleaseCreate: defineRoute({
    method: 'POST',
    path: '/admin/downloads/releases',
    auth: 'admin',
    summary: 'Publish a release: each file is fetched from its link and refused unless its size and SHA-256 match',
    tag: 'admin',
    input: ZSoftwareReleaseCreateBody,
    output: ZSoftwareRelease,
  }),
  adminSoftwareReleaseDelete: defineRoute({
    method: 'DELETE',
    path: '/admin/downloads/releases/:id',
    auth: 'admin',
    summary: 'Delete a release and its files (customers no longer see it)',
    tag: 'admin',
    input: zIdParam,
    output: z.object({ id: z.number().int() }),
  }),
  adminSoftwareFileAdd: defineRoute({
    method: 'POST',
    path: '/admin/downloads/releases/:id/files',
    auth: 'admin',
    summary: 'Add a file to a release: fetched from its link and refused unless its size and SHA-256 match',
    tag: 'admin',
    input: ZSoftwareFileInput.extend({ id: zId }),
    output: ZSoftwareRelease,
  }),
  adminSoftwareFileRemove: defineRoute({
    method: 'DELETE',
    path: '/admin/downloads/releases/:id/files/:file_id',
    auth: 'admin',
    summary: 'Remove a file from a release (its last file stays: delete the release instead)',
    tag: 'admin',
    input: z.object({ id: zId, file_id: zId }),
    output: ZSoftwareRelease,
  }),
} as const satisfies Record<string, TRouteDef>;
