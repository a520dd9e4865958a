import { eq } from 'drizzle-orm';
import { systemSettings, type TDbOrTx } from '@proxy/db';

// The installation's settings (system_settings: one row per key, a JSON value), read by the
// feature each setting rules and written by the operators' system settings (features/system).

/** The stored value of a setting, undefined when never set. */
export async function readSetting(db: TDbOrTx, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, key));
  return row?.value;
}

/** Stores a setting's value. */
export async function writeSetting(db: TDbOrTx, key: string, value: unknown, at: Date): Promise<void> {
  await db
    .insert(systemSettings)
    .values({ key, value, updatedAt: at })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value, updatedAt: at } });
}
