import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TLang, TSiteNotice, TSiteTerms } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { findLatestNotice, insertNotice, type TSiteNoticeRow } from './site.repository';

/** The terms shipped with the product, used while the operator has placed none. */
const SHIPPED_TERMS_DIR = fileURLToPath(new URL('./terms', import.meta.url));

/** File name of the terms in one language: terms.zh.md, terms.en.md. */
export function termsFileName(lang: TLang): string {
  return `terms.${lang}.md`;
}

async function readIfPresent(file: string): Promise<{ text: string; mtime: Date } | null> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { text, mtime: info.mtime };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The terms of service in a language: the operator's DATA_DIR/terms/terms.<lang>.md
 * when it is there and not empty (read on every call, so a new text shows
 * without a rebuild or restart), else the shipped text.
 */
export async function readTerms(deps: TDeps, lang: TLang): Promise<TSiteTerms> {
  const custom = await readIfPresent(path.join(deps.config.termsDir, termsFileName(lang))).catch((error: unknown) => {
    deps.log.warn({ err: error }, 'terms: the operator file cannot be read; showing the shipped text');
    return null;
  });
  if (custom && custom.text.trim() !== '')
    return { lang, markdown: custom.text, source: 'custom', updated_at: custom.mtime.toISOString() };
  const shipped = await readFile(path.join(SHIPPED_TERMS_DIR, termsFileName(lang)), 'utf8');
  return { lang, markdown: shipped, source: 'default', updated_at: null };
}

/** A notice in the caller's language. */
export function toNotice(row: TSiteNoticeRow, lang: TLang): TSiteNotice {
  return {
    notice_id: row.id,
    title: lang === 'zh' ? row.titleZh : row.titleEn,
    content: lang === 'zh' ? row.contentZh : row.contentEn,
    published_at: row.publishedAt.toISOString(),
  };
}

/** A notice with both languages (operator view). */
export function toFullNotice(row: TSiteNoticeRow) {
  return {
    notice_id: row.id,
    title_zh: row.titleZh,
    title_en: row.titleEn,
    content_zh: row.contentZh,
    content_en: row.contentEn,
    published_at: row.publishedAt.toISOString(),
  };
}

/** The notice published last. */
export async function currentNotice(deps: TDeps): Promise<TSiteNoticeRow | null> {
  return findLatestNotice(deps.db);
}

/** Publishes a new notice by an operator. */
export async function publishNotice(
  deps: TDeps,
  operatorId: number,
  input: { title_zh: string; title_en: string; content_zh: string; content_en: string },
): Promise<TSiteNoticeRow> {
  // In a transaction: the operator call's audit entry is written in it (features/audit).
  return deps.db.transaction((tx) =>
    insertNotice(tx, {
      titleZh: input.title_zh,
      titleEn: input.title_en,
      contentZh: input.content_zh,
      contentEn: input.content_en,
      publishedBy: operatorId,
      publishedAt: deps.clock.now(),
    }),
  );
}
