import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

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
});
export type TSoftwareFile = z.infer<typeof ZSoftwareFile>;

/**
 * The software page: "ok" with the releases; "not_published" when there is no
 * manifest; "invalid_manifest" when the operator's file cannot be read.
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
