import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README stays short and points into docs/, and the docs point at each other and at headings: a file moved or
// a heading renamed must not leave a dead link behind. Every relative link (and image) of README.md and
// docs/**/*.md must name a file or folder of the repository, and its #anchor, when the target is a markdown file,
// one of that file's headings as GitHub makes their ids.

const ROOT = path.resolve(import.meta.dirname, '..');

type TLink = { file: string; line: number; target: string };

function markdownFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFilesUnder(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The lines of a markdown file outside fenced code blocks: as written, and with inline code spans blanked. */
function proseLines(file: string): { line: number; raw: string; text: string }[] {
  const lines: { line: number; raw: string; text: string }[] = [];
  let fence: string | undefined;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const opening = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
      if (fence) {
        if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
        return;
      }
      if (opening) {
        fence = opening;
        return;
      }
      lines.push({ line: index + 1, raw, text: raw.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)) });
    });
  return lines;
}

/** Inline links and images, `[text](target)` and `![alt](target)`, with an optional title after the target. */
function linksOf(file: string): TLink[] {
  return proseLines(file).flatMap(({ line, text }) =>
    [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({ file, line, target: match[1] })),
  );
}

/**
 * The ids GitHub gives a markdown file's headings: the text as rendered (a link keeps its text, a code span its
 * content), lower-cased, punctuation dropped (`_` and `-` kept), each space a hyphen; a repeated id gets -1, -2...
 */
function headingIds(file: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const { raw } of proseLines(file)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(raw);
    if (!heading) continue;
    const base = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

/** Why a link does not resolve, or undefined when it does. */
function brokenReason(link: TLink): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // https:, mailto:: not a file of the repository
  const [rawPath, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = rawPath === '' ? link.file : path.resolve(path.dirname(link.file), decodeURIComponent(rawPath));
  if (path.relative(ROOT, target).startsWith('..')) return 'points outside the repository';
  if (!existsSync(target)) return 'no such file';
  if (anchor === undefined || !target.endsWith('.md') || statSync(target).isDirectory()) return undefined;
  return headingIds(target).has(decodeURIComponent(anchor)) ? undefined : `no heading with the id "${anchor}"`;
}

const FILES = [path.join(ROOT, 'README.md'), ...markdownFilesUnder(path.join(ROOT, 'docs'))];

describe('documentation links', () => {
  it('README.md and docs/ have links to check', () => {
    expect(FILES.length).toBeGreaterThan(1);
    expect(FILES.flatMap(linksOf).length).toBeGreaterThan(10);
  });

  it('every relative link of README.md and docs/**/*.md names an existing file, and its #anchor a heading', () => {
    const broken = FILES.flatMap(linksOf).flatMap((link) => {
      const reason = brokenReason(link);
      return reason ? [`${path.relative(ROOT, link.file)}:${link.line}: ${link.target} (${reason})`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('makes heading ids as GitHub does', () => {
    const ids = headingIds(path.join(ROOT, 'docs/benchmarks.md'));
    expect(ids).toContain('gateway-npm-run-benchgateway');
    expect(ids).toContain('current-figures');
    expect(ids).toContain('current-figures-1');
    expect(headingIds(path.join(ROOT, 'docs/operator-guide.md'))).toContain('console-content-in-data_dir');
  });
});
