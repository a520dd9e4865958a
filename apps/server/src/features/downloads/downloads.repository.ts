import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { softwareReleaseFiles, softwareReleases, type TDbOrTx } from '@proxy/db';

/** A release row. */
export type TReleaseRow = typeof softwareReleases.$inferSelect;
/** A release file row. */
export type TReleaseFileRow = typeof softwareReleaseFiles.$inferSelect;
/** A release with its files (in the order they were added). */
export type TReleaseWithFiles = TReleaseRow & { files: TReleaseFileRow[] };

/** Every release with its files, newest release date first (then the latest published first). */
export async function listReleases(db: TDbOrTx): Promise<TReleaseWithFiles[]> {
  const releases = await db
    .select()
    .from(softwareReleases)
    .orderBy(desc(softwareReleases.releasedOn), desc(softwareReleases.id));
  if (releases.length === 0) return [];
  const files = await db.select().from(softwareReleaseFiles).orderBy(asc(softwareReleaseFiles.id));
  return releases.map((release) => ({ ...release, files: files.filter((file) => file.releaseId === release.id) }));
}

/** Whether any release is published (the legacy manifest is read only when none is). */
export async function hasReleases(db: TDbOrTx): Promise<boolean> {
  const rows = await db.select({ id: softwareReleases.id }).from(softwareReleases).limit(1);
  return rows.length > 0;
}

/** One release with its files, or null. */
export async function findRelease(db: TDbOrTx, id: number, options: { lock?: boolean } = {}) {
  const query = db.select().from(softwareReleases).where(eq(softwareReleases.id, id));
  const [release] = options.lock ? await query.for('update') : await query;
  if (!release) return null;
  const files = await db
    .select()
    .from(softwareReleaseFiles)
    .where(eq(softwareReleaseFiles.releaseId, id))
    .orderBy(asc(softwareReleaseFiles.id));
  return { ...release, files };
}

/** The release of this version in any letter case, or null. */
export async function findReleaseByVersion(db: TDbOrTx, version: string): Promise<TReleaseRow | null> {
  const [row] = await db
    .select()
    .from(softwareReleases)
    .where(sql`lower(${softwareReleases.version}) = lower(${version})`);
  return row ?? null;
}

/** Inserts a release. */
export async function insertRelease(db: TDbOrTx, row: typeof softwareReleases.$inferInsert): Promise<TReleaseRow> {
  const [inserted] = await db.insert(softwareReleases).values(row).returning();
  return inserted;
}

/** Inserts files of a release. */
export async function insertReleaseFiles(db: TDbOrTx, rows: (typeof softwareReleaseFiles.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(softwareReleaseFiles).values(rows);
}

/** Deletes a release (its files go with it); false when there was none. */
export async function deleteRelease(db: TDbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .delete(softwareReleases)
    .where(eq(softwareReleases.id, id))
    .returning({ id: softwareReleases.id });
  return rows.length > 0;
}

/** Deletes one file of a release; false when the release has no such file. */
export async function deleteReleaseFile(db: TDbOrTx, releaseId: number, fileId: number): Promise<boolean> {
  const rows = await db
    .delete(softwareReleaseFiles)
    .where(and(eq(softwareReleaseFiles.releaseId, releaseId), eq(softwareReleaseFiles.id, fileId)))
    .returning({ id: softwareReleaseFiles.id });
  return rows.length > 0;
}
