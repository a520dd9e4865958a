import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { SOFTWARE_PLATFORMS } from '@proxy/contract';
import { createdAt, id } from './columns';

/**
 * Desktop software releases the operator publishes (the operator's downloads screen): a version with its notes,
 * newest first by release date. Every API instance reads them here (a file in one instance's DATA_DIR would not
 * be seen by another).
 */
export const softwareReleases = pgTable(
  'software_releases',
  {
    id: id(),
    version: text('version').notNull(),
    /** The release date (YYYY-MM-DD). */
    releasedOn: date('released_on', { mode: 'string' }).notNull(),
    notesZh: text('notes_zh').notNull().default(''),
    notesEn: text('notes_en').notNull().default(''),
    /** The operator who published it (users.id). */
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('software_releases_version_key').on(sql`lower(${t.version})`)],
);

/**
 * One file of a release for one platform: a link where customers download it, with the size and SHA-256 the
 * operator gave, which the API checked against the file it fetched from the link when the operator added it.
 */
export const softwareReleaseFiles = pgTable(
  'software_release_files',
  {
    id: id(),
    releaseId: bigint('release_id', { mode: 'number' })
      .notNull()
      .references(() => softwareReleases.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: SOFTWARE_PLATFORMS }).notNull(),
    /** Free text such as "x64", "arm64", "universal"; '' when not given. */
    arch: text('arch').notNull().default(''),
    url: text('url').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** Lower-case hex SHA-256 of the file. */
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('software_release_files_release_idx').on(t.releaseId),
    check('software_release_files_size', sql`${t.sizeBytes} > 0`),
  ],
);
