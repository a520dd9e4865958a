import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// CI runs every suite on Node 24 LTS (.ci/run installs it when the machine's Node is older); elsewhere the
// suites run on any Node the product supports (package.json's engines).
const major = Number(process.versions.node.split('.')[0]);
const engines = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')).engines.node;

describe('the Node.js runtime', () => {
  it(`is Node 24 or later under CI, and within package.json's engines (${engines}) everywhere`, () => {
    const [floorMajor, floorMinor] = /^>=(\d+)\.(\d+)/.exec(engines)!.slice(1).map(Number);
    const minor = Number(process.versions.node.split('.')[1]);
    expect(major > floorMajor || (major === floorMajor && minor >= floorMinor), process.version).toBe(true);
    if (process.env.CI === 'true') expect(major, `CI runs on ${process.version}`).toBeGreaterThanOrEqual(24);
  });
});
